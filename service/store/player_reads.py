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
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.players import GameFound, GameQuery, Player
from service.store.schema import game_index_table, players_table

if TYPE_CHECKING:
    from service.store.recorder import Recorder

    _Recorder = Recorder
else:
    _Recorder = object

_PLAYERS_OF = sa.text(
    "SELECT p.game_id, p.seat, q.id, q.name, q.created_at FROM game_players AS p JOIN players AS q ON q.id = p.player_id"
    " WHERE p.game_id IN :games"
).bindparams(sa.bindparam("games", expanding=True))
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
            rows = conn.execute(*search_statement(query)).all()
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


def search_statement(query: GameQuery) -> tuple[sa.TextClause, dict[str, Any]]:
    """Return the statement of a page of the search (keyset-paged, newest first) and its parameters."""
    params: dict[str, Any] = {
        "player": query.player, "preset": query.preset, "status": query.status, "rated": query.rated,
        "since": query.since, "until": query.until, "limit": query.limit,
        "at": None if query.after is None else query.after[0], "game": None if query.after is None else query.after[1],
    }
    shape = tuple(params[name] is not None for name in _FILTERS)
    return _search_text(shape), params


_FILTERS = ("player", "preset", "status", "rated", "since", "until", "at")


@functools.cache
def _search_text(shape: tuple[bool, ...]) -> sa.TextClause:
    """Return the search's statement for the filters present: one text per shape, built once.

    With a player, the page is read from that player's rows of ``game_players`` (its index on
    player_id, created_at, game_id); else from ``game_index`` by the index of its filter.
    """
    player, preset, status, rated, since, until, after = shape
    by = "p" if player else "g"
    sql = "SELECT g.game_id, g.preset, g.family, g.rated, g.status, g.created_at, g.finished_at FROM "
    sql += "game_players AS p JOIN game_index AS g ON g.game_id = p.game_id" if player else "game_index AS g"
    where = ["p.player_id = :player"] if player else []
    where += ["g.preset = :preset"] if preset else []
    where += ["g.status = :status"] if status else []
    where += ["g.rated = :rated"] if rated else []
    where += [f"{by}.created_at >= :since"] if since else []
    where += [f"{by}.created_at < :until"] if until else []
    where += [f"({by}.created_at, {by}.game_id) < (:at, :game)"] if after else []
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


def _found(row: Any, players: dict[int, Player]) -> GameFound:
    return GameFound(
        game_id=row["game_id"], preset=row["preset"], family=row["family"], rated=bool(row["rated"]),
        status=row["status"], created_at=row["created_at"], finished_at=row["finished_at"], players=players,
    )



