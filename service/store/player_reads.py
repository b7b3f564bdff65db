"""The reads of players: a token's player, a game's players, the search of games.

``PlayerReads`` is the mixin of the recorders (service/store/sqlite.py, postgres.py) that
implements the ``PlayerLog`` port (service/ports/players.py); what players write goes
with a change (service/store/player_rows.py).

The search reads ``game_index`` newest first by (created_at, game_id), keyset-paged: with a
player, from that player's rows of ``game_players`` (index on player_id, created_at,
game_id), else from the index of the one filter given (preset, status, rated), or by time
alone. Each page is one statement, whatever the number of games stored.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.players import GameFound, GameQuery, Player, Rating, RatingRecorded
from service.store.schema import (
    STATISTICS, game_index_table, player_statistics_table, players_table, projections_table,
    rating_history_table, ratings_table,
)

if TYPE_CHECKING:
    from service.store.recorder import Recorder

    _Recorder = Recorder
else:
    _Recorder = object

_PLAYERS_OF = sa.text(
    "SELECT p.game_id, p.seat, q.id, q.name, q.created_at FROM game_players AS p JOIN players AS q ON q.id = p.player_id"
    " WHERE p.game_id IN :games"
).bindparams(sa.bindparam("games", expanding=True))
_EXPORT_LINES = sa.text("SELECT game_id, line FROM counted_games WHERE game_id IN :games").bindparams(
    sa.bindparam("games", expanding=True))
_REVIEW_COSTS = sa.text(  # the player's seats' reviewed decisions, by family: by game_players' and the decisions' keys
    "SELECT g.family, SUM(r.decisions) AS decisions, SUM(r.cost) AS cost FROM game_players AS p"
    " JOIN game_index AS g ON g.game_id = p.game_id"
    " JOIN review_decisions AS r ON r.game_id = p.game_id AND r.seat = p.seat"
    " WHERE p.player_id = :player GROUP BY g.family"
)
_TOKEN = sa.text(
    "SELECT p.id, p.name, p.created_at FROM player_tokens AS t JOIN players AS p ON p.id = t.player_id"
    " WHERE t.token_hash = :token_hash"
    " AND t.number = (SELECT max(number) FROM player_tokens AS u WHERE u.player_id = t.player_id)"
)


class PlayerReads(_Recorder):
    """The ``PlayerLog`` port, mixed into a recorder."""

    def player_by_token(self, token_hash: str) -> Player | None:
        """Return the player whose current token hashes to ``token_hash``, None for none (or an ended token)."""
        with self._transaction(read_only=True) as conn:
            row = conn.execute(_TOKEN, {"token_hash": token_hash}).one_or_none()
        return None if row is None else Player(row.id, row.name, row.created_at)

    def player(self, player_id: str) -> Player | None:
        """Return the player with this id, None for none."""
        c = players_table.c
        with self._transaction(read_only=True) as conn:
            row = conn.execute(sa.select(c.id, c.name, c.created_at).where(c.id == player_id)).one_or_none()
        return None if row is None else Player(row.id, row.name, row.created_at)

    def game_players(self, game_id: str) -> dict[int, Player]:
        """Return the players holding seats of the game, by seat."""
        with self._transaction(read_only=True) as conn:
            return players_of(conn, [game_id]).get(game_id, {})

    def search(self, query: GameQuery) -> list[GameFound]:
        """Return a page of the games the query finds, newest first."""
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(*search_statement(query, conn.dialect.name)).all()
            players = players_of(conn, [row.game_id for row in rows])
        return [_found(row._mapping, players.get(row.game_id, {})) for row in rows]

    def indexed(self, game_id: str) -> GameFound | None:
        """Return the game's row of the index with its players, None for a game not indexed."""
        g = game_index_table.c
        with self._transaction(read_only=True) as conn:
            row = conn.execute(sa.select(game_index_table).where(g.game_id == game_id)).one_or_none()
            if row is None:
                return None
            return _found(row._mapping, players_of(conn, [game_id]).get(game_id, {}))


    def projection_position(self, name: str) -> int:
        """Return the feed position the projection has stored what it read up to."""
        c = projections_table.c
        with self._transaction(read_only=True) as conn:
            found = conn.execute(sa.select(c.position).where(c.name == name)).scalar_one_or_none()
        return 0 if found is None else int(found)

    def ratings(self, player_ids: Sequence[str], family: str) -> dict[str, Rating]:
        """Return these players' stored ratings in ``family`` (a player not rated yet is left out)."""
        if not player_ids:
            return {}
        c = ratings_table.c
        query = sa.select(c.player_id, c.mu, c.sigma, c.games).where(c.family == family, c.player_id.in_(list(player_ids)))
        with self._transaction(read_only=True) as conn:
            return {r.player_id: Rating(float(r.mu), float(r.sigma), int(r.games)) for r in conn.execute(query)}

    def player_ratings(self, player_id: str) -> dict[str, Rating]:
        """Return a player's ratings by family."""
        c = ratings_table.c
        query = sa.select(c.family, c.mu, c.sigma, c.games).where(c.player_id == player_id)
        with self._transaction(read_only=True) as conn:
            return {r.family: Rating(float(r.mu), float(r.sigma), int(r.games)) for r in conn.execute(query)}

    def player_statistics(self, player_id: str) -> dict[str, dict[str, int]]:
        """Return a player's statistics (the sums) by family."""
        c = player_statistics_table.c
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(sa.select(player_statistics_table).where(c.player_id == player_id)).all()
        return {r.family: {name: int(r._mapping[name]) for name in STATISTICS} for r in rows}

    def player_review_costs(self, player_id: str) -> dict[str, tuple[int, float]]:
        """Return by family the reviewed decisions of the seats the player held that had a choice, and their summed cost."""
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(_REVIEW_COSTS, {"player": player_id}).all()
        return {row.family: (int(row.decisions), float(row.cost)) for row in rows}

    def rating_history(self, player_id: str, family: str, after: int, limit: int) -> list[RatingRecorded]:
        """Return a page of a player's rating history in ``family``, oldest first, after its ``after``-th rated game."""
        c = rating_history_table.c
        query = (sa.select(rating_history_table).where(c.player_id == player_id, c.family == family, c.games > after)
                 .order_by(c.games).limit(limit))
        with self._transaction(read_only=True) as conn:
            return [_recorded(r._mapping) for r in conn.execute(query)]

    def all_rating_history(self) -> list[RatingRecorded]:
        """Return every stored point of every rating history, by player, family and game."""
        c = rating_history_table.c
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(sa.select(rating_history_table).order_by(c.player_id, c.family, c.games))
            return [_recorded(r._mapping) for r in rows]

    def leaderboard(self, family: str, after: tuple[float, str] | None, limit: int) -> list[tuple[Player, Rating]]:
        """Return a page of a family's rated players, highest rating first, after (rating, player id)."""
        r, p = ratings_table.c, players_table.c
        query = (
            sa.select(p.id, p.name, p.created_at, r.mu, r.sigma, r.games)
            .select_from(ratings_table.join(players_table, p.id == r.player_id)).where(r.family == family)
        )
        if after is not None:
            query = query.where(sa.tuple_(r.rating, r.player_id) < sa.tuple_(sa.literal(after[0]), sa.literal(after[1])))
        query = query.order_by(r.rating.desc(), r.player_id.desc()).limit(limit)
        with self._transaction(read_only=True) as conn:
            return [(Player(row.id, row.name, row.created_at), Rating(float(row.mu), float(row.sigma), int(row.games)))
                    for row in conn.execute(query)]

    def export_lines(self, game_ids: Sequence[str]) -> dict[str, str]:
        """Return the export's line of each of these games the projection counted."""
        if not game_ids:
            return {}
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(_EXPORT_LINES, {"games": list(game_ids)})
            return {row.game_id: row.line for row in rows}

    def all_ratings(self) -> dict[tuple[str, str], Rating]:
        """Return every stored rating by (player id, family)."""
        c = ratings_table.c
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(sa.select(c.player_id, c.family, c.mu, c.sigma, c.games))
            return {(r.player_id, r.family): Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}


def search_statement(query: GameQuery, dialect: str = "sqlite") -> tuple[sa.TextClause, dict[str, Any]]:
    """Return the statement of a page of the search (keyset-paged, newest first) on ``dialect``, and its parameters."""
    params: dict[str, Any] = {
        "player": query.player, "preset": query.preset, "status": query.status, "rated": query.rated,
        "since": query.since, "until": query.until, "limit": query.limit,
        "at": None if query.after is None else query.after[0], "game": None if query.after is None else query.after[1],
    }
    shape = tuple(params[name] is not None for name in _FILTERS)
    return _search_text(shape, dialect == "postgresql"), params


_FILTERS = ("player", "preset", "status", "rated", "since", "until", "at")
_COLUMNS = ("game_id", "preset", "family", "rated", "status", "created_at", "finished_at")


@functools.cache
def _search_text(shape: tuple[bool, ...], lateral: bool) -> sa.TextClause:
    """Return the search's statement for the filters present: one text per shape and dialect, built once.

    With a player, the page is read from that player's rows of ``game_players`` in the order of
    its index (player_id, created_at, game_id), newest first, each row's game looked up by
    ``game_index``'s key and kept if it passes the other filters, until the page is full. On
    PostgreSQL the lookup is a LATERAL subquery (its LIMIT 1 keeps the planner from folding it
    into a join): the planner cannot then start from the preset's or the status's index and
    sort their matches, whatever its statistics say (without them, right after a bulk load, it
    did: 1.8 s a page over a million games). SQLite plans the plain join that way already.
    Without a player, the page is read from ``game_index`` by the index of its filter.
    """
    player, preset, status, rated, since, until, after = shape
    by = "p" if player else "g"
    kept = [f"g.{name} = :{name}" for name, present in (("preset", preset), ("status", status), ("rated", rated))
            if present]
    keyed = ["p.player_id = :player"] if player else []
    keyed += [f"{by}.created_at >= :since"] if since else []
    keyed += [f"{by}.created_at < :until"] if until else []
    keyed += [f"({by}.created_at, {by}.game_id) < (:at, :game)"] if after else []
    columns = ", ".join(f"g.{name}" for name in _COLUMNS)
    if player and lateral:
        inner = " AND ".join(["g.game_id = p.game_id", *kept])
        sql = (f"SELECT {columns.replace('g.', 'l.')} FROM game_players AS p CROSS JOIN LATERAL"
               f" (SELECT {columns} FROM game_index AS g WHERE {inner} LIMIT 1) AS l")
        where = keyed
    elif player:
        sql = f"SELECT {columns} FROM game_players AS p JOIN game_index AS g ON g.game_id = p.game_id"
        where = keyed + kept
    else:
        sql = f"SELECT {columns} FROM game_index AS g"
        where = kept + keyed
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += f" ORDER BY {by}.created_at DESC, {by}.game_id DESC LIMIT :limit"
    return sa.text(sql)


def players_of(conn: Connection, game_ids: list[str]) -> dict[str, dict[int, Player]]:
    """Return the players of these games, by game and seat."""
    found: dict[str, dict[int, Player]] = defaultdict(dict)
    if not game_ids:
        return found
    rows = conn.execute(_PLAYERS_OF, {"games": game_ids})
    for row in rows:
        found[row.game_id][row.seat] = Player(row.id, row.name, row.created_at)
    return found


def _recorded(row: Any) -> RatingRecorded:
    return RatingRecorded(
        player_id=row["player_id"], family=row["family"], games=int(row["games"]), position=int(row["position"]),
        game_id=row["game_id"], mu=float(row["mu"]), sigma=float(row["sigma"]), at=row["at"],
    )


def _found(row: Any, players: dict[int, Player]) -> GameFound:
    return GameFound(
        game_id=row["game_id"], preset=row["preset"], family=row["family"], rated=bool(row["rated"]),
        status=row["status"], created_at=row["created_at"], finished_at=row["finished_at"], players=players,
    )



