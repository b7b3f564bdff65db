"""The statements of players' rows: a player, its tokens, the seats it holds, the games' index, the projections'.

Each is written in the transaction of the change that carries it (service/store/rows.py): a
new player with its first token, a token rotated, a game's index row with its creation, the
seats players hold with the creation or claim that seats them, a status with the change
that starts or ends the game. Tokens are numbered per player by the statement itself (the
next after the highest), so two rotations at once cannot both store a token: the unique
(player_id, number) refuses the second, whose transaction is void.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.players import (
    FINISHED, GameCounted, GameIndexed, GameStatusChanged, NewPlayer, PlayerRow, PlayerSeat, PlayerToken,
    ProjectionAdvanced, ProjectionLeased, ProjectionMovedError, RatingRecorded, RatingSet, StatisticsAdded,
)
from service.store.schema import STATISTICS, game_index_table, players_table

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


UPSERT_RATING = sa.text(
    "INSERT INTO ratings (player_id, family, mu, sigma, rating, games) VALUES (:player_id, :family, :mu, :sigma, :rating, :games)"
    " ON CONFLICT (player_id, family) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
    " games = excluded.games"
)
UPSERT_STATISTICS = sa.text(
    f"INSERT INTO player_statistics (player_id, family, {', '.join(STATISTICS)})"
    f" VALUES (:player_id, :family, {', '.join(':' + name for name in STATISTICS)})"
    " ON CONFLICT (player_id, family) DO UPDATE SET "
    + ", ".join(f"{name} = player_statistics.{name} + excluded.{name}" for name in STATISTICS)
)
RECORD_RATING = sa.text(
    "INSERT INTO rating_history (player_id, family, games, position, game_id, mu, sigma, rating, at)"
    " VALUES (:player_id, :family, :games, :position, :game_id, :mu, :sigma, :rating, :at)"
    " ON CONFLICT (player_id, family, games) DO UPDATE SET position = excluded.position, game_id = excluded.game_id,"
    " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, at = excluded.at"
)
INSERT_COUNTED = sa.text("INSERT INTO counted_games (game_id, position, line) VALUES (:game_id, :position, :line)")
ADVANCE = sa.text("UPDATE projections SET position = :to WHERE name = :name AND position = :after")
LEASE = sa.text(
    "UPDATE projections SET lease_holder = :holder, lease_expires_at = :until WHERE name = :name"
    " AND (lease_holder IS NULL OR lease_holder = :holder OR lease_expires_at < :now)"
)


def write_projection_rows(conn: Connection, rows: Sequence[PlayerRow]) -> None:
    """Write a projection's batch: first its new position, then its lease, the games counted, ratings (and their
    history) and statistics.

    The position moves only from where the batch began (compare-and-set, the batch's first
    statement: on PostgreSQL a rival's update of the row waits for this transaction, then
    finds the position moved): if another process moved it, ProjectionMovedError voids the
    whole transaction, so no game is counted twice (``counted_games``' key is a second wall).
    """
    for row in rows:  # first: a rival that stored this batch (or waits to) voids this one before anything is written
        if isinstance(row, ProjectionAdvanced):
            moved = conn.execute(ADVANCE, {"name": row.name, "after": row.after, "to": row.to})
            if moved.rowcount != 1:
                raise ProjectionMovedError(f"projection {row.name!r} is no longer at position {row.after}")
    for row in rows:
        if isinstance(row, ProjectionLeased):
            leased = conn.execute(LEASE, {"name": row.name, "holder": row.holder, "until": row.until, "now": row.now})
            if leased.rowcount != 1:
                raise ProjectionMovedError(f"another process holds the lease of projection {row.name!r}")
    counted = [{"game_id": r.game_id, "position": r.position, "line": r.line} for r in rows if isinstance(r, GameCounted)]
    if counted:
        conn.execute(INSERT_COUNTED, counted)
    for row in rows:
        if isinstance(row, RatingSet):
            conn.execute(UPSERT_RATING, {
                "player_id": row.player_id, "family": row.family, "mu": row.mu, "sigma": row.sigma,
                "rating": row.mu - 3 * row.sigma, "games": row.games,
            })
    history = [{**asdict(r), "rating": r.mu - 3 * r.sigma} for r in rows if isinstance(r, RatingRecorded)]
    if history:  # a point per (player, family, n-th rated game): a projection run again writes the same point over it
        conn.execute(RECORD_RATING, history)
    added = [asdict(r) for r in rows if isinstance(r, StatisticsAdded)]
    if added:
        conn.execute(UPSERT_STATISTICS, added)


def write_player_rows(conn: Connection, game_id: str | None, rows: Sequence[PlayerRow], now: str) -> None:
    """Write players' rows in the change's open transaction: players and tokens first, then the index, then seats."""
    for row in rows:
        if isinstance(row, NewPlayer):
            conn.execute(sa.insert(players_table).values(id=row.player_id, name=row.name, created_at=now))
    for row in rows:
        if isinstance(row, PlayerToken):
            conn.execute(INSERT_TOKEN, {"token_hash": row.token_hash, "player_id": row.player_id, "now": now})
    write_projection_rows(conn, rows)
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
