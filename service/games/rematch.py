"""A rematch: any seat of an ended game asks, and one new game waits for the same players.

The first seat to ask appends RematchCreated (with the new game's id) to the ended game,
at its version, so however many ask at once the game has one rematch; then the new game
is created, if it is not yet: the same rules and seat kinds, a clock as before, fresh
deals, unlisted. Each seat a person held (or left) is open in it, kept for that person:
its invite is the person's seat token in the ended game (stored, as any invite, as its
hash, which is the hash the ended game stores for the token). Asking claims the asker's
seat in the rematch and answers its token, derived from the old one and the new game's
id, so asking again answers the same token. A seat nobody held (a game abandoned while
it waited) is a computer's in the rematch. The rematch deals once every player is back.

A seat a player held (service/players/) is kept for the same player: whoever of them asks,
with the old seat's token or the player's own, the player holds the seat in the rematch
(their token acts for it, and views name them), and a rated game's rematch is rated.
"""

from __future__ import annotations

import uuid

from domain.errors import IllegalActionError
from domain.state import GameState
from domain.table_events import RematchCreated
from domain.tables import COMPUTER, rematch_seats
from service.errors import GameNotFinishedError, UnauthorizedError, VersionConflictError
from service.games.outbox import DEFAULT_COMPUTER_LEVEL
from service.games.creation import ClockSettings, NewGame, SeatRequest
from service.games.tokens import hash_token
from service.games.tables import RETRIES, Claimed, TableService
from service.ports.events import GameExistsError


class Rematches:
    """Rematches of ended games."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.games = tables.games

    def rematch(self, game_id: str, token: str | None) -> Claimed:
        """Return the asker's seat in the ended game's rematch (created on the first ask), with its token."""
        if token is None:
            raise UnauthorizedError("a rematch is asked for by a seat: send its bearer token")
        state = self.games.load(game_id)
        seat = self.games.seat_of(game_id, token)
        assert seat is not None
        if state.ended is None:
            raise GameNotFinishedError(f"game {game_id!r} is still being played; a rematch follows its end")
        if seat not in rematch_seats(state)[1]:
            raise IllegalActionError(f"seat {seat} is a computer's: a rematch is asked for by a person's seat")
        rematch_id = self._rematch_of(game_id, state)
        self._create(game_id, rematch_id, state)
        player = self._players_of(game_id).get(seat)
        if player is not None and self.games.seats.seat_of(game_id, hash_token(token)) is None:
            # Asked with the player's own token: the seat is kept for that player, who needs no invite.
            return self.tables.claim(rematch_id, seat, token, player=player, invited=True)
        return self.tables.claim(rematch_id, seat, token, player=player)

    def _players_of(self, game_id: str) -> dict[int, str]:
        """Return the id of the player who held each seat of the game that one held."""
        players = self.games.players
        return {} if players is None else {seat: p.id for seat, p in players.game_players(game_id).items()}

    def _rematch_of(self, game_id: str, state: GameState) -> str:
        """Return the id of the game's rematch, recording a new one unless another seat did first."""
        for _ in range(RETRIES):
            if state.table is not None and state.table.rematch:
                return state.table.rematch
            try:
                self.games.writer.append(game_id, state, [RematchCreated(str(uuid.uuid4()))])
            except VersionConflictError:
                pass  # another seat asked first: its rematch is the one
            state = self.games.load(game_id)
        raise VersionConflictError("the game changed too often while asking for its rematch; try again", state.version)

    def _create(self, game_id: str, rematch_id: str, state: GameState) -> None:
        """Create the rematch unless it exists (every asker tries; one creation is stored)."""
        if self.games.store.version(rematch_id) > 0:
            return
        assert state.start is not None
        specs, kept = rematch_seats(state)
        held = {s.seat: s.token_hash for s in self.games.store.seats(game_id)}
        table = state.table
        level = table.stand_in_level if table is not None and table.has_clock else DEFAULT_COMPUTER_LEVEL
        seats = [
            SeatRequest(COMPUTER, level) if i in kept and i not in held else SeatRequest(spec.kind, spec.level)
            for i, spec in enumerate(specs)
        ]
        clock = None
        if table is not None and table.has_clock:
            clock = ClockSettings(table.clock_seconds, table.stand_in_level, table.handover_after)
        indexed = None if self.games.players is None else self.games.players.indexed(game_id)
        try:
            self.games.create(NewGame(
                state.start.preset, dict(state.start.rules), seats, clock=clock, rematch_of=game_id,
                game_id=rematch_id, invites={i: held[i] for i in kept if i in held},
                rated=indexed is not None and indexed.rated,
            ))
        except GameExistsError:
            pass  # another seat's ask created it first
