"""The kernels' per-card and per-deal loops run without numba's reference counting (fastsim/kernel.py ``hot``).

numba counts every array a compiled function receives or slices with an atomic increment
and decrement (its runtime's ``NRT_incref`` and ``NRT_decref``); in a playout's per-card
steps they were two thirds of its time. These tests keep them out of the loops, and check
what makes that safe: a ``hot`` function cannot allocate an array, so every array it
touches belongs to its caller.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from domain.ai import fastsim
from domain.ai.fastsim import auction, batch, callers, dealer, discards, play_evidence
from domain.ai.fastsim.kernel import hot, playout

COUNTS = re.compile(r"call [^\n]*@NRT_(?:incref|decref)\(")

# The loops a level-6 hint spends its time in: the play of each deal, level 3's helpers
# inside it, the dealer's rows, the weights of candidate deals by the plays, the auction by
# the bidder model or by level 3, and the discards and refills after trump.
LOOPS = [
    playout, batch.give_cards, dealer._deal_rows, dealer._deal_one, dealer.shuffle, play_evidence._weigh,
    callers.finish_auction_by_model, callers.hand_inputs, callers.call_score, auction.finish_auction,
    auction.level3_trump, discards.after_trump, discards.refill,
]


@hot
def _allocates(n: int) -> float:
    return float(np.zeros(n).sum())


def _options(kernel: Any) -> dict[str, Any]:
    return {key: value for key, value in kernel.targetoptions.items() if key != "nopython"}


@pytest.mark.parametrize("kernel", LOOPS, ids=lambda kernel: kernel.__name__)
def test_a_loop_is_compiled_without_reference_counts(kernel: Any) -> None:
    assert kernel.targetoptions.get("_nrt") is False


def test_the_compiled_playout_counts_no_reference() -> None:
    """The playout, compiled afresh as ``hot`` compiles it, calls neither counter; compiled as ``jit`` it calls them."""
    fastsim.warm()
    signature = playout.signatures[0]
    fresh = njit(**_options(playout))(playout.py_func)
    fresh.compile(signature)
    assert not COUNTS.findall(fresh.inspect_llvm(signature))
    counted = njit(nogil=True, error_model="numpy")(playout.py_func)
    counted.compile(signature)
    assert len(COUNTS.findall(counted.inspect_llvm(signature))) > 50


def test_a_hot_function_cannot_allocate() -> None:
    with pytest.raises(TypingError):
        _allocates(3)
