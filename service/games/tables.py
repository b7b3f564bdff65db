"""The use cases of a table: open one, claim a seat, find waiting tables, leave a seat, take it back.

A game is played at a table when it is created with open seats, a listing or a turn
clock (docs/tables.md); otherwise creating it is GameService's plain creation. Each open
seat gets an invite, a secret shown once and stored as its hash; claiming the seat with
it (or from the list, where the seat is not invite-only at a listed table) answers the
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
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.ai.players import check_level
from domain.dealing import start_game
from domain.events import Event, SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.presets import get_preset, resolve_rules
from domain.rules import Rules
from domain.state import GameState
from domain.views import concealment, is_hash_shown, redact_event
from domain.tables import (
    COMPUTER, HUMAN, OPEN, SeatNotOpenError, claim_seat, is_claimable_from_list, leave_seat, open_table, table_view,
    take_seat_back,
)
from service.errors import InvalidRequestError, InviteRefusedError, UnauthorizedError, VersionConflictError
from service.games.deal_sources import LazyDeals
from service.games.outbox import DEFAULT_COMPUTER_LEVEL
from service.games.service import AI_LEVELS, CreatedGame, GameService
from service.games.table_writes import TableWrites, Written, jobs_of, listed_seats, new_events
from service.games.tokens import hash_token, new_token
from service.ports.events import SeatRecord
from service.ports.tables import Invite, Listing, TableLog

TABLE_SEAT_KINDS = (HUMAN, COMPUTER, OPEN)
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


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A turn clock as asked for at creation."""

    seconds: int
    level: int = 3
    handover_after: int = 3


class TableService:
    """Tables over a game service and the store of tables."""

    def __init__(self, games: GameService, store: TableLog) -> None:
        self.games = games
        self.store = store
        self.writes = TableWrites(games, store)

    def create_game(
        self, preset: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], seed: str | None = None,
        listed: bool = False, clock: ClockSettings | None = None, rematch_of: str = "", game_id: str | None = None,
        invites: Mapping[int, str] | None = None,
    ) -> CreatedGame:
        """Start a game; at a table when it has open seats, a listing or a clock (its seats wait, or it deals).

        ``invites`` gives the hashes of open seats' invites decided by the caller (a
        rematch's seats wait for the players of the game before); the others get fresh ones.
        """
        specs = [_seat_spec(i, seat) for i, seat in enumerate(seats)]
        if not listed and clock is None and all(s.kind != OPEN for s in specs) and not rematch_of:
            return self.games.create_game(preset, options, seats, seed)
        rules = resolve_rules(preset, options)
        if len(specs) != rules.players:
            raise InvalidRequestError(f"these rules seat {rules.players} players, but {len(specs)} seats were given")
        opened = open_table(
            specs, [i for i, seat in enumerate(seats) if seat.get("invite_only")], listed,
            clock.seconds if clock else 0, clock.level if clock else DEFAULT_COMPUTER_LEVEL,
            clock.handover_after if clock else 3, rematch_of,
        )
        secret, source_kind = (secrets.token_bytes(32), "server") if seed is None else (seed_from_text(seed), "client")
        deals = SeededDeals(secret)
        started, dealt = start_game(
            rules, preset, specs, first_dealer(secret, rules.players), commit(secret, source_kind), deals,
        )
        events: list[Event] = [started, opened] if opened.open_seats else [started, opened, dealt]
        state = replay(events)
        game_id = game_id or str(uuid.uuid4())
        tokens = {i: new_token() for i, s in enumerate(specs) if s.kind != OPEN}
        shown = {i: new_token() for i in opened.open_seats if invites is None or i not in invites}
        hashed = {**{i: hash_token(t) for i, t in shown.items()}, **(invites or {})}
        records = [SeatRecord(i, hash_token(t), specs[i].kind, specs[i].level) for i, t in tokens.items()]
        listing = None
        if listed and opened.open_seats:
            listing = Listing(game_id, preset, get_preset(preset).title, rules.players, listed_seats(state),
                              len(opened.open_seats), "")
        result = self.store.create_table(
            game_id, new_events(events), records, secret.hex(), jobs_of(state),
            [Invite(i, h) for i, h in sorted(hashed.items())], listing, concealment(state),
        )
        self.games.metrics.events_appended(len(result.events))
        self.games.deal_sources.keep(game_id, deals)
        self.games.states.remember(game_id, state)
        self.games.dispatch(result)
        return CreatedGame(
            game_id=game_id, version=result.events[-1].version, preset=preset, rules=rules.to_dict(),
            seats=[_seat_created(i, spec, rules, tokens.get(i), shown.get(i), i in opened.invite_only)
                   for i, spec in enumerate(specs)],
            table=table_view(state),
        )

    def claim(self, game_id: str, seat: int, invite: str | None) -> Claimed:
        """Take open ``seat`` with its invite (or from the list where allowed); return its token."""
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
            self._check_invite(state, game_id, seat, invite)
            token = derive or new_token()
            try:
                written = self.writes.record(game_id, state, events, SeatRecord(seat, hash_token(token), HUMAN, None))
            except VersionConflictError:
                continue  # another claim, a departure or a computer came first: look again
            return Claimed(game_id, seat, token, written.version)
        raise VersionConflictError("the table changed too often while claiming the seat; try again", state.version)

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
                written = self.writes.record(game_id, state, decide(state, seat))
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
             "open_seats": list(r.open_seats), "waiting_for": r.waiting_for, "created_at": r.created_at}
            for r in page
        ]
        more = len(rows) > limit
        return tables, (_next_cursor(page[-1].created_at, page[-1].game_id) if more else None)


def _seat_spec(index: int, seat: Mapping[str, Any]) -> SeatSpec:
    kind = seat.get("kind")
    if kind not in TABLE_SEAT_KINDS:
        raise InvalidRequestError(f"seat {index}: kind must be 'human', 'ai' or 'open', not {kind!r}")
    level = seat.get("level")
    if seat.get("invite_only") and kind != OPEN:
        raise InvalidRequestError(f"seat {index}: only an open seat can be invite-only")
    if kind != COMPUTER:
        if level is not None:
            raise InvalidRequestError(f"seat {index}: a {'human' if kind == HUMAN else 'open'} seat has no level")
        return SeatSpec(kind=str(kind), level=None)
    if level not in AI_LEVELS or isinstance(level, bool):
        raise InvalidRequestError(f"seat {index}: a computer seat needs a level from 1 to 6, not {level!r}")
    return SeatSpec(kind=COMPUTER, level=int(level))


def _seat_created(
    seat: int, spec: SeatSpec, rules: Rules, token: str | None, invite: str | None, invite_only: bool,
) -> dict[str, Any]:
    shown: dict[str, Any] = {"seat": seat, "kind": spec.kind, "level": spec.level, "side": rules.side_of(seat)}
    if token is not None:
        shown["token"] = token
    if spec.kind == OPEN:
        shown["invite"] = invite
        shown["invite_only"] = invite_only
    return shown


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
