"""Auditing a score sheet (domain/partial.py): the score with its evidence, the play not checked.

What can still be checked is checked, in order, each a named check in the verdict: the
auction, trump and discards (replayed through the rules when the sheet gives the deal and
them); each card once, and in the deck; the cards in play (with the deal, exactly the cards
the seats held when the play began, or under trump only their trumps; without it, the
cards of a hand's tricks); whole tricks (each side's cards a whole number of tricks, one
card from each seat); who held the cards whose points go to their holder; the tricks and the
last trick where the rules count them. The score is then the rules' own (domain/scoring.py)
for a hand whose tricks are the cards each side took, its evidence naming the side that took
each card rather than a seat and a trick; the points in play and the bid made or set come
with it. The play itself is not checked: who played which card to which trick, the lead and
following suit, revokes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from domain.audit import IllegalAction, replay_hand
from domain.cards import card_name
from domain.codec import to_data
from domain.dealing import deck_of
from domain.events import HandScored, PointAward
from domain.game_over import outcome, starting_scores
from domain.hand_view import hand_view
from domain.partial import ScoreSheet, parse_partial
from domain.records import state_before
from domain.rules import Rules
from domain.scoring import score_hand
from domain.state import NO_EXTRA, HandState, Phase, Trick
from domain.trumps import trump_order

PLAY_NOT_CHECKED = "play not checked"


@dataclass(frozen=True, slots=True)
class Check:
    """One check made of a score sheet: its name, whether it holds, and what it found."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class PartialAudit:
    """A score sheet audited: the checks made, what could not be checked, and the score when every check holds."""

    sheet: ScoreSheet
    checks: tuple[Check, ...]
    not_checked: tuple[str, ...]
    illegal: IllegalAction | None
    score: HandScored | None
    ending: tuple[int | None, str] | None
    replay: dict[str, Any] | None

    def verdict(self) -> dict[str, Any]:
        """Return the audit as JSON, in the shape of a full record's audit, marked "play not checked"."""
        known = self.sheet.scores_before is not None and self.score is not None
        failed = next((c for c in self.checks if not c.ok), None)
        return {
            "complete": self.score is not None, "checked": PLAY_NOT_CHECKED,
            "replay": self.replay,
            "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
            "failed": None if failed is None else f"{failed.name}: {failed.detail}",
            "not_checked": list(self.not_checked),
            "illegal_action": None if self.illegal is None else {
                "index": self.illegal.index, "action": dict(self.illegal.action), "reason": self.illegal.reason,
            },
            "score": None if self.score is None else to_data(self.score),
            "scores_before": None if self.sheet.scores_before is None else list(self.sheet.scores_before),
            "scores_after": list(self.score.scores) if known and self.score is not None else None,
            "game_ended": (self.ending is not None) if known else None,
            "winner": self.ending[0] if known and self.ending is not None else None,
            "ended_reason": self.ending[1] if known and self.ending is not None else None,
        }


def _counts_tricks(rules: Rules) -> bool:
    return (rules.contract == "tricks" or rules.moon_tricks or rules.moon == "extra-point" or rules.all_tricks_penalty
            or bool(rules.smudge_call))


class _Audit:
    """The checks of one sheet as they are made; the first that fails stops the scoring."""

    def __init__(self, sheet: ScoreSheet) -> None:
        self.sheet = sheet
        self.rules = sheet.rules
        self.checks: list[Check] = []
        self.not_checked = ["the play: which seat played which card to which trick, the lead and following suit "
                            "(000 \"Play\")"]

    def check(self, name: str, problem: str | None, detail: str) -> bool:
        self.checks.append(Check(name, problem is None, problem or detail))
        return problem is None

    def cards(self, start: HandState | None, trump: str, bid: int | None) -> bool:
        """Check each card once, in the deck, and the cards in play; whole tricks."""
        rules, taken = self.rules, self.sheet.taken
        deck, seen = set(deck_of(rules)), dict[str, int]()
        for side, cards in enumerate(taken):
            for card in cards:
                if card not in deck:
                    return self.check("each card once", f"{card} is not in the deck these rules play with", "")
                if card in seen:
                    where = f"sides {seen[card]} and {side}" if seen[card] != side else f"side {side} twice"
                    return self.check("each card once", f"{card} is taken by {where}", "")
                seen[card] = side
        self.check("each card once", None, f"{len(seen)} cards, each taken once")
        order = trump_order(rules, trump)
        if start is not None:
            held = [c for cards in start.cards for c in cards] + [c for row in start.extra.blind for c in row if c]
            in_play = {c for c in held if order.is_trump(c)} if rules.trump_only else set(held)
            missing, extra = sorted(in_play - set(seen)), sorted(set(seen) - in_play)
            what = "the trumps the seats held" if rules.trump_only else "the cards the seats held"
            problem = None
            if extra:
                problem = f"{extra[0]} is taken but was not in play: no seat held it when the play began"
            elif missing:
                problem = f"{missing[0]} was in play but is taken by no side"
            if not self.check("the cards in play", problem, f"the cards taken are {what} when the play began"):
                return False
        elif not rules.trump_only and not rules.dealer_can_run:
            kept = rules.discarding == "none" or (not rules.moon_discard and bid is not None and bid == rules.moon_amount)
            size = (rules.hand_size if kept else rules.refill_to) + rules.blind_cards
            problem = None if len(seen) == size * rules.players else \
                f"the sides took {len(seen)} cards; a hand's tricks hold {size * rules.players}"
            if not self.check("the cards in play", problem, f"{len(seen)} cards: {size} tricks of {rules.players}"):
                return False
        else:
            self.not_checked.append("how many cards were in play (without the deal)")
        if rules.trump_only:
            return True
        odd = next((s for s, cards in enumerate(taken) if len(cards) % rules.players), None)
        return self.check("whole tricks", None if odd is None else
                          f"side {odd} took {len(taken[odd])} cards, not a whole number of tricks of {rules.players}",
                          "each side's cards make whole tricks, one card from each seat")

    def holders(self, start: HandState | None, trump: str) -> dict[str, int] | None:
        """Return who held each card whose holder matters (from the deal, else the sheet), checking they agree."""
        rules, sheet = self.rules, self.sheet
        holders: dict[str, int] = {}
        if start is not None:
            for seat, cards in enumerate(start.cards):
                holders.update({card: seat for card in cards})
            for seat, row in enumerate(start.extra.blind):
                holders.update({card: seat for card in row if card})
            for card, seat in sheet.held.items():
                dealt = next((s for s, cards in enumerate(start.dealt) if card in cards), None)
                if dealt is not None and dealt != seat:
                    self.check("who held the cards", f"the sheet says seat {seat} held {card}, but the deal gave it to "
                               f"seat {dealt}", "")
                    return None
        for card, seat in sheet.held.items():
            holders.setdefault(card, seat)
        taken = [c for cards in sheet.taken for c in cards]
        needed: list[str] = []
        if rules.low_point in ("original-owner", "player"):
            low = trump_order(rules, trump).lowest(taken)
            needed += [low] if low is not None else []
        if rules.low_point == "dealt-two" and "2" + trump in taken:
            needed.append("2" + trump)
        unknown = [card for card in needed if card not in holders]
        if unknown:
            self.check("who held the cards", f"the point for {card_name(unknown[0])} goes to the seat that held it "
                       f"(low_point '{rules.low_point}'): give that seat in 'held'", "")
            return None
        if needed:
            self.check("who held the cards", None, ", ".join(f"{c} held by seat {holders[c]}" for c in needed))
        return holders

    def tricks(self) -> tuple[int, ...] | None:
        """Return each side's tricks: counted from its cards, or the sheet's where they cannot be (trump only)."""
        rules, sheet = self.rules, self.sheet
        counted = None if rules.trump_only else tuple(len(cards) // rules.players for cards in sheet.taken)
        if counted is not None and sheet.tricks is not None and sheet.tricks != counted:
            self.check("the tricks", f"the sheet gives {list(sheet.tricks)} tricks, but the cards make {list(counted)}", "")
            return None
        found = counted or sheet.tricks
        if found is None:
            if _counts_tricks(rules):
                self.check("the tricks", "these rules count tricks, and under trump only the cards do not: give 'tricks'", "")
                return None
            self.not_checked.append("how many tricks each side took (trump only)")
            return tuple(-(-len(cards) // rules.players) for cards in sheet.taken)
        if any(n > len(cards) for n, cards in zip(found, sheet.taken)):
            self.check("the tricks", "a side has more tricks than cards", "")
            return None
        if rules.last_trick_point:
            last = sheet.last_trick
            if last is None or not found[last]:
                self.check("the tricks", "these rules score the last trick: give the side that took it, 'last_trick'", "")
                return None
        return found


def _tricks_of(sheet: ScoreSheet, counts: tuple[int, ...], holders: dict[str, int]) -> tuple[Trick, ...]:
    """Return tricks made of the cards each side took (the last trick's side last), each won by a seat of that side."""
    rules = sheet.rules
    sides = sorted(range(rules.sides), key=lambda side: side == sheet.last_trick)
    tricks: list[Trick] = []
    for side in sides:
        cards, count = sheet.taken[side], counts[side]
        winner = rules.seats_of(side)[0]
        for k in range(count):
            chunk = cards[k * len(cards) // count:(k + 1) * len(cards) // count]
            plays = tuple((holders.get(card, winner), card) for card in chunk)
            tricks.append(Trick(len(tricks) + 1, plays[0][0] if plays else winner, plays, winner))
    return tuple(tricks)


def _evidence(point: PointAward, rules: Rules, taken: set[str]) -> PointAward:
    """Return a point's evidence as a sheet shows it: the side that took the card, no seat and no trick."""
    if point.receiver == "capturer":
        what = point.reason.split(", taken by seat")[0]
        return replace(point, seat=None, trick=None, reason=f"{what}, taken by side {point.side}")
    if point.receiver in ("original-owner", "player"):
        return replace(point, trick=None, reason=point.reason.split(", played in trick")[0])
    if point.receiver == "dealt-two":
        where = "in play" if point.card in taken else "not played"
        return replace(point, trick=None, reason=f"{point.reason.split(', played')[0].split(', not played')[0]}, {where}")
    if point.receiver == "last-trick":
        return replace(point, seat=None, trick=None, reason=f"the last trick, taken by side {point.side}")
    return point


def audit_partial(data: object) -> PartialAudit:
    """Audit a score sheet: every check that can be made, and the score with its evidence when they all hold."""
    sheet = parse_partial(data)
    audit = _Audit(sheet)
    rules = sheet.rules
    if rules.revoke == "penalty":
        audit.not_checked.append("revokes, which set a side back by the bid (003 \"Auction pitch\")")
    start: HandState | None = None
    view: dict[str, Any] | None = None
    maker, bid, trump = sheet.maker, sheet.bid, sheet.trump
    if sheet.record is not None:
        record = sheet.record
        replayed = replay_hand(state_before(record), record.actions, record.commands, record.reshuffles)
        dealt = {"hand": record.hand, "deal": record.deal, "dealer": record.dealer, "cards": [list(c) for c in record.cards],
                 "stock": list(record.stock), "kitty": list(record.kitty), "blind": [list(r) for r in record.blind]}
        view = hand_view(dealt, record.actions, replayed.state.hand, replayed.score, None, True)
        if replayed.illegal is not None:
            return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), replayed.illegal, None, None, view)
        start = replayed.state.hand
        if replayed.finished or start is None or start.phase != Phase.PLAYING:
            audit.check("the auction, trump and discards", "the record's actions do not reach the play" if not replayed.finished
                        else "the hand ended before any card was played", "")
            return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, None, None, view)
        contract = rules.bidding != "none" and start.high_bid is not None
        maker, bid, trump = start.maker, start.high_bid if contract else None, start.trump or trump
        found: dict[str, object] = {"maker": maker, "bid": bid, "trump": trump}
        wrong = next((k for k, v in found.items() if getattr(sheet, k) is not None and getattr(sheet, k) != v), None)
        if not audit.check("the auction, trump and discards", None if wrong is None else
                           f"the sheet's {wrong} is {getattr(sheet, wrong)!r}, but the auction gives {found[wrong]!r}",
                           "replayed through the rules up to the play: every action legal"):
            return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, None, None, view)
    else:
        audit.not_checked.append("the deal and the auction: the sheet gives neither")
        if rules.bidding == "none":
            maker, bid = (sheet.dealer + 1) % rules.players, None
    if trump is None:
        audit.check("the trump", "the first lead set trump, and the sheet does not name it: give 'trump'", "")
        return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, None, None, view)
    holders = audit.holders(start, trump) if audit.cards(start, trump, bid) else None
    counts = audit.tricks() if holders is not None else None
    if holders is None or counts is None:
        return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, None, None, view)
    if start is not None and start.extra.smudgers and rules.side_size > 1:
        audit.check("the tricks", "a smudge is a seat's own tricks, and the sheet gives each side's: give the play", "")
        return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, None, None, view)
    owners = start.dealt if start is not None else tuple(
        tuple(c for c, s in sheet.held.items() if s == seat) for seat in range(rules.players)
    )
    hand = HandState(
        sheet.hand, sheet.deal, sheet.dealer, Phase.SCORING, None, owners, ((),) * rules.players, (),
        start.bids if start is not None else (), bid, maker, trump, None, (), _tricks_of(sheet, counts, holders),
        start.extra if start is not None else NO_EXTRA,
    )
    before = sheet.scores_before or starting_scores(rules)
    scored = score_hand(rules, hand, before)
    taken = {c for cards in sheet.taken for c in cards}
    scored = replace(scored, points=tuple(_evidence(p, rules, taken) for p in scored.points))
    audit.check("the points in play", None, "; ".join(p.reason + f": {p.value} to side {p.side}" for p in scored.points)
                or "no point was in play")
    audit.check("the bid and the set", None, "no contract: every side scores what it took" if not scored.bid else
                f"seat {scored.maker} bid {scored.bid}: {'made' if scored.bid_made else 'set'}")
    return PartialAudit(sheet, tuple(audit.checks), tuple(audit.not_checked), None, scored,
                        outcome(rules, (), before, scored), view)
