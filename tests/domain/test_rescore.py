"""The same hand under other rules (domain/rescore.py): point by point, with the rule text behind each difference.

Each expectation is worked out from the hand itself (who was dealt the low trump, who took
it, what the makers bid), not read from the function's answer.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from domain.audit import replay_record
from domain.records import parse_record, record_data, records_of_game
from domain.rescore import rescore
from domain.rules import OPTIONS
from lab.simulate import random_game

SOURCES = {spec.name: spec.source for spec in OPTIONS}


def _hands(preset: str = "team-auction") -> Iterator[dict[str, Any]]:
    for seed in range(60):
        for record in records_of_game(random_game(f"rescore {seed}", preset, max_hands=6)):
            yield record_data(record)


def _differing(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["kind"]: p for p in answer["points"] + answer["adjustments"] if p["differs"]}


def test_low_to_the_original_owner_moves_the_low_point_and_names_its_rule() -> None:
    # 000 "Preset Game Rules": "Team auction II. Like team auction except that low point is awarded to the original
    # owner of the low trump card."; in team auction it goes to its capturer (000 "Scoring").
    for record in _hands():
        score = replay_record(parse_record(record)).score
        low = next((p for p in score.points if p.kind == "low"), None) if score else None
        if low is None:
            continue
        owner = next(s for s, cards in enumerate(record["cards"]) if low.card in cards) % 2
        if owner != low.side:
            break
    else:
        raise AssertionError("no hand where the low trump was captured by the other side")
    answer = rescore(record, "team-auction-ii", {})
    point = _differing(answer)["low"]
    assert (point["own"]["side"], point["other"]["side"]) == (low.side, owner)
    assert point["rules"][0] == {"option": "low_point", "own": "capturer", "other": "original-owner",
                                 "source": SOURCES["low_point"]}
    assert "Team auction II: to the original owner" in point["rules"][0]["source"]
    assert answer["options"] == [point["rules"][0]]  # the only option in which the two presets differ


def test_a_doubled_set_and_no_junk_points_change_the_adjustments_by_their_rules() -> None:
    # 000 "Scoring": "On failure to make the bid. The default is minus the bid points. You may choose to double
    # this penalty"; "Junk points. The defending team also scores points taken" (off: only the makers score).
    record = next(r for r in _hands() if (s := replay_record(parse_record(r)).score) and not s.bid_made and s.bid)
    score = replay_record(parse_record(record)).score
    assert score is not None
    makers, defenders = score.makers, 1 - score.makers
    answer = rescore(record, "team-auction", {"set_penalty": "double-bid", "junk_points": False})
    assert answer["changes"] == {"own": list(score.changes), "other": [
        -2 * score.bid if side == makers else 0 for side in range(2)]}
    differing = _differing(answer)
    assert [o["option"] for o in differing["set"]["rules"]] == ["set_penalty"]
    if score.taken[defenders]:
        assert [o["option"] for o in differing["no-junk"]["rules"]] == ["junk_points"]
    assert {o["option"] for o in answer["options"]} == {"set_penalty", "junk_points"}
    assert all(o["source"] == SOURCES[o["option"]] for o in answer["options"])


def test_rules_that_refuse_the_deal_or_an_action_say_which_and_why() -> None:
    record = next(_hands())
    # 000 "Preset Game Rules", Smear (4 point): "a 32-card deck consisting of ranks 7 to A".
    answer = rescore(record, "smear-4", {})
    assert answer["summary"].startswith("the other rules refuse the hand: ") and answer["other"]["score"] is None
    card = answer["summary"].split("the other rules refuse the hand: ")[1][:2]
    assert card[0] in "23456" and f"{card} is dealt to" in answer["summary"]
    assert "not in the deck these rules play with" in answer["summary"]
    # 000 "Playing" (Following suit): "One must follow with the suit led" refuses trumping in while holding the suit led.
    for record in _hands():
        index = _trumped_in(record)
        if index is not None:
            break
    else:
        raise AssertionError("no hand where a seat trumped in while holding the suit led")
    answer = rescore(record, "team-auction", {"following": "must-follow"})
    assert answer["other"]["illegal"]["index"] == index and answer["other"]["score"] is None
    assert answer["summary"].startswith(f"the other rules refuse the play: action {index} ")


def _trumped_in(record: dict[str, Any]) -> int | None:
    """Return the index of the first play that trumps a plain suit led while holding that suit, None if none."""
    trump = next((a["suit"] for a in record["actions"] if a["type"] == "declare"), None)
    held = [list(c) for c in record["cards"]]
    trick: list[str] = []
    for index, action in enumerate(record["actions"]):
        if action["type"] != "play":
            continue
        card, seat = action["card"], action["seat"]
        if trick and trick[0][1] != trump and card[1] == trump and any(c[1] == trick[0][1] for c in held[seat]):
            return index
        held[seat].remove(card)
        trick = [] if len(trick) == 3 else trick + [card]
    return None


def test_the_same_rules_give_the_same_score_and_a_score_sheet_is_rescored_too() -> None:
    record = next(_hands())
    same = rescore(record, record["rules"]["preset"], record["rules"]["options"])
    assert same["options"] == [] and not any(p["differs"] for p in same["points"] + same["adjustments"])
    assert same["summary"].endswith("every point is the same")
    hand = replay_record(parse_record(record)).state.hand
    assert hand is not None
    taken: list[list[str]] = [[], []]
    for trick in hand.tricks:
        taken[trick.winner % 2] += [card for _, card in trick.plays]
    first_play = next(i for i, a in enumerate(record["actions"]) if a["type"] == "play")
    sheet = {**record, "actions": record["actions"][:first_play], "taken": taken}
    answer = rescore(sheet, "team-auction", {"set_penalty": "double-bid"})
    assert answer["own"]["score"]["changes"] == same["own"]["score"]["changes"]


@pytest.mark.parametrize("preset", ["team-auction-5", "team-auction-6"])
def test_a_hand_scored_under_a_preset_with_more_points_lists_each_point_of_either(preset: str) -> None:
    # 000 "Preset Game Rules": Team auction (5 point) adds the off-jack, (6 point) a joker too, which this
    # hand's 52-card deal lacks (the 6 point deck has 53): its rules refuse the deal.
    record = next(_hands())
    answer = rescore(record, preset, {})
    if preset == "team-auction-6":
        assert "the deal is missing RJ" in answer["summary"]
        return
    kinds = {p["kind"] for p in answer["points"]}
    own = {p.kind for p in replay_record(parse_record(record)).score.points}  # type: ignore[union-attr]
    assert own <= kinds and "off_jack" in {o["option"] for o in answer["options"]}
