"""The players' projection: ratings, statistics and export lines, kept from the event feed exactly once per game.

The projection reads the global feed (``EventLog.read_all``, which never skips an event)
after the position it stored last, and for each game that ended in what it read (GameEnded
or GameAbandoned) computes what the game changes (service/players/ratings.py): the new
ratings of a rated game's players, every player's statistics, and the game's export line.
It stores all of a batch as rows of one change (``Writer.record``), with the new position:

- the position moves only from where the batch began (compare-and-set, ``ProjectionAdvanced``),
  so a second process that read the same events cannot store them again: its whole
  transaction fails (``ProjectionMovedError``) and it reads again from the new position;
- each game is counted once (``counted_games``' key), so the batch cannot double a game either;
- a process killed mid-batch stored nothing of it (one transaction), and the next run reads
  the batch again from the stored position: nothing skipped, nothing doubled;
- a lease (``ProjectionLeased``) keeps a second process from doing the same work meanwhile.

``rebuild`` computes every rating (and its history) from the log in memory, by the same functions
in the same order, so it equals what the projection stored (``pitch ratings rebuild`` compares them).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

from domain.codec import decode
from service.games.writer import Writer
from service.ports.events import EventLog, StoredEvent
from service.ports.players import (
    GameCounted, PlayerLog, PlayerRow, ProjectionAdvanced, ProjectionLeased, ProjectionMovedError, Rating, RatingRecorded,
    RatingSet,
)
from service.players.export import export_line
from service.players.ratings import START, FinishedGame, finished_game, rate, statistics

NAME = "players"
ENDINGS = ("GameEnded", "GameAbandoned")
BATCH = 500


class PlayersProjection:
    """Keeps ratings, statistics and export lines from the feed, one batch per transaction."""

    def __init__(
        self, writer: Writer, log: PlayerLog, feed: EventLog, holder: str | None = None, lease_seconds: float = 30.0,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.writer = writer
        self.log = log
        self.feed = feed
        self.holder = holder or str(uuid.uuid4())
        self.lease_seconds = lease_seconds
        self.clock = clock or (lambda: datetime.now(UTC))

    def run_once(self, batch: int = BATCH) -> int:
        """Count what the feed holds after the stored position, at most ``batch`` events; return how many were read.

        Raises ProjectionMovedError when another process advanced it or holds its lease (nothing was stored).
        """
        after = self.log.projection_position(NAME)
        events = self.feed.read_all(after, batch)
        if not events:
            return 0
        now = self.clock()
        rows: list[PlayerRow] = [ProjectionLeased(
            NAME, self.holder, _stamp(now + timedelta(seconds=self.lease_seconds)), _stamp(now),
        )]
        book: dict[tuple[str, str], Rating] = {}
        for game, position in finished_games(events, self.log, self.feed):
            rows += counted_rows(game, position, book, self._stored_rating)
        rows.append(ProjectionAdvanced(NAME, after, events[-1].position))
        self.writer.record(rows)
        return len(events)

    def release(self) -> None:
        """Give up the lease at once (a graceful stop), so that another process goes on without waiting for it."""
        now = _stamp(self.clock())
        try:
            self.writer.record([ProjectionLeased(NAME, self.holder, now, now)])
        except ProjectionMovedError:
            pass  # another process holds it: there is nothing of ours to give up

    def run_until_caught_up(self, batch: int = BATCH) -> int:
        """Run batches until the feed holds nothing more; return the events read."""
        total = 0
        while True:
            read = self.run_once(batch)
            if read == 0:
                return total
            total += read

    def _stored_rating(self, player_id: str, family: str) -> Rating:
        return self.log.ratings([player_id], family).get(player_id, START)


def finished_games(events: list[StoredEvent], log: PlayerLog, feed: EventLog) -> Iterator[tuple[FinishedGame, int]]:
    """Yield each game that ended in ``events`` (and is in the index), with the position it ended at."""
    for event in events:
        if event.type not in ENDINGS:
            continue
        found = log.indexed(event.game_id)
        if found is None:
            continue  # a game of before the index: no players to count
        stored = feed.read(event.game_id)
        yield finished_game(found, [decode(e.type, e.data) for e in stored]), event.position


def counted_rows(
    game: FinishedGame, position: int, book: dict[tuple[str, str], Rating], stored: Callable[[str, str], Rating],
) -> list[PlayerRow]:
    """Return the rows of one finished game: its count and line, its statistics, its players' new ratings and
    their points of history (stamped with the game's end, so a rebuild stamps them the same).

    ``book`` holds the ratings changed earlier in the batch (and is updated); ``stored`` gives the others.
    """
    family = game.found.family
    rows: list[PlayerRow] = [GameCounted(game.found.game_id, position, export_line(game.found, game.events))]
    rows += statistics(game)
    if game.is_rateable:
        def current(player_id: str) -> Rating:
            return book.get((player_id, family)) or stored(player_id, family)

        for player_id, rating in sorted(rate(game, current).items()):
            book[(player_id, family)] = rating
            rows.append(RatingSet(player_id, family, rating.mu, rating.sigma, rating.games))
            rows.append(RatingRecorded(player_id, family, rating.games, position, game.found.game_id, rating.mu,
                                       rating.sigma, game.found.finished_at or game.found.created_at))
    return rows


def rebuild(
    feed: EventLog, log: PlayerLog, batch: int = 2_000, history: list[RatingRecorded] | None = None,
) -> dict[tuple[str, str], Rating]:
    """Return every rating computed again from the whole log, in memory, as the projection computes them.

    ``history``, if given, receives every point of the ratings' history, in the order they were set.
    """
    book: dict[tuple[str, str], Rating] = {}
    after = 0
    while True:
        events = feed.read_all(after, batch)
        if not events:
            return book
        for game, position in finished_games(events, log, feed):
            rows = counted_rows(game, position, book, lambda player_id, family: START)
            if history is not None:
                history += [row for row in rows if isinstance(row, RatingRecorded)]
        after = events[-1].position


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
