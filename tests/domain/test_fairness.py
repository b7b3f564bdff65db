"""Provably fair deals (domain/fairness.py): pinned test vectors, the key chain, the shuffle.

The vectors were computed once from the algorithm "pitch-deal/hmac-sha256-fisher-yates/v1"
and are written here as literals: any change to the derivation (labels, counters, byte
order, rejection bound) changes them, and would make every stored game unverifiable. A
second, independent implementation written from the module docstring checks that the
documented algorithm is the one implemented.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest
from hypothesis import given, settings

from domain.cards import standard_deck
from domain.dealing import deal_hand, deck_of
from domain.fairness import (
    ALGORITHM, CHAIN_LENGTH, SeededDeals, chain_anchor, commit, deal_key, first_dealer,
    seed_commitment, seed_from_text, shuffle, verify_key,
)
from domain.rules import Rules
from tests.strategies import deal_keys, seed_texts

VECTOR_SEED = "c81a035c6ea332b384f3f5d3e9edd37acfae5a7b0bb28d79a422f170b3add1f4"
VECTOR_COMMITMENT = "c94f15b5aa952896b50ffd9f9165778b765f7284c22ad2ac969a0e11e3458aac"
VECTOR_ANCHOR = "9fcc2f2a27d2fb677cd8756b3c5d20ff80cbe8e8e9c6517f601591c8475a23ac"
VECTOR_KEY_1 = "48fad6bef1f887b7116f5398afb3b47b5be6affdea604d41b1ada712025e9d2b"
VECTOR_KEY_2 = "111a208bf072e05f847b61db8c31cb015341d41238ce8768a164a0cad73ef18e"
VECTOR_DECK_1 = ("KS", "TD", "AS", "QC", "9D", "9H", "5S", "7C", "QS", "7H")
VECTOR_DECK_2 = ("4S", "JH", "4H", "5H", "AS", "JD", "TS", "9D", "7H", "7S")


def test_the_seed_of_a_text_is_pinned() -> None:
    """A client seed text maps to one documented 32-byte seed."""
    seed = seed_from_text("vector")
    assert seed.hex() == VECTOR_SEED
    assert seed == hashlib.sha256(b"pitch/client-seed/v1:vector").digest()


def test_the_commitment_and_anchor_are_pinned() -> None:
    """GameStarted publishes these two values for the seed of "vector"."""
    seed = seed_from_text("vector")
    assert seed_commitment(seed) == VECTOR_COMMITMENT
    assert chain_anchor(seed) == VECTOR_ANCHOR
    assert commit(seed, "client") == commit(seed, "client")
    published = commit(seed, "client")
    assert (published.algorithm, published.seed_commitment, published.chain_anchor, published.chain_length,
            published.seed_source) == (ALGORITHM, VECTOR_COMMITMENT, VECTOR_ANCHOR, CHAIN_LENGTH, "client")


def test_the_deal_keys_are_pinned() -> None:
    """Deals 1 and 2 of the seed of "vector" use these keys."""
    seed = seed_from_text("vector")
    assert deal_key(seed, 1).hex() == VECTOR_KEY_1
    assert deal_key(seed, 2).hex() == VECTOR_KEY_2
    assert SeededDeals(seed).key(1) == VECTOR_KEY_1


def test_the_deck_orders_are_pinned() -> None:
    """The first ten cards of deals 1 and 2 of the seed of "vector"."""
    seed = seed_from_text("vector")
    assert shuffle(deal_key(seed, 1), standard_deck())[:10] == VECTOR_DECK_1
    assert shuffle(deal_key(seed, 2), standard_deck())[:10] == VECTOR_DECK_2
    assert SeededDeals(seed).deck(1, standard_deck())[:10] == VECTOR_DECK_1


def test_the_first_dealer_is_pinned() -> None:
    """The first dealer drawn from the seed of "vector", for tables of 2 to 7."""
    seed = seed_from_text("vector")
    assert [first_dealer(seed, n) for n in range(2, 8)] == [0, 0, 2, 3, 0, 2]


def test_a_short_chain_is_pinned() -> None:
    """A chain of 4 keys: its anchor and its last key."""
    seed = seed_from_text("vector")
    assert chain_anchor(seed, 4) == "1041dc303098426564cb07bad6155e975db2bf13c55c0a2523c90130768fabca"
    assert deal_key(seed, 4, 4).hex() == "aac084c51f867f0fb0ae782a13c7ac01102785c32c5276bcd1f84a86c5992647"


def test_every_revealed_key_verifies_back_to_the_anchor() -> None:
    """Each deal's key hashes to the key before it, and deal 1's to the published anchor."""
    seed = seed_from_text("vector")
    deals = SeededDeals(seed)
    previous = commit(seed, "client").chain_anchor
    for deal in range(1, 30):
        key = deals.key(deal)
        assert verify_key(key, previous), f"deal {deal}"
        previous = key
    assert verify_key(deal_key(seed, CHAIN_LENGTH).hex(), deal_key(seed, CHAIN_LENGTH - 1).hex())


@pytest.mark.parametrize("length", [CHAIN_LENGTH, 4, 33, 64])
def test_every_key_from_the_checkpoints_is_the_chain_s_key(length: int) -> None:
    """SeededDeals finds keys from checkpoints along the chain; each is exactly deal_key's walk from its end."""
    seed = seed_from_text("checkpoints")
    deals = SeededDeals(seed, length)
    for deal in [*range(length, -1, -1)] if length < 100 else [0, 1, 2, 31, 32, 33, 500, 991, 992, 1023, 1024]:
        assert deals.key(deal) == deal_key(seed, deal, length).hex(), deal
    with pytest.raises(ValueError):
        deals.key(length + 1)


def test_a_wrong_key_fails_verification() -> None:
    """A key of another deal, another seed, altered, or checked backwards does not verify."""
    seed = seed_from_text("vector")
    anchor, key1, key2 = chain_anchor(seed), deal_key(seed, 1).hex(), deal_key(seed, 2).hex()
    assert not verify_key(key2, anchor)
    assert not verify_key(deal_key(seed_from_text("other"), 1).hex(), anchor)
    assert not verify_key(key1[:-1] + ("0" if key1[-1] != "0" else "1"), anchor)
    assert not verify_key(anchor, key1)
    assert not verify_key(key1, key1)


def test_deal_numbers_outside_the_chain_are_refused() -> None:
    """There is no key before the anchor or past the chain's length."""
    seed = seed_from_text("vector")
    for deal in (-1, CHAIN_LENGTH + 1):
        with pytest.raises(ValueError, match="outside the chain"):
            deal_key(seed, deal)


@settings(max_examples=50, database=None)
@given(deal_keys)
def test_shuffle_is_a_permutation(key: bytes) -> None:
    """Shuffling reorders the cards given: every card once, nothing added or lost."""
    deck = standard_deck()
    shuffled = shuffle(key, deck)
    assert sorted(shuffled) == sorted(deck)
    assert shuffle(key, deck) == shuffled
    assert sorted(shuffle(key, range(7))) == list(range(7))
    assert shuffle(key, ["only"]) == ("only",) and shuffle(key, []) == ()


@settings(max_examples=50, database=None)
@given(seed_texts)
def test_different_seeds_give_different_decks(text: str) -> None:
    """Another seed text gives another seed and, in practice, another deck order."""
    seed, other = seed_from_text(text), seed_from_text(text + "!")
    assert seed != other
    assert shuffle(deal_key(seed, 1), standard_deck()) != shuffle(deal_key(other, 1), standard_deck())


# --- An independent verifier, written from the docstring of domain/fairness.py ----------------


def _reference_words(key: bytes, label: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, label + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(8):
            yield int.from_bytes(block[4 * i:4 * i + 4], "big")
        counter += 1


def _reference_uniform(words: Iterator[int], bound: int) -> int:
    limit = (2**32 // bound) * bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("unreachable")


def _reference_deck(seed: bytes, deal: int, length: int = CHAIN_LENGTH) -> list[str]:
    key = hmac.new(seed, b"pitch/deal-chain/v1", hashlib.sha256).digest()
    for _ in range(length - deal):
        key = hashlib.sha256(key).digest()
    cards = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    words = _reference_words(key, b"deck")
    for i in range(len(cards) - 1, 0, -1):
        j = _reference_uniform(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("text, deal", [("vector", 1), ("vector", 7), ("another game", 1), ("", 3)])
def test_an_independent_verifier_recomputes_the_deal(text: str, deal: int) -> None:
    """Anyone holding the revealed seed can recompute a deal with hashlib and hmac alone."""
    seed = seed_from_text(text)
    deck = _reference_deck(seed, deal)
    assert tuple(deck) == SeededDeals(seed).deck(deal, deck_of(Rules()))
    dealt = deal_hand(Rules(), deck, dealer=0, hand=deal, deal=deal)
    assert dealt.cards[1] == tuple(deck[0:3] + deck[12:15])
    assert _reference_uniform(_reference_words(seed, b"first-dealer"), 4) == first_dealer(seed, 4)
