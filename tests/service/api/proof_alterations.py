"""Ways to alter a hand's proof, each with the check that must catch it (docs/notation.md, "Proofs").

Some alter one part and leave the hashes as they were; others forge the way a server that
rewrote history would, hashing every event again from the one it changed (and pointing
``score_hash`` at the new HandScored), so that the chain holds and a later check must catch
the lie: a deal the key does not deal, a trick the rules do not give, a score they do not give.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.chain import chain_hash

Proof = dict[str, Any]


@dataclass(frozen=True)
class Alteration:
    """What is altered, how, and the name of the first check that no longer holds."""

    name: str
    alter: Callable[[Proof], None]
    fails: str
    needs_seed: bool = False

    def applied(self, proof: Proof) -> Proof:
        altered = copy.deepcopy(proof)
        self.alter(altered)
        return altered


def _event(proof: Proof, kind: str) -> tuple[int, dict[str, Any]]:
    return next((i, e) for i, e in enumerate(proof["events"]) if e["type"] == kind)


def rehash(proof: Proof, start: int) -> None:
    """Hash the proof's events again from ``start`` on, as a forger would, and follow the score's hash."""
    events = proof["events"]
    for i in range(start, len(events)):
        previous = proof["previous_hash"] if i == 0 else events[i - 1]["hash"]
        events[i]["hash"] = chain_hash(previous, {**events[i], "game_id": proof["game_id"]})
    proof["score_hash"] = _event(proof, "HandScored")[1]["hash"]


def _swap_dealt_cards(proof: Proof) -> int:
    at, dealt = _event(proof, "HandDealt")
    cards = dealt["data"]["cards"]
    cards[0][0], cards[1][0] = cards[1][0], cards[0][0]
    return at


def _dealt_card(proof: Proof) -> None:
    _swap_dealt_cards(proof)


def _forge_deal(proof: Proof) -> None:
    rehash(proof, _swap_dealt_cards(proof))


def _record_card(proof: Proof) -> None:
    play = next(a for a in proof["record"]["actions"] if a["type"] == "play")
    play["card"] = "RJ" if play["card"] != "RJ" else "BJ"


def _bid(proof: Proof) -> None:
    _, bid = _event(proof, "BidMade")
    bid["data"]["amount"] += 1


def _forge_trick(proof: Proof) -> None:
    at, taken = _event(proof, "TrickTaken")
    players = len(proof["record"]["cards"])
    taken["data"]["winner"] = (taken["data"]["winner"] + 1) % players
    rehash(proof, at)


def _forge_score(proof: Proof) -> None:
    """Move the score's first side's change to the second, keeping the scores the sum of before and changes."""
    at, scored = _event(proof, "HandScored")
    data = scored["data"]
    data["changes"][0] += 1
    data["scores"][0] += 1
    proof["score"] = copy.deepcopy(data)
    rehash(proof, at)


def _score(proof: Proof) -> None:
    proof["score"]["changes"][0] += 1


def _hex(value: str) -> str:
    return ("0" if value[0] != "0" else "1") + value[1:]


def _notation(proof: Proof) -> None:
    lines = proof["notation"].splitlines()
    row = lines.index("[Deal]") + 1
    cards = proof["record"]["cards"]
    lines[row] = lines[row].replace(cards[0][0], "@@").replace(cards[1][0], cards[0][0]).replace("@@", cards[1][0])
    proof["notation"] = "\n".join(lines) + "\n"


ALTERATIONS = (
    Alteration("a card dealt, the hashes left", _dealt_card, "chain"),
    Alteration("a card dealt, every hash made again", _forge_deal, "deal"),
    Alteration("a bid in the log", _bid, "chain"),
    Alteration("a card played in the record", _record_card, "record"),
    Alteration("a trick's winner, every hash made again", _forge_trick, "actions"),
    Alteration("the score", _score, "score"),
    Alteration("the score in the log, every hash made again", _forge_score, "score"),
    Alteration("the score's hash", lambda p: p.__setitem__("score_hash", _hex(p["score_hash"])), "score"),
    Alteration("the hash before the hand", lambda p: p.__setitem__("previous_hash", _hex(p["previous_hash"])), "chain"),
    Alteration("GameStarted's hash", lambda p: p["start"].__setitem__("hash", _hex(p["start"]["hash"])), "start"),
    Alteration("the deal's key", lambda p: p.__setitem__("key", _hex(p["key"])), "key"),
    Alteration("the notation's deal", _notation, "notation"),
    Alteration("the seed", lambda p: p.__setitem__("seed", _hex(p["seed"])), "seed", needs_seed=True),
)
