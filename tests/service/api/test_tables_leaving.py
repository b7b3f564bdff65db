"""Leaving a table, abandonment and rematches over HTTP.

A holder who leaves hands the seat to a computer, which plays on; the leaver's token
still shows the seat but acts no more. When every human has left, the game is abandoned:
it ends with no winner, reveals the deal in play's key and the seed (its audit proves
every deal), and leaves the list. Any person's seat of an ended game asks for a rematch:
one new game, the same rules and seat kinds, each person's seat kept for them.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.service.api.client import bearer
from tests.service.api.table_client import Table, seed_dealt_by, wait_for

ONE_HAND = {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 1}}


def test_a_seat_left_is_played_by_a_computer_and_its_holder_acts_no_more(table_client: FlaskClient) -> None:
    table = Table.create(
        table_client, [{"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "human"}, {"kind": "ai", "level": 1}],
        seed=seed_dealt_by(3, prefix="leave"), clock={"seconds": 600, "stand_in": {"kind": "ai", "level": 2}},
    )
    view = table.view(0)
    assert view["to_act"] == 0
    left = table.post("leave", 0)
    assert left.status_code == 200, left.get_json()
    assert [e["type"] for e in left.get_json()["events"]] == ["SeatLeft"]
    assert left.get_json()["events"][0]["data"] == {"seat": 0, "level": 2}  # the clock's stand-in level
    wait_for(lambda: table.view()["to_act"] != 0, "the computer to play the seat left")
    after = table.view(0)
    assert after["seats"][0] == {"seat": 0, "kind": "ai", "level": 2, "side": 0, "name": "computer, level 2", "player": None}
    assert after["table"]["left"] == [0] and after["hand"] is not None  # the token still shows the seat
    acted = [e for e in table.events() if e["version"] > left.get_json()["version"]]
    assert acted[0]["data"]["seat"] == 0  # the computer bid for seat 0
    again = table.post("leave", 0)
    assert again.status_code == 422
    for _ in range(50):  # at the game's version (the computers may move in between: 409, then again)
        refused = table.act(0, {"type": "pass"}, table.view()["version"])
        if refused.status_code != 409:
            break
    assert refused.status_code == 422 and "you left seat 0" in refused.get_json()["detail"]


def test_when_every_human_has_left_the_game_is_abandoned(table_client: FlaskClient) -> None:
    table = Table.create(
        table_client, [{"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "human"}, {"kind": "ai", "level": 1}],
        seed=seed_dealt_by(3, prefix="abandon"),
    )
    first = table.post("leave", 0, {"level": 4})
    assert first.get_json()["events"][0]["data"] == {"seat": 0, "level": 4}
    last = table.post("leave", 2)
    assert last.status_code == 200, last.get_json()
    types = [e["type"] for e in last.get_json()["events"]]
    assert types == ["SeatLeft", "DealKeyRevealed", "GameAbandoned"]
    view = table.view()
    assert view["phase"] == "ended" and view["ended_reason"] == "abandoned" and view["winner"] is None
    assert view["legal_actions"] == [] and view["to_act"] is None
    audit = table_client.get(f"/v1/games/{table.id}/audit").get_json()
    assert audit["chain"]["intact"] and audit["scores"]["all_match"]
    assert audit["deals"]["seed_verified"] is True and audit["deals"]["verdict"] == "reproducible"
    assert all(d["status"] == "proven" for d in audit["deals"]["deals"])
    late = table.post("leave", 2)
    assert late.status_code == 422


def test_an_abandoned_waiting_table_leaves_the_list(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "open"}, {"kind": "open"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}],
                         listed=True)
    assert table.claim(0).status_code == 201
    listed = table_client.get("/v1/tables?limit=100").get_json()["tables"]
    assert any(t["id"] == table.id for t in listed)
    left = table.post("leave", 0)
    assert [e["type"] for e in left.get_json()["events"]] == ["SeatLeft", "GameAbandoned"]
    listed = table_client.get("/v1/tables?limit=100").get_json()["tables"]
    assert not any(t["id"] == table.id for t in listed)
    assert table.claim(1).status_code == 422  # the game is over


def test_a_rematch_waits_for_the_same_players_and_gives_each_their_seat(table_client: FlaskClient) -> None:
    table = Table.create(
        table_client, [{"kind": "open"}, {"kind": "ai", "level": 1}, {"kind": "human"}, {"kind": "ai", "level": 1}],
        rules=ONE_HAND, clock={"seconds": 30, "stand_in": {"kind": "ai", "level": 1}, "handover_after": 2},
    )
    assert table.claim(0, table.invite(0)).status_code == 201
    early = table.post("rematch", 0)
    assert early.status_code == 409 and early.get_json()["type"] == "/problems/game-not-finished"
    for _ in range(200):  # play the one hand out: the people take their first legal action
        view = table.view()
        if view["phase"] == "ended":
            break
        if view["to_act"] in (0, 2):
            own = table.view(view["to_act"])
            table.act(view["to_act"], own["legal_actions"][0], own["version"])
        else:
            wait_for(lambda: table.view()["version"] > view["version"], "a computer")
    assert table.view()["phase"] == "ended"
    computer = table_client.post(f"/v1/games/{table.id}/rematch", headers=bearer(table.created["seats"][1]["token"]))
    assert computer.status_code == 422

    first = table.post("rematch", 2)
    assert first.status_code == 201, first.get_json()
    rematch_id, token_2 = first.get_json()["game_id"], first.get_json()["token"]
    assert first.headers["Location"] == f"/v1/games/{rematch_id}"
    assert table.view()["table"]["rematch"] == rematch_id and table.types()[-1] == "RematchCreated"
    again = table.post("rematch", 2)
    assert again.status_code == 201 and again.get_json() == {**first.get_json(), "version": again.get_json()["version"]}

    rematch = Table(table_client, rematch_id, {}, {2: token_2})
    waiting = rematch.view(2)
    assert waiting["phase"] == "waiting" and waiting["seat"] == 2
    assert waiting["table"]["open_seats"] == [0] and waiting["table"]["rematch_of"] == table.id
    assert [s["kind"] for s in waiting["seats"]] == ["open", "ai", "human", "ai"]
    assert waiting["table"]["clock"] == {"seconds": 30, "stand_in": {"kind": "ai", "level": 1}, "handover_after": 2}
    assert waiting["table"]["listed"] is False
    stranger = rematch.claim(0, "not-a-token-of-the-first-game")
    assert stranger.status_code == 403

    second = table.post("rematch", 0)
    assert second.status_code == 201 and second.get_json()["game_id"] == rematch_id and second.get_json()["seat"] == 0
    rematch.tokens[0] = second.get_json()["token"]
    dealt = rematch.view(0)
    assert dealt["phase"] != "waiting" and len(dealt["hand"]) == 6
    old = table_client.get(f"/v1/games/{table.id}/events?after=0&limit=1").get_json()["events"][0]["data"]
    new = table_client.get(f"/v1/games/{rematch_id}/events?after=0&limit=1").get_json()["events"][0]["data"]
    assert new["rules"] == old["rules"] and new["seed_commitment"] != old["seed_commitment"]
