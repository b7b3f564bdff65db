"""The same hand under other rules: ``rescore`` scores a record under its own rules and given ones.

A hand record (or a score sheet, domain/partial.py) is replayed twice: under its own rules and
under another preset with options. The answer puts the two scores side by side point by
point, with each adjustment (a set, a bid scored only, no junk points, ...) and each side's
change, and names, for every difference, the options behind it with the rule text each comes
from (the ``source`` of the option in domain/rules.py). The other rules may refuse the hand:
its deal (a deck without those cards, hands of another size) or, replayed, the first action
they refuse and why; the answer then says so in place of a score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.audit import IllegalAction, replay_record
from domain.codec import to_data
from domain.errors import PitchError
from domain.events import HandScored, PointAward
from domain.partial import is_partial
from domain.partial_audit import audit_partial
from domain.points import POINT_ORDER
from domain.presets import preset_rules
from domain.records import parse_record
from domain.rules import OPTIONS, Rules

_SOURCES = {spec.name: spec.source for spec in OPTIONS}
# Options that change which card wins a trick, and so who captures any card.
_TRUMP_ORDER = ("off_jack", "off_ace", "off_three", "off_five", "off_nine", "jokers", "joker_place", "joker_order")
# The options behind each point kind and adjustment kind, besides the trump order.
_BEHIND: dict[str, tuple[str, ...]] = {
    "high": ("high_point",), "low": ("low_point", "joker_place"), "jack": (), "off-jack": ("off_card_points",),
    "red-joker": ("joker_point",), "black-joker": ("joker_point",), "last-trick": ("last_trick_point",),
    "game": ("game_point", "game_tie", "joker_pips", "removed_ranks"), "ten": ("game_point",),
    "three": ("three_point",), "off-three": ("off_card_points",), "five": ("five_point",), "off-five": ("off_card_points",),
    "nine": ("nine_point",), "off-nine": ("off_card_points",), "queen": ("queen_point",), "king": ("king_point",),
    "off-ace": ("off_card_points",), "old-nate": ("old_nate",), "spade": ("spade_point",),
    "moon": ("moon", "moon_bid", "moon_tricks", "max_bid"),
    "set": ("set_penalty", "contract", "moon", "moon_failure", "max_bid"), "bid-only": ("maker_bid_only",),
    "bid-bonus": ("bid_bonus",), "smudge-set": ("smudge_call",), "no-junk": ("junk_points",),
    "all-tricks": ("all_tricks_penalty",), "junk-limit": ("win_rule", "target_score"),
    "held-short": ("win_rule", "target_score"), "revoke": ("revoke",),
}
_SCORING = ("contract", "set_penalty", "junk_points", "maker_bid_only", "bid_bonus", "count_down", "moon", "max_bid")


@dataclass(frozen=True, slots=True)
class Scoring:
    """A hand under one set of rules: its score, or the first action they refuse, or why they refuse the deal."""

    preset: str
    options: Mapping[str, Any]
    rules: Rules | None
    score: HandScored | None
    illegal: IllegalAction | None
    refused: str | None

    def data(self) -> dict[str, Any]:
        """Return this side of the comparison as JSON."""
        return {
            "rules": {"preset": self.preset, "options": dict(self.options)},
            "score": None if self.score is None else to_data(self.score),
            "illegal": None if self.illegal is None else {
                "index": self.illegal.index, "action": dict(self.illegal.action), "reason": self.illegal.reason,
            },
            "refused": self.refused,
        }


def _score(data: Mapping[str, Any], preset: str, options: Mapping[str, Any]) -> Scoring:
    """Return the hand scored under ``preset`` and ``options``."""
    try:
        if is_partial(data):
            audit = audit_partial(data)
            failed = next((c for c in audit.checks if not c.ok), None)
            refused = None if failed is None or audit.illegal is not None else f"{failed.name}: {failed.detail}"
            return Scoring(preset, options, audit.sheet.rules, audit.score, audit.illegal, refused)
        record = parse_record(data)
    except PitchError as error:
        return Scoring(preset, options, None, None, None, str(error))
    replayed = replay_record(record)
    refused = None if replayed.score is not None or replayed.illegal is not None else "the hand is not finished"
    return Scoring(preset, options, record.rules, replayed.score, replayed.illegal, refused)


def _option(name: str, own: Rules, other: Rules) -> dict[str, Any]:
    return {"option": name, "own": getattr(own, name), "other": getattr(other, name), "source": _SOURCES[name]}


def _behind(kind: str, changed: list[str], own: Rules, other: Rules) -> list[dict[str, Any]]:
    """Return the changed options behind a difference of ``kind``, with their rule texts."""
    named = [n for n in (*_BEHIND.get(kind, ()), *_TRUMP_ORDER) if n in changed]
    if not named:  # the tricks themselves went otherwise (who leads, who may play what)
        named = [n for n in changed if n not in _SCORING] or changed
    return [_option(name, own, other) for name in named]


def _award(point: PointAward | None) -> dict[str, Any] | None:
    if point is None:
        return None
    return {"value": point.value, "side": point.side, "card": point.card, "receiver": point.receiver, "reason": point.reason}


def _by_kind(own: tuple[PointAward, ...], other: tuple[PointAward, ...], changed: list[str], rules: tuple[Rules, Rules],
             order: tuple[str, ...]) -> list[dict[str, Any]]:
    """Return each kind of point (or adjustment) of either score, the two side by side, with the options behind a difference."""
    found = []
    kinds = sorted({p.kind for p in (*own, *other)}, key=lambda k: order.index(k) if k in order else len(order))
    for kind in kinds:
        mine = [p for p in own if p.kind == kind]
        theirs = [p for p in other if p.kind == kind]
        for n in range(max(len(mine), len(theirs))):
            a, b = (mine[n] if n < len(mine) else None), (theirs[n] if n < len(theirs) else None)
            differs = (a is None) != (b is None) or (a is not None and b is not None and (a.value, a.side) != (b.value, b.side))
            found.append({
                "kind": kind, "own": _award(a), "other": _award(b), "differs": differs,
                "rules": _behind(kind, changed, *rules) if differs else [],
            })
    return found


def rescore(record: Mapping[str, Any], preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Return a hand scored under its own rules and under ``preset`` with ``options``, point by point, with the rule text behind each difference."""
    own_rules = record.get("rules") or {}
    own = _score(record, str(own_rules.get("preset", "team-auction")), dict(own_rules.get("options") or {}))
    if own.rules is None:
        raise PitchError(own.refused or "the record cannot be read")
    answer: dict[str, Any] = {"own": own.data(), "other": None, "options": [], "points": [], "adjustments": [],
                              "changes": None, "bid_made": None, "notes": []}
    other_data = {k: v for k, v in record.items() if k not in ("seats", "sides", "rules")}
    try:
        sides = preset_rules(preset, options).sides
    except PitchError as error:
        answer["other"] = Scoring(preset, options, None, None, None, str(error)).data()
        answer["summary"] = f"the other rules refuse the hand: {error}"
        return answer
    if sides != own.rules.sides and other_data.pop("scores_before", None) is not None:
        answer["notes"].append(f"the other rules seat {sides} sides: the hand is scored from their starting scores")
    other = _score({**other_data, "rules": {"preset": preset, "options": dict(options)}}, preset, options)
    answer["other"] = other.data()
    if other.rules is None:
        answer["summary"] = f"the other rules refuse the hand: {other.refused}"
        return answer
    changed = [spec.name for spec in OPTIONS if getattr(own.rules, spec.name) != getattr(other.rules, spec.name)]
    answer["options"] = [_option(name, own.rules, other.rules) for name in changed]
    if own.score is None or other.score is None:
        why = other.illegal.reason if other.illegal is not None else other.refused
        where = f"action {other.illegal.index} ({dict(other.illegal.action)}) is refused: " if other.illegal else ""
        answer["summary"] = f"the other rules refuse the play: {where}{why}" if other.score is None else \
            "the hand is not finished under its own rules"
        return answer
    pair = (own.rules, other.rules)
    answer["points"] = _by_kind(own.score.points, other.score.points, changed, pair, POINT_ORDER)
    answer["adjustments"] = _by_kind(own.score.adjustments, other.score.adjustments, changed, pair, ())
    answer["changes"] = {"own": list(own.score.changes), "other": list(other.score.changes)}
    answer["bid_made"] = {"own": own.score.bid_made, "other": other.score.bid_made}
    differing = [p["kind"] for p in answer["points"] + answer["adjustments"] if p["differs"]]
    answer["summary"] = (
        f"changes {list(own.score.changes)} under its own rules, {list(other.score.changes)} under the others"
        + (f"; they differ in {', '.join(differing)}" if differing else "; every point is the same")
    )
    return answer
