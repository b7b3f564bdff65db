"""The use cases of a table: open one, claim a seat, find waiting tables, leave a seat, take it back.

A game is played at a table when it is created with open seats, a listing or a turn
clock (docs/tables.md; service/games/creation.py creates every game). Each open seat gets
an invite, a secret shown once and stored as its hash; claiming the seat with it (or from
the list, where the seat is not invite-only at a listed table) answers the
seat's bearer token, also stored as its hash only. The claim is an event appended at the
version the claimer saw, with the token's row, so of racing claims of one seat exactly
one is stored; a claim that lost the race looks again and finds the seat taken (409). A
claim that lost to a claim of another seat, or to a computer's move, simply tries again.

Leaving hands the seat to a computer (the clock's stand-in level, or the one asked for)
for the rest of the game; when no human is left, the game is abandoned. A holder whose
clock ran out takes the seat back by acting (GameService.act) or by asking (``take_back``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.ai.players import check_level
from domain.events import Event
from domain.state import GameState
from domain.views import concealment, is_hash_shown, redact_event
from domain.tables import HUMAN, SeatNotOpenError, claim_seat, is_claimable_from_list, leave_seat, take_seat_back
from service.errors import ForbiddenError, InvalidRequestError, InviteRefusedError, UnauthorizedError, VersionConflictError
from service.games.deal_sources import LazyDeals
from service.games.outbox import DEFAULT_COMPUTER_LEVEL
from service.games.service import GameService
from service.games.tokens import hash_token, new_token
from service.games.writer import Written
from service.ports.events import Row, SeatRecord
from service.ports.players import PlayerSeat
from service.ports.tables import TableLog

RETRIES = 8  # a table's change that lost a race to another is decided again on the new state, this often


@dataclass(frozen=True, slots=True)
class Claimed:
    """A seat taken: its bearer token (shown only now) and the game's version after the claim."""

    game_id: str
    seat: int
    token: str
    version: int


@dataclass(frozen=True, slots=True)
class Changed:
    """A table's change by a seat (leaving, taking the seat back): the version after it and the events it stored."""

    version: int
    events: list[dict[str, Any]]


class TableService:
    """Tables over a game service and the store of tables."""

    def __init__(self, games: GameService, store: TableLog) -> None:
        self.games = games
        self.store = store
        self.writer = games.writer

    def claim(
        self, game_id: str, seat: int, invite: str | None, player: str | None = None, invited: bool = False,
    ) -> Claimed:
        """Take open ``seat`` with its invite (or from the list where allowed); return its token.

        With ``player`` (the id of the player whose token came with the claim), that player
        holds the seat: their token acts for it, and the game's views name them. ``invited``:
        the caller found the seat kept for this player (a rematch), so ``invite`` is not checked.
        """
        self._check_player(game_id, player, seat)
        derive = None
        for _ in range(RETRIES):
            state = self.games.load(game_id)
            if state.table is not None and state.table.rematch_of and invite is not None:
                derive = _rematch_token(game_id, invite)
            try:
                events = claim_seat(state, seat, LazyDeals(self.games.deal_sources, game_id))
            except SeatNotOpenError:
                again = self._claimed_before(game_id, seat, derive)
                if again is not None:
                    return Claimed(game_id, seat, again, state.version)
                raise
            if not invited:
                self._check_invite(state, game_id, seat, invite)
            token = derive or new_token()
            rows: list[Row] = [SeatRecord(seat, hash_token(token), HUMAN, None)]
            if player is not None:
                rows.append(PlayerSeat(seat, player))
            try:
                written = self.writer.append(game_id, state, events, rows)
            except VersionConflictError:
                continue  # another claim, a departure or a computer came first: look again
            return Claimed(game_id, seat, token, written.version)
        raise VersionConflictError("the table changed too often while claiming the seat; try again", state.version)

    def _check_player(self, game_id: str, player: str | None, seat: int) -> None:
        """Raise when a rated game's seat is claimed without a player, or by a player holding another of its seats."""
        players = self.games.players
        if players is None:
            return
        if player is None:
            indexed = players.indexed(game_id)
            if indexed is not None and indexed.rated:
                raise ForbiddenError("a rated game's seats are taken by players: send your player's token")
            return
        if any(holder.id == player and held != seat for held, holder in players.game_players(game_id).items()):
            raise InvalidRequestError("this player holds a seat of this game already")

    def _check_invite(self, state: GameState, game_id: str, seat: int, invite: str | None) -> None:
        if invite is None:
            if not is_claimable_from_list(state, seat):
                raise InviteRefusedError(f"seat {seat} is reached only by its invite")
            return
        stored = self.store.invite_hash(game_id, seat)
        if stored is None or not hmac.compare_digest(stored, hash_token(invite)):
            raise InviteRefusedError(f"this invite is not seat {seat}'s")

    def _claimed_before(self, game_id: str, seat: int, token: str | None) -> str | None:
        """Return a rematch seat's token again to its player, who took the seat already."""
        if token is None:
            return None
        held = next((s for s in self.games.store.seats(game_id) if s.seat == seat), None)
        return token if held is not None and hmac.compare_digest(held.token_hash, hash_token(token)) else None

    def leave(self, game_id: str, token: str | None, level: int | None = None) -> Changed:
        """Hand the token's seat to a computer for the rest of the game; abandon it when no human is left."""
        if level is not None:
            _level(level)

        def decide(state: GameState, seat: int) -> list[Event]:
            table = state.table
            chosen = level or (table.stand_in_level if table is not None and table.has_clock else DEFAULT_COMPUTER_LEVEL)
            return leave_seat(state, seat, chosen, LazyDeals(self.games.deal_sources, game_id))

        return self._by_seat(game_id, token, decide)

    def take_back(self, game_id: str, token: str | None) -> Changed:
        """Give the token's seat back to its holder after its clock ran out (the stand-in stops acting for it)."""
        return self._by_seat(game_id, token, take_seat_back)

    def _by_seat(
        self, game_id: str, token: str | None, decide: Callable[[GameState, int], list[Event]],
    ) -> Changed:
        """Decide and store a seat's change of the table, on the latest state, until no one else came first."""
        if token is None:
            raise UnauthorizedError("this needs the seat's bearer token")
        self.games.load(game_id)
        seat = self.games.seat_of(game_id, token)
        assert seat is not None
        for _ in range(RETRIES):
            state = self.games.load(game_id)
            try:
                written = self.writer.append(game_id, state, decide(state, seat))
            except VersionConflictError:
                continue  # a computer or another seat moved the game on: decide again
            return Changed(written.version, self._shown(game_id, seat, written))
        raise VersionConflictError("the game moved on too often; try again", self.games.load(game_id).version)

    def _shown(self, game_id: str, seat: int, written: Written) -> list[dict[str, Any]]:
        """Return the stored events as ``seat`` may see them now."""
        hidden = concealment(written.state)
        return [
            {"version": e.version, "type": e.type, "data": redact_event(e.type, e.data, seat, hidden),
             "recorded_at": e.recorded_at, "hash": e.hash if is_hash_shown(hidden, e.version) else None}
            for e in written.stored.events
        ]

    def listing(
        self, after: str | None, limit: int, preset: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Return a page of the listed waiting tables (oldest first) and the cursor of the next, if any."""
        rows = self.store.listings(_cursor(after), limit + 1, preset)
        page = rows[:limit]
        tables = [
            {"id": r.game_id, "preset": r.preset, "title": r.title, "players": r.players,
             "open_seats": list(r.open_seats), "waiting_for": r.waiting_for, "created_at": r.created_at,
             "rated": r.rated}
            for r in page
        ]
        more = len(rows) > limit
        return tables, (_next_cursor(page[-1].created_at, page[-1].game_id) if more else None)


def _level(level: int) -> None:
    try:
        check_level(level)
    except ValueError as error:
        raise InvalidRequestError(str(error)) from None


def _rematch_token(game_id: str, invite: str) -> str:
    """Return the token of a rematch's seat for the player holding ``invite`` (their seat's token before).

    Derived, never stored (only its hash is): the player may ask again and gets the same token.
    """
    digest = hashlib.sha256(f"pitch-rematch:{game_id}:{invite}".encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _cursor(text: str | None) -> tuple[str, str] | None:
    """Return the (created time, game id) a page starts after: the cursor's two halves, either possibly empty.

    The cursor is keyset pagination written out (``created_at|game_id``): any text is a place
    in that order, so a list read with any ``after`` is a page (perhaps empty), never an error.
    """
    if text is None:
        return None
    created_at, _, game_id = text.partition("|")
    return created_at, game_id


def _next_cursor(created_at: str, game_id: str) -> str:
    return f"{created_at}|{game_id}"
