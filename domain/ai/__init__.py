"""Computer players (docs/architecture.md "Computer players"; 000 "Computer Players", "Learning Features").

Pure, like the rest of the domain: a player sees one seat's information set
(knowledge.py), never another seat's cards, and takes its randomness from an rng object
passed in (rng.py). Levels 1 and 2 are simple, level 3 follows rules (policies.py), and
levels 4 to 6 deal the unseen cards at random, try each legal action, play each deal to
the end of the hand and choose the best average (montecarlo.py): thousands of deals at a
time in the compiled kernel (fastsim/), where it can, else one at a time on the reference
reducers (rollout.py). players.py is the entry point: a level's choice, a hint, a bid
analysis (bid_analysis.py).
"""
