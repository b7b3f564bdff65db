"""The point kinds of a hand, their values and who receives each, with evidence.

Rule texts: 000 "Scoring" and "Rule Options"/"Scoring" (high, low, jack, game; off-jack,
off-ace, off-3, off-5, off-9, jokers, 3, 5 and 9 of trump, game or ten of trump, last
trick, low to the capturer or to the player), 000 "Preset Game Rules" (the king, queen
and 15-point three of Pedro's relatives), 001 "Set Back", "Nine Card Pitch" (the five and
the spade point) and "How to Play Pitch" (low to the original owner), 002 "Scoring",
003 "Scoring variations" (trey, Old Nate, last trick; jokers worth half a pip).

A point counts only when its card was in play, that is played to a trick: an undealt or
unplayed jack of trump gives nobody the jack point. 002's point for the two of trump
(``low_point = "dealt-two"``) is the exception: it goes to the seat dealt the two, whether
that seat plays it or discards it. With ``high_point = "ace"`` (002) high is the ace of
trump, a card point like the jack, rather than the highest trump in play. High, jack and every other card point
go to the side that captures the card (its eventual owner); low goes by the option
``low_point``; game to the side with the most game points, or on a tie to nobody or the
makers (``game_tie``); the last trick to its winner. Each kind is awarded at most once
per hand, and the points are listed in the order they are scored for ties (003's table,
then 000's further kinds): see POINT_ORDER.
"""

from __future__ import annotations

from domain.cards import BLACK_JOKER, GAME_POINTS, RANKS, RED_JOKER, TWIN_SUIT, card_name, is_joker
from domain.events import GameCount, PointAward
from domain.memo import PerRules, seat_sides
from domain.rules import Rules
from domain.state import HandState, Trick
from domain.trumps import trump_order

POINT_ORDER = (
    "high", "low", "jack", "off-jack", "red-joker", "black-joker", "last-trick", "game", "ten",
    "three", "off-three", "five", "off-five", "nine", "off-nine", "queen", "king", "off-ace",
    "old-nate", "spade", "moon",
)
"""Every point kind, in the order points are scored when the order decides the game."""

_RANK = {rank: i for i, rank in enumerate(RANKS)}


def where_played(hand: HandState) -> dict[str, tuple[Trick, int]]:
    """Map each card played to a trick in ``hand`` to that trick and the seat that played it, in the order played."""
    return {card: (trick, seat) for trick in hand.tricks for seat, card in trick.plays}


def card_points(rules: Rules, suit: str) -> tuple[tuple[str, str, int], ...]:
    """Return (kind, card, value) of every point that goes to a card's capturer when ``suit`` is trump."""
    known = _CARD_POINTS.get(rules)
    table = known.get(suit)
    if table is None:
        table = known[suit] = _card_points(rules, suit)
    return table


_CARD_POINTS: PerRules[dict[str, tuple[tuple[str, str, int], ...]]] = PerRules(lambda rules: {})


def _card_points(rules: Rules, suit: str) -> tuple[tuple[str, str, int], ...]:
    twin = TWIN_SUIT[suit]
    # 002 "10-point Pitch": "One point is awarded for taking the Ace" of trump, whatever trump ranks above it.
    table = [("high", "A" + suit, 1)] if rules.high_point == "ace" else []
    table.append(("jack", "J" + suit, 1))
    off = rules.off_card_points
    if rules.off_jack and off:
        table.append(("off-jack", "J" + twin, 1))
    if rules.jokers and rules.joker_point:
        table.append(("red-joker", RED_JOKER, rules.joker_point))
        if rules.jokers == 2:
            table.append(("black-joker", BLACK_JOKER, rules.joker_point))
    if rules.game_point == "ten-of-trump":
        table.append(("ten", "T" + suit, 1))
    for kind, rank, value, off_option, off_value in (
        ("three", "3", rules.three_point, rules.off_three, 3),
        ("five", "5", rules.five_point, rules.off_five, 5),
        ("nine", "9", rules.nine_point, rules.off_nine, 9),
    ):
        if value:
            table.append((kind, rank + suit, value))
        if off_option and off:
            table.append(("off-" + kind, rank + twin, off_value))
    if rules.queen_point:
        table.append(("queen", "Q" + suit, rules.queen_point))
    if rules.king_point:
        table.append(("king", "K" + suit, rules.king_point))
    if rules.off_ace and off:
        table.append(("off-ace", "A" + twin, 1))
    if rules.old_nate and suit == "S":
        table.append(("old-nate", "4S", 1))
    return tuple(table)


_WHAT = {
    "high": "the ace of trump", "jack": "the jack of trump", "off-jack": "the off-jack", "red-joker": "the red joker",
    "black-joker": "the black joker", "ten": "the ten of trump", "three": "the three of trump",
    "off-three": "the off-three", "five": "the five of trump", "off-five": "the off-five",
    "nine": "the nine of trump", "off-nine": "the off-nine", "queen": "the queen of trump",
    "king": "the king of trump", "off-ace": "the off-ace", "old-nate": "Old Nate",
}


def _captured(rules: Rules, kind: str, card: str, value: int, trick: Trick, what: str) -> PointAward:
    winner = trick.winner
    return PointAward(
        kind=kind, value=value, side=rules.side_of(winner), seat=winner, card=card,
        trick=trick.number, receiver="capturer",
        reason=f"{what}, {card_name(card)}, taken by seat {winner} in trick {trick.number}",
    )


def dealt_two(rules: Rules, hand: HandState) -> tuple[str, int] | None:
    """Return the two of trump and the seat dealt it (002: played or discarded), None when nobody was."""
    assert hand.trump is not None
    card = "2" + hand.trump
    for piles in (hand.dealt, hand.extra.discards):
        for seat, cards in enumerate(piles):
            if card in cards:
                return card, seat
    return None


def _two(rules: Rules, hand: HandState, where: dict[str, tuple[Trick, int]]) -> PointAward | None:
    """The point for the two of trump, to the side of the seat dealt it (002 "10-point Pitch")."""
    found = dealt_two(rules, hand)
    if found is None:
        return None
    card, seat = found
    trick = where[card][0].number if card in where else None
    how = f"played in trick {trick}" if trick is not None else "not played (discarded)"
    return PointAward(
        kind="low", value=1, side=rules.side_of(seat), seat=seat, card=card, trick=trick, receiver="dealt-two",
        reason=f"the two of trump, {card_name(card)}, dealt to seat {seat}, {how}",
    )


def _low(rules: Rules, hand: HandState, card: str, trick: Trick, played_by: int) -> PointAward:
    what = "the lowest trump in play"
    if rules.low_point == "capturer":
        return _captured(rules, "low", card, 1, trick, what)
    seat = played_by
    how = f"played by seat {seat}"
    if rules.low_point == "original-owner":
        # The seat it was dealt to; a card that reached a hand later belongs to the seat that held it.
        seat = next((s for s, cards in enumerate(hand.dealt) if card in cards), played_by)
        how = f"dealt to seat {seat}"
    return PointAward(
        kind="low", value=1, side=rules.side_of(seat), seat=seat, card=card, trick=trick.number,
        receiver=rules.low_point, reason=f"{what}, {card_name(card)}, {how}, played in trick {trick.number}",
    )


def award_points(rules: Rules, hand: HandState, makers: int) -> tuple[tuple[PointAward, ...], tuple[GameCount, ...]]:
    """Return the points of a played hand in scoring order, and each side's game-point count."""
    assert hand.trump is not None
    order = trump_order(rules, hand.trump)
    where = where_played(hand)
    played = tuple(where)
    trumps = [card for card in played if card in order.strength]
    points: list[PointAward] = []
    high = order.highest(trumps) if rules.high_point == "highest" else None
    if high is not None:
        points.append(_captured(rules, "high", high, 1, where[high][0], "the highest trump in play"))
    if rules.low_point == "dealt-two":
        two = _two(rules, hand, where)
        if two is not None:
            points.append(two)
    else:
        low = order.lowest(trumps)
        if low is not None:
            points.append(_low(rules, hand, low, *where[low]))
    for kind, card, value in card_points(rules, hand.trump):
        if card in where:
            points.append(_captured(rules, kind, card, value, where[card][0], _WHAT[kind]))
    if rules.last_trick_point and hand.tricks:
        last = hand.tricks[-1]
        points.append(PointAward(
            kind="last-trick", value=1, side=rules.side_of(last.winner), seat=last.winner, card=None,
            trick=last.number, receiver="last-trick", reason=f"the last trick, won by seat {last.winner}",
        ))
    counts = game_counts(rules, hand)
    if rules.game_point == "game":
        game = _game_point(rules, counts, makers)
        if game is not None:
            points.append(game)
    if rules.spade_point:
        spades = [c for c in played if c[1] == "S" and not is_joker(c)]
        if spades:
            best = max(spades, key=lambda c: _RANK[c[0]])
            points.append(_captured(rules, "spade", best, 1, where[best][0], "the highest spade in play"))
    points.sort(key=lambda p: POINT_ORDER.index(p.kind))
    return tuple(points), counts


def game_counts(rules: Rules, hand: HandState) -> tuple[GameCount, ...]:
    """Return the game points each side captured, with the cards behind them (000 "Scoring")."""
    sides = rules.sides
    side_of = seat_sides(rules)
    joker_pips = rules.joker_pips
    values = GAME_POINTS
    cards: list[list[str]] = [[] for _ in range(sides)]
    totals = [0] * sides
    halves = [0] * sides
    for trick in hand.tricks:
        side = side_of[trick.winner]
        taken = cards[side]
        for _, card in trick.plays:
            value = values.get(card[0], 0)  # game_points(card), without a call per card
            if value:
                taken.append(card)
                totals[side] += value
            elif joker_pips and is_joker(card):
                taken.append(card)
                halves[side] += 1
    return tuple(
        GameCount(side=side, total=totals[side], cards=tuple(taken), half_pips=halves[side])
        for side, taken in enumerate(cards)
    )


def _pips(count: GameCount) -> str:
    whole, half = divmod(count.half_pips, 2)
    text = str(count.total + whole)
    return text + "½" if half else text


def _game_point(rules: Rules, counts: tuple[GameCount, ...], makers: int) -> PointAward | None:
    value = [2 * c.total + c.half_pips for c in counts]
    best = max(value)
    if best <= 0:
        return None
    leaders = [c.side for c in counts if value[c.side] == best]
    tally = ", ".join(f"side {c.side} {_pips(c)}" for c in counts)
    if len(leaders) == 1:
        return PointAward(
            kind="game", value=1, side=leaders[0], seat=None, card=None, trick=None,
            receiver="most-game-points", reason=f"the most game points: {tally}",
        )
    if rules.game_tie == "makers" and makers in leaders:
        return PointAward(
            kind="game", value=1, side=makers, seat=None, card=None, trick=None,
            receiver="tie-to-makers", reason=f"the game points tie ({tally}); the tie goes to the makers",
        )
    return None
