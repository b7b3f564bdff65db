"""The trust of level 6's play model (domain/ai/trust_fit.py): the chance a seat plays level 3's card."""

from __future__ import annotations

import random

import pytest

from domain.ai.trust_fit import fit_trust, log_likelihood, play_probability


@pytest.mark.parametrize("trust", [0.0, 0.2, 0.55, 0.9])
def test_the_fit_finds_the_trust_that_made_the_plays(trust: float) -> None:
    rng = random.Random(int(trust * 100))
    observations = []
    for _ in range(20000):
        n = rng.randint(2, 6)
        agrees = rng.random() < play_probability(trust, n, True)
        observations.append((n, agrees))
    fitted = fit_trust(observations)
    assert fitted == pytest.approx(trust, abs=0.03)
    # No trust nearby explains the plays better.
    for other in (fitted - 0.05, fitted + 0.05):
        if 0.0 <= other <= 1.0:
            assert log_likelihood(other, observations) < log_likelihood(fitted, observations)


def test_the_chances_of_a_seats_cards_add_up_to_one() -> None:
    for n in (2, 3, 6):
        total = play_probability(0.4, n, True) + (n - 1) * play_probability(0.4, n, False)
        assert total == pytest.approx(1.0)


def test_plays_that_always_or_never_follow_level_3_fit_the_ends() -> None:
    assert fit_trust([(2, True), (3, True), (4, True)]) == 1.0
    assert fit_trust([(2, False), (2, False), (2, False), (3, True)]) == 0.0
    with pytest.raises(ValueError, match="no plays with a choice"):
        fit_trust([(1, True)])
