"""Hand proofs (domain/proofs.py) checked offline (domain/proof_check.py).

Games are played through the domain and their events stamped as the store stamps them
(service/store/encoding.py: canonical JSON, each row hashed onto the one before), then read
as the event feed serves them. Every hand's proof verifies; each kind of alteration, made as
a forger would (changing the document, or changing the log and hashing it all again), is
caught by the check it is for, which the report names first.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.chain import chain_hash
from domain.codec import encode
from domain.errors import MalformedError
from domain.events import BidMade, DealKeyRevealed, Event, HandDealt, HandScored, TrickTaken
from domain.table_events import ClockRanOut, SeatHandedOver, TableOpened
from domain.notation import format_notation
from domain.proof_check import verify_proof
from domain.proofs import PROOF_FORMAT, build_proof
from domain.presets import get_preset
from domain.rules import rules_from_dict
from lab.simulate import random_game
from service.hashing import GENESIS_HASH
from service.ports.events import NewEvent
from service.store.encoding import chained_batch
from service.store.encoding import encode as store_encode
from tests.strategies import VARIANT_SETS, play_game, rng_seeds

GAME = "7d4f0a52-6a3e-4c8e-9d55-0b8f3b9e2a11"
CHECKS = ["document", "start", "chain", "hand", "key", "seed", "deal", "record", "notation", "actions", "score"]


def served(events: Sequence[Event], game_id: str = GAME) -> list[dict[str, Any]]:
    """Return a game's events stored as the store stores them and read as the event feed serves them."""
    encoded = store_encode([NewEvent(*encode(event)) for event in events])
    batch = chained_batch(game_id, 0, GENESIS_HASH, encoded, "2026-11-26T10:00:00.000000Z", None)
    rows = batch.stored(range(1, len(encoded) + 1))
    return json.loads(json.dumps([
        {"version": r.version, "type": r.type, "data": r.data, "recorded_at": r.recorded_at, "hash": r.hash} for r in rows
    ]))


@pytest.fixture(scope="module")
def game() -> list[Event]:
    return random_game("a proof of every hand")


def _hands(events: Sequence[Event]) -> list[int]:
    return sorted({e.hand for e in events if isinstance(e, HandScored)})


def _failure(document: dict[str, Any]) -> str:
    report = verify_proof(json.loads(json.dumps(document)))
    assert not report.valid and report.failure is not None
    assert [c.ok for c in report.checks] == [True] * (len(report.checks) - 1) + [False]
    return report.failure


def test_every_hand_of_a_finished_game_has_a_proof_that_verifies(game: list[Event]) -> None:
    rows = served(game)
    hands = _hands(game)
    assert len(hands) >= 3
    for hand in hands:
        proof = json.loads(json.dumps(build_proof(GAME, rows, hand)))
        report = verify_proof(proof)
        assert report.valid, report.failure
        assert [c.name for c in report.checks] == CHECKS and all(c.ok for c in report.checks)
        assert proof["format"] == PROOF_FORMAT and proof["seed"] is not None  # the game is over: its seed is out
        assert proof["notation"] == format_notation(proof["record"])
        assert proof["score_hash"] == next(r["hash"] for r in rows if r["type"] == "HandScored" and r["data"]["hand"] == hand)
        before = next(r for r in rows if r["version"] == proof["events"][0]["version"] - 1)
        assert proof["previous_hash"] == before["hash"]
    assert proof["events"][-1]["type"] == "GameEnded"  # the last hand ended the game


def test_a_hand_of_a_game_still_played_verifies_without_the_seed_and_a_hand_not_over_has_no_proof() -> None:
    played = play_game(rules_from_dict({}), "still played", 11, max_hands=2)
    rows = served(played.events)
    report = verify_proof(build_proof(GAME, rows, 1))
    assert report.valid and report.checks[5].detail.startswith("not revealed yet")
    assert report.checks[4].detail.endswith("a client chose the seed, so the deal is reproducible, not proven fair")
    with pytest.raises(MalformedError, match="hand 3 has not been scored yet|the game has no hand 3"):
        build_proof(GAME, rows, 3)
    with pytest.raises(MalformedError, match="the game has no hand 9"):
        build_proof(GAME, rows, 9)


@settings(max_examples=12, deadline=None)
@given(seed=rng_seeds, data=st.data())
def test_proofs_of_every_variant_and_preset_verify(seed: int, data: st.DataObject) -> None:
    options, preset = data.draw(st.sampled_from(
        [(o, "team-auction") for o in VARIANT_SETS] + [({}, name) for name in ("fish-pitch", "trickster-10", "king-pedro")]
    ))
    played = play_game(rules_from_dict(options, get_preset(preset).rules), "variant proof", seed, max_hands=2,
                       pass_rate=0.5, preset=preset)
    rows = served(played.events)
    for hand in _hands(played.events):
        report = verify_proof(json.loads(json.dumps(build_proof(GAME, rows, hand))))
        assert report.valid, report.failure


def test_a_hand_played_at_a_table_keeps_the_tables_events_in_its_chain(game: list[Event]) -> None:
    # docs/tables.md: a turn clock's timeout and a seat handed to a computer sit in the game's log, mid-hand.
    start = next(i for i, e in enumerate(game) if isinstance(e, HandDealt) and e.hand == 2)
    table: list[Event] = [TableOpened(), ClockRanOut(seat=1, timeouts=1), SeatHandedOver(seat=1)]
    events = [game[0], table[0], *game[1:start + 3], *table[1:], *game[start + 3:]]
    proof = json.loads(json.dumps(build_proof(GAME, served(events), 2)))
    assert {"ClockRanOut", "SeatHandedOver"} <= {row["type"] for row in proof["events"]}
    assert verify_proof(proof).valid


def _proof(game: list[Event], hand: int = 2) -> dict[str, Any]:
    return json.loads(json.dumps(build_proof(GAME, served(game), hand)))


def _forged(game: list[Event], change: Any, hand: int = 2) -> dict[str, Any]:
    """Return the proof a forger makes: one event of the hand changed, the whole log hashed again, the proof rebuilt."""
    start = next(i for i, e in enumerate(game) if isinstance(e, HandDealt) and e.hand == hand)
    index, event = change(start)
    return _proof([*game[:index], event, *game[index + 1:]], hand)


def _first(game: list[Event], kind: type, start: int) -> int:
    return next(i for i in range(start, len(game)) if isinstance(game[i], kind))


def test_a_changed_hash_event_or_link_breaks_the_chain(game: list[Event]) -> None:
    proof = _proof(game)
    first = proof["events"][0]["version"]
    changed = json.loads(json.dumps(proof))
    changed["events"][3]["hash"] = "0" * 64
    assert _failure(changed).startswith(f"chain: the hash of version {first + 3} does not verify")
    changed = json.loads(json.dumps(proof))
    changed["events"][0]["data"]["cards"][0][0], changed["events"][0]["data"]["cards"][1][0] = (
        changed["events"][0]["data"]["cards"][1][0], changed["events"][0]["data"]["cards"][0][0])
    assert _failure(changed).startswith(f"chain: the hash of version {first} does not verify")
    assert _failure({**proof, "previous_hash": "1" * 64}).startswith(f"chain: the hash of version {first} does not verify")
    start = {**proof["start"], "data": {**proof["start"]["data"], "first_dealer": 3 - proof["start"]["data"]["first_dealer"]}}
    assert _failure({**proof, "start": start}) == "start: GameStarted's hash does not verify from the chain's start"


def test_a_chain_of_keys_longer_than_the_algorithm_s_is_refused_before_any_key_is_hashed(game: list[Event]) -> None:
    # A forger may hash a GameStarted of its own; with a chain of a billion keys, the key and seed
    # checks would hash a billion times. domain/fairness.py's algorithm chains 1,024 keys.
    proof = _proof(game)
    data = {**proof["start"]["data"], "chain_length": 10**9}
    start = {**proof["start"], "data": data}
    start["hash"] = chain_hash(GENESIS_HASH, {**start, "game_id": GAME})
    assert _failure({**proof, "start": start}) == (
        "start: the chain of deal keys is 1000000000 long, where the algorithm's holds at most 1024")


def test_a_deal_that_is_not_the_keys_is_caught_even_rehashed(game: list[Event]) -> None:
    def reorder(start: int) -> tuple[int, Event]:
        dealt = game[start]
        assert isinstance(dealt, HandDealt)
        return start, dataclasses.replace(dealt, cards=(tuple(reversed(dealt.cards[0])), *dealt.cards[1:]))

    assert _failure(_forged(game, reorder)) == "deal: seat 0's cards are not the ones the key deals"


def test_an_illegal_action_is_caught_with_its_reason(game: list[Event]) -> None:
    def underbid(start: int) -> tuple[int, Event]:
        index = _first(game, BidMade, start)
        bid = game[index]
        assert isinstance(bid, BidMade)
        return index, dataclasses.replace(bid, amount=1)

    failure = _failure(_forged(game, underbid))
    assert failure.startswith("actions: action ") and "is illegal" in failure and "'amount': 1" in failure


def test_a_changed_trick_or_score_is_caught_against_the_rules(game: list[Event]) -> None:
    def winner(start: int) -> tuple[int, Event]:
        index = _first(game, TrickTaken, start)
        trick = game[index]
        assert isinstance(trick, TrickTaken)
        return index, dataclasses.replace(trick, winner=(trick.winner + 1) % 4)

    failure = _failure(_forged(game, winner))
    assert failure.startswith("actions: event ") and "TrickTaken" in failure and "where the rules give TrickTaken" in failure

    def points(start: int) -> tuple[int, Event]:
        index = _first(game, HandScored, start)
        scored = game[index]
        assert isinstance(scored, HandScored) and scored.points
        point = scored.points[0]
        return index, dataclasses.replace(scored, points=(dataclasses.replace(point, side=1 - point.side), *scored.points[1:]))

    assert _failure(_forged(game, points)).startswith("score: the score differs from the rules' at points[0].side")


def test_a_changed_key_or_seed_does_not_open_the_commitment(game: list[Event]) -> None:
    proof = _proof(game)
    assert _failure({**proof, "key": "ab" * 32}) == "key: the proof's key is not the one DealKeyRevealed revealed"
    seed = proof["seed"]
    other = ("0" if seed[0] != "0" else "1") + seed[1:]
    assert _failure({**proof, "seed": other}).startswith("seed: the seed does not open the commitment")

    def key(start: int) -> tuple[int, Event]:
        index = _first(game, DealKeyRevealed, start)
        revealed = game[index]
        assert isinstance(revealed, DealKeyRevealed)
        return index, dataclasses.replace(revealed, key="cd" * 32)

    assert _failure(_forged(game, key)).startswith("key: the key does not hash back to the chain anchor")


def test_a_record_notation_or_score_that_disagrees_with_the_events_is_caught(game: list[Event]) -> None:
    proof = _proof(game)
    record = json.loads(json.dumps(proof["record"]))
    record["cards"][0][0], record["cards"][1][0] = record["cards"][1][0], record["cards"][0][0]
    assert _failure({**proof, "record": record, "notation": format_notation(record)}).startswith(
        "record: the record differs from the events at cards[0][0]")
    before = [s + 1 for s in proof["record"]["scores_before"]]
    record = {**proof["record"], "scores_before": before}
    assert _failure({**proof, "record": record, "notation": format_notation(record)}).startswith(
        f"record: the scores before the hand are {proof['record']['scores_before']}")
    dealer = "NESW"[proof["record"]["dealer"]]
    text = proof["notation"].replace(f'[Dealer "{dealer}"]', f'[Dealer "{"NESW"[(proof["record"]["dealer"] + 1) % 4]}"]')
    assert text != proof["notation"]
    assert _failure({**proof, "notation": text}).startswith("notation: the notation differs from the record at dealer")
    assert _failure({**proof, "score_hash": "2" * 64}) == "score: the proof's score hash is not the HandScored event's hash"
    assert _failure({**proof, "score": {**proof["score"], "bid": 9}}) == "score: the proof's score is not the HandScored event's"
    assert _failure({**proof, "format": "pitch-proof/v0"}) == "document: the document is not a pitch-proof/v1 proof"
