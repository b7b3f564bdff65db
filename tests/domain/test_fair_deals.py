"""Proving deals fair (domain/deal_proofs.py): pinned whole deals, every way a proof fails, no bias.

The vectors are whole HandDealt events of the seed of "vector" (domain/fairness.py's
algorithm dealt as domain/dealing.py deals), written as literals once: a change to the
derivation or to the dealing order changes them and would make stored games unverifiable.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from domain.dealing import next_deal
from domain.deal_proofs import check_deals
from domain.events import DealKeyRevealed, Event, GameEnded, GameStarted, HandDealt
from domain.fairness import SeededDeals, deal_key, seed_from_text, shuffle
from domain.rules import Rules
from lab.simulate import random_game

VECTOR_DEAL_1_DEALER_0 = (
    ("7H", "2C", "3S", "4D", "QH", "KH"), ("KS", "TD", "AS", "5H", "4S", "AH"),
    ("QC", "9D", "9H", "3C", "7S", "TS"), ("5S", "7C", "QS", "2D", "KD", "9C"),
)
VECTOR_STOCK_1 = (
    "AD", "6C", "8C", "JD", "4C", "3H", "5D", "QD", "4H", "7D", "AC", "JC", "TH", "JH", "2S", "JS",
    "TC", "8D", "5C", "2H", "6S", "6D", "6H", "8H", "3D", "KC", "8S", "9S",
)
VECTOR_DEAL_2_DEALER_2 = (
    ("5H", "AS", "JD", "4C", "QH", "8C"), ("TS", "9D", "7H", "5D", "7C", "JC"),
    ("7S", "2S", "9C", "KC", "3S", "JS"), ("4S", "JH", "4H", "6S", "QS", "5S"),
)


def test_whole_deals_of_the_vector_seed_are_pinned() -> None:
    """Deal 1 by seat 0 and deal 2 by seat 2 of the seed of "vector", under the default rules."""
    deals = SeededDeals(seed_from_text("vector"))
    first = next_deal(Rules(), deals, 0, hand=1, deal=1)
    assert first.cards == VECTOR_DEAL_1_DEALER_0 and first.stock == VECTOR_STOCK_1
    assert next_deal(Rules(), deals, 2, hand=2, deal=2).cards == VECTOR_DEAL_2_DEALER_2


def _game(seed: str = "fair deals") -> list[Event]:
    return random_game(seed)


def _server_seeded(events: list[Event]) -> list[Event]:
    start = events[0]
    assert isinstance(start, GameStarted)
    return [dataclasses.replace(start, seed_source="server"), *events[1:]]


def _replace(events: list[Event], index: int, **changes: object) -> list[Event]:
    return [*events[:index], dataclasses.replace(events[index], **changes), *events[index + 1:]]  # type: ignore[type-var]


def _index(events: list[Event], kind: type, n: int = 0) -> int:
    return [i for i, e in enumerate(events) if isinstance(e, kind)][n]


def test_a_finished_server_seeded_game_is_fair_and_a_client_seeded_one_only_reproducible() -> None:
    events = _game()
    report = check_deals(_server_seeded(events))
    assert report.verdict == "fair" and report.problems == ()
    assert report.seed_verified is True and report.first_dealer_verified is True
    assert {d.status for d in report.deals} == {"proven"}
    assert [d.deal for d in report.deals] == list(range(1, len(report.deals) + 1))
    client = check_deals(events)
    assert client.verdict == "reproducible" and "not proven fair" in client.summary


def test_a_running_game_is_fair_so_far_with_its_current_deal_pending() -> None:
    events = _server_seeded(_game())
    cut = _index(events, HandDealt, 3) + 5
    report = check_deals(events[:cut])
    assert report.verdict == "fair-so-far" and report.seed_revealed is False and report.seed_verified is None
    assert [d.status for d in report.deals] == ["proven", "proven", "proven", "pending"]
    assert report.deals[-1].key is None


def test_a_deal_whose_cards_differ_from_its_key_fails_naming_the_seat() -> None:
    events = _game()
    i = _index(events, HandDealt, 2)
    dealt = events[i]
    assert isinstance(dealt, HandDealt)
    cards = list(dealt.cards)
    cards[1], cards[3] = cards[3], cards[1]
    report = check_deals(_replace(events, i, cards=tuple(cards)))
    assert report.verdict == "failed"
    assert report.deals[2].status == "failed"
    assert report.deals[2].problems == ("seat 1's cards are not the ones the key deals", "seat 3's cards are not the ones the key deals")
    assert {d.status for n, d in enumerate(report.deals) if n != 2} == {"proven"}
    stock = _replace(events, i, stock=tuple(reversed(dealt.stock)))
    assert check_deals(stock).deals[2].problems == ("the stock is not the one the key deals",)


def test_a_key_that_does_not_hash_back_to_the_anchor_fails() -> None:
    events = _game()
    i = _index(events, DealKeyRevealed, 1)
    other = deal_key(seed_from_text("another seed"), 2).hex()
    report = check_deals(_replace(events, i, key=other))
    assert report.verdict == "failed"
    assert "deal 2" in report.summary and "does not hash back to the key of deal 1" in report.summary


def test_a_finished_deal_whose_key_was_never_revealed_fails() -> None:
    events = _game()
    i = _index(events, DealKeyRevealed, 0)
    report = check_deals(events[:i] + events[i + 1:])
    assert report.deals[0].status == "failed" and "never revealed" in report.deals[0].problems[0]
    # Deal 2's key still hashes back to the anchor through the missing one.
    assert report.deals[1].status == "proven"


def test_a_revealed_seed_must_match_the_commitment_and_draw_the_first_dealer() -> None:
    events = _game()
    end = len(events) - 1
    assert isinstance(events[end], GameEnded)
    wrong = check_deals(_replace(events, end, seed=seed_from_text("not it").hex()))
    assert wrong.verdict == "failed" and wrong.seed_verified is False
    assert "does not match the commitment" in wrong.summary
    start = events[0]
    assert isinstance(start, GameStarted)
    moved = check_deals(_replace(events, 0, first_dealer=(start.first_dealer + 1) % 4))
    assert moved.first_dealer_verified is False and moved.verdict == "failed"


def test_an_unknown_algorithm_is_unverifiable() -> None:
    report = check_deals(_replace(_game(), 0, deal_algorithm="shuffled-by-hand/v0"))
    assert report.verdict == "unverifiable" and "shuffled-by-hand/v0" in report.summary


# The chi-square test of the shuffle: each of 52 cards in each of 52 positions, 100,000 decks
# shuffled by distinct 32-byte keys. Under an unbiased shuffle every (card, position) cell
# expects N/52; the statistic has (52-1)^2 = 2601 degrees of freedom (rows and columns each
# sum to N). Its critical value at p = 0.001 is 2829.6 (Wilson-Hilferty:
# df * (1 - 2/(9 df) + 3.0902 * sqrt(2/(9 df)))^3, with 3.0902 the normal 0.999 quantile).
SHUFFLES = 100_000
CRITICAL_P001_DF2601 = 2829.6


def _chi_square(orders: Iterable[Sequence[int]], count: int) -> float:
    """Return the chi-square statistic of card positions over ``count`` orders of range(52)."""
    offsets = tuple(range(0, 52 * 52, 52))
    cells: Counter[int] = Counter()
    for order in orders:
        cells.update(map(int.__add__, offsets, order))
    expected = count / 52
    return sum((cells[c] - expected) ** 2 / expected for c in range(52 * 52))


def test_derived_shuffles_show_no_bias_in_card_positions() -> None:
    deck = tuple(range(52))
    orders = (shuffle(hashlib.sha256(b"chi-square/%d" % i).digest(), deck) for i in range(SHUFFLES))
    statistic = _chi_square(orders, SHUFFLES)
    assert statistic < CRITICAL_P001_DF2601, f"chi-square {statistic:.1f} over 2601 degrees of freedom"
    assert statistic > 2601 * 0.9, "an honest statistic sits near its degrees of freedom"


def _naive(rng: random.Random) -> list[int]:
    """The classic biased shuffle: swap each place with any place, not only an earlier one."""
    order = list(range(52))
    for i in range(51, 0, -1):
        j = rng.randrange(52)
        order[i], order[j] = order[j], order[i]
    return order


def test_the_chi_square_test_catches_a_biased_shuffle() -> None:
    rng = random.Random(1)
    assert _chi_square((_naive(rng) for _ in range(5000)), 5000) > CRITICAL_P001_DF2601
