"""Proving a game's deals fair from its events (domain/fairness.py describes the algorithm).

For each deal whose key was revealed (DealKeyRevealed), the audit checks that the key
hashes back, through any keys revealed before it, to the chain anchor GameStarted
published before the first card was dealt, and that shuffling the rules' deck with that
key and dealing it as domain/dealing.py deals reproduces the recorded HandDealt exactly
(every seat's cards, the stock and the kitty, in order). Once the game has ended, the
seed GameEnded (or GameAbandoned, domain/table_events.py) reveals must match the commitment, rebuild the anchor and every key, and
draw the recorded first dealer. A deal still being played is "pending": its key is
secret until it ends. A client-seeded game is at best "reproducible", never "fair":
whoever chose the seed could have known every deal in advance.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Sequence

from domain.dealing import next_deal
from domain.events import DealKeyRevealed, Event, GameEnded, GameStarted, HandDealt
from domain.table_events import GameAbandoned
from domain.fairness import ALGORITHM, chain_anchor, first_dealer, reshuffle_key, seed_commitment, shuffle
from domain.rules import Rules, rules_from_dict

PROVEN, PENDING, FAILED = "proven", "pending", "failed"


@dataclass(frozen=True, slots=True)
class DealProof:
    """One deal: whether its revealed key and recomputed cards prove it was the committed one."""

    deal: int
    hand: int
    version: int
    status: str
    key: str | None
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """The verdict on every deal of a game, with the seed checks once it is revealed."""

    algorithm: str
    seed_source: str
    verdict: str
    summary: str
    seed_revealed: bool
    seed_verified: bool | None
    first_dealer_verified: bool | None
    deals: tuple[DealProof, ...]
    problems: tuple[str, ...]


class _RevealedKey:
    """The deal source of one revealed key: its shuffle, as the game's own source shuffles."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        return shuffle(self._key, cards)

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        return shuffle(reshuffle_key(self._key, count), cards)

    def key(self, deal: int) -> str:
        return self._key.hex()

    def seed(self) -> str:
        return ""


def _hashes_back(key: bytes, steps: int, earlier: str) -> bool:
    for _ in range(steps):
        key = hashlib.sha256(key).digest()
    return hmac.compare_digest(key.hex(), earlier)


def _hex_bytes(text: str) -> bytes | None:
    try:
        return bytes.fromhex(text)
    except (TypeError, ValueError):
        return None


def _check_deal(rules: Rules, dealt: HandDealt, key: bytes) -> list[str]:
    """Return how the recorded deal differs from dealing the deck the key shuffles."""
    expected = next_deal(rules, _RevealedKey(key), dealt.dealer, hand=dealt.hand, deal=dealt.deal)
    problems = [
        f"seat {seat}'s cards are not the ones the key deals"
        for seat, (got, want) in enumerate(zip(dealt.cards, expected.cards)) if got != want
    ]
    if len(dealt.cards) != len(expected.cards):
        problems.append(f"the deal has {len(dealt.cards)} seats' cards, not {len(expected.cards)}")
    if dealt.stock != expected.stock:
        problems.append("the stock is not the one the key deals")
    if dealt.kitty != expected.kitty:
        problems.append("the kitty is not the one the key deals")
    return problems


def _chain(start: GameStarted, keys: dict[int, str]) -> tuple[dict[int, str], list[str]]:
    """Return the revealed keys that hash back to the anchor, and the problems with the others."""
    verified, problems = {0: start.chain_anchor}, []
    for deal in sorted(keys):
        key = _hex_bytes(keys[deal])
        if not 1 <= deal <= start.chain_length or key is None:
            problems.append(f"the key revealed for deal {deal} is not a key of this game's chain")
            continue
        earlier = max(d for d in verified if d < deal)
        if _hashes_back(key, deal - earlier, verified[earlier]):
            verified[deal] = keys[deal]
        else:
            what = "the chain anchor" if earlier == 0 else f"the key of deal {earlier}"
            problems.append(f"the key revealed for deal {deal} does not hash back to {what}")
    return verified, problems


def _seed_checks(start: GameStarted, rules: Rules, seed_hex: str) -> tuple[bool, bool, list[str]]:
    """Return whether the seed matches the commitment and anchor, whether it draws the first dealer, and why not."""
    seed = _hex_bytes(seed_hex)
    if seed is None or seed_commitment(seed) != start.seed_commitment:
        return False, False, ["the revealed seed does not match the commitment published when the game started"]
    if chain_anchor(seed, start.chain_length) != start.chain_anchor:
        return False, False, ["the revealed seed does not rebuild the published chain anchor"]
    if first_dealer(seed, rules.players) != start.first_dealer:
        return True, False, [f"the seed draws another first dealer than seat {start.first_dealer}"]
    return True, True, []


def check_deals(events: Sequence[Event]) -> FairnessReport:
    """Check every deal of a game's events against its commitment; return the verdict."""
    start = events[0] if events else None
    if not isinstance(start, GameStarted):
        return FairnessReport("", "", FAILED, "the log does not begin with GameStarted", False, None, None, (), ())
    if start.deal_algorithm != ALGORITHM:
        return FairnessReport(
            start.deal_algorithm, start.seed_source, "unverifiable",
            f"the deals use {start.deal_algorithm!r}, which this audit cannot verify", False, None, None, (), (),
        )
    rules = rules_from_dict(start.rules)
    keys = {e.deal: e.key for e in events if isinstance(e, DealKeyRevealed)}
    ended = next((e for e in events if isinstance(e, (GameEnded, GameAbandoned))), None)
    verified, problems = _chain(start, keys)
    dealt = [(i + 1, e) for i, e in enumerate(events) if isinstance(e, HandDealt)]
    deals = []
    for n, (version, deal) in enumerate(dealt):
        over = ended is not None or n + 1 < len(dealt)
        found: list[str] = []
        if deal.deal in verified and deal.deal > 0:
            found = _check_deal(rules, deal, bytes.fromhex(verified[deal.deal]))
            status = FAILED if found else PROVEN
        elif deal.deal in keys:
            status, found = FAILED, ["its revealed key does not hash back to the chain anchor"]
        elif over:
            status, found = FAILED, ["the deal is over but its key was never revealed"]
        else:
            status = PENDING
        problems += [f"deal {deal.deal}: {p}" for p in found]
        deals.append(DealProof(deal.deal, deal.hand, version, status, keys.get(deal.deal), tuple(found)))
    seed_verified: bool | None = None
    first_verified: bool | None = None
    if ended is not None:
        seed_verified, first_verified, seed_problems = _seed_checks(start, rules, ended.seed)
        problems += seed_problems
    verdict, summary = _verdict(start, ended is not None, problems, deals)
    return FairnessReport(
        start.deal_algorithm, start.seed_source, verdict, summary, ended is not None,
        seed_verified, first_verified, tuple(deals), tuple(problems),
    )


def _verdict(start: GameStarted, ended: bool, problems: list[str], deals: list[DealProof]) -> tuple[str, str]:
    proven = sum(d.status == PROVEN for d in deals)
    if problems:
        return FAILED, f"not proven: {problems[0]}"
    if start.seed_source != "server":
        return "reproducible", (
            f"{proven} deals follow from the seed the client chose: reproducible, not proven fair"
        )
    if ended:
        return "fair", f"all {proven} deals and the first dealer follow from the seed committed before the game"
    return "fair-so-far", (
        f"{proven} finished deal{' follows' if proven == 1 else 's follow'} from keys committed before the game; "
        "the deal in play is proven when it ends"
    )

