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

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.players import GameFound, GameQuery, Player
from service.store.schema import game_index_table, game_players_table, players_table

if TYPE_CHECKING:
    from service.store.recorder import Recorder

    _Recorder = Recorder
else:
    _Recorder = object

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
            rows = conn.execute(search_statement(query)).all()
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


def search_statement(query: GameQuery) -> sa.Select[Any]:
    """Return the statement of a page of the search: keyset-paged, newest first."""
    g = game_index_table.c
    if query.player is not None:
        p = game_players_table.c
        created, game = p.created_at, p.game_id
        statement = (
            sa.select(game_index_table).select_from(game_players_table.join(game_index_table, g.game_id == p.game_id))
            .where(p.player_id == query.player)
        )
    else:
        created, game = g.created_at, g.game_id
        statement = sa.select(game_index_table)
    if query.preset is not None:
        statement = statement.where(g.preset == query.preset)
    if query.status is not None:
        statement = statement.where(g.status == query.status)
    if query.rated is not None:
        statement = statement.where(g.rated == query.rated)
    if query.since is not None:
        statement = statement.where(created >= query.since)
    if query.until is not None:
        statement = statement.where(created < query.until)
    if query.after is not None:
        at, game_id = query.after
        statement = statement.where(sa.or_(created < at, sa.and_(created == at, game < game_id)))
    return statement.order_by(created.desc(), game.desc()).limit(query.limit)


def players_of(conn: Connection, game_ids: list[str]) -> dict[str, dict[int, Player]]:
    """Return the players of these games, by game and seat."""
    found: dict[str, dict[int, Player]] = defaultdict(dict)
    if not game_ids:
        return found
    p, q = game_players_table.c, players_table.c
    rows = conn.execute(
        sa.select(p.game_id, p.seat, q.id, q.name, q.created_at)
        .select_from(game_players_table.join(players_table, q.id == p.player_id))
        .where(p.game_id.in_(game_ids))
    )
    for row in rows:
        found[row.game_id][row.seat] = Player(row.id, row.name, row.created_at)
    return found


def _found(row: Any, players: dict[int, Player]) -> GameFound:
    return GameFound(
        game_id=row["game_id"], preset=row["preset"], family=row["family"], rated=bool(row["rated"]),
        status=row["status"], created_at=row["created_at"], finished_at=row["finished_at"], players=players,
    )



