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

from collections.abc import Sequence
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


@dataclass(frozen=True, slots=True)
class RatingSet:
    """A player's rating in a family after a rated game: openskill's mu and sigma, and the rated games counted."""

    player_id: str
    family: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingRecorded:
    """A point of a player's rating history in a family: the rating after its ``games``-th rated game."""

    player_id: str
    family: str
    games: int
    position: int
    game_id: str
    mu: float
    sigma: float
    at: str


@dataclass(frozen=True, slots=True)
class StatisticsAdded:
    """What one finished game adds to a player's statistics in a family (each a sum over its hands)."""

    player_id: str
    family: str
    hands: int = 0
    bids_made: int = 0
    bids_set: int = 0
    maker_hands: int = 0
    maker_points: int = 0
    defender_hands: int = 0
    defender_points: int = 0
    moons: int = 0


@dataclass(frozen=True, slots=True)
class GameCounted:
    """The projection counted this finished game (once: a second is refused), with its export's line."""

    game_id: str
    position: int
    line: str


@dataclass(frozen=True, slots=True)
class ProjectionAdvanced:
    """The projection read the feed from ``after`` to ``to``: stored only if it is still at ``after``."""

    name: str
    after: int
    to: int


@dataclass(frozen=True, slots=True)
class ProjectionLeased:
    """``holder`` runs the projection until ``until``: stored only if no other holder's lease runs at ``now``."""

    name: str
    holder: str
    until: str
    now: str


PlayerRow = (
    NewPlayer | PlayerToken | PlayerSeat | GameIndexed | GameStatusChanged | RatingSet | RatingRecorded | StatisticsAdded
    | GameCounted | ProjectionAdvanced | ProjectionLeased
)


class ProjectionMovedError(Exception):
    """Another process advanced the projection (or holds its lease): this one's batch was not stored."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's stored rating in a family."""

    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """Return the conservative rating a leaderboard ranks by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


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

    def projection_position(self, name: str) -> int:
        """Return the feed position the projection has stored what it read up to."""
        ...

    def ratings(self, player_ids: Sequence[str], family: str) -> dict[str, Rating]:
        """Return these players' stored ratings in ``family`` (a player not rated yet is left out)."""
        ...

    def player_ratings(self, player_id: str) -> dict[str, Rating]:
        """Return a player's ratings by family."""
        ...

    def rating_history(self, player_id: str, family: str, after: int, limit: int) -> list[RatingRecorded]:
        """Return a page of a player's rating history in ``family``, oldest first, after its ``after``-th rated game."""
        ...

    def all_rating_history(self) -> list[RatingRecorded]:
        """Return every stored point of every rating history, by player, family and game."""
        ...

    def player_statistics(self, player_id: str) -> dict[str, dict[str, int]]:
        """Return a player's statistics (the sums) by family."""
        ...

    def player_review_costs(self, player_id: str) -> dict[str, tuple[int, float]]:
        """Return by family the reviewed decisions of the seats the player held that had a choice, and their summed cost."""
        ...

    def leaderboard(self, family: str, after: tuple[float, str] | None, limit: int) -> list[tuple[Player, Rating]]:
        """Return a page of a family's rated players, highest rating first, after (rating, player id)."""
        ...

    def export_lines(self, game_ids: Sequence[str]) -> dict[str, str]:
        """Return the export's line of each of these games the projection counted."""
        ...

    def all_ratings(self) -> dict[tuple[str, str], Rating]:
        """Return every stored rating by (player id, family)."""
        ...
