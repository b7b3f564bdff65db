"""The statements of players' rows: a player, its tokens, the seats it holds, the games' index.

Each is written in the transaction of the change that carries it (service/store/rows.py): a
new player with its first token, a token rotated, a game's index row with its creation, the
seats players hold with the creation or claim that seats them, a status with the change
that starts or ends the game. Tokens are numbered per player by the statement itself (the
next after the highest), so two rotations at once cannot both store a token: the unique
(player_id, number) refuses the second, whose transaction is void.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.players import FINISHED, GameIndexed, GameStatusChanged, NewPlayer, PlayerRow, PlayerSeat, PlayerToken
from service.store.schema import game_index_table, players_table

INSERT_TOKEN = sa.text(
    "INSERT INTO player_tokens (token_hash, player_id, number, created_at)"
    " SELECT :token_hash, :player_id, coalesce(max(number), 0) + 1, :now FROM player_tokens WHERE player_id = :player_id"
)
INSERT_PLAYER_SEAT = sa.text(
    "INSERT INTO game_players (game_id, seat, player_id, created_at)"
    " SELECT :game_id, :seat, :player_id,"
    " coalesce((SELECT created_at FROM game_index WHERE game_id = :game_id), :now)"
)
UPDATE_STATUS = sa.text(
    "UPDATE game_index SET status = :status,"
    " finished_at = CASE WHEN :finished THEN :now ELSE finished_at END WHERE game_id = :game_id"
)


def write_player_rows(conn: Connection, game_id: str | None, rows: Sequence[PlayerRow], now: str) -> None:
    """Write players' rows in the change's open transaction: players and tokens first, then the index, then seats."""
    for row in rows:
        if isinstance(row, NewPlayer):
            conn.execute(sa.insert(players_table).values(id=row.player_id, name=row.name, created_at=now))
    for row in rows:
        if isinstance(row, PlayerToken):
            conn.execute(INSERT_TOKEN, {"token_hash": row.token_hash, "player_id": row.player_id, "now": now})
    if game_id is None:
        if any(isinstance(row, (GameIndexed, PlayerSeat, GameStatusChanged)) for row in rows):
            raise ValueError("a game's index, seats and status are rows of that game's change")
        return
    for row in rows:
        if isinstance(row, GameIndexed):
            conn.execute(sa.insert(game_index_table).values(
                game_id=game_id, preset=row.preset, family=row.family, rated=row.rated, status=row.status,
                created_at=now, finished_at=None,
            ))
    seats = [{"game_id": game_id, "seat": r.seat, "player_id": r.player_id, "now": now}
             for r in rows if isinstance(r, PlayerSeat)]
    if seats:
        conn.execute(INSERT_PLAYER_SEAT, seats)
    for row in rows:
        if isinstance(row, GameStatusChanged):
            conn.execute(UPDATE_STATUS, {"status": row.status, "finished": row.status == FINISHED, "now": now,
                                         "game_id": game_id})
