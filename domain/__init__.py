"""Pure game logic for Pitch: cards, rules, events, state, decide/evolve, scoring and views.

Nothing here performs I/O, reads a clock or the environment, or draws randomness of its
own; deck orders arrive through a deal context. See docs/architecture.md "The domain: a decider".
"""
