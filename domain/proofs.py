"""Hand proofs: one finished hand with everything needed to check it offline (docs/notation.md, "Proofs").

A proof (``pitch-proof/v1``) is one JSON document built from a game's stored events (as the
store and the event feed give them: version, type, data, recorded_at, hash) and a hand
number. It holds the game's first event, GameStarted, with its hash: the commitment to the
seed and the chain anchor of the deal keys, published before any card was dealt; the hash of
the event just before the hand, where the hand's events join the game's chain; the hand's
events, from its HandDealt to its DealKeyRevealed (and the GameEnded if the hand ended the
game), each with its hash; the revealed deal key and, once the game is over, the seed; and
the hand three ways over: the ``pitch-hand/v1`` record, the record in the notation, and the
score. domain/proof_check.py checks it with no server.

The hand is the deal that was scored: a hand passed out or misdealt is dealt again under a
new deal number, and its earlier deals are not the hand's.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from domain.codec import decode
from domain.errors import MalformedError
from domain.events import DealKeyRevealed, Event, GameStarted, HandScored
from domain.notation import format_notation
from domain.records import deal_spans, record_data, records_of_game
from domain.table_events import TABLE_EVENT_TYPES

PROOF_FORMAT = "pitch-proof/v1"
CHAIN_RULE = (
    "hash = SHA-256(previous hash + canonical JSON of {data, game_id, recorded_at, schema_version, type, version}); "
    "the first event's previous hash is 64 zeros; canonical JSON has sorted keys, no spaces, raw UTF-8"
)
_TABLE = tuple(cls.__name__ for cls in TABLE_EVENT_TYPES)


def stored_row(event: Mapping[str, Any]) -> dict[str, Any]:
    """Return a stored event as a proof holds it: version, type, schema version, data, recorded_at and hash."""
    missing = [k for k in ("version", "type", "data", "recorded_at", "hash") if k not in event]
    if missing:
        raise MalformedError(f"a stored event needs '{missing[0]}': the event feed gives version, type, data, "
                             "recorded_at and hash")
    return {
        "version": event["version"], "type": event["type"], "schema_version": event.get("schema_version", 1),
        "data": event["data"], "recorded_at": event["recorded_at"], "hash": event["hash"],
    }


def game_events(stored: Sequence[Mapping[str, Any]]) -> list[Event]:
    """Return the game's own events (not its table's) decoded from their stored rows, in order."""
    return [decode(e["type"], e["data"]) for e in stored if e["type"] not in _TABLE]


def build_proof(game_id: str, events: Sequence[Mapping[str, Any]], hand: int) -> dict[str, Any]:
    """Return the proof of hand ``hand`` of a game from its stored events; raise MalformedError if it cannot be proven yet."""
    rows = [stored_row(e) for e in events]
    if not rows or rows[0]["type"] != "GameStarted":
        raise MalformedError("a game's events begin with GameStarted")
    own = [row for row in rows if row["type"] not in _TABLE]
    decoded = [decode(row["type"], row["data"]) for row in own]
    spans = [s for s in deal_spans(decoded) if s.dealt.hand == hand]
    if not spans:
        raise MalformedError(f"the game has no hand {hand}")
    span = spans[-1]
    segment = decoded[span.start:span.end]
    if not any(isinstance(e, HandScored) for e in segment):
        raise MalformedError(f"hand {hand} has not been scored yet")
    key = next((e.key for e in segment if isinstance(e, DealKeyRevealed) and e.deal == span.dealt.deal), None)
    if key is None:
        raise MalformedError(f"hand {hand} is not over: its deal key has not been revealed")
    first, last = own[span.start]["version"], own[span.end - 1]["version"]
    hand_rows = [row for row in rows if first <= row["version"] <= last]
    if any(row["hash"] is None for row in [rows[0], *hand_rows]) or first < 2:
        raise MalformedError(f"hand {hand}'s events are not all hashed yet")
    before = next(row for row in rows if row["version"] == first - 1)
    record = next(r for r in records_of_game(decoded) if r.deal == span.dealt.deal)
    data = record_data(record)
    seed = next((row["data"].get("seed") for row in rows if row["type"] in ("GameEnded", "GameAbandoned")), None)
    start = decoded[0]
    assert isinstance(start, GameStarted)
    scored = next(row for row in hand_rows if row["type"] == "HandScored")
    return {
        "format": PROOF_FORMAT,
        "game_id": game_id,
        "hand": hand,
        "deal": span.dealt.deal,
        "algorithms": {"deal": start.deal_algorithm, "chain": CHAIN_RULE},
        "start": rows[0],
        "previous_hash": before["hash"],
        "events": hand_rows,
        "key": key,
        "seed": seed or None,
        "record": data,
        "notation": format_notation(data),
        "score": scored["data"],
        "score_hash": scored["hash"],
    }
