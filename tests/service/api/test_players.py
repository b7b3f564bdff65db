"""Players over HTTP: a name and a token shown once, rotation, seats held by players, names at the table.

A player made with POST /v1/players holds a seat of a game it creates (``"player": "me"``)
and another player one it claims with an invite; their tokens act for their seats, every
viewer sees the same names, a player's token in a game where it holds no seat is a 403,
and seat tokens work as before. An app key (PITCH_APP_KEYS) seats players by id.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from service.api import create_app
from service.games.tokens import hash_token
from tests.service.api.client import bearer
from tests.service.serving import services_over

APP_KEY = "k" * 40
COMPUTER = {"kind": "ai", "level": 1}


def make_player(client: FlaskClient, name: str = "Ada") -> dict[str, Any]:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def _game(client: FlaskClient, token: str | None, seats: list[dict[str, Any]], **extra: Any) -> Any:
    headers = bearer(token) if token else {}
    return client.post("/v1/games", json={"seats": seats, "seed": "players", **extra}, headers=headers)


@pytest.fixture
def app_client(api_database_url: str) -> Iterator[FlaskClient]:
    services = services_over(api_database_url, app_keys=(APP_KEY,))
    yield create_app(services).test_client()
    services.close()


def test_a_player_is_a_name_and_a_256_bit_token_stored_only_as_its_hash(client: FlaskClient, api_database_url: str) -> None:
    made = make_player(client, "Ada Lovelace")
    assert made["name"] == "Ada Lovelace" and len(made["token"]) >= 43  # 32 bytes, base64url
    assert client.get(f"/v1/players/{made['id']}").get_json()["name"] == "Ada Lovelace"
    engine = sa.create_engine(api_database_url)
    with engine.connect() as conn:
        stored = [r[0] for r in conn.execute(sa.text("SELECT token_hash FROM player_tokens WHERE player_id = :p"),
                                             {"p": made["id"]})]
    engine.dispose()
    assert stored == [hash_token(made["token"])]


@pytest.mark.parametrize("name", ["", "x" * 41, "tab\there", "   "])
def test_a_name_is_1_to_40_printable_characters(client: FlaskClient, name: str) -> None:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 400 and response.content_type == "application/problem+json"


def test_rotating_the_token_ends_the_old_one(client: FlaskClient) -> None:
    made = make_player(client)
    rotated = client.post("/v1/players/me/token", headers=bearer(made["token"]))
    assert rotated.status_code == 201
    fresh = rotated.get_json()["token"]
    assert fresh != made["token"] and rotated.get_json()["id"] == made["id"]
    assert client.post("/v1/players/me/token", headers=bearer(made["token"])).status_code == 401
    assert client.post("/v1/players/me/token", headers=bearer(fresh)).status_code == 201


def test_players_hold_seats_act_with_their_tokens_and_everyone_sees_the_same_names(client: FlaskClient) -> None:
    ada, bob, eve = make_player(client, "Ada"), make_player(client, "Bob"), make_player(client, "Eve")
    created = _game(client, ada["token"], [{"kind": "human", "player": "me"}, COMPUTER, {"kind": "open"}, COMPUTER])
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    assert game["seats"][0]["player"] == ada["id"]
    claim = client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"invite": game["seats"][2]["invite"]},
                        headers=bearer(bob["token"]))
    assert claim.status_code == 201, claim.get_json()
    views = [client.get(f"/v1/games/{game['id']}", headers=bearer(t)).get_json()
             for t in (ada["token"], bob["token"], game["seats"][0]["token"])]
    views.append(client.get(f"/v1/games/{game['id']}").get_json())
    assert [v["seat"] for v in views] == [0, 2, 0, None]
    names = [[(s["name"], s["player"]) for s in v["seats"]] for v in views]
    assert names[0] == [("Ada", ada["id"]), ("computer, level 1", None), ("Bob", bob["id"]), ("computer, level 1", None)]
    assert all(n == names[0] for n in names)
    forbidden = client.get(f"/v1/games/{game['id']}", headers=bearer(eve["token"]))
    assert forbidden.status_code == 403 and forbidden.get_json()["type"] == "/problems/forbidden"


def test_a_player_acts_for_its_seat_and_not_for_another(client: FlaskClient) -> None:
    ada, eve = make_player(client, "Ada"), make_player(client, "Eve")
    game = _game(client, ada["token"], [{"kind": "human", "player": "me"}] + [{"kind": "human"}] * 3).get_json()
    view = client.get(f"/v1/games/{game['id']}", headers=bearer(ada["token"])).get_json()
    to_act = view["to_act"]
    seat_token = game["seats"][to_act]["token"]
    actor = ada["token"] if to_act == 0 else seat_token
    action = client.get(f"/v1/games/{game['id']}", headers=bearer(actor)).get_json()["legal_actions"][0]
    body = {"expected_version": view["version"], "action": action}
    assert client.post(f"/v1/games/{game['id']}/actions", json=body, headers=bearer(eve["token"])).status_code == 403
    assert client.post(f"/v1/games/{game['id']}/actions", json=body, headers=bearer(actor)).status_code == 201


def test_an_open_seat_claimed_with_an_ended_token_is_refused(client: FlaskClient) -> None:
    ada = make_player(client)
    client.post("/v1/players/me/token", headers=bearer(ada["token"]))
    game = _game(client, None, [{"kind": "human"}, COMPUTER, {"kind": "open"}, COMPUTER]).get_json()
    claim = client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"invite": game["seats"][2]["invite"]},
                        headers=bearer(ada["token"]))
    assert claim.status_code == 401


def test_me_needs_a_players_token_and_an_id_needs_an_app_key(client: FlaskClient) -> None:
    ada = make_player(client)
    assert _game(client, None, [{"kind": "human", "player": "me"}, COMPUTER, {"kind": "human"}, COMPUTER]).status_code == 401
    by_id = _game(client, ada["token"], [{"kind": "human", "player": ada["id"]}, COMPUTER, {"kind": "human"}, COMPUTER])
    assert by_id.status_code == 403 and by_id.get_json()["type"] == "/problems/forbidden"
    twice = _game(client, ada["token"], [{"kind": "human", "player": "me"}, {"kind": "human", "player": "me"},
                                         COMPUTER, COMPUTER])
    assert twice.status_code == 400


def test_an_app_key_makes_players_and_seats_them_by_id(app_client: FlaskClient) -> None:
    ada, bob = make_player(app_client, "Ada"), make_player(app_client, "Bob")
    seats = [{"kind": "human", "player": ada["id"]}, COMPUTER, {"kind": "human", "player": bob["id"]}, COMPUTER]
    created = _game(app_client, APP_KEY, seats, rated=True)
    assert created.status_code == 201, created.get_json()
    view = app_client.get(f"/v1/games/{created.get_json()['id']}", headers=bearer(bob["token"])).get_json()
    assert view["seat"] == 2 and [s["name"] for s in view["seats"]][::2] == ["Ada", "Bob"]
    unknown = _game(app_client, APP_KEY, [{"kind": "human", "player": "no-such-player"}, COMPUTER, {"kind": "human"}, COMPUTER])
    assert unknown.status_code == 400


def test_a_rated_game_is_played_by_players_only(client: FlaskClient) -> None:
    ada, bob = make_player(client, "Ada"), make_player(client, "Bob")
    anonymous = _game(client, ada["token"], [{"kind": "human", "player": "me"}, {"kind": "human"}, COMPUTER, COMPUTER],
                      rated=True)
    assert anonymous.status_code == 400
    game = _game(client, ada["token"], [{"kind": "human", "player": "me"}, COMPUTER, {"kind": "open"}, COMPUTER],
                 rated=True).get_json()
    invite = {"invite": game["seats"][2]["invite"]}
    refused = client.post(f"/v1/games/{game['id']}/seats/2/claim", json=invite)
    assert refused.status_code == 403 and refused.get_json()["type"] == "/problems/forbidden"
    taken = client.post(f"/v1/games/{game['id']}/seats/2/claim", json=invite, headers=bearer(bob["token"]))
    assert taken.status_code == 201


def test_the_list_of_tables_and_the_view_say_which_tables_are_rated(client: FlaskClient) -> None:
    ada = make_player(client, "Ada")
    seats = [{"kind": "human", "player": "me"}, COMPUTER, {"kind": "open"}, COMPUTER]
    rated = _game(client, ada["token"], seats, rated=True, listed=True).get_json()
    plain = _game(client, ada["token"], seats, listed=True).get_json()
    assert rated["table"]["rated"] is True and plain["table"]["rated"] is False
    listed: dict[str, bool] = {}
    after = None
    while True:  # every page: the mark comes with each table, however many rated games wait
        page = client.get("/v1/tables", query_string={"limit": 50, **({"after": after} if after else {})}).get_json()
        listed.update({t["id"]: t["rated"] for t in page["tables"]})
        if (after := page["next"]) is None:
            break
    assert (listed[rated["id"]], listed[plain["id"]]) == (True, False)
    for game, expected in ((rated, True), (plain, False)):
        assert client.get(f"/v1/games/{game['id']}").get_json()["table"]["rated"] is expected
