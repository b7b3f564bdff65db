"""The use cases of replays and audits: a hand in full, a game's records, audits of games and records.

Each reads the game's log through the event store and leaves every rule to the domain
(domain/hand_view.py, domain/records.py, domain/audit.py, domain/deal_proofs.py). Nothing
here reads the game's secret: a deal's cards are shown in full only once the rules reveal
them, and keys and seed only as their reveal events publish them.

    GameNotFinishedError (service/errors.py)   the whole record of a running game   (409)

Records in writing, score sheets and rescoring are service/audits/records.py (with the
IllegalRecordError of a record's action the rules refuse, 422); proofs, service/audits/proofs.py.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Mapping

from domain.audit import HandCheck, check_hands
from domain.codec import decode, to_data
from domain.deal_proofs import FairnessReport, check_deals
from domain.errors import PitchError
from domain.events import Event
from domain.evolve import evolve, replay
from domain.hand_view import game_hand_view
from domain.records import record_data, records_of_game
from domain.state import INITIAL
from domain.views import concealment, is_deal_finished, is_hash_shown
from service.audits import proofs, records
from service.audits.records import audit_record
from service.errors import GameNotFinishedError, GameNotFoundError
from service.games import GameService, is_game_id
from service.ports.events import StoredEvent


def _version(stored: list[StoredEvent], index_version: int | None) -> int | None:
    """Return the stored version of the event the domain numbered ``index_version`` (its place from 1)."""
    return None if index_version is None else stored[index_version - 1].version


class AuditService:
    """Replays and audits over a game service's event store."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store

    def _log(self, game_id: str) -> tuple[list[StoredEvent], list[Event]]:
        self.games.load(game_id)
        stored = self.store.read(game_id)
        return stored, [decode(e.type, e.data) for e in stored]

    def hand(self, game_id: str, number: int, token: str | None) -> dict[str, Any]:
        """Return hand ``number`` in full once its deal is over, else as the caller may see it."""
        seat = self.games.seat_of(game_id, token)
        stored, events = self._log(game_id)
        now = self.games.load(game_id)
        view = game_hand_view(events, number, seat, now)
        if view is None:
            raise GameNotFoundError(f"game {game_id!r} has no hand {number} yet")
        view["id"] = game_id
        view["score_version"] = _version(stored, view["score_version"])
        view["score_hash"] = None if view["score_version"] is None else stored[view["score_version"] - 1].hash
        return view

    def record(self, game_id: str) -> dict[str, Any]:
        """Return the whole game as hand records; refuse while it is being played."""
        stored, events = self._log(game_id)
        if self.games.load(game_id).ended is None:
            raise GameNotFinishedError(
                f"game {game_id!r} is not finished; its record is given once it has ended "
                "(GET /v1/games/{id}/hands/{n} shows each finished hand meanwhile)"
            )
        return {"id": game_id, "hands": [record_data(r) for r in records_of_game(events)]}

    def audit_record(self, data: object) -> dict[str, Any]:
        """Replay a hand record through the rules; return the replay and its score with evidence."""
        return audit_record(data)

    def hand_record(self, game_id: str, number: int, text: bool = False) -> dict[str, Any] | str:
        """Return hand ``number``'s record once its deal is over: JSON, or the notation's text."""
        if text:
            return records.hand_notation(self.games, game_id, number)
        return records.hand_record(self.games, game_id, number)

    def audit_posted(self, body: object) -> dict[str, Any]:
        """Audit a record or a score sheet, JSON or the notation's text."""
        return records.audit_posted(body)

    def rescore(self, body: object, preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """Score a record or a score sheet, JSON or text, under its own rules and under the given ones."""
        return records.rescore_posted(body, preset, options)

    def proof(self, game_id: str, number: int) -> dict[str, Any]:
        """Return hand ``number``'s proof once it is scored."""
        return proofs.hand_proof(self.games, game_id, number)

    def check_proof(self, document: object) -> dict[str, Any]:
        """Check a proof with the domain alone; return what was checked."""
        return proofs.check_proof(document)

    def audit_game(self, game_id: str) -> dict[str, Any]:
        """Check a game's log: the hash chain, every hand's score, and every deal's fairness."""
        # Not GameService.load: an altered log may not fold, and the audit must still answer.
        if not is_game_id(game_id):
            raise GameNotFoundError(f"there is no game {game_id[:80]!r}: game ids are UUIDs")
        stored = self.store.read(game_id, as_stored=True)
        if not stored:
            raise GameNotFoundError(f"there is no game {game_id!r}")
        first_bad = self.store.verify_chain(game_id)
        events, unreadable = _readable_prefix(stored)
        now = replay(events)
        checks = [c for c in check_hands(events) if is_deal_finished(now, c.deal)] if events else []
        fairness = check_deals(events)
        head = stored[-1] if stored else None
        chain = {
            "intact": first_bad is None, "first_bad_version": first_bad, "events": len(stored),
            "head_version": head.version if head else 0,
            # A hash of the deal being played would let anyone test guesses of its hidden cards.
            "head_hash": head.hash if head and is_hash_shown(concealment(now), head.version) else None,
            "unreadable_version": unreadable,
        }
        hands = [_hand_check(c, stored) for c in checks]
        scores = {"all_match": all(h["matches"] for h in hands), "hands": hands}
        deals = _fairness(fairness)
        return {
            "id": game_id, "version": now.version, "chain": chain, "scores": scores, "deals": deals,
            "summary": _summary(chain, scores, fairness),
        }


def _readable_prefix(stored: list[StoredEvent]) -> tuple[list[Event], int | None]:
    """Return the events up to the first that cannot be decoded or applied, and that version.

    An altered log may hold an event the reducers cannot apply (a card its seat does not
    hold, a field of the wrong type); the audit reports it instead of failing.
    """
    events: list[Event] = []
    state = INITIAL
    for e in stored:
        try:
            event = decode(e.type, e.data)
            state = evolve(state, event)
        except (PitchError, AssertionError, TypeError, ValueError, KeyError, IndexError, AttributeError):
            return events, e.version
        events.append(event)
    return events, None


def _hand_check(check: HandCheck, stored: list[StoredEvent]) -> dict[str, Any]:
    version = _version(stored, check.version)
    return {
        "hand": check.hand, "deal": check.deal, "matches": check.matches,
        "score_version": version,
        "score_hash": None if check.version is None else stored[check.version - 1].hash,
        "recorded": to_data(check.recorded) if check.recorded is not None else None,
        "recomputed": to_data(check.recomputed) if check.recomputed is not None else None,
        "differences": [asdict(d) for d in check.differences],
        "illegal_action": None if check.illegal is None else {
            "index": check.illegal.index, "action": dict(check.illegal.action), "reason": check.illegal.reason,
        },
    }


def _fairness(report: FairnessReport) -> dict[str, Any]:
    data = asdict(report)
    data["problems"] = list(report.problems)
    data["deals"] = [{**asdict(d), "problems": list(d.problems)} for d in report.deals]
    return data


def _summary(chain: dict[str, Any], scores: dict[str, Any], fairness: FairnessReport) -> str:
    parts = []
    if chain["intact"]:
        parts.append(f"the log of {chain['events']} events is intact")
    else:
        parts.append(f"the log was altered: version {chain['first_bad_version']} is the first that does not verify")
    mismatched = [h["hand"] for h in scores["hands"] if not h["matches"]]
    if mismatched:
        parts.append("recorded scores differ from the rules in hand " + ", ".join(map(str, mismatched)))
    else:
        parts.append(f"all {len(scores['hands'])} finished hands score as recorded")
    parts.append(f"deals: {fairness.verdict} ({fairness.summary})")
    return "; ".join(parts)
