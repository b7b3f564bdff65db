"""Tests of the pure game logic in ``domain``: rules from fixed deals, options, properties."""
