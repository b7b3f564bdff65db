"""The use cases of hand proofs: a finished hand's proof from the game's stored events, and a proof checked.

A proof (domain/proofs.py, ``pitch-proof/v1``) is built from the events exactly as the store
gives them, hashes and times included, so that anyone can hash them again. It shows only what
was public when it is asked for: the hand's events once its deal is over (their cards and
hashes are shown to anyone then, domain/views.py), the deal's key as its DealKeyRevealed
published it when the hand ended, and the seed only once GameEnded (or GameAbandoned) has
revealed it; before that the proof's ``seed`` is null. Nothing here reads the game's secret.
A proof is checked by the domain alone (domain/proof_check.py), as ``pitch verify`` does
with no server.

    HandNotFinishedError (service/errors.py)  a hand in play, or one its game ended before it was scored (409)
"""

from __future__ import annotations

from typing import Any

from domain.events import HandScored
from domain.proof_check import verify_proof
from domain.proofs import build_proof
from service.audits.records import finished_hand
from service.errors import HandNotFinishedError
from service.games import GameService


def hand_proof(games: GameService, game_id: str, number: int) -> dict[str, Any]:
    """Return the proof of hand ``number`` once it is scored and its deal key revealed."""
    stored, events, span = finished_hand(games, game_id, number)
    if not any(isinstance(e, HandScored) for e in events[span.start:span.end]):
        raise HandNotFinishedError(
            f"hand {number} of game {game_id!r} was never scored (the game ended during it): there is no score to prove"
        )
    rows = [
        {"version": e.version, "type": e.type, "schema_version": e.schema_version, "data": e.data,
         "recorded_at": e.recorded_at, "hash": e.hash}
        for e in stored
    ]
    return build_proof(game_id, rows, number)


def check_proof(document: object) -> dict[str, Any]:
    """Check a proof as ``pitch verify`` does: every check in order, up to the first that does not hold."""
    return verify_proof(document).data()
