"""The export of finished games as NDJSON: one game a line, its hands as records, streamed a page at a time.

``GameExport.lines`` walks the search (service/ports/players.py ``PlayerLog.search``,
newest first, keyset-paged) over finished games only and yields one line per game: the
index's row (preset, family, rated, players, times), the final scores and winner, and every
hand as a ``pitch-hand/v1`` record (domain/records.py). The players' projection writes each
finished game's line once, when it counts the game (service/players/projection.py), so a
page of lines is one read; a game the projection has not reached yet is made here from its
events. It holds one page at a time, never the whole answer, so an export of any size
streams in constant memory; a client reading slowly slows the reads.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from domain.codec import decode
from domain.events import Event
from domain.evolve import replay
from domain.records import record_data, records_of_game
from service.ports.events import EventLog
from service.ports.players import FINISHED, GameFound, GameQuery, PlayerLog

PAGE = 200  # games read per statement of the search


def export_line(found: GameFound, events: Sequence[Event]) -> str:
    """Return a finished game's line (no newline): its index row, its result and its hands as records."""
    state = replay(events)
    game: dict[str, Any] = {
        "id": found.game_id, "preset": found.preset, "family": found.family, "rated": found.rated,
        "created_at": found.created_at, "finished_at": found.finished_at,
        "players": [{"seat": s, "id": p.id, "name": p.name} for s, p in sorted(found.players.items())],
        "scores": list(state.scores), "winner": state.winner, "ended_reason": state.ended,
        "hands": [record_data(r) for r in records_of_game(events)],
    }
    return json.dumps(game, separators=(",", ":"))


class GameExport:
    """Finished games as NDJSON lines, over the games' log and the search's index."""

    def __init__(self, store: EventLog, players: PlayerLog) -> None:
        self.store = store
        self.players = players

    def lines(self, query: GameQuery, limit: int | None = None) -> Iterator[bytes]:
        """Yield one NDJSON line per finished game ``query`` finds, newest first, at most ``limit``."""
        left = limit
        search = replace(query, status=FINISHED, limit=PAGE)
        while left is None or left > 0:
            asked = PAGE if left is None else min(PAGE, left)
            page = self.players.search(replace(search, limit=asked))
            made = self.players.export_lines([game.game_id for game in page])
            for game in page:
                line = made.get(game.game_id)
                if line is None:
                    line = export_line(game, [decode(e.type, e.data) for e in self.store.read(game.game_id)])
                yield (line + "\n").encode("utf-8")
            if left is not None:
                left -= len(page)
            if len(page) < asked:
                return
            search = replace(search, after=(page[-1].created_at, page[-1].game_id))
