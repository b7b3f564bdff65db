"""Provably fair deals: every deck order derives from a committed secret seed.

The algorithm "pitch-deal/hmac-sha256-fisher-yates/v1":
- The seed S is 32 bytes. GameStarted publishes ``sha256(S)`` (the seed commitment) and
  the anchor ``k0`` of a reverse hash chain of ``L`` keys: ``kL = HMAC-SHA256(S,
  "pitch/deal-chain/v1")`` and ``k(i-1) = SHA256(k(i))``.
- Deal ``i`` (1, 2, ... counting redeals) uses key ``k(i)``. When the deal is finished,
  ``k(i)`` is revealed; anyone checks ``SHA256(k(i)) == k(i-1)`` up to the anchor, so the
  key was fixed before the game began, and no later key can be computed from it.
- The deck order is an unbiased Fisher-Yates shuffle of the rules' cards (in the order of
  ``domain.cards.standard_deck``) drawing 32-bit words from ``HMAC-SHA256(k(i), "deck" ||
  counter)`` and rejecting words at or above the largest multiple of the range.
- When the stock runs short while refilling hands, the discards are reshuffled: the
  ``n``-th reshuffle of deal ``i`` shuffles them (in the order they were discarded) the
  same way with the key ``HMAC-SHA256(k(i), "reshuffle" || n)`` (n as 8 bytes, big-endian),
  so it is fixed by the deal's key and checkable once that key is revealed.
- The first dealer is drawn the same way from ``HMAC-SHA256(S, "first-dealer" || counter)``.
- A client-chosen seed text becomes ``S = SHA256("pitch/client-seed/v1:" + text)``; such a
  game is marked ``seed_source: "client"`` and is reproducible, not fair.
Only hashlib and hmac are used, so a verifier needs nothing else.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Iterator, Sequence, TypeVar

ALGORITHM = "pitch-deal/hmac-sha256-fisher-yates/v1"
CHAIN_LENGTH = 1024
T = TypeVar("T")


def seed_from_text(text: str) -> bytes:
    """Return the 32-byte seed of a client-chosen seed text."""
    return hashlib.sha256(b"pitch/client-seed/v1:" + text.encode("utf-8")).digest()


def seed_commitment(seed: bytes) -> str:
    """Return the published commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _chain_end(seed: bytes) -> bytes:
    return hmac.new(seed, b"pitch/deal-chain/v1", hashlib.sha256).digest()


def deal_key(seed: bytes, deal: int, length: int = CHAIN_LENGTH) -> bytes:
    """Return the key of deal number ``deal`` (1 to ``length``); deal 0 is the anchor."""
    if not 0 <= deal <= length:
        raise ValueError(f"deal {deal} is outside the chain of {length} keys")
    key = _chain_end(seed)
    for _ in range(length - deal):
        key = hashlib.sha256(key).digest()
    return key


def _checkpoints(seed: bytes, length: int) -> list[bytes]:
    """Return the keys ``CHECKPOINT_STRIDE`` hashes apart from the chain's end: k(L), k(L - stride), ..."""
    key = _chain_end(seed)
    found = [key]
    for step in range(1, length + 1):
        key = hashlib.sha256(key).digest()
        if step % CHECKPOINT_STRIDE == 0:
            found.append(key)
    return found


def chain_anchor(seed: bytes, length: int = CHAIN_LENGTH) -> str:
    """Return the anchor ``k0`` of the seed's key chain, in hex."""
    return deal_key(seed, 0, length).hex()


def verify_key(key_hex: str, previous_hex: str) -> bool:
    """Tell whether a revealed key hashes to the key (or anchor) before it."""
    return hmac.compare_digest(hashlib.sha256(bytes.fromhex(key_hex)).hexdigest(), previous_hex)


def _words(key: bytes, label: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, label + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def _below(words: Iterator[int], bound: int) -> int:
    """Return a uniform integer in [0, bound) by rejection sampling."""
    limit = (1 << 32) - (1 << 32) % bound
    while True:
        word = next(words)
        if word < limit:
            return word % bound


def shuffle(key: bytes, cards: Sequence[T]) -> tuple[T, ...]:
    """Return ``cards`` shuffled by the deal key (Fisher-Yates, unbiased)."""
    order = list(cards)
    words = _words(key, b"deck")
    for i in range(len(order) - 1, 0, -1):
        j = _below(words, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def reshuffle_key(key: bytes, count: int) -> bytes:
    """Return the key that orders the ``count``-th reshuffle of a deal's discards."""
    return hmac.new(key, b"reshuffle" + count.to_bytes(8, "big"), hashlib.sha256).digest()


def first_dealer(seed: bytes, players: int) -> int:
    """Return the first dealer drawn from the seed."""
    return _below(_words(seed, b"first-dealer"), players)


CHECKPOINT_STRIDE = 32


@dataclass
class SeededDeals:
    """The deal context of a game: deck orders and keys derived from its seed.

    The first key asked for walks the whole chain once and keeps every
    ``CHECKPOINT_STRIDE``-th key; any key is then fewer than that many hashes from the
    checkpoint above it (``deal_key`` walks the chain from its end for each key).
    """

    secret: bytes = field(repr=False)
    length: int = CHAIN_LENGTH
    _keys: dict[int, bytes] = field(default_factory=dict, repr=False)
    _checkpoints: list[bytes] = field(default_factory=list, repr=False)

    def _key(self, deal: int) -> bytes:
        if deal not in self._keys:
            if not 0 <= deal <= self.length:
                raise ValueError(f"deal {deal} is outside the chain of {self.length} keys")
            if not self._checkpoints:
                self._checkpoints = _checkpoints(self.secret, self.length)
            steps = self.length - deal  # hashes from the chain's end
            key = self._checkpoints[steps // CHECKPOINT_STRIDE]
            for _ in range(steps % CHECKPOINT_STRIDE):
                key = hashlib.sha256(key).digest()
            self._keys[deal] = key
        return self._keys[deal]

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the deck order of deal ``deal``."""
        return shuffle(self._key(deal), cards)

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the discards of deal ``deal`` in the order of its ``count``-th reshuffle."""
        return shuffle(reshuffle_key(self._key(deal), count), cards)

    def key(self, deal: int) -> str:
        """Return the key of deal ``deal`` in hex."""
        return self._key(deal).hex()

    def seed(self) -> str:
        """Return the seed in hex."""
        return self.secret.hex()


@dataclass(frozen=True, slots=True)
class Commitment:
    """What GameStarted publishes about the seed before any card is dealt."""

    algorithm: str
    seed_commitment: str
    chain_anchor: str
    chain_length: int
    seed_source: str


def commit(secret: bytes, seed_source: str, length: int = CHAIN_LENGTH) -> Commitment:
    """Return the commitment to ``secret`` ("server" generated or "client" chosen)."""
    return Commitment(
        algorithm=ALGORITHM,
        seed_commitment=seed_commitment(secret),
        chain_anchor=chain_anchor(secret, length),
        chain_length=length,
        seed_source=seed_source,
    )
