"""Options that can never be met, refused when a game or a hand record is made.

Each option of domain/rules.py is valid on its own and many pairs are checked there
(``check_rules``); these are the combinations under which some rule can never come true,
found by counting what a hand holds:

- The highest bid is at most what a hand holds: its points (000 "Pitch Rules": "There are
  up to 4 points possible for each hand"; 000 "Bidding": each player "bids the number of
  points they expect their team can capture"), or, when contracts count tricks, its tricks
  (004 "The Auction": a bid declares "that a Player will take a certain amount of tricks").
  A bid above it could never be made.
- Hands are refilled from the deck (000 "Discarding": "Discarded cards are replaced with new
  cards from the deck as necessary to give all players a full six-card hand"): every seat's
  refilled hand, and its face-down row, must fit in the deck at once.
- Under trump only, "Players must lead and follow with trump" (000 "Playing"), so a first
  lead that may not be a trump until one is played (``first_lead: trump-broken``) is never
  possible.
- A misdeal is declared on a hand of only low cards (000 "Bidding", Misdeal): the deck must
  hold a hand's worth of them.
- The game point is for the most game points (000 "Scoring"): the deck must hold a card
  that counts toward game.

Games and records already played keep replaying as stored (``rules_from_dict``); these
checks apply to new tables (``check_offered``) and to hand records submitted for an audit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.cards import GAME_POINTS
from domain.errors import RulesError

if TYPE_CHECKING:
    from domain.rules import Rules

# Misdeal option values and the ranks they call low (domain/dealing.py LOW_RANKS, 000 "Misdeal").
_LOW_RANKS = {"2-10": "23456789T", "2-9": "23456789", "3-9": "3456789", "4-9": "456789"}


def hand_points(rules: Rules) -> int:
    """Return the most points one hand can hold: every point's card in play, in the trump suit best for them."""
    off = rules.off_card_points
    points = 2  # high (the highest trump, or the ace of trump) and low (or 002's two of trump)
    points += "J" not in rules.removed_ranks  # the jack of trump
    points += rules.off_jack and off
    points += rules.jokers * rules.joker_point
    points += (rules.game_point == "game" and _game_cards(rules)) or rules.game_point == "ten-of-trump"
    points += rules.three_point + rules.five_point + rules.nine_point + rules.queen_point + rules.king_point
    points += off * (3 * rules.off_three + 5 * rules.off_five + 9 * rules.off_nine + rules.off_ace)
    points += rules.old_nate + rules.last_trick_point + rules.spade_point
    return int(points)


def _game_cards(rules: Rules) -> bool:
    """Tell whether the deck holds a card that counts toward game (a joker, where jokers are worth half a pip)."""
    return any(rank not in rules.removed_ranks for rank in GAME_POINTS) or (rules.joker_pips and rules.jokers > 0)


def hand_tricks(rules: Rules) -> int:
    """Return the most tricks one hand can hold: a seat's cards for play, with its face-down row."""
    kept = rules.hand_size + (3 if rules.dealer_can_run else 0)
    refilled = rules.refill_to if rules.discarding != "none" else 0
    if rules.discarding != "none" and rules.moon_discard:
        kept = 0  # every hand is discarded and refilled, a moon's too
    return max(kept, refilled) + rules.blind_cards


def _refuse(message: str, *options: str) -> RulesError:
    return RulesError(message, options)


def check_reachable(rules: Rules) -> Rules:
    """Return ``rules`` if every rule can come true in some hand, else raise RulesError saying which cannot and why."""
    if rules.bidding != "none":
        if rules.contract == "tricks":
            most, what = hand_tricks(rules), "tricks"
        else:
            most, what = hand_points(rules), "points"
        if rules.max_bid > most:
            raise _refuse(
                f"option 'max_bid' ({rules.max_bid}) can never be made: a hand holds at most {most} {what} under these "
                f"rules, so no bid above {most} can be made (lower 'max_bid' to {most}, or add what the hand counts)",
                "max_bid", "contract" if what == "tricks" else "game_point",
            )
    if rules.discarding != "none" and rules.players * (rules.refill_to + rules.blind_cards) > rules.deck_size:
        raise _refuse(
            f"options 'refill_to' ({rules.refill_to}) and 'players' ({rules.players}) can never be met: refilling every "
            f"hand to {rules.refill_to} cards needs {rules.players * (rules.refill_to + rules.blind_cards)} cards, and the "
            f"deck holds {rules.deck_size}", "refill_to", "players",
        )
    if rules.trump_only and rules.first_lead == "trump-broken":
        raise _refuse(
            "options 'first_lead' ('trump-broken') and 'trump_only' contradict: only trumps are played, so every lead is "
            "a trump, which 'trump-broken' forbids until a trump has been played", "first_lead", "trump_only",
        )
    low = _LOW_RANKS.get(rules.misdeal)
    if low is not None:
        cards = 4 * sum(rank not in rules.removed_ranks for rank in low)
        if cards < rules.hand_size:
            raise _refuse(
                f"option 'misdeal' ({rules.misdeal!r}) can never be declared: the deck holds {cards} cards of those low "
                f"ranks, fewer than a hand of {rules.hand_size}", "misdeal", "removed_ranks",
            )
    if rules.game_point == "game" and not _game_cards(rules):
        raise _refuse(
            f"option 'game_point' ('game') can never be awarded: no card of the deck counts toward game "
            f"(removed_ranks {rules.removed_ranks!r})", "game_point", "removed_ranks",
        )
    return rules

