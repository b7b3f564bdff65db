"""The state of a game, rebuilt by folding its events (domain/evolve.py).

State is immutable: ``GameState`` holds what lasts across hands (rules, seats, scores,
the outcome) and ``HandState`` what one deal holds (cards, bids, trump, tricks).
Phases (``Phase``): "bidding", "declaring", "discarding", "playing", "scoring" (a transient between
the last trick and HandScored inside one command), "scored" and, for the game, "ended".
Other transients, each left within the command that entered it: "kitty" (the maker
takes it), "drawing" (hands are refilled), "redealing" (everyone passed or a misdeal was declared) and "set" (the dealer
took a set). A game played at a table (domain/table_state.py) waits in "waiting", before
its first deal, while seats are open. What only variants use (kitty, face-down cards, discards, sitting out, the
bidding round) lives in ``HandExtra``, so that the common events copy one reference.
The records are ``frozen`` values (domain/frozen.py): immutable as the type checker
sees them, cheap to build, since ``evolve`` builds a HandState and a GameState per event.
"""

from __future__ import annotations

from enum import StrEnum

from domain.events import GameStarted, HandScored, SeatSpec
from domain.frozen import frozen
from domain.rules import Rules
from domain.table_state import TableState


class Phase(StrEnum):
    """Where a game stands: what it awaits, or which step a command is passing through.

    A StrEnum, so each phase is its own string in views and JSON ("bidding", "set", ...);
    the order is the one the API documents.
    """

    NOT_STARTED = "not-started"
    WAITING = "waiting"
    BIDDING = "bidding"
    REDEALING = "redealing"
    DEALER_SET = "set"
    DECLARING = "declaring"
    KITTY = "kitty"
    DISCARDING = "discarding"
    DRAWING = "drawing"
    PLAYING = "playing"
    SCORING = "scoring"
    SCORED = "scored"
    ENDED = "ended"


@frozen
class Trick:
    """A finished trick: its number in the hand, leader, plays in order and winner."""

    number: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int


@frozen
class HandExtra:
    """The parts of a deal that only variants use.

    ``blind`` keeps each seat's face-down row by position, "" where a card was played;
    ``discards`` each seat's discards (emptied into the stock when it is reshuffled);
    ``pending`` the seats still to discard, the first to act; ``round_start`` where the
    current round of bidding starts in ``bids``; ``ran`` whether the dealer ran it;
    ``rest_taken`` whether the stock's taker has drawn it; ``out`` the seats sitting out;
    ``revokes`` (seat, card, trick) of each revoke; ``reshuffles`` how often the discards
    were reshuffled; ``smudgers`` the seats that declared a smudge (004), in order.
    """

    kitty: tuple[str, ...] = ()
    blind: tuple[tuple[str, ...], ...] = ()
    discards: tuple[tuple[str, ...], ...] = ()
    pending: tuple[int, ...] = ()
    round_start: int = 0
    ran: bool = False
    rest_taken: bool = False
    out: tuple[int, ...] = ()
    revokes: tuple[tuple[int, str, int], ...] = ()
    reshuffles: int = 0
    smudgers: tuple[int, ...] = ()


NO_EXTRA = HandExtra()


@frozen
class HandState:
    """One deal, from the deal to its score.

    ``dealt`` is what each seat was given to play with: the cards dealt to it, plus any
    it drew or took from the kitty, less any it discarded (the "original owner" of a card
    for the scoring). ``cards`` is what it still holds. ``first_version`` is the version
    of the HandDealt that began the deal.
    """

    number: int
    deal: int
    dealer: int
    phase: Phase
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
    extra: HandExtra = NO_EXTRA
    first_version: int = 0


@frozen
class GameState:
    """A game as of some version: everything its events imply.

    ``history`` holds every hand's HandScored in order, for the rules that look back
    (the last makers, how often a side was set, how many hands were played). ``table`` is
    the game's table (open seats, clock, stand-ins), None for a game not played at one.
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
    table: TableState | None = None

    @property
    def phase(self) -> Phase:
        """Return the phase of the game: the hand's phase, "waiting" for open seats, or "ended"."""
        if self.ended is not None:
            return Phase.ENDED
        if self.hand is None:
            return Phase.WAITING if self.table is not None and self.table.is_waiting else Phase.NOT_STARTED
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
