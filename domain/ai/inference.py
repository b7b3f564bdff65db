"""Deals weighted by the auction: what the other seats' calls say about their cards (levels 5 and 6).

000 "Computer Players" deals the unknown cards at random; a seat that bid 4 is likelier
to hold the ace of some suit than one that passed. ``deal`` draws ``candidates`` deals
(each consistent with what the seat knows, knowledge.py) for every deal it returns, and
keeps one of them with a chance proportional to its ``likelihood``: the probability the
bidder model (bidders.py) gives every other seat's actual call, with the cards that seat
holds in the deal. The result follows the deals' distribution given the calls, as
sampling-importance-resampling approximates it with that many candidates.

Only public facts enter: the seat's own cards, the calls (000 "Bidding": bids are made
aloud) and the cards played, so a redeal of what the seat cannot see changes no choice
(tests/domain/ai/test_knowledge.py). Where the model does not cover the rules' auction,
or no other seat has called, the deals are drawn as before, one per deal.

Level 6 (``trust`` > 0) multiplies in the likelihood of the other seats' plays so far
(fastsim/play_evidence.py: each seat with a choice taken to play level 3's card with
chance ``trust``), once a card has been played by another seat; that weight is checked
against the reducers' level 3 by tests/domain/ai/test_play_evidence.py.

``reference_deals`` is the reference of the calls' weights, one deal at a time on ``Knowledge.deal``;
``deal`` is the compiled path (fastsim/inference.py's weights over fastsim's dealer).
Given the same random numbers both keep the same deals (tests/domain/ai/test_inference.py).
"""

from __future__ import annotations

from typing import Iterator, Sequence

from domain.ai import fastsim
from domain.ai.bidders import BidderModel, Call, calls_of, model_for, probability
from domain.ai.fastsim.inference import call_weights, picks, take
from domain.ai.fastsim.play_evidence import play_weights, reads_plays
from domain.ai.knowledge import Knowledge
from domain.ai.rng import Rng, seed_of


def evidence(knowledge: Knowledge) -> tuple[BidderModel, list[Call]] | None:
    """Return the model and the other seats' calls that weigh ``knowledge``'s deals, or None when nothing does."""
    state = knowledge.state
    hand = state.hand
    if hand is None:
        return None
    model = model_for(state.rules)
    if model is None:
        return None
    calls = [c for c in calls_of(state.rules, hand) if c.seat != knowledge.seat]
    return (model, calls) if calls else None


def likelihood(knowledge: Knowledge, model: BidderModel, calls: Sequence[Call], dealt: dict[int, list[str]]) -> float:
    """Return how likely ``calls`` were with the unseen cards dealt as ``dealt`` (``Knowledge.deal``'s shape)."""
    known = knowledge.known_dealt()
    found = 1.0
    for call in calls:
        found *= probability(model, tuple(known[call.seat]) + tuple(dealt[call.seat]), call)
    return found


def pick(weights: Sequence[float], u: float) -> int:
    """Return the index a uniform ``u`` picks with chances proportional to ``weights`` (uniformly when all are 0)."""
    total = 0.0
    for w in weights:
        total += w
    if total <= 0.0:
        return min(int(u * len(weights)), len(weights) - 1)
    point = u * total
    running = 0.0
    for j, w in enumerate(weights):
        running += w
        if point < running:
            return j
    return len(weights) - 1


def reference_deals(
    knowledge: Knowledge, count: int, candidates: int, deal_rng: Rng, uniforms: Iterator[float],
) -> list[dict[int, list[str]]]:
    """Return ``count`` deals, each picked from ``candidates`` drawn by ``Knowledge.deal`` (the reference of ``deal``)."""
    found = evidence(knowledge)
    kept: list[dict[int, list[str]]] = []
    for _ in range(count):
        group = [knowledge.deal(deal_rng) for _ in range(candidates)]
        weights = [1.0] * candidates if found is None else [likelihood(knowledge, *found, d) for d in group]
        kept.append(group[pick(weights, next(uniforms))])
    return kept


def inferred(
    knowledge: Knowledge, count: int, candidates: int, seed: int, uniforms: Sequence[float], trust: float = 0.0,
) -> fastsim.Deals:
    """Return ``count`` deals, each picked by ``uniforms`` from ``candidates`` the compiled dealer draws from ``seed``.

    With ``trust`` > 0 the weights also hold the likelihood of the plays (fastsim/play_evidence.py).
    """
    raw = fastsim.deal(knowledge, count * candidates, seed)
    found = evidence(knowledge)
    if found is None:
        weights = call_weights(raw, BidderModel((), ()), [], ())
    else:
        weights = call_weights(raw, found[0], found[1], knowledge.known_dealt())
    if trust > 0.0:
        weights = weights * play_weights(knowledge, raw, trust)
    return take(raw, picks(weights, candidates, uniforms))


def deal(knowledge: Knowledge, count: int, rng: Rng, candidates: int = 1, trust: float = 0.0) -> fastsim.Deals:
    """Return ``count`` deals of ``knowledge``'s unseen cards, weighted by the calls when ``candidates`` > 1.

    With ``trust`` > 0 (level 6) they are weighted by the other seats' plays as well, each
    taken as level 3's card with that chance (fastsim/play_evidence.py).
    """
    plays = trust > 0.0 and reads_plays(knowledge)
    if candidates <= 1 or (evidence(knowledge) is None and not plays):
        return fastsim.deal(knowledge, count, seed_of(rng))
    seed = seed_of(rng)
    uniforms = [rng.random() for _ in range(count)]
    return inferred(knowledge, count, candidates, seed, uniforms, trust if plays else 0.0)
