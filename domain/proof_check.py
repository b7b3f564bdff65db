"""Checking a hand's proof offline: ``verify_proof`` (the document: domain/proofs.py, docs/notation.md).

It needs the domain alone, no server. The checks, in order; the first that does not hold
ends the report, since the later ones stand on it:

 1. document  a ``pitch-proof/v1`` document with every part
 2. start     GameStarted hashes from the chain's start (64 zeros): it is the game's first event
 3. chain     the hand's events hash one to the next from the hash before the hand (GameStarted's
              own when the hand's first event is version 2): none was changed, none left out
 4. hand      the events are one hand's: its HandDealt first, its HandScored, its key revealed
 5. key       the revealed key, hashed with SHA-256 once per deal number, gives the chain anchor
              GameStarted published before any card was dealt (domain/fairness.py); a seed a client
              chose makes the deal reproducible, not fair, and the check says so
 6. seed      once revealed, it opens the commitment, rebuilds the anchor and this deal's key,
              and draws the first dealer
 7. deal      the deck shuffled with the key and dealt by the rules is the recorded deal, card
              for card (domain/fairness.py, domain/dealing.py)
 8. record    the record is the one the events give; its scores before the hand are the ones
              the HandScored event adds its changes to (the start's, in hand 1)
 9. notation  the notation reads as the record
10. actions   every action is legal, and what followed by itself (each trick, draw, automatic
              discard, and the order of a reshuffle, drawn from the key) is what the rules give
11. score     the score is the rules' own, the document's, and its hash the HandScored event's

Not shown by a proof: the hands before this one (only the scores before it come with it) and,
as it depends on them, whether this hand ended the game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from domain.audit import differences
from domain.chain import GENESIS_HASH, chain_hash
from domain.codec import decode, to_data
from domain.dealing import next_deal
from domain.decide import decide
from domain.errors import IllegalActionError, PitchError
from domain.events import DealKeyRevealed, Event, GameEnded, GameStarted, HandDealt, HandScored
from domain.evolve import evolve
from domain.fairness import ALGORITHM, CHAIN_LENGTH, chain_anchor, deal_key, first_dealer, reshuffle_key, seed_commitment, shuffle
from domain.game_over import starting_scores
from domain.notation import parse_notation
from domain.proofs import PROOF_FORMAT, game_events
from domain.records import parse_record, record_data, records_of_game
from domain.rules import Rules, rules_from_dict
from domain.state import INITIAL

_PARTS = {"game_id": str, "hand": int, "deal": int, "start": dict, "previous_hash": str, "events": list, "key": str,
          "record": dict, "notation": str, "score": dict, "score_hash": str}


@dataclass(frozen=True, slots=True)
class ProofCheck:
    """One check of a proof: its name, whether it holds, and what was found."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class ProofReport:
    """A proof checked: valid when every check holds, else the first that does not."""

    valid: bool
    checks: tuple[ProofCheck, ...]
    failure: str | None

    def data(self) -> dict[str, Any]:
        """Return the report as JSON."""
        return {"valid": self.valid, "failure": self.failure,
                "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks]}


class _Fails(Exception):
    """A check that does not hold, and why."""


class KeyDeals:
    """The deal source of a revealed key: its shuffle, its reshuffles, itself, and the seed if known."""

    def __init__(self, key: bytes, seed: str = "") -> None:
        self._key, self._seed = key, seed

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the deck shuffled with the key."""
        return shuffle(self._key, cards)

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the discards in the order of the ``count``-th reshuffle, drawn from the key."""
        return shuffle(reshuffle_key(self._key, count), cards)

    def key(self, deal: int) -> str:
        """Return the key in hex."""
        return self._key.hex()

    def seed(self) -> str:
        """Return the seed in hex, "" while it is not revealed."""
        return self._seed


def _hold(condition: bool, why: str) -> None:
    if not condition:
        raise _Fails(why)


class _Proof:
    """The document being checked, and what the checks so far have read from it."""

    def __init__(self, document: Any) -> None:
        self.doc = document
        self.start: GameStarted
        self.rules: Rules
        self.events: list[Event] = []
        self.dealt: HandDealt
        self.scored: HandScored
        self.recomputed: HandScored | None = None

    def _row_hash(self, previous: str, row: Mapping[str, Any]) -> str:
        return chain_hash(previous, {**row, "game_id": self.doc["game_id"], "schema_version": row.get("schema_version", 1)})

    def document(self) -> str:
        doc = self.doc
        _hold(isinstance(doc, Mapping) and doc.get("format") == PROOF_FORMAT, f"the document is not a {PROOF_FORMAT} proof")
        for part, kind in _PARTS.items():
            _hold(isinstance(doc.get(part), kind), f"the proof's '{part}' is missing or not a {kind.__name__}")
        _hold(bool(doc["events"]), "the proof holds no events")
        return f"hand {doc['hand']} (deal {doc['deal']}) of game {doc['game_id']}, {len(doc['events'])} events"

    def start_event(self) -> str:
        row = self.doc["start"]
        _hold(row.get("type") == "GameStarted" and row.get("version") == 1, "the start is not the game's version 1, GameStarted")
        _hold(self._row_hash(GENESIS_HASH, row) == row.get("hash"), "GameStarted's hash does not verify from the chain's start")
        start = decode("GameStarted", row["data"])
        assert isinstance(start, GameStarted)
        _hold(start.deal_algorithm == ALGORITHM, f"the deals use {start.deal_algorithm!r}, which this check does not know")
        # The algorithm's chain holds CHAIN_LENGTH keys; a longer one would only make the key and
        # seed checks hash a forger's chosen number of times (a check anyone may ask the server for).
        _hold(isinstance(start.chain_length, int) and 1 <= start.chain_length <= CHAIN_LENGTH,
              f"the chain of deal keys is {start.chain_length!r} long, where the algorithm's holds at most {CHAIN_LENGTH}")
        self.start, self.rules = start, rules_from_dict(start.rules)
        return f"GameStarted hashes to {row['hash']}"

    def chain(self) -> str:
        rows, previous = self.doc["events"], self.doc["previous_hash"]
        first = rows[0].get("version")
        _hold(isinstance(first, int) and first >= 2, "the hand's first event must come after GameStarted")
        if first == 2:
            _hold(previous == self.doc["start"]["hash"], "the hand follows GameStarted, but the hash before it is not GameStarted's")
        for n, row in enumerate(rows):
            _hold(row.get("version") == first + n, f"the events skip from version {first + n - 1} to {row.get('version')}")
            _hold(self._row_hash(previous, row) == row.get("hash"),
                  f"the hash of version {row['version']} does not verify: the event, or the hash before it, was changed")
            previous = row["hash"]
        self.events = game_events(rows)
        return f"versions {first} to {first + len(rows) - 1} chain from {self.doc['previous_hash']}"

    def hand(self) -> str:
        doc, events = self.doc, self.events
        dealt = events[0] if events else None
        _hold(isinstance(dealt, HandDealt) and dealt.hand == doc["hand"] and dealt.deal == doc["deal"],
              f"the events do not begin with hand {doc['hand']}'s deal {doc['deal']}")
        assert isinstance(dealt, HandDealt)
        scored = [e for e in events if isinstance(e, HandScored)]
        _hold(len(scored) == 1 and scored[0].hand == doc["hand"], f"the events do not score hand {doc['hand']} once")
        _hold(sum(isinstance(e, HandDealt) for e in events) == 1, "the events hold another deal")
        last = events[-2] if isinstance(events[-1], GameEnded) and len(events) > 1 else events[-1]
        _hold(isinstance(last, DealKeyRevealed) and last.deal == doc["deal"],
              "the events do not end with the deal's key revealed (and the game's end, if it ended)")
        self.dealt, self.scored = dealt, scored[0]
        return f"deal {dealt.deal} dealt by seat {dealt.dealer}, scored, its key revealed"

    def key(self) -> str:
        doc = self.doc
        revealed = next(e for e in self.events if isinstance(e, DealKeyRevealed))
        _hold(revealed.key == doc["key"], "the proof's key is not the one DealKeyRevealed revealed")
        _hold(1 <= doc["deal"] <= self.start.chain_length, "the deal's number is outside the game's chain of keys")
        key = bytes.fromhex(doc["key"])
        for _ in range(doc["deal"]):
            key = hashlib.sha256(key).digest()
        _hold(key.hex() == self.start.chain_anchor,
              f"the key does not hash back to the chain anchor GameStarted published ({doc['deal']} SHA-256 steps)")
        chosen = "" if self.start.seed_source == "server" else \
            "; a client chose the seed, so the deal is reproducible, not proven fair"
        return f"SHA-256 {doc['deal']} times gives the anchor {self.start.chain_anchor}{chosen}"

    def seed(self) -> str:
        seed_hex = self.doc.get("seed")
        ended = [e.seed for e in self.events if isinstance(e, GameEnded)]
        _hold(not ended or ended[0] == seed_hex, "the proof's seed is not the one GameEnded revealed")
        if not seed_hex:
            return "not revealed yet (the game goes on): the key's chain to the anchor stands for it"
        seed = bytes.fromhex(seed_hex)
        _hold(seed_commitment(seed) == self.start.seed_commitment, "the seed does not open the commitment: its SHA-256 "
              "is not the seed_commitment GameStarted published")
        _hold(chain_anchor(seed, self.start.chain_length) == self.start.chain_anchor, "the seed does not rebuild the anchor")
        _hold(deal_key(seed, self.doc["deal"], self.start.chain_length).hex() == self.doc["key"],
              "the seed does not give this deal's key")
        _hold(first_dealer(seed, self.rules.players) == self.start.first_dealer, "the seed draws another first dealer")
        return "it opens the commitment, rebuilds the anchor and this deal's key, and draws the first dealer"

    def deal(self) -> str:
        d = self.dealt
        again = next_deal(self.rules, KeyDeals(bytes.fromhex(self.doc["key"])), d.dealer, hand=d.hand, deal=d.deal)
        for seat, (got, want) in enumerate(zip(d.cards, again.cards)):
            _hold(got == want, f"seat {seat}'s cards are not the ones the key deals")
        for part in ("cards", "stock", "kitty", "blind"):
            _hold(getattr(d, part) == getattr(again, part), f"the {part} is not the one the key deals")
        return f"the deck shuffled with the key deals every seat's cards, the stock and the kitty ({self.doc['algorithms']['deal']})"

    def record(self) -> str:
        record, scored = self.doc["record"], self.scored
        rebuilt = record_data(records_of_game([self.start, *self.events])[0])
        rebuilt["scores_before"] = record.get("scores_before")
        found = differences(record, rebuilt)
        _hold(not found, f"the record differs from the events at {found[0].path if found else ''}: "
              f"{found[0].recorded!r} in the record, {found[0].recomputed!r} in the events" if found else "")
        before = [s - c for s, c in zip(scored.scores, scored.changes)]
        _hold(record.get("scores_before") == before, f"the scores before the hand are {before}, to which the score adds its changes")
        if self.doc["hand"] == 1:
            _hold(tuple(before) == starting_scores(self.rules), "the first hand does not start from the game's starting scores")
        return f"the record is the events' hand, from the scores {before}"

    def notation(self) -> str:
        read = parse_notation(self.doc["notation"])
        found = differences(self.doc["record"], read)
        _hold(not found, f"the notation differs from the record at {found[0].path if found else ''}: "
              f"{found[0].recomputed!r} in the notation, {found[0].recorded!r} in the record" if found else "")
        return "the notation reads as the record"

    def actions(self) -> str:
        record = parse_record(self.doc["record"])
        state = evolve(INITIAL, self.start)
        state = evolve(replace(state, scores=tuple(record.scores_before or state.scores)), self.dealt)
        source = KeyDeals(bytes.fromhex(self.doc["key"]), self.doc.get("seed") or "")
        given: list[Event] = []
        for index, (action, command) in enumerate(zip(record.actions, record.commands)):
            try:
                caused = decide(state, command, source)
            except IllegalActionError as error:
                raise _Fails(f"action {index} ({action}) is illegal: {error}") from None
            for event in caused:
                if isinstance(event, (HandDealt, GameEnded)):
                    break
                given.append(event)
                state = evolve(state, event)
        logged = [e for e in self.events[1:] if not isinstance(e, GameEnded)]
        for n, (want, got) in enumerate(zip(given, logged)):
            if isinstance(want, HandScored) and isinstance(got, HandScored):
                self.recomputed = want
                continue
            found = differences(to_data(got), to_data(want))
            _hold(type(want) is type(got) and not found, f"event {n + 2} of the hand is {type(got).__name__} "
                  f"{to_data(got)}, where the rules give {type(want).__name__} {to_data(want)}")
        _hold(len(given) == len(logged), f"the hand holds {len(logged)} events after its deal; its actions give {len(given)}")
        return f"{len(record.actions)} actions, every one legal; the {len(given)} events after the deal are the rules'"

    def score(self) -> str:
        recorded, doc = to_data(self.scored), self.doc
        found = differences(recorded, to_data(self.recomputed))
        _hold(not found, f"the score differs from the rules' at {found[0].path if found else ''}: recorded "
              f"{found[0].recorded!r}, the rules give {found[0].recomputed!r}" if found else "")
        _hold(doc["score"] == recorded, "the proof's score is not the HandScored event's")
        row = next(r for r in doc["events"] if r["type"] == "HandScored")
        _hold(doc["score_hash"] == row["hash"], "the proof's score hash is not the HandScored event's hash")
        return f"changes {list(self.scored.changes)} to scores {list(self.scored.scores)}; hash {row['hash']}"


_CHECKS: tuple[tuple[str, Callable[[_Proof], str]], ...] = (
    ("document", _Proof.document), ("start", _Proof.start_event), ("chain", _Proof.chain), ("hand", _Proof.hand),
    ("key", _Proof.key), ("seed", _Proof.seed), ("deal", _Proof.deal), ("record", _Proof.record),
    ("notation", _Proof.notation), ("actions", _Proof.actions), ("score", _Proof.score),
)


def verify_proof(document: object) -> ProofReport:
    """Check a hand's proof with no server; return what was checked and, on failure, the first thing that does not hold."""
    proof, checks = _Proof(document), []
    for name, check in _CHECKS:
        try:
            detail = check(proof)
        except _Fails as failed:
            problem = str(failed)
        except (PitchError, KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration) as error:
            problem = f"this part of the proof cannot be read: {type(error).__name__}: {error}"
        else:
            checks.append(ProofCheck(name, True, detail))
            continue
        checks.append(ProofCheck(name, False, problem))
        return ProofReport(False, tuple(checks), f"{name}: {problem}")
    return ProofReport(True, tuple(checks), None)
