"""Properties of scoring under random option combinations (hypothesis).

Random legal games (tests/strategies.py) under random scoring, game-over, deck and table
options must reach their end; in every hand each point kind is awarded at most once and
only for a card that was played; score changes follow the made-or-set rule of the
options, with every change beyond the points taken explained by an adjustment; and
replaying the play reproduces every recorded HandScored and the game's end.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.errors import RulesError
from domain.events import GameEnded, HandDealt, HandScored
from domain.evolve import replay
from domain.game_over import outcome, progress
from domain.points import POINT_ORDER, where_played
from domain.rules import Rules, rules_from_dict
from domain.scoring import score_hand
from tests.strategies import play_game, rng_seeds, seed_texts

CHOICES: dict[str, list[Any]] = {
    "low_point": ["capturer", "original-owner", "player"],
    "game_point": ["game", "ten-of-trump", "none"],
    "game_tie": ["none", "makers"],
    "joker_pips": [False, True],
    "joker_point": [0, 1],
    "off_card_points": [True, False],
    "three_point": [0, 3, 15],
    "five_point": [0, 1, 5],
    "nine_point": [0, 9],
    "queen_point": [0, 20],
    "king_point": [0, 25, 30],
    "last_trick_point": [False, True],
    "old_nate": [False, True],
    "spade_point": [False, True],
    "junk_points": [True, False],
    "maker_bid_only": [False, True],
    "bid_bonus": [False, False, True],
    "set_penalty": ["bid", "double-bid"],
    "all_tricks_penalty": [False, True],
    "contract": ["points", "tricks"],
    "moon": ["none", "extra-point", "instant-win", "game-points"],
    "moon_failure": ["minus-bid", "minus-bid", "loses-game"],
    "moon_tricks": [False, True],
    "moon_negative": ["add-bid", "set-to-bid", "wins"],
    "smudge_anyone": [False, False, False, True],
    "max_bid": [4, 5],
    "target_score": [3, 5, 7, 11, 11],
    "game_over": ["score", "score", "hands"],
    "hand_limit": [1, 3, 6],
    "count_down": [False, True],
    "win_rule": ["highest", "must-bid", "must-bid-or-set", "must-bid-no-junk", "must-bid-or-set-held-short"],
    "both_over": ["highest", "makers", "makers-on-tie", "in-order"],
    "win_by_two": [False, True],
    "set_limit": [0, 2, 3],
    "jokers": [0, 1, 2],
    "off_jack": [False, True],
    "off_ace": [False, True],
    "off_three": [False, True],
    "off_five": [False, True],
    "off_nine": [False, True],
}
TABLES = [(4, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 2), (6, 3), (7, 1)]
MAX_HANDS = 25


@st.composite
def scoring_rules(draw: st.DrawFn) -> Rules:
    """Draw a valid combination of scoring, game-over, deck and table options."""
    options = {name: draw(st.sampled_from(values)) for name, values in CHOICES.items()}
    players, side_size = draw(st.sampled_from(TABLES))
    options.update(players=players, side_size=side_size)
    if options["game_over"] == "hands":
        options.update(win_rule="highest", win_by_two=False, both_over="highest")
    else:
        # Keep random games short: a side that may only win by bidding still gets there.
        options["win_by_two"] = options["win_by_two"] and options["target_score"] <= 5
    try:
        return rules_from_dict(options)
    except RulesError:
        assume(False)
        raise


PROPERTIES = settings(
    max_examples=50, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

ALLOWED = {
    "set": lambda r: True, "no-junk": lambda r: not r.junk_points, "bid-only": lambda r: r.maker_bid_only,
    "bid-bonus": lambda r: r.bid_bonus,
    "all-tricks": lambda r: r.all_tricks_penalty, "moon": lambda r: r.moon in ("instant-win", "game-points"),
    "junk-limit": lambda r: r.win_rule == "must-bid-no-junk",
    "held-short": lambda r: r.win_rule == "must-bid-or-set-held-short",
}


@PROPERTIES
@given(scoring_rules(), seed_texts, rng_seeds)
def test_random_games_under_random_scoring_options_score_soundly_and_end(rules: Rules, text: str, rng: int) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" and "Game over"; 003 "Scoring variations": the point rules hold in every hand.

    Each point kind at most once and only for a played card; changes are the points
    plus explained adjustments; a set costs the bid, twice the bid or the moon's worth;
    the recorded score and end are what the rules compute from the play; games that any
    side may win on reaching the target, or that last a number of hands, end.
    """
    game = play_game(rules, text, rng, max_hands=MAX_HANDS)
    if rules.game_over == "hands" or (rules.win_rule == "highest" and not rules.win_by_two):
        # Games any side may win by reaching the target end quickly at random; the
        # bid-to-win games may run long at random play, and are checked hand by hand.
        assert game.final.ended is not None, f"no end after {MAX_HANDS} hands"
    assert replay(game.events) == game.final
    history: list[HandScored] = []
    for k, event in enumerate(game.events):
        if not isinstance(event, HandScored):
            continue
        before = game.states[k]
        hand = before.hand
        assert hand is not None
        assert score_hand(rules, hand, before.scores) == event
        played = where_played(hand)
        kinds = [p.kind for p in event.points]
        assert len(kinds) == len(set(kinds)) and set(kinds) <= set(POINT_ORDER)
        for award in event.points:
            assert award.card is None or award.card in played
            assert award.value > 0
        # Changes: points taken plus adjustments, each adjustment allowed by the options.
        change = list(event.taken)
        for adjustment in event.adjustments:
            assert ALLOWED[adjustment.kind](rules), adjustment
            change[adjustment.side] += adjustment.value
        assert tuple(change) == tuple(
            a - b for a, b in zip(progress(rules, event.scores), progress(rules, before.scores))
        )
        if not event.bid_made:
            penalty = rules.target_score if event.moon and rules.moon == "game-points" else (
                2 * event.bid if rules.set_penalty == "double-bid" else event.bid
            )
            assert change[event.makers] in (-penalty, -penalty - 1)  # -1 more when the others took every trick
        elif not rules.junk_points:
            assert all(c <= 0 for s, c in enumerate(change) if s != event.makers)
        # What follows the score: the end the rules compute, else the next deal.
        ended = outcome(rules, history, before.scores, event)
        follow = next(e for e in game.events[k:] if isinstance(e, (HandDealt, GameEnded)))
        if ended is None:
            assert isinstance(follow, HandDealt) or follow.reason == "deal-limit"
        else:
            assert isinstance(follow, GameEnded) and (follow.winner, follow.reason) == ended
        history.append(event)
    assert game.final.history == tuple(history)
