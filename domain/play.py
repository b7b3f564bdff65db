"""Which card a seat may play (000 "Play" and "Playing"; 001 "Fish Pitch"; 003 "Auction pitch").

Leading (``first_lead``): the first lead of the hand must be a trump when holding one
("trump"), any card may be led ("any"), or trump may not be led until a trump has been
played unless holding only trumps ("trump-broken"). Where trump is set by the first lead
(pitching) that lead may be any card but a joker, which names no suit; by option a joker
may not be led to the first trick at all (003). Following (``following``): a player
holding the suit led must play that suit or a trump ("suit-or-trump", the default) or,
under the stricter options, must follow suit; when void, anything goes, unless the table
makes a void player trump when able. Under ``trump_only`` only trumps are played. Under
``revoke = "penalty"`` a play that breaks the following rule stands and is a revoke.
From the second trick a Fish Pitch player may play a face-down card instead (001).

What a held set may play depends only on the rules, the trump, and the card led (or,
leading, whether it is the first trick): ``playable`` works it out once per situation
and keeps it, with the command that plays each card, for ``legal_commands`` to list
and ``check_play`` to look up.
"""

from __future__ import annotations

from typing import Sequence

from domain.actions import PlayCard
from domain.cards import card_name, is_joker, SUIT_NAMES
from domain.errors import IllegalActionError
from domain.memo import PerRules
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import TrumpOrder, trump_order


def order_of(rules: Rules, hand: HandState) -> TrumpOrder:
    """Return the trump order of a hand whose trump is declared."""
    assert hand.trump is not None, "trump is declared before play"
    return trump_order(rules, hand.trump)


def next_leader(rules: Rules, leader: int, winner: int) -> int:
    """Return who leads after a trick led by ``leader`` and won by ``winner``.

    000 "Play": the winner leads the next trick; 004 "The Pitcher" (``trick_leader``
    rotating): the lead passes to the left, whoever won.
    """
    return winner if rules.trick_leader == "winner" else (leader + 1) % rules.players


def is_trump_broken(order: TrumpOrder, hand: HandState) -> bool:
    """Tell whether a trump has been played in an earlier trick or on the table."""
    return any(order.is_trump(card) for t in hand.tricks for _, card in t.plays) or any(
        order.is_trump(card) for _, card in hand.table
    )


def lead_error(
    rules: Rules, order: TrumpOrder, held: Sequence[str], card: str, first_trick: bool, broken: bool,
) -> str | None:
    """Return why ``card`` may not be led, None when it may."""
    trump_name = SUIT_NAMES[order.suit]
    if rules.trump_only and not order.is_trump(card):
        return f"only trumps ({trump_name}) are played"
    if first_trick and not rules.joker_first_lead and is_joker(card):
        if any(not is_joker(c) for c in held):
            return "a joker may not be led to the first trick"
    if rules.first_lead == "trump" and first_trick and not order.is_trump(card):
        if any(order.is_trump(c) for c in held):
            return f"the first lead of the hand must be a trump ({trump_name})"
    if rules.first_lead == "trump-broken" and order.is_trump(card) and not broken:
        if any(not order.is_trump(c) for c in held):
            return f"trump ({trump_name}) may not be led until a trump has been played"
    return None


def follow_error(
    rules: Rules, order: TrumpOrder, held: Sequence[str], card: str, led_card: str,
) -> str | None:
    """Return why ``card`` breaks the rule of following ``led_card``, None when it does not."""
    if rules.trump_only:
        if not order.is_trump(card):
            return f"only trumps ({SUIT_NAMES[order.suit]}) are played"
        return None
    led = order.suit_of(led_card)
    if card in order.members[led]:
        return None
    led_name = SUIT_NAMES.get(led, led)
    if any(order.suit_of(c) == led for c in held):
        if rules.following.startswith("suit-or-trump"):
            if order.is_trump(card):
                return None
            return f"you hold {led_name} and must follow suit or play a trump"
        return f"you hold {led_name} and must follow suit"
    if rules.following.endswith("must-trump") and not order.is_trump(card):
        if any(order.is_trump(c) for c in held):
            return f"you have no {led_name}, so you must play a trump ({SUIT_NAMES[order.suit]})"
    return None


def lead_cards(
    rules: Rules, order: TrumpOrder, held: Sequence[str], first_trick: bool, broken: bool,
) -> list[str]:
    """Return the cards of ``held`` that may be led: those ``lead_error`` lets through."""
    trumps = order.members[order.suit]
    cards = [c for c in held if c in trumps] if rules.trump_only else list(held)
    if first_trick and not rules.joker_first_lead and not all(is_joker(c) for c in held):
        cards = [c for c in cards if not is_joker(c)]
    if rules.first_lead == "trump" and first_trick and any(c in trumps for c in held):
        cards = [c for c in cards if c in trumps]
    if rules.first_lead == "trump-broken" and not broken and not all(c in trumps for c in held):
        cards = [c for c in cards if c not in trumps]
    return cards


def follow_cards(rules: Rules, order: TrumpOrder, held: Sequence[str], led_card: str) -> list[str]:
    """Return the cards of ``held`` that follow ``led_card``: those ``follow_error`` lets through."""
    trumps = order.members[order.suit]
    if rules.trump_only:
        return [c for c in held if c in trumps]
    led = order.members[order.suit_of(led_card)]
    following = [c for c in held if c in led]
    if following:
        if led is not trumps and rules.following.startswith("suit-or-trump"):
            return [c for c in held if c in led or c in trumps]
        return following
    if rules.following.endswith("must-trump"):
        held_trumps = [c for c in held if c in trumps]
        if held_trumps:
            return held_trumps
    return list(held)


def playable_cards(rules: Rules, hand: HandState, seat: int) -> list[str]:
    """Return the cards ``seat`` may play now, in the order held: those ``check_play`` accepts."""
    held = hand.cards[seat]
    if hand.trump is None:
        return [c for c in held if not is_joker(c)]
    order = trump_order(rules, hand.trump)
    if not hand.table:
        broken = rules.first_lead == "trump-broken" and is_trump_broken(order, hand)
        return lead_cards(rules, order, held, not hand.tricks, broken)
    if rules.revoke == "penalty" and not rules.trump_only:
        return list(held)  # a card that does not follow stands, as a revoke
    return follow_cards(rules, order, held, hand.table[0][1])


Playable = tuple[tuple[str, ...], tuple[PlayCard, ...]]

# Per Rules object: (seat, held, trump, the card led or, leading, whether it is the first
# trick) -> what ``playable`` returns. The situations of one deal repeat across its
# tricks and across rollouts of it; the table starts again when it holds _KNOWN_AT_MOST.
_KNOWN: PerRules[dict[tuple[int, tuple[str, ...], str, str | bool], Playable]] = PerRules(
    lambda rules: {}, most=16,
)
_KNOWN_AT_MOST = 1 << 14


def playable(rules: Rules, hand: HandState, seat: int) -> Playable:
    """Return the cards ``seat`` may play now, in the order held, and the command that plays each."""
    last = _LAST[0]  # one read of an immutable tuple: another thread may replace it, never change it
    if last[0] is hand and last[1] is rules and last[2] == seat:
        return last[3]
    found = _playable(rules, hand, seat)
    _LAST[0] = (hand, rules, seat, found)
    return found


# The last answer of ``playable``: listing a seat's commands and then checking the one it
# sends asks the same question of the same hand. Held as one tuple, so that a server's
# threads, each playing its own game, never read one another's half-written answer.
_LAST: list[tuple[HandState | None, Rules | None, int, Playable]] = [(None, None, -1, ((), ()))]


def _playable(rules: Rules, hand: HandState, seat: int) -> Playable:
    trump = hand.trump
    table = hand.table
    if trump is None or (not table and rules.first_lead == "trump-broken"):
        # Pitching, or a lead that depends on the tricks played: worked out each time.
        cards = tuple(playable_cards(rules, hand, seat))
        return cards, tuple(PlayCard(seat, card) for card in cards)
    key = (seat, hand.cards[seat], trump, table[0][1] if table else not hand.tricks)
    known = _KNOWN.get(rules)
    found = known.get(key)
    if found is None:
        if len(known) >= _KNOWN_AT_MOST:
            known.clear()
        cards = tuple(playable_cards(rules, hand, seat))
        found = known[key] = (cards, tuple(PlayCard(seat, card) for card in cards))
    return found


def check_play(rules: Rules, hand: HandState, seat: int, card: str) -> bool:
    """Raise IllegalActionError unless ``seat`` may play ``card`` now; return whether it is a revoke."""
    if not hand.table or rules.revoke != "penalty" or rules.trump_only:
        # Without revokes a card is accepted, as no revoke, exactly when it is playable.
        if card in playable(rules, hand, seat)[0]:
            return False
    return check_play_afresh(rules, hand, seat, card)


def check_play_afresh(rules: Rules, hand: HandState, seat: int, card: str) -> bool:
    """Do what ``check_play`` does, working the answer out from the rules (no table of plays kept)."""
    held = hand.cards[seat]
    if card not in held:
        raise IllegalActionError(f"you do not hold {card_name(card)}")
    if hand.trump is None:
        if is_joker(card):
            raise IllegalActionError("the first lead sets trump, and a joker names no suit")
        return False
    order = trump_order(rules, hand.trump)
    if not hand.table:
        first = not hand.tricks
        broken = rules.first_lead == "trump-broken" and is_trump_broken(order, hand)
        error = lead_error(rules, order, held, card, first, broken)
        if error:
            raise IllegalActionError(error)
        return False
    error = follow_error(rules, order, held, card, hand.table[0][1])
    if error is None:
        return False
    if rules.revoke == "penalty" and not rules.trump_only:
        return True
    raise IllegalActionError(error)


def is_playable(rules: Rules, hand: HandState, seat: int, card: str) -> bool:
    """Tell whether ``seat`` may play ``card`` now."""
    try:
        check_play(rules, hand, seat, card)
    except IllegalActionError:
        return False
    return True


def face_down_left(hand: HandState, seat: int) -> tuple[int, ...]:
    """Return the positions of ``seat``'s face-down cards not yet played."""
    if not hand.extra.blind:
        return ()
    return tuple(i for i, card in enumerate(hand.extra.blind[seat]) if card)


def check_face_down(rules: Rules, hand: HandState, seat: int, index: int) -> None:
    """Raise IllegalActionError unless ``seat`` may play its face-down card at ``index`` now."""
    if not rules.blind_cards:
        raise IllegalActionError("these rules deal no face-down cards")
    if not hand.tricks:
        raise IllegalActionError("face-down cards may be played from the second trick on")
    if index not in face_down_left(hand, seat):
        raise IllegalActionError(f"you have no face-down card at position {index}")


def has_trump(rules: Rules, hand: HandState, seat: int) -> bool:
    """Tell whether ``seat`` holds a trump (trump declared)."""
    order = order_of(rules, hand)
    return any(order.is_trump(c) for c in hand.cards[seat])
