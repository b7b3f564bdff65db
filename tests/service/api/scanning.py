"""Playing a game over the HTTP API and asking every operation, as every caller, what it shows.

The driver of the visibility scan (tests/service/api/test_visibility_scan.py): ``Scan``
holds one game, the oracle of what each caller may see (tests/service/api/visibility.py)
and what the scan asked and found; ``play_and_scan`` plays the game to its end with a
seeded policy, scanning at each phase's first version, at a variant's first event of a
kind in each hand, and every few versions, and checking every action's own answer.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from domain.cards import card_name
from domain.notation import format_notation
from service.bootstrap import Services
from tests.service.api.client import ApiGame, bearer
from tests.service.api.sse import read_stream
from tests.service.api.visibility import Visibility, cards_in, cards_in_response

Operation = tuple[str, str]

# Actions a seat takes whenever they are legal, so that every variant's mechanism happens.
PREFERRED = ("misdeal", "run", "claim")


def choose(rng: random.Random, actions: list[dict[str, Any]], hand: list[str]) -> dict[str, Any]:
    """Pick a legal action: a variant's own action when there is one, else mostly pass, else at random."""
    for kind in PREFERRED:
        found = [a for a in actions if a["type"] == kind]
        if found:
            return found[0]
    passes = [a for a in actions if a["type"] == "pass"]
    if passes and rng.random() < 0.6:
        return passes[0]
    declares = [a for a in actions if a["type"] == "declare"]
    if declares:
        return max(declares, key=lambda a: sum(card[1] == a["suit"] for card in hand))
    return rng.choice(actions)


class RecordingDispatcher:
    """Keeps the jobs asked for, which the scan then runs itself, in order, with no thread."""

    def __init__(self) -> None:
        self.job_ids: list[str] = []

    def dispatch(self, job_id: str) -> None:
        self.job_ids.append(job_id)


@dataclass
class Scan:
    """One game scanned over the API: what was asked, what each answer showed."""

    client: FlaskClient
    services: Services
    game: ApiGame
    players: int
    vis: Visibility = field(init=False)
    exercised: Counter[Operation] = field(default_factory=Counter)
    shown: Counter[str] = field(default_factory=Counter)
    phases: set[str] = field(default_factory=set)
    last_action: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    first_position: int = 0
    last_types: set[str] = field(default_factory=set)
    last_versions: list[int] = field(default_factory=list)
    scanned_types: set[tuple[int, str]] = field(default_factory=set)
    scanned_hands: set[int] = field(default_factory=set)
    found: set[str] = field(default_factory=set)
    every_phase: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.vis = Visibility(self.players)
        self.refresh()
        self.first_position = self.services.games.store.read(self.game.id)[0].position

    def refresh(self) -> None:
        """Fold the events stored since the last refresh."""
        for event in self.services.games.store.read(self.game.id, after=self.vis.version):
            self.vis.add(event.type, event.data, event.hash)

    def headers(self, caller: int | None) -> dict[str, str]:
        return bearer(self.game.tokens[caller]) if caller is not None else {}

    def check(
        self, op: Operation, caller: int | None, response: TestResponse, version: int,
        extra: frozenset[str] = frozenset(), body: Any = None,
    ) -> set[str]:
        """Fail unless the answer names only cards ``caller`` may see at ``version`` (and ``extra``)."""
        text = response.get_data(as_text=True) if body is None else json.dumps(body)
        headers = list(response.headers.items())
        found = cards_in_response(text, headers)
        seen = self.vis.at(version)
        leaked = found - seen.of(caller) - extra
        leaked |= {f"hash {h[:12]}..." for h in seen.secret_hashes if h in text or any(h in v for _, v in headers)}
        who = "a spectator" if caller is None else f"seat {caller}"
        assert not leaked, (
            f"{op[0].upper()} {op[1]} ({response.request.path}?{response.request.query_string.decode()}) "
            f"as {who} at version {version} answered {response.status_code} showing {sorted(leaked)}, "
            "which it may not see"
        )
        assert response.status_code < 500, response.get_data(as_text=True)
        if response.status_code < 300:
            self.exercised[op] += 1
        if found:
            self.shown["spectator" if caller is None else f"seat {caller}"] += 1
            self.found |= found
        return found


def _callers(players: int) -> list[int | None]:
    return [None, *range(players)]


def _refusal(response: TestResponse, card: str) -> dict[str, Any]:
    """Return a refusal's problem with the card it names written as <card>."""
    body = response.get_json()
    shown = {k: body.get(k) for k in ("type", "title", "status", "detail")}
    for key, value in shown.items():
        if isinstance(value, str):
            shown[key] = value.replace(card_name(card), "<card>").replace(card, "<card>")
    return shown


def probe(scan: Scan, seat: int, version: int, phase: str) -> None:
    """Post plays (or discards) of cards the seat cannot see: refused, naming no other card.

    A card another seat holds and a card nobody holds must be refused alike, or the refusal
    tells where a hidden card is.
    """
    op: Operation = ("post", "/v1/games/{game_id}/actions")
    seen = scan.vis.at(version).of(seat)
    hidden = scan.vis.deal_cards(version) - seen
    held = frozenset().union(*(scan.vis.held(version, s) for s in range(scan.players)))
    refusals = []
    for pool in (hidden & held, hidden - held):
        if not pool:
            continue
        card = min(pool)
        action = {"type": "discard", "cards": [card]} if phase == "discarding" else {"type": "play", "card": card}
        response = scan.game.act(seat, action, version)
        assert 400 <= response.status_code < 500, response.get_json()
        scan.check(op, seat, response, version, extra=frozenset({card}))
        refusals.append(_refusal(response, card))
    if len(refusals) == 2:
        assert refusals[0] == refusals[1], f"seat {seat}'s refusals tell whether another seat holds a card"


def ask_for_hints(scan: Scan, seat: int, version: int, own: dict[str, Any]) -> None:
    """The seat to act asks for a hint (and, while bidding, a bid analysis); each caller reads them."""
    client, game = scan.client, scan.game
    requests: list[tuple[Operation, Operation, str, dict[str, Any]]] = [(
        ("post", "/v1/games/{game_id}/hints"), ("get", "/v1/hints/{hint_id}"),
        f"/v1/games/{game.id}/hints", {"level": 1, "action": own["legal_actions"][0]},
    )]
    bids = [a["amount"] for a in own["legal_actions"] if a["type"] == "bid"]
    if own["phase"] == "bidding" and bids:
        requests.append((
            ("post", "/v1/games/{game_id}/bid-analysis"), ("get", "/v1/bid-analyses/{analysis_id}"),
            f"/v1/games/{game.id}/bid-analysis", {"bid": bids[0], "level": 1},
        ))
    for post_op, get_op, path, body in requests:
        for caller in _callers(scan.players):  # only the seat to act may ask; the others are refused
            response = client.post(path, json=body, headers=scan.headers(caller))
            scan.check(post_op, caller, response, version)
            assert (response.status_code == 202) == (caller == seat), response.get_json()
            if caller == seat:
                location = response.headers["Location"]
        dispatcher = scan.services.jobs.dispatcher
        assert isinstance(dispatcher, RecordingDispatcher)
        for job_id in dispatcher.job_ids:
            scan.services.jobs.run(job_id, "visibility-scan")
        dispatcher.job_ids.clear()
        for caller in _callers(scan.players):
            response = client.get(location, headers=scan.headers(caller))
            scan.check(get_op, caller, response, version)
            assert (response.status_code == 200) == (caller == seat), response.get_json()
            if caller == seat:
                assert response.get_json()["status"] == "done", response.get_json()


def scan_version(scan: Scan, since: int) -> dict[int | None, dict[str, Any]]:
    """Ask every operation that reads the game, as every caller, at the current version."""
    client, game = scan.client, scan.game
    gid = game.id
    views: dict[int | None, dict[str, Any]] = {}
    now = client.get(f"/v1/games/{gid}").get_json()
    version, number = now["version"], now["hand_number"]
    scan.phases.add(now["phase"])
    for caller in _callers(scan.players):
        headers = scan.headers(caller)
        response = client.get(f"/v1/games/{gid}", headers=headers)
        found = scan.check(("get", "/v1/games/{game_id}"), caller, response, version)
        views[caller] = response.get_json()
        if caller is not None:
            held = scan.vis.held(version, caller)
            assert held <= found, f"seat {caller}'s view at version {version} lacks its {sorted(held - found)}"
        # Past views: the first version since the last scan and every version the last action stored.
        for at in sorted({since + 1, *scan.last_versions} & set(range(1, version + 1))):
            past = client.get(f"/v1/games/{gid}?at={at}", headers=headers)
            assert past.status_code == 200, past.get_json()
            scan.check(("get", "/v1/games/{game_id}"), caller, past, at)
        events = client.get(f"/v1/games/{gid}/events?limit=1000", headers=headers)
        scan.check(("get", "/v1/games/{game_id}/events"), caller, events, version)
        scan_stream(scan, caller, version, events.get_json()["events"])
        # The hand being played; the one before at the first scan of a hand.
        for n in {number, (number or 1) - 1 if number not in scan.scanned_hands else 0} - {None, 0}:
            hand = client.get(f"/v1/games/{gid}/hands/{n}", headers=headers)
            scan.check(("get", "/v1/games/{game_id}/hands/{number}"), caller, hand, version)
        if caller is None:
            scan_public(scan, version, number)
            continue
        if caller in scan.last_action:
            key, body = scan.last_action[caller]
            again = client.post(f"/v1/games/{gid}/actions", json=body, headers={**headers, "Idempotency-Key": key})
            assert again.status_code == 201 and again.get_json()["replayed"], again.get_json()
            scan.check(("post", "/v1/games/{game_id}/actions"), caller, again, version)
        # The seat to act, and one other seat in turn, try cards they cannot see.
        if now["phase"] != "ended" and caller in (now["to_act"], (now["to_act"] + 1 + version) % scan.players):
            probe(scan, caller, version, now["phase"])
    scan.scanned_hands.add(number)
    return views


def scan_stream(scan: Scan, caller: int | None, version: int, listed: list[dict[str, Any]]) -> None:
    """Read the game's live stream from its start up to ``version`` as ``caller``: the events of its list, as listed."""
    gid = scan.game.id
    response, frames = read_stream(
        scan.client, f"/v1/games/{gid}/stream", scan.headers(caller),
        lambda frames: frames[-1].id == version or frames[-1].event == "end",
    )
    shown = [f.json() for f in frames if f.id is not None]
    scan.check(("get", "/v1/games/{game_id}/stream"), caller, response, version, body=shown)
    assert [f.id for f in frames if f.id is not None] == [e["version"] for e in shown] == list(range(1, version + 1))
    assert shown == listed, f"the stream of game {gid} shows {caller} its events otherwise than its event list"


def scan_public(scan: Scan, version: int, number: int | None) -> None:
    """Ask, without a token, the operations that take none: the global feed, the record, the audit,
    and the record (JSON and text) and proof of the hand being played (409) and of the one before."""
    client, gid = scan.client, scan.game.id
    after, entries = scan.first_position - 1, []
    while True:
        response = client.get(f"/v1/events?after={after}&limit=1000")
        page = response.get_json()
        mine = [e for e in page["events"] if e["game_id"] == gid]
        scan.check(("get", "/v1/events"), None, response, version, body=mine)
        entries += mine
        if page["next"] == after:
            break
        after = page["next"]
    assert [e["version"] for e in entries] == list(range(1, version + 1))
    response, frames = read_stream(
        client, f"/v1/events/stream?after={scan.first_position - 1}", {},
        lambda frames: frames[-1].id is not None and frames[-1].json()["game_id"] == gid
        and frames[-1].json()["version"] == version,
    )
    streamed = [f.json() for f in frames if f.id is not None and f.json()["game_id"] == gid]
    scan.check(("get", "/v1/events/stream"), None, response, version, body=streamed)
    assert streamed == entries, "the feed's stream shows this game's events otherwise than the feed"
    record = client.get(f"/v1/games/{gid}/record")
    scan.check(("get", "/v1/games/{game_id}/record"), None, record, version)
    audit = client.get(f"/v1/games/{gid}/audit")
    scan.check(("get", "/v1/games/{game_id}/audit"), None, audit, version)
    hand_record: Operation = ("get", "/v1/games/{game_id}/hands/{number}/record")
    hand_proof: Operation = ("get", "/v1/games/{game_id}/hands/{number}/proof")
    for n in {number, (number or 1) - 1} - {None, 0}:
        for suffix, op in (("record", hand_record), ("record?format=text", hand_record), ("proof", hand_proof)):
            response = client.get(f"/v1/games/{gid}/hands/{n}/{suffix}")
            assert response.status_code in (200, 409), response.get_data(as_text=True)
            scan.check(op, None, response, version)


# Events that change what someone may see, beyond a card played or a bid.
ORDINARY = frozenset({"BidMade", "BidPassed", "TrumpDeclared", "CardPlayed", "TrickTaken"})
EVERY = 20


def is_worth_a_scan(scan: Scan, now: dict[str, Any], before: dict[str, Any] | None, since: int) -> bool:
    """Tell whether to scan this version: a phase or hand begins, a variant's event first happens in
    the hand, or it is time. The versions in between are still scanned as past views (?at=)."""
    if before is None or now["phase"] == "ended" or now["version"] - since >= EVERY:
        return True
    if (now["phase"], now["hand_number"]) != (before["phase"], before["hand_number"]):
        return True
    new = {(now["hand_number"], kind) for kind in scan.last_types - ORDINARY} - scan.scanned_types
    scan.scanned_types |= new
    return bool(new)


def act(scan: Scan, own: dict[str, Any], rng: random.Random) -> None:
    """The seat to act takes an action; its answer may show only what it may see after it."""
    seat = own["seat"]
    body = {"expected_version": own["version"], "action": choose(rng, own["legal_actions"], own["hand"])}
    key = f"scan-{own['version']}"
    response = scan.client.post(
        f"/v1/games/{scan.game.id}/actions", json=body, headers={**scan.headers(seat), "Idempotency-Key": key},
    )
    assert response.status_code == 201, response.get_json()
    scan.refresh()
    scan.check(("post", "/v1/games/{game_id}/actions"), seat, response, response.get_json()["version"])
    scan.last_types = {e["type"] for e in response.get_json()["events"]}
    scan.last_versions = [e["version"] for e in response.get_json()["events"]]
    scan.last_action[seat] = (key, body)


def audit_records(scan: Scan) -> None:
    """Post each hand record of the finished game to the record audit, as JSON and as text, to the
    rescore, and each hand's proof to its check: each answer names only the cards posted."""
    op: Operation = ("post", "/v1/audits")
    hands = scan.client.get(f"/v1/games/{scan.game.id}/record").get_json()["hands"]
    for record in hands:
        response = scan.client.post("/v1/audits", json=record)
        assert response.status_code == 200, response.get_json()
        scan.check(op, None, response, 0, extra=frozenset(cards_in(record)))
        text = format_notation(record)
        response = scan.client.post("/v1/audits", data=text, content_type="text/plain")
        assert response.status_code == 200, response.get_json()
        scan.check(op, None, response, 0, extra=frozenset(cards_in(record)))
        # Under its own rules: others may refuse its deal, naming the cards their deck has and the game's has not.
        response = scan.client.post("/v1/audits/rescore", json={"record": text, "rules": record["rules"]})
        assert response.status_code == 200, response.get_json()
        scan.check(("post", "/v1/audits/rescore"), None, response, 0, extra=frozenset(cards_in(record)))
    for number in sorted({record["hand"] for record in hands}):
        proof = scan.client.get(f"/v1/games/{scan.game.id}/hands/{number}/proof")
        if proof.status_code == 409:  # a hand its game ended during
            continue
        response = scan.client.post("/v1/proofs/verify", json=proof.get_json())
        assert response.status_code == 200 and response.get_json()["valid"], response.get_json()
        scan.check(("post", "/v1/proofs/verify"), None, response, 0, extra=frozenset(cards_in(proof.get_json())))
    record = next(h for h in hands if any(a["type"] == "play" for a in h["actions"]))
    plays = [i for i, a in enumerate(record["actions"]) if a["type"] == "play"]
    player = record["actions"][plays[0]]["seat"]
    foreign = next(c for s, cards in enumerate(record["cards"]) if s != player for c in cards)
    wrong = {**record, "actions": [
        {**a, "card": foreign} if i == plays[0] else a for i, a in enumerate(record["actions"])
    ]}
    response = scan.client.post("/v1/audits", json=wrong)
    assert response.status_code == 422, response.get_json()
    scan.check(op, None, response, 0, extra=frozenset(cards_in(wrong)))


def play_and_scan(scan: Scan, policy: int, hints: bool) -> None:
    """Play the game to its end, scanning as it goes; then audit its records."""
    client, game = scan.client, scan.game
    rng = random.Random(policy)
    since, before = 0, None
    asked: set[tuple[int, str]] = set()
    for _ in range(2000):
        now = client.get(f"/v1/games/{game.id}").get_json()
        if is_worth_a_scan(scan, now, before, since):
            views = scan_version(scan, since)
            since = scan.vis.version
        else:
            own = client.get(f"/v1/games/{game.id}", headers=scan.headers(now["to_act"]))
            views = {now["to_act"]: own.get_json()}
        before = now
        scan.every_phase.add(now["phase"])
        if now["phase"] == "ended":
            break
        seat = now["to_act"]
        if hints and (now["hand_number"], now["phase"]) not in asked and now["hand_number"] == 1:
            asked.add((now["hand_number"], now["phase"]))
            ask_for_hints(scan, seat, now["version"], views[seat])
        act(scan, views[seat], rng)
    else:
        raise AssertionError("the game did not end")
    audit_records(scan)
