"""The events of a game (docs/architecture.md "Event types"); their names are a stored contract.

Primary events record what players and the dealer did (GameStarted, HandDealt, BidMade,
BidPassed, TrumpDeclared, CardPlayed); derived events record what followed from them
(TrickTaken, HandScored, GameEnded) and can be recomputed by an audit. DealKeyRevealed
publishes a finished deal's key so that anyone can check the deal was the committed one.
Fields added later must have defaults, so that stored events keep decoding.
"""

from __future__ import annotations

from typing import Any, Mapping, Union

from domain.frozen import frozen
from domain.table_events import (
    TABLE_EVENT_TYPES, ClockRanOut, GameAbandoned, RematchCreated, SeatClaimed, SeatHandedOver, SeatLeft,
    SeatTakenBack, TableOpened,
)


@frozen
class SeatSpec:
    """Who sits in a seat: a human, or a computer player of a level."""

    kind: str
    level: int | None = None


@frozen
class GameStarted:
    """A game began with these rules, seats and first dealer, committed to a secret seed."""

    preset: str
    rules: Mapping[str, Any]
    seats: tuple[SeatSpec, ...]
    first_dealer: int
    deal_algorithm: str
    seed_commitment: str
    chain_anchor: str
    chain_length: int
    seed_source: str


@frozen
class HandDealt:
    """The dealer dealt these cards; ``deal`` counts every deal of the game from 1.

    ``stock`` is the undealt rest in order (refills draw from its front), ``kitty`` the
    maker's kitty and ``blind`` each seat's face-down row (001 "Fish Pitch").
    """

    hand: int
    deal: int
    dealer: int
    cards: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()
    kitty: tuple[str, ...] = ()
    blind: tuple[tuple[str, ...], ...] = ()


@frozen
class BidMade:
    """A seat bid this many points."""

    seat: int
    amount: int


@frozen
class BidPassed:
    """A seat passed in the bidding."""

    seat: int


@frozen
class SmudgeDeclared:
    """A seat declared a smudge (004 "Smudge"): sealed, exactly the smudge's tricks; for the pitch, a pass."""

    seat: int


@frozen
class TrumpDeclared:
    """The maker named the trump suit."""

    seat: int
    suit: str


@frozen
class CardPlayed:
    """A seat played a card to the trick on the table."""

    seat: int
    card: str


@frozen
class FaceDownPlayed:
    """A seat played the face-down card at ``index`` of its row, revealed as ``card`` (001 "Fish Pitch")."""

    seat: int
    index: int
    card: str


@frozen
class MisdealDeclared:
    """A seat dealt only low cards declared a misdeal; the hand is dealt again (000 "Misdeal")."""

    seat: int


@frozen
class DealerRan:
    """The dealer ran it: each seat was dealt these further cards from the stock (000 "Dealer can run it")."""

    seat: int
    cards: tuple[tuple[str, ...], ...]
    deal: int = 0


@frozen
class DealerTookSet:
    """Stuck with everyone else passed, the dealer took a set of ``amount`` instead of bidding (000 "Stick the dealer")."""

    seat: int
    amount: int


@frozen
class KittyTaken:
    """The maker took the kitty into their hand."""

    seat: int
    cards: tuple[str, ...]
    deal: int = 0


@frozen
class CardsDiscarded:
    """A seat discarded these cards face down; ``done`` when it has finished discarding."""

    seat: int
    cards: tuple[str, ...]
    done: bool = True
    deal: int = 0


@frozen
class StockReshuffled:
    """The stock ran short: the discards were shuffled and put under it, in this order (000 "Discarding")."""

    cards: tuple[str, ...]
    deal: int = 0


@frozen
class CardsDrawn:
    """A seat was given these cards from the front of the stock."""

    seat: int
    cards: tuple[str, ...]
    deal: int = 0


@frozen
class SatOut:
    """A seat out of trump sits out the rest of the hand (000 "Play with trump only")."""

    seat: int


@frozen
class Revoked:
    """The card just played broke the rule of following suit and stands as a revoke (003 "Auction pitch")."""

    seat: int
    card: str
    trick: int


@frozen
class TrickPlays:
    """A trick completed without being played card by card: its leader, winner and plays in order."""

    leader: int
    winner: int
    plays: tuple[tuple[int, str], ...]


@frozen
class HandClaimed:
    """A seat claimed the remaining tricks and the claim was certain; these tricks complete the hand."""

    seat: int
    tricks: tuple[TrickPlays, ...]


@frozen
class HandFinishedEarly:
    """No card left could change a point, so the hand was completed with these tricks (000 "Finish hand early")."""

    tricks: tuple[TrickPlays, ...]


@frozen
class TrickTaken:
    """A trick was complete and its winner took it; ``trick`` counts from 1 in the hand."""

    trick: int
    leader: int
    winner: int
    cards: tuple[str, ...]


@frozen
class PointAward:
    """One point of a hand: its kind, value, the card behind it, who received it and why.

    ``receiver`` says by which rule the side received it: "capturer", "original-owner",
    "player", "most-game-points", "tie-to-makers", "last-trick" or "makers". The same
    record describes a hand's score adjustments (HandScored.adjustments).
    """

    kind: str
    value: int
    side: int
    seat: int | None
    card: str | None
    trick: int | None
    reason: str
    receiver: str = ""


@frozen
class GameCount:
    """The game points a side took, with the cards that made them.

    ``half_pips`` counts the jokers taken where each is worth half a pip (003); the
    side's count is then ``total + half_pips / 2``.
    """

    side: int
    total: int
    cards: tuple[str, ...]
    half_pips: int = 0


@frozen
class HandScored:
    """The hand's points with their evidence, whether the bid was made, and the new scores.

    ``taken`` sums each side's points; ``adjustments`` lists everything else that moved a
    score (a set, bid only, no junk points, a moon, ...), so that each side's change is
    its points taken plus its adjustments (negated when the game counts down).
    ``tricks`` counts the tricks each side took; ``moon`` tells whether the bid shot the moon;
    ``smudges`` lists each seat that declared a smudge (004) and whether it made it.
    """

    hand: int
    maker: int
    makers: int
    bid: int
    trump: str
    points: tuple[PointAward, ...]
    game_points: tuple[GameCount, ...]
    taken: tuple[int, ...]
    bid_made: bool
    changes: tuple[int, ...]
    scores: tuple[int, ...]
    tricks: tuple[int, ...] = ()
    adjustments: tuple[PointAward, ...] = ()
    moon: bool = False
    smudges: tuple[tuple[int, bool], ...] = ()


@frozen
class DealKeyRevealed:
    """A finished deal's key, from which anyone can recompute that deal's deck order."""

    deal: int
    key: str


@frozen
class GameEnded:
    """The game is over: the winning side (None for a tie), why, and the seed revealed."""

    winner: int | None
    reason: str
    scores: tuple[int, ...]
    seed: str


Event = Union[
    GameStarted, HandDealt, BidMade, BidPassed, TrumpDeclared, CardPlayed,
    TrickTaken, HandScored, DealKeyRevealed, GameEnded,
    FaceDownPlayed, MisdealDeclared, DealerRan, DealerTookSet, KittyTaken, CardsDiscarded,
    StockReshuffled, CardsDrawn, SatOut, Revoked, HandClaimed, HandFinishedEarly, SmudgeDeclared,
    # A table's events (domain/table_events.py): who sits down, the turn clock, leaving.
    TableOpened, SeatClaimed, SeatLeft, ClockRanOut, SeatHandedOver, SeatTakenBack, GameAbandoned, RematchCreated,
]

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, HandDealt, BidMade, BidPassed, TrumpDeclared, CardPlayed,
        TrickTaken, HandScored, DealKeyRevealed, GameEnded,
        FaceDownPlayed, MisdealDeclared, DealerRan, DealerTookSet, KittyTaken, CardsDiscarded,
        StockReshuffled, CardsDrawn, SatOut, Revoked, HandClaimed, HandFinishedEarly, SmudgeDeclared,
        *TABLE_EVENT_TYPES,
    )
}
