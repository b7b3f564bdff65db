"""The use cases of a game: create it, show it to a seat, take an action, list events.

Each use case loads the state by replaying the log (through the process's cache), asks
the domain what happens, and hands the resulting events to the writer
(service/games/writer.py), which stores them after the version they were decided on,
with the jobs and rows they call for, in one transaction, then dispatches and announces
them.

Pages of events (a game's, or every game's feed) are hidden by what the store kept
beside each game's log, read after the page: their cost depends on the page, not on how
long its games are. A game the store keeps nothing current for (stored before it kept
heads) is replayed once, and what it hides kept from then on.

The service depends on ports only (service/ports): an ``EventLog``, a ``Dispatcher`` and a
``Notifier``, handed in by the composition root (service/bootstrap.py).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from typing import Any, Sequence

from domain.actions import Action, Command
from domain.decide import decide
from domain.errors import PitchError
from domain.state import GameState
from domain.tables import holder_acting
from domain.views import Concealment, concealment, is_hash_shown, is_redacted, redact_event, seat_view
from service.errors import ForbiddenError, GameNotFoundError, IdempotencyKeyError, UnauthorizedError, VersionConflictError
from service.games.clock import deadline
from service.games.creation import CreatedGame, NewGame, create_game
from service.games.deal_sources import DealSources, LazyDeals
from service.games.seat_names import SeatNames
from service.games.seat_tokens import SeatTokens
from service.games.state_cache import StateCache, fold
from service.games.tokens import hash_token
from service.games.writer import RequestKey, Writer
from service.hashing import canonical_json
from service.metrics import Metrics, NoMetrics
from service.ports.events import EventLog, GameHead, IdempotencyKeyReusedError, StoredEvent
from service.ports.jobs import Dispatcher
from service.ports.players import PlayerLog
from service.ports.notify import NoNotifier, Notifier


@dataclass(frozen=True, slots=True)
class ActionResult:
    """The outcome of an accepted action: the new version and the events the seat may see."""

    version: int
    events: list[dict[str, Any]]
    replayed: bool


class GameService:
    """Games over an event store."""

    def __init__(
        self, store: EventLog, dispatcher: Dispatcher | None = None, cache_size: int = 1000,
        metrics: Metrics | None = None, notifier: Notifier | None = None, players: PlayerLog | None = None,
    ) -> None:
        """Serve games over ``store``; send the jobs each change stores to ``dispatcher``; tell ``notifier`` of each change.

        With no dispatcher the jobs are stored and left for a sweep to send (tools that
        read or replay games, and never run jobs). With ``players``, a player's token acts
        for the seat its player holds, and views name each seat's player.
        """
        self.store = store
        self.players = players
        self.names = SeatNames(players, cache_size)
        self.metrics: Metrics = metrics or NoMetrics()
        self.states = StateCache(store, cache_size, self.metrics)
        self.seats = SeatTokens(store, cache_size)
        self.deal_sources = DealSources(store, max(cache_size // 4, 1))
        self.writer = Writer(store, dispatcher, notifier or NoNotifier(), self.metrics, self.states, self.deal_sources)

    def create(self, request: NewGame) -> CreatedGame:
        """Start a game with these rules and seats (at a table when it asks for one); deal its first hand."""
        return create_game(self.writer, request)

    def load(self, game_id: str) -> GameState:
        """Return the current state of a game, or raise GameNotFoundError."""
        if not is_game_id(game_id):
            raise GameNotFoundError(f"there is no game {game_id[:80]!r}: game ids are UUIDs")
        state = self.states.load(game_id)
        if state.version == 0:
            raise GameNotFoundError(f"there is no game {game_id!r}")
        return state

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """Return the seat a token belongs to (None without a token); raise if it is not this game's."""
        if token is None:
            return None
        seat = self.seats.seat_of(game_id, hash_token(token))
        if seat is None:
            return self._player_seat(game_id, token)
        return seat

    def _player_seat(self, game_id: str, token: str) -> int:
        """Return the seat of the game that the player whose token this is holds; raise if none."""
        player = None if self.players is None else self.players.player_by_token(hash_token(token))
        if player is None:
            raise UnauthorizedError("this token is not a seat of this game, nor a player's")
        assert self.players is not None
        seats = [seat for seat, holder in self.players.game_players(game_id).items() if holder.id == player.id]
        if not seats:
            raise ForbiddenError("this player holds no seat of this game")
        return seats[0]

    def view(self, game_id: str, token: str | None, at: int | None = None) -> dict[str, Any]:
        """Return the game as the token's seat (or a spectator) may see it, now or as of version ``at``."""
        state = self.load(game_id)
        if at is not None and at != state.version:
            if at > state.version:
                raise GameNotFoundError(f"game {game_id!r} has no version {at}; it is at version {state.version}")
            state = fold(self.store.read(game_id, limit=at))
        view = seat_view(state, self.seat_of(game_id, token))
        view["id"] = game_id
        self.names.name_seats(game_id, state, view["seats"])
        if view["table"] is not None:
            view["table"]["deadline"] = deadline(self.store, game_id, state)
            view["table"]["rated"] = self.names.rated(game_id)
        return view

    def act(
        self, game_id: str, token: str | None, expected_version: int, action: Action,
        idempotency_key: str | None = None,
    ) -> ActionResult:
        """Take a seat's action at the version the client saw; return what it caused."""
        state = self._state_at(game_id, expected_version)
        if token is None:
            raise UnauthorizedError("acting needs the seat's bearer token")
        seat = self.seat_of(game_id, token)
        assert seat is not None
        return self._act(game_id, action.by(seat), expected_version, idempotency_key, state, holder=True)

    def _state_at(self, game_id: str, version: int) -> GameState:
        """Return the game's state for an action expected at ``version``.

        When the cache holds the game at exactly that version, that state is used without
        reading the log: the append then stores the action only if ``version`` is still the
        head (it checks, in its own transaction), so a cache that fell behind another
        process's writes yields the same 409 a fresh read would. Otherwise the log is read.
        """
        cached = self.states.cached(game_id)
        if cached is not None and cached.version == version:
            return cached
        return self.load(game_id)

    def act_as(self, game_id: str, command: Command, expected_version: int, key: str) -> int:
        """Take a computer seat's command at the version it was chosen for; return the new version."""
        return self._act(game_id, command, expected_version, key, self.load(game_id)).version

    def _act(
        self, game_id: str, command: Command, expected_version: int, idempotency_key: str | None, state: GameState,
        holder: bool = False,
    ) -> ActionResult:
        """Decide and append an action on ``state``, the game as just read from its log.

        An action of the seat's ``holder`` (its token's) after its turn clock ran out takes
        the seat back from its stand-in first (domain/tables.py ``holder_acting``).

        A request already taken under its Idempotency-Key moved the game past its expected
        version, so the key is looked up only when the version differs (the first answer,
        or a key reused for another request) or the action is refused; otherwise the append
        looks it up in its own transaction, which also answers a repeat that raced its first copy.
        """
        seat = command.seat
        fingerprint = _fingerprint(seat, expected_version, command.to_action())
        if expected_version != state.version:
            earlier = self._earlier(game_id, seat, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
            self.metrics.version_conflict()
            raise VersionConflictError(
                f"the game is at version {state.version}, not {expected_version}", state.version,
            )
        try:
            taken_back = holder_acting(state, seat) if holder and state.table is not None else []
            events = taken_back + decide(state, command, LazyDeals(self.deal_sources, game_id))
        except PitchError:
            # A key used before for another request is refused as such, whatever this one asks.
            earlier = self._earlier(game_id, seat, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
            raise
        written = self.writer.append(
            game_id, state, events, key=None if idempotency_key is None else RequestKey(idempotency_key, fingerprint),
        )
        if written.stored.replayed:
            return self._result(game_id, seat, written.stored.events, replayed=True)
        return self._result(game_id, seat, written.stored.events, replayed=False, state=written.state)

    def _earlier(
        self, game_id: str, seat: int, idempotency_key: str | None, fingerprint: str,
    ) -> ActionResult | None:
        """Return the answer first given under ``idempotency_key``, None when it is unused (or None)."""
        if idempotency_key is None:
            return None
        try:
            earlier = self.store.replayed(game_id, idempotency_key, fingerprint)
        except IdempotencyKeyReusedError:
            raise IdempotencyKeyError("this Idempotency-Key was already used for a different request") from None
        if earlier is None:
            return None
        self.metrics.idempotent_replay()
        return self._result(game_id, seat, earlier.events, replayed=True)

    def _result(
        self, game_id: str, seat: int, stored: Sequence[StoredEvent], replayed: bool,
        state: GameState | None = None,
    ) -> ActionResult:
        """Return the events as ``seat`` may see them, hidden by ``state`` (else the game as it is now)."""
        state = self.load(game_id) if state is None else state
        hidden = concealment(state)
        return ActionResult(
            version=stored[-1].version,
            events=[_shown(e, seat, hidden) for e in stored],
            replayed=replayed,
        )

    def events(
        self, game_id: str, token: str | None, after: int = 0, limit: int = 100,
    ) -> tuple[list[dict[str, Any]], int | None]:
        """Return a page of the game's events as the caller may see them, and the next ``after``."""
        if not is_game_id(game_id):
            raise GameNotFoundError(f"there is no game {game_id[:80]!r}: game ids are UUIDs")
        stored = self.store.read(game_id, after=after, limit=limit)
        # Read after the page, the head hides at least what the page's own versions hid.
        head = self.heads([game_id]).get(game_id)
        if head is None:
            raise GameNotFoundError(f"there is no game {game_id!r}")
        seat = self.seat_of(game_id, token)
        shown = [_shown(e, seat, head.concealment) for e in stored]
        more = bool(stored) and stored[-1].version < head.version
        return shown, (stored[-1].version if more else None)

    def feed(self, after: int = 0, limit: int = 100) -> tuple[list[dict[str, Any]], int]:
        """Return every game's events after global position ``after`` as a spectator sees them, and the next ``after``.

        For projections and feeds: positions only grow, none is ever skipped, and nothing
        a spectator may not see is shown (each event is hidden by its game's head, read
        after the page).
        """
        stored = self.store.read_all(after, limit)
        heads = self.heads([e.game_id for e in stored])
        return [_shown(e, None, heads[e.game_id].concealment, spectated=True) for e in stored], (
            stored[-1].position if stored else after
        )

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Return each game's last version and what its events hide there (games with no events left out).

        The store answers for the games whose head it keeps at their last version; any
        other is replayed, and its head handed to the store to keep.
        """
        wanted = list(dict.fromkeys(game_ids))
        heads = self.store.heads(wanted) if wanted else {}
        for game_id in wanted:
            if game_id not in heads:
                state = self.states.load(game_id)
                if state.version:
                    heads[game_id] = GameHead(state.version, concealment(state))
                    self.store.remember_head(game_id, heads[game_id])
        return heads


def is_game_id(text: str) -> bool:
    """Tell whether ``text`` is written as the service writes game ids (a lower-case UUID)."""
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def _shown(stored: StoredEvent, seat: int | None, hidden: Concealment, spectated: bool = False) -> dict[str, Any]:
    """Return the event as ``seat`` may see it; in the feed (``spectated``) with its position and game.

    An event nobody sees less of keeps its data as read (the store decodes it for each read):
    a page of 1,000 events makes 1,000 fewer dictionaries for the garbage collector to scan.
    """
    data = redact_event(stored.type, stored.data, seat, hidden) if is_redacted(stored.type, stored.data, hidden) \
        else stored.data
    hash_ = stored.hash if is_hash_shown(hidden, stored.version) else None
    if spectated:
        return {"position": stored.position, "game_id": stored.game_id, "version": stored.version,
                "type": stored.type, "data": data, "recorded_at": stored.recorded_at, "hash": hash_}
    return {"version": stored.version, "type": stored.type, "data": data, "recorded_at": stored.recorded_at,
            "hash": hash_}


def _fingerprint(seat: int, expected_version: int, action: dict[str, Any]) -> str:
    body = {"seat": seat, "expected_version": expected_version, "action": action}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
