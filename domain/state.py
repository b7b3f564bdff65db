"""The state of a game, rebuilt by folding its events (domain/evolve.py).

State is immutable: ``GameState`` holds what lasts across hands (rules, seats, scores,
the outcome) and ``HandState`` what one deal holds (cards, bids, trump, tricks).
Phases: "bidding", "declaring", "playing", "scoring" (a transient between the last
trick and HandScored inside one command), "scored" and, for the game, "ended".
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.events import GameStarted, HandScored, SeatSpec
from domain.rules import Rules

BIDDING = "bidding"
DECLARING = "declaring"
PLAYING = "playing"
SCORING = "scoring"
SCORED = "scored"
ENDED = "ended"
NOT_STARTED = "not-started"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its number in the hand, leader, plays in order and winner."""

    number: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandState:
    """One deal, from the deal to its score."""

    number: int
    deal: int
    dealer: int
    phase: str
    to_act: int | None
    dealt: tuple[tuple[str, ...], ...]
    cards: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    bids: tuple[tuple[int, int | None], ...]
    high_bid: int | None
    maker: int | None
    trump: str | None
    leader: int | None
    table: tuple[tuple[int, str], ...]
    tricks: tuple[Trick, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """A game as of some version: everything its events imply.

    ``history`` holds every hand's HandScored in order, for the rules that look back
    (the last makers, how often a side was set, how many hands were played).
    """

    version: int
    start: GameStarted | None
    rules: Rules
    seats: tuple[SeatSpec, ...]
    scores: tuple[int, ...]
    hand: HandState | None
    last_score: HandScored | None
    winner: int | None
    ended: str | None
    history: tuple[HandScored, ...] = ()

    @property
    def phase(self) -> str:
        """Return the phase of the game: the hand's phase, or "ended"."""
        if self.ended is not None:
            return ENDED
        if self.hand is None:
            return NOT_STARTED
        return self.hand.phase

    @property
    def to_act(self) -> int | None:
        """Return the seat whose action the game awaits, None when it awaits nobody."""
        if self.ended is not None or self.hand is None:
            return None
        return self.hand.to_act


INITIAL = GameState(
    version=0, start=None, rules=Rules(), seats=(), scores=(), hand=None,
    last_score=None, winner=None, ended=None,
)
