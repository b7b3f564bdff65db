"""Gathering at a table over HTTP: open seats, invites, the list of waiting tables, and nothing leaking.

Two people join a listed game, one by its invite and one from the list, and play a hand
with two computers; the game waits undealt until both are seated and leaves the list
then. A wrong invite, a claimed seat and an invite-only seat without its invite are
refused with their problems, and no invite or token is ever in an event, a view or the list.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.games.tokens import hash_token
from tests.service.api.client import bearer
from tests.service.api.table_client import Table, seed_dealt_by, wait_for

COMPUTERS = [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]


def _listed(client: FlaskClient, **query: Any) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = []
    after = None
    while True:
        params = {**query, **({"after": after} if after else {}), "limit": 2}
        response = client.get("/v1/tables", query_string=params)
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        listed += page["tables"]
        after = page["next"]
        if after is None:
            return listed


def _listing_of(client: FlaskClient, game_id: str) -> dict[str, Any] | None:
    return next((t for t in _listed(client) if t["id"] == game_id), None)


def test_two_people_join_a_listed_game_by_invite_and_from_the_list_and_play_a_hand(table_client: FlaskClient) -> None:
    table = Table.create(
        table_client, [{"kind": "open", "invite_only": True}, {"kind": "open"}, *COMPUTERS],
        listed=True, seed=seed_dealt_by(3, prefix="join"), rules={"preset": "team-auction", "options": {}},
    )
    assert [s["kind"] for s in table.created["seats"]] == ["open", "open", "ai", "ai"]
    assert "token" not in table.created["seats"][0] and table.created["seats"][0]["invite"]
    assert table.created["seats"][0]["invite_only"] is True and table.created["seats"][1]["invite_only"] is False
    waiting = table.view()
    assert waiting["phase"] == "waiting" and waiting["hand"] is None and waiting["to_act"] is None
    assert waiting["table"]["open_seats"] == [0, 1] and waiting["table"]["invite_only"] == [0]
    assert table.types() == ["GameStarted", "TableOpened"]  # no deal while a seat is open

    listing = _listing_of(table_client, table.id)
    assert listing is not None
    assert listing["open_seats"] == [1] and listing["waiting_for"] == 2  # the invite-only seat is not claimable there
    assert listing["title"] == "Team auction" and listing["preset"] == "team-auction" and listing["players"] == 4

    from_list = table.claim(1)
    assert from_list.status_code == 201, from_list.get_json()
    assert from_list.get_json()["seat"] == 1
    listing = _listing_of(table_client, table.id)
    assert listing is not None and listing["open_seats"] == [] and listing["waiting_for"] == 1
    assert table.types() == ["GameStarted", "TableOpened", "SeatClaimed"]

    by_invite = table.claim(0, table.invite(0))
    assert by_invite.status_code == 201, by_invite.get_json()
    assert _listing_of(table_client, table.id) is None  # full and started: off the list
    assert table.types()[:5] == ["GameStarted", "TableOpened", "SeatClaimed", "SeatClaimed", "HandDealt"]

    # Seat 0 bids first (seat 3 dealt); the two people bid, the computers answer, and the hand is played out.
    for _ in range(200):
        view = table.view()
        if view["hand_number"] == 2 or view["phase"] == "ended":
            break
        seat = view["to_act"]
        if seat not in (0, 1):
            wait_for(lambda: table.view()["version"] > view["version"], "a computer to act")
            continue
        own = table.view(seat)
        assert len(own["hand"]) == own["hand_sizes"][seat]
        response = table.act(seat, own["legal_actions"][0], own["version"])
        assert response.status_code in (201, 409), response.get_json()  # 409: a computer moved in between
    else:
        raise AssertionError("the hand did not end")
    assert "HandScored" in table.types()
    seats = {e["data"]["seat"] for e in table.events() if e["type"] in ("BidMade", "BidPassed")}
    assert {0, 1} <= seats  # both people bid through their claimed tokens


def test_claims_are_refused_with_their_problems(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "open", "invite_only": True}, {"kind": "open"}, *COMPUTERS])
    unlisted = table.claim(1)  # not listed: every seat is reached by invite only
    assert unlisted.status_code == 403 and unlisted.get_json()["type"] == "/problems/invite-refused"
    invite_only = table.claim(0)
    assert invite_only.status_code == 403 and invite_only.get_json()["type"] == "/problems/invite-refused"
    wrong = table.claim(0, table.invite(1))
    assert wrong.status_code == 403 and "not seat 0's" in wrong.get_json()["detail"]
    assert table.claim(0, table.invite(0)).status_code == 201
    again = table.claim(0, table.invite(0))
    assert again.status_code == 409 and again.get_json()["type"] == "/problems/seat-taken"
    computer = table.claim(2, "anything")
    assert computer.status_code == 409 and computer.get_json()["type"] == "/problems/seat-taken"
    nowhere = table.claim(9, "anything")
    assert nowhere.status_code == 422 and nowhere.get_json()["type"] == "/problems/illegal-action"
    empty = table_client.post(f"/v1/games/{table.id}/seats/1/claim", json={"invite": ""})
    assert empty.status_code == 400
    stray = table_client.post(f"/v1/games/{table.id}/seats/1/claim", json={"invite": "x", "token": "y"})
    assert stray.status_code == 400
    assert table.types() == ["GameStarted", "TableOpened", "SeatClaimed"]  # nothing stored by a refusal
    plain = table_client.post("/v1/games", json={"seats": [{"kind": "human"}] * 4}).get_json()
    not_a_table = table_client.post(f"/v1/games/{plain['id']}/seats/0/claim", json={"invite": "x"})
    assert not_a_table.status_code == 422


def test_creation_refuses_what_cannot_be_a_table(table_client: FlaskClient) -> None:
    bad = [
        {"seats": [{"kind": "human", "invite_only": True}, {"kind": "open"}, *COMPUTERS]},
        {"seats": [{"kind": "open", "level": 3}, {"kind": "open"}, *COMPUTERS]},
        {"seats": [{"kind": "open"}] * 4, "clock": {"seconds": 0}},
        {"seats": [{"kind": "open"}] * 4, "clock": {"seconds": 5, "stand_in": {"kind": "ai", "level": 7}}},
        {"seats": [{"kind": "open"}] * 4, "clock": {"seconds": 5, "stand_in": {"kind": "human"}}},
        {"seats": [{"kind": "open"}] * 4, "clock": {"seconds": 5, "handover_after": 0}},
        {"seats": [{"kind": "robot"}] * 4},
    ]
    for body in bad:
        response = table_client.post("/v1/games", json=body)
        assert response.status_code == 400, (body, response.get_json())
        assert response.get_json()["type"] == "/problems/malformed-request"


def test_a_plain_game_is_no_table(table_client: FlaskClient) -> None:
    response = table_client.post("/v1/games", json={"seats": [{"kind": "human"}] * 4})
    created = response.get_json()
    assert created["table"] is None and all("invite" not in s for s in created["seats"])
    view = table_client.get(f"/v1/games/{created['id']}").get_json()
    assert view["table"] is None and view["phase"] == "bidding"
    events = table_client.get(f"/v1/games/{created['id']}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["GameStarted", "HandDealt"]


def test_no_invite_or_token_is_in_an_event_a_view_the_list_or_the_feed(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "open"}, {"kind": "open"}, *COMPUTERS], listed=True)
    secrets = {table.invite(0), table.invite(1), hash_token(table.invite(0)), hash_token(table.invite(1))}
    claimed = table.claim(0)
    secrets |= {claimed.get_json()["token"], hash_token(claimed.get_json()["token"])}
    texts = [
        table_client.get(f"/v1/games/{table.id}/events?limit=1000").get_data(as_text=True),
        table_client.get(f"/v1/games/{table.id}").get_data(as_text=True),
        table_client.get(f"/v1/games/{table.id}", headers=bearer(table.tokens[0])).get_data(as_text=True),
        table_client.get("/v1/tables?limit=100").get_data(as_text=True),
        table_client.get("/v1/events?limit=1000").get_data(as_text=True),
    ]
    for text in texts:
        assert not [s for s in secrets if s in text]


def test_an_open_seat_is_dealt_nothing_until_the_game_is_full(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "human"}, {"kind": "open"}, *COMPUTERS])
    mine = table.view(0)
    assert mine["phase"] == "waiting" and mine["hand"] is None
    assert mine["hand_sizes"] == [] and mine["legal_actions"] == []
    refused = table.act(0, {"type": "pass"}, mine["version"])
    assert refused.status_code == 422
    assert "HandDealt" not in table.types()
    assert table.claim(1, table.invite(1)).status_code == 201
    dealt = table.view(1)
    assert dealt["phase"] != "waiting" and len(dealt["hand"]) == 6
