"""Every operation, for every seat and for a spectator, at every phase: only the cards the caller may see.

Games of presets chosen to cover every way a card is hidden (a plain team game, a kitty
taken by the maker, discards and draws from the stock, face-down rows, jokers, a game
of three players each alone, the dealer running it, misdeals, revokes and claims, play
with trump only) are played over the HTTP API. At each scanned version every operation
of openapi.yaml that reads a game is asked by every seat and by a spectator (no token),
and every card its answer names (tests/service/api/visibility.py ``cards_in_response``)
must be one the caller may see at that version, as worked out from the full event log
by ``Visibility``, independently of domain/views.py. What "may see" means is that
module's docstring: the public cards (every card played, face up or from a face-down
row), the seat's own cards (dealt to it, run to it, taken from the kitty, discarded,
drawn; never its face-down row, 001 "Fish Pitch") and, once a deal is over (scored, or
thrown in with its key revealed, or the game ended), every card of that deal.

The operations come from openapi.yaml: each is either scanned per caller, scanned as a
spectator (it takes no token), scanned on a game at a table (the tables' operations,
tests/service/api/test_tables_visibility.py), listed as reading no game, with the reason, or
listed with the tests that hold it to showing no card of a deal in play (reviews, the
players' pages, the search and the export, which read only finished hands or no card); a new
operation fails the first test until it is placed. A scan that found no card anywhere
would prove nothing, so each caller must have been shown cards, each seat its own hand.
No answer may hold the chain hash of an event of the deal being played either: a hash
covers the event's hidden cards, and anyone could test guesses of a few of them against it
(tests/service/api/test_hashes_keep_cards_hidden.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient

from domain.events import EVENT_TYPES
from service.api import create_app
from service.bootstrap import Services, build_services
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame, bearer
from tests.service.api.scanning import Operation, RecordingDispatcher, Scan, choose, play_and_scan
from tests.service.api.test_tables_visibility import TABLE_OPERATIONS
from tests.service.api.visibility import HIDDEN_EVENTS, PUBLIC_EVENTS, cards_in_response

ROOT = Path(__file__).resolve().parents[3]

# Operations asked by every seat and by a spectator, at each scanned version.
PER_CALLER: dict[Operation, str] = {
    ("get", "/v1/games/{game_id}"): "the view now, and as of past versions (?at=): the first since the last "
    "scan and each one the last action stored",
    ("get", "/v1/games/{game_id}/events"): "the whole event list",
    ("get", "/v1/games/{game_id}/stream"): "the live stream from the first event to the version scanned, "
    "which must equal the event list",
    ("get", "/v1/games/{game_id}/hands/{number}"): "the hand being played and the one before",
    ("post", "/v1/games/{game_id}/actions"): "each action's answer, its repeat under the same Idempotency-Key "
    "later on, and refused plays of cards the seat cannot see",
    ("post", "/v1/games/{game_id}/hints"): "the seat to act asks at the first version of each phase",
    ("get", "/v1/hints/{hint_id}"): "read by the seat that asked, another seat and a spectator",
    ("post", "/v1/games/{game_id}/bid-analysis"): "the seat to bid asks at the first bidding version",
    ("get", "/v1/bid-analyses/{analysis_id}"): "read by the seat that asked, another seat and a spectator",
}
# Operations that take no token: scanned as a spectator.
PUBLIC: dict[Operation, str] = {
    ("get", "/v1/events"): "every game's feed, this game's entries",
    ("get", "/v1/events/stream"): "the feed's live stream, this game's entries, which must equal the feed's",
    ("get", "/v1/games/{game_id}/record"): "409 while the game is played, then every hand record",
    ("get", "/v1/games/{game_id}/audit"): "the game's audit",
    ("post", "/v1/games"): "the creation's answer: no card at all, as nothing is played yet",
    ("post", "/v1/audits"): "answers about the record posted, as JSON or as text: only the cards of that record",
    ("get", "/v1/games/{game_id}/hands/{number}/record"): "the hand being played (409) and the one before, "
    "as JSON and as text",
    ("get", "/v1/games/{game_id}/hands/{number}/proof"): "the hand being played (409) and the one before: "
    "its events, hashes, key and seed",
    ("post", "/v1/audits/rescore"): "answers about the record posted: only the cards of that record",
    ("post", "/v1/proofs/verify"): "answers about the proof posted: only the cards of that proof",
}
# Operations that read no game: the same answer before and after a game is played, and no card.
CARD_FREE: dict[Operation, str] = {
    ("get", "/healthz"): "the process is alive",
    ("get", "/readyz"): "the database (and broker) answer",
    ("get", "/metrics"): "counters by route, method and status; it names no game",
    ("get", "/v1/rules/presets"): "the presets' rules and source sentences",
    ("get", "/v1/rules/options"): "the options, their values and sources",
}

# Operations that show no card of a deal being played, each held to it by its own tests (named):
# a review shows every card, so it is given only for a hand that is over; the rest name no card.
BY_THEIR_TESTS: dict[Operation, str] = {
    ("post", "/v1/games/{game_id}/hands/{number}/review"): "409 while the hand is played "
    "(test_reviews.py test_a_hand_in_play_is_not_reviewed); after it, every card of that deal is public",
    ("get", "/v1/reviews/{review_id}"): "the review of a hand that was over when it was asked (as above)",
    ("post", "/v1/reviews"): "answers about the record posted, 409 for a hand not over "
    "(test_reviews.py test_a_record_whose_hand_is_not_over_is_a_409)",
    ("get", "/v1/games/{game_id}/review"): "sums of the reviews of finished hands: values and classes, no card",
    ("get", "/v1/games"): "the search: games' ids, presets, statuses, times and players, no card",
    ("get", "/v1/games/export"): "finished games only, every deal of them over "
    "(test_game_search.py test_the_export_streams_one_finished_game_a_line_with_its_hands)",
    ("post", "/v1/players"): "a new player's name, id and token",
    ("post", "/v1/players/me/token"): "the player's new token",
    ("get", "/v1/players/{player_id}"): "a name, ratings and statistics",
    ("get", "/v1/players/{player_id}/games"): "the player's games as the search lists them, no card",
    ("get", "/v1/leaderboards/{family}"): "players' names and ratings",
    ("get", "/v1/players/{player_id}/ratings/{family}"): "a player's ratings after each rated game, no card",
}


@dataclass(frozen=True)
class Case:
    """A game to scan: a preset, overrides, a seed, and the hiding mechanisms it must exercise."""

    name: str
    preset: str
    options: dict[str, Any]
    players: int
    expected: frozenset[str]
    seed: str = "visibility"
    policy: int = 0
    hints: bool = True  # hints and bid analyses, where their rollouts stay cheap
    shows: frozenset[str] = frozenset()  # cards some answer must name (any one of them)


TWO_HANDS = {"game_over": "hands", "hand_limit": 2}
CASES = [
    Case("plain-team", "team-auction", TWO_HANDS, 4, frozenset({"TrumpDeclared", "CardPlayed"})),
    Case("kitty", "smear-4", TWO_HANDS, 4, frozenset({"KittyTaken", "CardsDiscarded"})),
    Case("discards-and-draws", "smear-10", TWO_HANDS, 4, frozenset({"CardsDiscarded", "CardsDrawn"})),
    Case("reshuffled-discards-jokers", "team-auction",
         {**TWO_HANDS, "hand_size": 12, "discarding": "all-nontrump", "jokers": 2}, 4,
         frozenset({"CardsDiscarded", "StockReshuffled", "CardsDrawn"}), shows=frozenset({"RJ", "BJ"})),
    Case("face-down-rows", "fish-pitch", TWO_HANDS, 4, frozenset({"FaceDownPlayed"})),
    Case("jokers-three-alone", "set-back", {"target_score": 4}, 3, frozenset({"CardPlayed"}),
         shows=frozenset({"RJ", "BJ"})),
    Case(
        "dealer-runs-misdeals-revokes-claims", "team-auction",
        {**TWO_HANDS, "misdeal": "2-10", "dealer_can_run": True, "claims": True, "revoke": "penalty"}, 4,
        frozenset({"DealerRan", "MisdealDeclared", "Revoked", "HandClaimed"}), hints=False,
    ),
    Case("trump-only", "pidro", {**TWO_HANDS, "finish_early": True}, 4,
         frozenset({"SatOut", "CardsDiscarded", "CardsDrawn"})),
]


@pytest.fixture
def services(api_database_url: str) -> Iterator[Services]:
    """The service with hints and bid analyses, whose jobs run when the scan says."""
    services = build_services(unlimited(api_database_url), dispatcher=RecordingDispatcher())
    yield services
    services.close()


@pytest.fixture
def scan_client(services: Services) -> FlaskClient:
    return create_app(services).test_client()


def openapi_operations() -> set[Operation]:
    """Return every (method, path) of openapi.yaml."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    methods = {"get", "post", "put", "patch", "delete", "head", "options", "trace"}
    return {(method, path) for path, item in spec["paths"].items() for method in item if method in methods}


def test_every_operation_of_openapi_is_scanned_or_reads_no_game() -> None:
    placed = [*PER_CALLER, *PUBLIC, *CARD_FREE, *BY_THEIR_TESTS, *TABLE_OPERATIONS]
    assert len(placed) == len(set(placed)), "an operation is placed twice"
    operations = openapi_operations()
    unplaced, gone = operations - set(placed), set(placed) - operations
    assert not unplaced, f"place these operations of openapi.yaml in the visibility scan: {sorted(unplaced)}"
    assert not gone, f"these operations are not in openapi.yaml: {sorted(gone)}"


def test_every_event_type_is_public_or_hidden_to_the_scan() -> None:
    assert PUBLIC_EVENTS | HIDDEN_EVENTS == set(EVENT_TYPES), "classify new event types in visibility.py"


@pytest.mark.parametrize(("text", "cards"), [
    ('{"hand": ["AS", "TD", "2C"], "trick": {"cards": [{"seat": 1, "card": "RJ"}]}}', {"AS", "TD", "2C", "RJ"}),
    ('{"cards": [["10H", "BJ"], null], "kitty": ["9S"]}', {"TH", "BJ", "9S"}),
    ('{"KH": 1, "detail": "you must discard exactly: 5H JS"}', {"KH", "5H", "JS"}),
    ('{"detail": "you do not hold the ten of clubs; the Red Joker is high"}', {"TC", "RJ"}),
    ('{"id": "0b8e6c5a-4f2d-4bd1-9a3c-2c5d7e8f9a0b", "hash": "3c9d5ad4ee", "token": "x-AS_Qd9", '
     '"type": "HandDealt", "phase": "playing", "bid": 10, "removed_ranks": "234578"}', set()),
])
def test_a_response_is_searched_for_every_notation_of_a_card(text: str, cards: set[str]) -> None:
    assert cards_in_response(text, [("X-Request-Id", "req-1")]) == cards

def test_the_scan_sees_a_hidden_card_or_a_hash_of_the_deal_being_played_shown(
    scan_client: FlaskClient, services: Services,
) -> None:
    """The scan can fail: another seat's dealt cards, or the deal's hash, shown to seat 0 or a spectator."""
    game = ApiGame.create(scan_client, seed="visibility-canary")
    scan = Scan(scan_client, services, game, 4)
    dealt = next(e for e in services.games.store.read(game.id) if e.type == "HandDealt")
    response = scan_client.get(f"/v1/games/{game.id}", headers=bearer(game.tokens[0]))
    for caller in (None, 0):
        with pytest.raises(AssertionError, match="which it may not see"):
            scan.check(("get", "/v1/games/{game_id}"), caller, response, 2, body=dealt.data)
        with pytest.raises(AssertionError, match=f"hash {dealt.hash[:12]}"):
            scan.check(("get", "/v1/games/{game_id}"), caller, response, 2, body={"hash": dealt.hash})
    assert scan.check(("get", "/v1/games/{game_id}"), 0, response, 2) == set(dealt.data["cards"][0])


def test_the_game_creation_answer_names_no_card(scan_client: FlaskClient, services: Services) -> None:
    response = scan_client.post("/v1/games", json={
        "rules": {"preset": "team-auction", "options": {}}, "seats": [{"kind": "human"}] * 4, "seed": "no-card",
    })
    assert response.status_code == 201
    assert cards_in_response(response.get_data(as_text=True), response.headers.items()) == set()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_answer_shows_a_card_its_caller_may_not_see(
    case: Case, scan_client: FlaskClient, services: Services,
) -> None:
    game = ApiGame.create(
        scan_client, rules={"preset": case.preset, "options": case.options},
        seats=[{"kind": "human"}] * case.players, seed=f"{case.seed}-{case.name}",
    )
    scan = Scan(scan_client, services, game, case.players)
    play_and_scan(scan, case.policy, case.hints)
    types = {e.type for e in services.games.store.read(game.id)}
    assert case.expected <= types, f"the game never had {sorted(case.expected - types)}: choose another seed"
    asked_for = set(PER_CALLER) | set(PUBLIC)
    if not case.hints:
        asked_for -= {op for op in PER_CALLER if "hint" in op[1] or "bid-analys" in op[1]}
    missing = asked_for - {("post", "/v1/games")} - set(scan.exercised)
    assert not missing, f"never answered 2xx: {sorted(missing)}"
    assert not case.shows or case.shows & scan.found, f"no answer named any of {sorted(case.shows)}"
    assert scan.every_phase <= scan.phases, f"never scanned in {sorted(scan.every_phase - scan.phases)}"
    assert {"bidding", "playing", "ended"} <= scan.phases and {1, 2} <= scan.scanned_hands
    callers = {"spectator", *(f"seat {s}" for s in range(case.players))}
    assert callers <= set(scan.shown), f"no answer showed a card to {sorted(callers - set(scan.shown))}"


def test_operations_that_read_no_game_answer_alike_before_and_after_a_game(
    scan_client: FlaskClient, services: Services,
) -> None:
    """They name no dealt card: the same answer whatever was dealt, and no card in the live ones."""
    before = {op: scan_client.get(op[1]) for op in CARD_FREE}
    game = ApiGame.create(scan_client, seed="card-free")
    rng = random.Random(3)
    for _ in range(12):  # into the play of the cards, with cards on the table
        own = game.view(game.to_act())
        action = choose(rng, own["legal_actions"], own["hand"])
        assert game.act(own["seat"], action, own["version"]).status_code == 201
    assert game.view()["trick"]["cards"] or game.view()["tricks"]
    for op in CARD_FREE:
        after = scan_client.get(op[1])
        assert after.status_code == before[op].status_code == 200, op
        if op[1] in ("/metrics", "/readyz"):  # live counters and checks: no card in them at all
            assert cards_in_response(after.get_data(as_text=True), after.headers.items()) == set(), op
        else:
            assert after.get_data() == before[op].get_data(), op
