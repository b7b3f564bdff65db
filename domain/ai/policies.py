"""Levels 1 to 3: the simple and the rule-based computer players (000 "Computer Players").

A policy takes a state, a seat and an rng and returns one of ``legal_commands(state,
seat)``. It reads only the seat's own cards and what is public (the table, the tricks,
the bids), so it plays the same on a Knowledge's public state as on a sampled deal.

- Level 1 (beginners): passes most of the time (but, as the dealer after everyone else
  passed, opens at the minimum rather than throw the deal in), names its longest suit,
  plays at random.
- Level 2: bids what its best suit is worth, names that suit, plays its highest card
  when that takes the trick and its lowest otherwise.
- Level 3 follows rules for every phase:
  bidding: bid what the best suit is worth (its share of high, low, jack and game, of the
  points the table's hands hold: tactics.bid_scale); do not outbid the partner without a
  clearly stronger hand; the stuck dealer bids the minimum.
  trump: name the suit the hand values most.
  leading: lead a sure-winning trump to pull trumps; on the first lead without the top
  trump, lead a middle trump (keep the jack and the low trump); later, lead a sure side
  winner, else the cheapest card.
  following: "in third seat, do not trump partner's high card": when the partner is
  winning and sure to hold, give it points (a ten, the jack, the low trump) or throw
  the cheapest card; "in fourth seat, play just high enough to take it when an
  opponent is winning": the lowest card that wins; in second seat, play low unless a
  sure winner takes the trick or the trick holds points (a ten, the jack, a low trump
  where low goes to the capturer); discards: the cheapest card, never a ten or a trump
  when something else will do, and last of all a card that scores for whoever captures
  it (000 "Scoring": the jack of trump; low, where it goes to the capturer), so no
  opponent's trick is handed a point while another card will do.

Variants: where the first lead sets trump (001 "How to Play Pitch"; 003 "Auction pitch")
level 3 pitches the suit its hand values most, leading from it as if it were trump;
discarding (000 "Discarding"; 001 "Nine Card Pitch") it throws the cheapest cards and
stops before a trump or a sure side winner when it may; under a revoke penalty (003) no
level revokes while an honest play is left. Any other action a policy does not know (a
claim, a face-down card, a run) is left to the level-1 choice when nothing else is
offered, so a new variant never stops a player.
"""

from __future__ import annotations

from typing import Callable, Sequence

from domain.actions import Command, DeclareTrump, Discard, MakeBid, Pass, PlayCard
from domain.ai.rng import Rng, pick
from domain.ai.tactics import (
    best_suit, bid_scale, careful_cost, cost, gift, is_boss, power, unseen_by, winning,
)
from domain.cards import is_joker
from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.play import check_play
from domain.rules import Rules
from domain.state import GameState, HandState
from domain.trumps import TrumpOrder, trump_order

Policy = Callable[[GameState, int, Rng], Command]

# The points (by tactics.gift) on a trick that make a seat unsure of taking it spend its
# highest winner there anyway: a low trump's (8) is enough, where it is a point.
STAKE = 8

_KNOWN = (MakeBid, Pass, DeclareTrump, PlayCard)


def _known(commands: list[Command]) -> list[Command]:
    return [c for c in commands if isinstance(c, _KNOWN)]


def _is_revoke(state: GameState, command: Command) -> bool:
    """Tell whether ``command`` plays a card that stands only as a revoke (003 "Auction pitch")."""
    if not isinstance(command, PlayCard) or state.rules.revoke != "penalty" or state.hand is None:
        return False
    try:
        return check_play(state.rules, state.hand, command.seat, command.card)
    except IllegalActionError:
        return False


def honest(state: GameState, seat: int) -> list[Command]:
    """Return the legal commands of ``seat`` less any revoke, unless only revokes are left."""
    commands = legal_commands(state, seat)
    kept = [c for c in commands if not _is_revoke(state, c)]
    return kept or commands


def level1(state: GameState, seat: int, rng: Rng) -> Command:
    """Play like a beginner: pass mostly, name the longest suit, play any legal card."""
    commands = honest(state, seat)
    if not commands:
        raise ValueError(f"seat {seat} has nothing to do")
    bids = [c for c in commands if isinstance(c, MakeBid)]
    passes = [c for c in commands if isinstance(c, Pass)]
    hand = state.hand
    if bids and passes and hand is not None and seat == hand.dealer and hand.high_bid is None:
        return bids[0]  # the dealer, everyone else having passed, opens rather than throw the deal in
    if passes and (not bids or rng.random() < 0.7):
        return passes[0]
    if bids:
        return bids[0] if rng.random() < 0.7 else pick(rng, bids)
    declares = [c for c in commands if isinstance(c, DeclareTrump)]
    if declares:
        held = _cards(state, seat)
        return max(declares, key=lambda c: (sum(card[1] == c.suit for card in held), rng.random()))
    return pick(rng, commands)  # type: ignore[no-any-return]


def level2(state: GameState, seat: int, rng: Rng) -> Command:
    """Play simply: bid the best suit's worth, name it, take a trick with the highest card when possible."""
    commands = _known(honest(state, seat))
    if not commands:
        return level1(state, seat, rng)
    hand = state.hand
    assert hand is not None
    if isinstance(commands[0], (MakeBid, Pass)):
        return _bid(state, seat, commands, partner_aware=False)
    if isinstance(commands[0], DeclareTrump):
        return _declare(state.rules, _cards(state, seat), commands)
    plays = [c for c in commands if isinstance(c, PlayCard)]
    if not plays:
        return pick(rng, commands)  # type: ignore[no-any-return]
    order = trump_order(state.rules, hand.trump or "S")
    led = order.suit_of(hand.table[0][1]) if hand.table else None
    by_power = sorted(plays, key=lambda c: (power(order, led, c.card), -cost(order, c.card)[1]))
    if not hand.table:
        return by_power[-1]
    _, best = winning(order, hand.table)
    if power(order, led, by_power[-1].card) > power(order, led, best):
        return by_power[-1]
    return min(plays, key=lambda c: cost(order, c.card))


def level3(state: GameState, seat: int, rng: Rng) -> Command:
    """Play by the rules of thumb of the module docstring."""
    every = honest(state, seat)
    discards = [c for c in every if isinstance(c, Discard)]
    if discards:
        return _discard(state, seat, discards)
    commands = _known(every)
    if not commands:
        return level1(state, seat, rng)
    if isinstance(commands[0], (MakeBid, Pass)):
        return _bid(state, seat, commands, partner_aware=True)
    if isinstance(commands[0], DeclareTrump):
        return _declare(state.rules, _cards(state, seat), commands)
    plays = [c for c in commands if isinstance(c, PlayCard)]
    if not plays:
        return pick(rng, commands)  # type: ignore[no-any-return]
    hand = state.hand
    assert hand is not None
    unseen = unseen_by(state, seat)
    cards = [c.card for c in plays]
    if hand.trump is None:
        return PlayCard(seat, _pitch(state.rules, hand, seat, cards, unseen))
    order = trump_order(state.rules, hand.trump)
    if not hand.table:
        card = _lead(state.rules, hand, seat, order, cards, unseen)
    else:
        card = _follow(state.rules, hand, seat, order, cards, unseen)
    return PlayCard(seat, card)


def _cards(state: GameState, seat: int) -> tuple[str, ...]:
    return state.hand.cards[seat] if state.hand is not None else ()


def _bid(state: GameState, seat: int, commands: Sequence[Command], partner_aware: bool) -> Command:
    rules, hand = state.rules, state.hand
    assert hand is not None
    bids = sorted((c for c in commands if isinstance(c, MakeBid)), key=lambda c: c.amount)
    passes = [c for c in commands if isinstance(c, Pass)]
    if not passes:
        return bids[0]
    _, value = best_suit(rules, _cards(state, seat), ("S", "H", "D", "C"))
    num, den = bid_scale(rules)
    scale = num / den  # the share of 000's four points, of the points the table's hands hold
    worth = int(value * scale + 0.25)
    if partner_aware and hand.maker is not None and rules.side_of(hand.maker) == rules.side_of(seat):
        # Leave the partner's bid alone unless this hand is clearly the stronger one.
        worth = worth if value * scale >= (hand.high_bid or 0) + 1.5 * scale else 0
    affordable = [c for c in bids if c.amount <= worth]
    return affordable[-1] if affordable else passes[0]


def _declare(rules: Rules, cards: Sequence[str], commands: Sequence[Command]) -> Command:
    declares = [c for c in commands if isinstance(c, DeclareTrump)]
    suit, _ = best_suit(rules, cards, [c.suit for c in declares])
    return next(c for c in declares if c.suit == suit)


def _pitch(rules: Rules, hand: HandState, seat: int, cards: list[str], unseen: set[str]) -> str:
    """Return the card that pitches trump: from the suit the hand values most, led as a trump lead."""
    suits = sorted({c[1] for c in cards if not is_joker(c)})
    suit, _ = best_suit(rules, hand.cards[seat], suits)
    order = trump_order(rules, suit)
    return _lead(rules, hand, seat, order, [c for c in cards if c[1] == suit], unseen)


def _discard(state: GameState, seat: int, commands: Sequence[Discard]) -> Command:
    """Discard the cheapest card; stop, when allowed, before a trump or a sure side winner."""
    if len(commands) == 1:
        return commands[0]
    hand = state.hand
    assert hand is not None
    singles = [c for c in commands if c.cards]
    stop = next((c for c in commands if not c.cards), None)
    if not singles:
        return commands[0]
    order = trump_order(state.rules, hand.trump or "S")
    unseen = unseen_by(state, seat)
    if hand.trump is None:  # a kitty taker before the first lead sets trump: keep the best suit
        suit, _ = best_suit(state.rules, hand.cards[seat], sorted({c[1] for c in hand.cards[seat] if not is_joker(c)}))
        order = trump_order(state.rules, suit)
    cheapest = min(singles, key=lambda c: careful_cost(state.rules, order, c.cards[0]))
    card = cheapest.cards[0]
    if stop is not None and (order.is_trump(card) or is_boss(order, None, card, unseen)):
        return stop
    return cheapest


def _lead(
    rules: Rules, hand: HandState, seat: int, order: TrumpOrder, cards: list[str], unseen: set[str],
) -> str:
    trumps = sorted((c for c in cards if order.is_trump(c)), key=lambda c: order.strength[c])
    opponents_may_trump = any(order.is_trump(c) for c in unseen)
    if trumps and is_boss(order, None, trumps[-1], unseen) and opponents_may_trump:
        return trumps[-1]  # pull trumps with a sure winner
    if trumps and len(trumps) == len(cards):
        # Only trumps may be led (the first lead, or nothing else held): keep the jack and low.
        keep = {"J" + order.suit, trumps[0]}
        middle = [c for c in trumps if c not in keep]
        return middle[0] if middle else trumps[-1]
    sides = [c for c in cards if not order.is_trump(c)]
    winners = [c for c in sides if is_boss(order, None, c, unseen)]
    if winners:
        return max(winners, key=lambda c: power(order, None, c))
    return min(sides or cards, key=lambda c: careful_cost(rules, order, c))


def _follow(
    rules: Rules, hand: HandState, seat: int, order: TrumpOrder, cards: list[str], unseen: set[str],
) -> str:
    table = hand.table
    led = order.suit_of(table[0][1])
    best_seat, best = winning(order, table)
    last = len(table) == rules.players - 1
    beats = sorted((c for c in cards if power(order, led, c) > power(order, led, best)), key=lambda c: power(order, led, c))
    cheapest = min(cards, key=lambda c: careful_cost(rules, order, c))
    if rules.side_of(best_seat) == rules.side_of(seat):
        # In third seat, do not trump partner's high card: when it is sure, give it points.
        if last or is_boss(order, led, best, unseen):
            present = max(cards, key=lambda c: (gift(order, c), -power(order, led, c)))
            return present if gift(order, present) > 0 else cheapest
        not_over = [c for c in cards if c not in beats] or cards
        return min(not_over, key=lambda c: careful_cost(rules, order, c))
    if not beats:
        return cheapest
    if last:
        # In fourth seat, play just high enough to take it when an opponent is winning.
        return beats[0]
    sure = [c for c in beats if is_boss(order, led, c, unseen)]
    if sure:
        return sure[0]
    at_stake = sum(max(gift(order, c), 0) for _, c in table)
    return beats[-1] if at_stake >= STAKE else cheapest


POLICIES: dict[int, Policy] = {1: level1, 2: level2, 3: level3}
