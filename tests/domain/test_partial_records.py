"""Score sheets (domain/partial.py, domain/partial_audit.py): the cards each side took, audited.

A hand played through the domain is turned into the sheet a table would have kept (the cards
each side took, and, with or without the deal, the bid and the trump); the sheet's audit must
score it exactly as the full record's audit does, point by point, and every check must catch
the fault it is for, saying what it found.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audit import HandReplay, replay_record
from domain.errors import MalformedError
from domain.notation import format_notation, parse_notation
from domain.partial import parse_partial, partial_data
from domain.partial_audit import PLAY_NOT_CHECKED, audit_partial
from domain.presets import PRESETS, get_preset
from domain.records import parse_record, record_data, records_of_game
from domain.rules import Rules, rules_from_dict
from tests.strategies import VARIANT_SETS, play_game, rng_seeds

# The keys of a full record's audit (service/audits/records.py ``audit_record``), which a sheet's verdict keeps.
AUDIT_KEYS = {"complete", "replay", "score", "scores_before", "scores_after", "game_ended", "winner", "ended_reason"}


def _played(options: dict[str, Any], preset: str, seed: int) -> list[tuple[dict[str, Any], HandReplay, Rules]]:
    rules = rules_from_dict(options, get_preset(preset).rules)
    played = play_game(rules, f"sheet {seed}", seed, max_hands=2, pass_rate=0.5, preset=preset)
    found = []
    for record in records_of_game(list(played.events)):
        replayed = replay_record(record)
        hand = replayed.state.hand
        if replayed.score is not None and hand is not None and hand.tricks and not hand.extra.revokes:
            found.append((record_data(record), replayed, rules))
    return found


def _sheet(record: dict[str, Any], replayed: HandReplay, rules: Rules, with_deal: bool) -> dict[str, Any]:
    """Return the score sheet of a played hand: the cards each side took in place of the play."""
    hand, score = replayed.state.hand, replayed.score
    assert hand is not None and score is not None
    taken: list[list[str]] = [[] for _ in range(rules.sides)]
    for trick in hand.tricks:
        taken[rules.side_of(trick.winner)] += [card for _, card in trick.plays]
    first_play = next(i for i, a in enumerate(record["actions"]) if a["type"] in ("play", "blind", "claim"))
    sheet = {k: v for k, v in record.items() if k != "actions"}
    sheet.update(taken=taken, trump=hand.trump, tricks=list(score.tricks), last_trick=rules.side_of(hand.tricks[-1].winner))
    if with_deal:
        sheet["actions"] = record["actions"][:first_play]
    else:
        for part in ("cards", "stock", "kitty", "blind", "reshuffles"):
            sheet.pop(part, None)
        sheet.update(maker=score.maker, bid=score.bid)
        sheet["held"] = {p.card: p.seat for p in score.points if p.kind == "low" and p.receiver != "capturer"}
    return sheet


def _same_score(sheet: dict[str, Any], replayed: HandReplay) -> None:
    audit = audit_partial(sheet)
    assert audit.score is not None, [c for c in audit.checks if not c.ok]
    full = replayed.score
    assert full is not None
    points = sorted((p.kind, p.value, p.side) for p in audit.score.points)
    assert points == sorted((p.kind, p.value, p.side) for p in full.points)
    assert (audit.score.taken, audit.score.changes, audit.score.scores, audit.score.bid_made, audit.score.tricks) == (
        full.taken, full.changes, full.scores, full.bid_made, full.tricks)
    assert audit.score.adjustments == full.adjustments

    def counts(scored: Any) -> list[tuple[int, int, int, list[str]]]:
        return [(g.side, g.total, g.half_pips, sorted(g.cards)) for g in scored.game_points]

    assert counts(audit.score) == counts(full)
    assert all(c.ok for c in audit.checks) and audit.verdict()["checked"] == PLAY_NOT_CHECKED


@pytest.mark.parametrize("name", [p.name for p in PRESETS])
@settings(max_examples=2, deadline=None)
@given(seed=rng_seeds)
def test_a_sheet_of_a_played_hand_scores_as_the_hand_itself(name: str, seed: int) -> None:
    for record, replayed, rules in _played({}, name, seed):
        _same_score(_sheet(record, replayed, rules, with_deal=True), replayed)
        if not (replayed.state.hand and replayed.state.hand.extra.smudgers):
            _same_score(_sheet(record, replayed, rules, with_deal=False), replayed)


@pytest.mark.parametrize("options", VARIANT_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@settings(max_examples=2, deadline=None)
@given(seed=rng_seeds)
def test_a_sheet_scores_as_the_hand_under_every_variant(options: dict[str, Any], seed: int) -> None:
    for record, replayed, rules in _played(options, "team-auction", seed):
        smudge = replayed.state.hand is not None and replayed.state.hand.extra.smudgers and rules.side_size > 1
        if not smudge:
            _same_score(_sheet(record, replayed, rules, with_deal=True), replayed)


@settings(max_examples=20, deadline=None)
@given(seed=rng_seeds, with_deal=st.booleans())
def test_a_sheet_converts_to_the_notation_and_back(seed: int, with_deal: bool) -> None:
    for record, replayed, rules in _played({}, "team-auction-ii", seed):
        sheet = partial_data(parse_partial(_sheet(record, replayed, rules, with_deal)))
        text = format_notation(sheet)
        assert "[Taken]" in text and parse_notation(text) == sheet
        assert format_notation(parse_notation(text)) == text


@pytest.fixture(scope="module")
def hand() -> tuple[dict[str, Any], HandReplay, Rules]:
    for seed in range(100):
        found = [h for h in _played({}, "team-auction-ii", seed) if h[1].score and h[1].score.points]
        if found:
            return found[0]
    raise AssertionError("no scored hand")


def test_the_verdict_has_the_full_audits_shape_and_says_the_play_is_not_checked(hand: Any) -> None:
    verdict = audit_partial(_sheet(*hand, with_deal=True)).verdict()
    assert AUDIT_KEYS <= set(verdict)
    assert verdict["checked"] == "play not checked" and verdict["complete"] and verdict["failed"] is None
    assert [c["name"] for c in verdict["checks"]] == [
        "the auction, trump and discards", "each card once", "the cards in play", "whole tricks", "who held the cards",
        "the points in play", "the bid and the set",
    ]
    assert any("the play" in n for n in verdict["not_checked"])
    assert verdict["scores_after"] == list(hand[1].score.scores) and verdict["replay"]["cards"] == hand[0]["cards"]
    for point in verdict["score"]["points"]:  # the sheet knows the side that took a card, not the seat or the trick
        assert point["trick"] is None and (point["receiver"] != "capturer" or point["seat"] is None)


def _move(taken: list[list[str]], card: str, to: int) -> list[list[str]]:
    return [[c for c in cards if c != card] + ([card] if side == to else []) for side, cards in enumerate(taken)]


def test_each_check_finds_the_fault_it_is_for(hand: Any) -> None:
    sheet = _sheet(*hand, with_deal=True)
    taken = sheet["taken"]
    first = taken[0][0] if taken[0] else taken[1][0]
    held = {c for cards in hand[0]["cards"] for c in cards}
    unplayed = next(c for c in hand[0]["stock"] if c not in held)
    cases = [
        ({"taken": [taken[0] + [first], taken[1]]}, "each card once", f"{first} is taken by"),
        ({"taken": [taken[0] + ["RJ"], taken[1]]}, "each card once", "RJ is not in the deck"),
        ({"taken": [taken[0] + [unplayed], taken[1]]}, "the cards in play", f"{unplayed} is taken but was not in play"),
        ({"taken": [[c for c in taken[0] if c != first], taken[1]] if first in taken[0] else [taken[0], taken[1][1:]]},
         "the cards in play", f"{first} was in play but is taken by no side"),
        ({"taken": _move(taken, first, 1 if first in taken[0] else 0)}, "whole tricks", "not a whole number of tricks"),
        ({"trump": next(s for s in "SHDC" if s != sheet["trump"])}, "the auction, trump and discards", "the sheet's trump"),
    ]
    for change, check, words in cases:
        verdict = audit_partial({**sheet, **change}).verdict()
        assert verdict["score"] is None and verdict["failed"].startswith(check + ": ") and words in verdict["failed"], (
            change, verdict["failed"])


def test_a_point_to_its_holder_needs_the_holder_without_the_deal(hand: Any) -> None:
    # 000 "Preset Game Rules", Team auction II: low goes to the original owner of the low trump.
    sheet = _sheet(*hand, with_deal=False)
    low = next((p for p in hand[1].score.points if p.kind == "low"), None)
    assert low is not None and sheet["held"] == {low.card: low.seat}
    verdict = audit_partial({**sheet, "held": {}}).verdict()
    assert verdict["failed"].startswith("who held the cards: the point for ") and "give that seat in 'held'" in verdict["failed"]
    with_deal = _sheet(*hand, with_deal=True)
    dealt_to = next(s for s, cards in enumerate(hand[0]["cards"]) if low.card in cards)
    wrong = (dealt_to + 1) % 4
    verdict = audit_partial({**with_deal, "held": {low.card: wrong}}).verdict()
    assert verdict["failed"] == f"who held the cards: the sheet says seat {wrong} held {low.card}, but the deal gave it to seat {dealt_to}"


def test_an_illegal_auction_is_named_as_in_the_full_audit(hand: Any) -> None:
    sheet = _sheet(*hand, with_deal=True)
    bad = [{**sheet["actions"][0], "seat": (sheet["actions"][0]["seat"] + 1) % 4}, *sheet["actions"][1:]]
    verdict = audit_partial({**sheet, "actions": bad}).verdict()
    assert verdict["illegal_action"]["index"] == 0 and "turn" in verdict["illegal_action"]["reason"]
    assert verdict["score"] is None


def test_a_sheet_that_holds_the_play_or_lacks_the_contract_is_malformed(hand: Any) -> None:
    record = hand[0]
    with pytest.raises(MalformedError, match="in place of the play, but action .* is a play"):
        parse_partial({**record, "taken": [[], []]})
    sheet = _sheet(*hand, with_deal=False)
    with pytest.raises(MalformedError, match="the sheet gives the contract: 'maker' and 'bid'"):
        parse_partial({k: v for k, v in sheet.items() if k != "bid"})
    with pytest.raises(MalformedError, match="is a score sheet"):
        parse_record({**record, "taken": [[], []]})


def test_the_last_trick_and_trump_only_tricks_are_asked_for_where_the_rules_count_them() -> None:
    # 000 "Scoring" (Last trick): a point to the side that wins the last trick.
    found = _played({"last_trick_point": True}, "team-auction", 7)
    record, replayed, rules = found[0]
    sheet = _sheet(record, replayed, rules, with_deal=True)
    verdict = audit_partial({k: v for k, v in sheet.items() if k != "last_trick"}).verdict()
    assert verdict["failed"] == "the tricks: these rules score the last trick: give the side that took it, 'last_trick'"
    assert audit_partial(sheet).score is not None
    # 004 "The Auction": a contract counts tricks; under trump only (000 "Play with trump only") cards do not count them.
    counted = _played({"trump_only": True, "contract": "tricks", "max_bid": 6}, "pidro", 3)
    record, replayed, rules = counted[0]
    sheet = _sheet(record, replayed, rules, with_deal=True)
    verdict = audit_partial({k: v for k, v in sheet.items() if k != "tricks"}).verdict()
    assert verdict["failed"] == "the tricks: these rules count tricks, and under trump only the cards do not: give 'tricks'"
