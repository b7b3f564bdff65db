"""Creating a game: its rules, its seats, its secret seed and first events, stored through the writer.

One creation for every game. A game is played at a table when it has open seats, a
listing, a turn clock or is a rematch (docs/tables.md): its TableOpened follows
GameStarted, and it deals at once unless a seat waits for its player. Each seat taken now
gets a bearer token, each open seat an invite (a secret shown once; a rematch's seats keep
the invites decided by the game before); both are stored as their hashes only, as rows
of the game's first change (service/games/writer.py), with its secret.

The seed is the server's (32 random bytes) unless the client gives one (``seed``, for
reproducible deals); either way it is committed in GameStarted before any card is dealt
(domain/fairness.py).

A creation sent with an ``Idempotency-Key`` creates one game however often it is sent
(a client retrying a lost answer): the game's id is derived from the key (``game_id_of``),
so a repeat finds the game taken, and the first change stores a ``CreationKey`` row (the
key's hash and the request's fingerprint, over the game's first events), so a repeat of
the same request is answered as the first was (the same id, version, seats and table), and
another request under that key is refused (IdempotencyKeyError). The seats' tokens and
open seats' invites are derived from the key (service/games/tokens.py), so the repeat
answers the same ones without the service keeping them anywhere: the key is the client's
secret, as strong as the tokens it stands for, and must hold at least
``MIN_CREATION_KEY`` characters (a UUID is 36).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.state import GameState
from domain.dealing import start_game
from domain.events import Event, SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.presets import resolve_rules
from domain.rules import Rules
from domain.tables import COMPUTER, HUMAN, OPEN, open_table, table_view
from service.errors import IdempotencyKeyError, InvalidRequestError
from service.games.index import family_of, status_of
from service.games.outbox import DEFAULT_COMPUTER_LEVEL
from service.games.state_cache import fold
from service.games.tokens import derived_token, hash_token, new_token
from service.games.writer import Writer
from service.hashing import canonical_json
from service.ports.events import CreationKey, GameExistsError, IdempotencyKeyReusedError, Row, SeatRecord
from service.ports.players import GameIndexed, PlayerSeat
from service.ports.tables import Invite

SEAT_KINDS = (HUMAN, COMPUTER, OPEN)
AI_LEVELS = (1, 2, 3, 4, 5, 6)
MIN_CREATION_KEY = 16
_GAME_IDS = uuid.UUID("1c0b4a52-7d0e-4bde-9a57-2f3b8c1e6d90")  # the namespace of ids derived from creation keys


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A seat as asked for: a person's (``human``), a computer's of a level (``ai``), or open for a player."""

    kind: str
    level: int | None = None
    invite_only: bool = False
    player: str | None = None  # the id of the player holding a human seat (service/players)


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A turn clock as asked for at creation."""

    seconds: int
    level: int = 3
    handover_after: int = 3


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create: its rules, its seats, and how it is played (a seed, a listing, a clock, a rematch)."""

    preset: str
    options: Mapping[str, Any]
    seats: Sequence[SeatRequest]
    seed: str | None = None
    listed: bool = False
    clock: ClockSettings | None = None
    rematch_of: str = ""
    game_id: str | None = None
    invites: Mapping[int, str] = field(default_factory=dict)  # open seats' invite hashes decided by the caller
    idempotency_key: str | None = None  # the client's: one game however often the request is sent
    rated: bool = False  # its result counts in its players' ratings (service/players/ratings.py)

    @property
    def at_table(self) -> bool:
        """Tell whether the game is played at a table (it has open seats, a listing, a clock or is a rematch)."""
        return self.listed or self.clock is not None or bool(self.rematch_of) or any(s.kind == OPEN for s in self.seats)


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game: its first view and each seat's token (shown only this once; an open seat's invite instead)."""

    game_id: str
    version: int
    preset: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    table: dict[str, Any] | None = None  # a game played at a table (service/games/tables.py)


def create_game(writer: Writer, request: NewGame) -> CreatedGame:
    """Start a game with these rules and seats; deal its first hand unless a seat waits for its player.

    Under an idempotency key, a repeat of the request answers the game it created; another
    request under the key raises IdempotencyKeyError.
    """
    specs, rules = check_request(request)
    key = request.idempotency_key
    if key is not None and len(key) < MIN_CREATION_KEY:
        raise InvalidRequestError(
            f"an Idempotency-Key for a new game is a secret (its seats' tokens are derived from it): send at least "
            f"{MIN_CREATION_KEY} random characters, such as a UUID"
        )
    if request.seed is None:
        secret, source_kind = secrets.token_bytes(32), "server"
    else:
        secret, source_kind = seed_from_text(request.seed), "client"
    deals = SeededDeals(secret)
    started, dealt = start_game(
        rules, request.preset, specs, first_dealer(secret, rules.players), commit(secret, source_kind), deals,
    )
    events: list[Event] = [started, dealt]
    open_seats: tuple[int, ...] = ()
    invite_only: tuple[int, ...] = ()
    if request.at_table:
        clock = request.clock
        opened = open_table(
            specs, [i for i, seat in enumerate(request.seats) if seat.invite_only], request.listed,
            clock.seconds if clock else 0, clock.level if clock else DEFAULT_COMPUTER_LEVEL,
            clock.handover_after if clock else 3, request.rematch_of,
        )
        open_seats, invite_only = opened.open_seats, opened.invite_only
        events = [started, opened] if open_seats else [started, opened, dealt]
    game_id = request.game_id or (str(uuid.uuid4()) if key is None else game_id_of(key))
    tokens = {i: _token(key, game_id, "seat", i) for i, s in enumerate(specs) if s.kind != OPEN}
    shown = {i: _token(key, game_id, "invite", i) for i in open_seats if i not in request.invites}
    hashed = {**{i: hash_token(t) for i, t in shown.items()}, **request.invites}
    rows: list[Row] = [SeatRecord(i, hash_token(t), specs[i].kind, specs[i].level) for i, t in tokens.items()]
    rows += [Invite(i, h) for i, h in sorted(hashed.items())]
    if key is not None:
        rows.append(CreationKey(creation_key(key), fingerprint(request), len(events)))
    rows.append(GameIndexed(request.preset, family_of(rules), request.rated, status_of(replay(events))))
    rows += [PlayerSeat(i, seat.player) for i, seat in enumerate(request.seats) if seat.player is not None]
    try:
        written = writer.create(game_id, deals, events, rows)
        version, state = written.version, written.state
    except GameExistsError:
        if key is None:
            raise
        version, state = _created_before(writer, game_id, key, request)
    return CreatedGame(
        game_id=game_id, version=version, preset=request.preset, rules=rules.to_dict(),
        seats=[_seat_created(i, spec, rules, tokens.get(i), shown.get(i), i in invite_only, request.seats[i].player)
               for i, spec in enumerate(specs)],
        table=_table_of(state, request.rated) if request.at_table else None,
    )


def _table_of(state: GameState, rated: bool) -> dict[str, Any] | None:
    """Return the new game's table as its view shows it."""
    table = table_view(state)
    if table is not None:
        table["rated"] = rated
    return table


def check_request(request: NewGame) -> tuple[list[SeatSpec], Rules]:
    """Return the seats and rules a creation asks for; raise for seats or rules that cannot be (400).

    The API checks a request so before it looks up the players its seats name (service/players).
    """
    specs = [seat_spec(i, seat) for i, seat in enumerate(request.seats)]
    check_players(request)
    rules = resolve_rules(request.preset, request.options)
    if len(specs) != rules.players:
        raise InvalidRequestError(f"these rules seat {rules.players} players, but {len(specs)} seats were given")
    return specs, rules


def check_players(request: NewGame) -> None:
    """Raise InvalidRequestError when a player would hold two seats, or a rated game seats an anonymous person."""
    held = [seat.player for seat in request.seats if seat.player is not None]
    if len(held) != len(set(held)):
        raise InvalidRequestError("a player holds one seat of a game, not two")
    if request.rated and any(seat.kind == HUMAN and seat.player is None for seat in request.seats):
        raise InvalidRequestError(
            "a rated game is played by players: each human seat needs one (\"player\": \"me\" with a player's "
            "token, or a player's id with an app key); open seats are claimed with a player's token"
        )


def _token(key: str | None, game_id: str, purpose: str, seat: int) -> str:
    """Return a new seat's token or open seat's invite: random, or derived from the creation's key."""
    return new_token() if key is None else derived_token(key, game_id, purpose, str(seat))


def _created_before(writer: Writer, game_id: str, key: str, request: NewGame) -> tuple[int, GameState]:
    """Return the version and state a game created under ``key`` had once created, if ``request`` created it."""
    try:
        first = writer.store.replayed(game_id, creation_key(key), fingerprint(request))
    except IdempotencyKeyReusedError:
        first = None
    if first is None:
        raise IdempotencyKeyError("this Idempotency-Key was already used to create a different game") from None
    writer.metrics.idempotent_replay()
    return first.events[-1].version, fold(list(first.events))


def game_id_of(key: str) -> str:
    """Return the id of the game created under the client's idempotency ``key``."""
    return str(uuid.uuid5(_GAME_IDS, key))


def creation_key(key: str) -> str:
    """Return how a creation's idempotency key is stored: a hash, since the seats' tokens derive from the key."""
    return "create:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


def fingerprint(request: NewGame) -> str:
    """Return the fingerprint of a creation request: what the client asked for, canonically."""
    asked: dict[str, Any] = {
        "preset": request.preset, "options": dict(request.options), "seed": request.seed, "listed": request.listed,
        "seats": [{"kind": s.kind, "level": s.level, "invite_only": s.invite_only} for s in request.seats],
        "clock": None if request.clock is None else
        {"seconds": request.clock.seconds, "level": request.clock.level, "handover_after": request.clock.handover_after},
    }
    if request.rated or any(s.player is not None for s in request.seats):  # a request of before players: as it was
        asked["rated"], asked["players"] = request.rated, [s.player for s in request.seats]
    return hashlib.sha256(canonical_json(asked).encode("utf-8")).hexdigest()


def seat_spec(index: int, seat: SeatRequest) -> SeatSpec:
    """Return the seat as the domain records it; raise InvalidRequestError for a seat that cannot be."""
    kind = seat.kind
    if kind not in SEAT_KINDS:
        raise InvalidRequestError(f"seat {index}: kind must be 'human', 'ai' or 'open', not {kind!r}")
    level = seat.level
    if seat.invite_only and kind != OPEN:
        raise InvalidRequestError(f"seat {index}: only an open seat can be invite-only")
    if seat.player is not None and kind != HUMAN:
        raise InvalidRequestError(f"seat {index}: only a human seat is held by a player")
    if kind != COMPUTER:
        if level is not None:
            raise InvalidRequestError(f"seat {index}: a {'human' if kind == HUMAN else 'open'} seat has no level")
        return SeatSpec(kind=kind, level=None)
    if level not in AI_LEVELS or isinstance(level, bool):
        raise InvalidRequestError(f"seat {index}: a computer seat needs a level from 1 to 6, not {level!r}")
    return SeatSpec(kind=COMPUTER, level=int(level))


def seat_request(seat: Mapping[str, Any]) -> SeatRequest:
    """Return a seat as asked for in a request's body (``kind``, ``level``, ``invite_only``)."""
    return SeatRequest(kind=str(seat.get("kind", "")), level=seat.get("level"),
                       invite_only=bool(seat.get("invite_only", False)))


def _seat_created(
    seat: int, spec: SeatSpec, rules: Rules, token: str | None, invite: str | None, invite_only: bool,
    player: str | None,
) -> dict[str, Any]:
    shown: dict[str, Any] = {"seat": seat, "kind": spec.kind, "level": spec.level, "side": rules.side_of(seat)}
    if player is not None:
        shown["player"] = player
    if token is not None:
        shown["token"] = token
    if spec.kind == OPEN:
        shown["invite"] = invite
        shown["invite_only"] = invite_only
    return shown
