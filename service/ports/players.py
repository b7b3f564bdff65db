"""Players as the use cases see them: the rows a change stores for them, what the store answers of them.

A player is an id, a name and a bearer token (stored as its SHA-256 only). Players are
written as rows of a ``Change`` (service/ports/events.py), through the one writer
(service/games/writer.py): a new player and its first token (``NewPlayer``, ``PlayerToken``),
a token rotated (the next ``PlayerToken``: the highest number acts, so the one before ends),
the seat a player holds in a game (``PlayerSeat``, stored with the game's creation or the
claim that seats them), and the game's row in the search's index (``GameIndexed`` with its
creation, ``GameStatusChanged`` with the change that starts or ends it).

``PlayerLog`` reads them back: a token's player, a game's players, a page of the search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

PARTNERSHIP, CUT_THROAT = "partnership", "cut-throat"
FAMILIES = (PARTNERSHIP, CUT_THROAT)
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
STATUSES = (WAITING, PLAYING, FINISHED)


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A new player: its id and name (its first token is a ``PlayerToken`` of the same change)."""

    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class PlayerToken:
    """A player's next bearer token, as its hash: it acts from now on, and the one before no more."""

    player_id: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    """A player holds ``seat`` of the change's game."""

    seat: int
    player_id: str


@dataclass(frozen=True, slots=True)
class GameIndexed:
    """A new game's row in the search's index."""

    preset: str
    family: str
    rated: bool
    status: str


@dataclass(frozen=True, slots=True)
class GameStatusChanged:
    """The game started (``playing``) or ended (``finished``, stamped with the change's time)."""

    status: str


PlayerRow = NewPlayer | PlayerToken | PlayerSeat | GameIndexed | GameStatusChanged


@dataclass(frozen=True, slots=True)
class Player:
    """A player as stored."""

    id: str
    name: str
    created_at: str


@dataclass(frozen=True, slots=True)
class GameQuery:
    """A search of games: each filter is optional; pages run newest first, after the cursor ``after``."""

    player: str | None = None
    preset: str | None = None
    status: str | None = None
    since: str | None = None
    until: str | None = None
    rated: bool | None = None
    after: tuple[str, str] | None = None
    limit: int = 20


@dataclass(frozen=True, slots=True)
class GameFound:
    """A game the search found: its index row and its players by seat."""

    game_id: str
    preset: str
    family: str
    rated: bool
    status: str
    created_at: str
    finished_at: str | None
    players: dict[int, Player] = field(default_factory=dict)


class PlayerLog(Protocol):
    """What the store answers of players and the games' index."""

    def player_by_token(self, token_hash: str) -> Player | None:
        """Return the player whose current token hashes to ``token_hash``, None for none (or an ended token)."""
        ...

    def player(self, player_id: str) -> Player | None:
        """Return the player with this id, None for none."""
        ...

    def game_players(self, game_id: str) -> dict[int, Player]:
        """Return the players holding seats of the game, by seat."""
        ...

    def search(self, query: GameQuery) -> list[GameFound]:
        """Return a page of the games the query finds, newest first."""
        ...

    def indexed(self, game_id: str) -> GameFound | None:
        """Return the game's row of the index with its players, None for a game not indexed."""
        ...
