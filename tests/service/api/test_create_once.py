"""POST /v1/games under an Idempotency-Key: one game however often the request is sent.

A client whose creation's answer was lost (a 503, a cut connection, a broker that made
the server answer late) sends it again with the same key. The repeat is answered as the
first was: the same game, version, seats, tokens and invites (the tokens are shown at
creation only, so a repeat that answered none would leave the game without players), and
no second game is stored. Another request under the same key is refused. The key is the
client's secret: the service stores only its hash, and the seats' tokens are derived from
it, so the key must be long enough not to be guessed.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import sqlalchemy as sa
from flask.testing import FlaskClient

from service.bootstrap import Services
from service.games import NewGame, SeatRequest
from service.store.schema import events_table, idempotency_keys_table, seats_table
from tests.factories import CreateGameFactory

PROBLEM = "application/problem+json"


def _create(client: FlaskClient, body: dict[str, Any], key: str | None) -> Any:
    return client.post("/v1/games", json=body, headers={} if key is None else {"Idempotency-Key": key})


def _games_under(services: Services, game_id: str) -> int:
    with services.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).where(events_table.c.game_id == game_id,
                                                                 events_table.c.version == 1)).scalar_one())


def test_a_repeated_creation_answers_the_same_game_and_tokens(client: FlaskClient, api_services: Services) -> None:
    key, body = str(uuid.uuid4()), CreateGameFactory()
    first = _create(client, body, key)
    assert first.status_code == 201, first.get_json()
    again = _create(client, body, key)
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    game_id = first.get_json()["id"]
    assert _games_under(api_services, game_id) == 1
    tokens = [s["token"] for s in first.get_json()["seats"]]
    assert len(set(tokens)) == 4
    for seat, token in enumerate(tokens):  # the answered tokens are the stored seats'
        view = client.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
        assert view["seat"] == seat


def test_a_repeat_after_the_game_moved_on_answers_the_game_as_created(client: FlaskClient) -> None:
    key, body = str(uuid.uuid4()), CreateGameFactory()
    first = _create(client, body, key).get_json()
    game_id = first["id"]
    view = client.get(f"/v1/games/{game_id}").get_json()
    seat = view["to_act"]
    acted = client.post(f"/v1/games/{game_id}/actions", json={"expected_version": view["version"], "action": {"type": "pass"}},
                        headers={"Authorization": f"Bearer {first['seats'][seat]['token']}"})
    assert acted.status_code == 201
    assert _create(client, body, key).get_json() == first  # version 2, as created, not the game's version now


def test_another_request_under_the_same_key_is_refused(client: FlaskClient) -> None:
    key = str(uuid.uuid4())
    assert _create(client, CreateGameFactory(), key).status_code == 201
    other = _create(client, CreateGameFactory(seed="another body"), key)
    assert other.status_code == 422 and other.mimetype == PROBLEM
    assert other.get_json()["type"] == "/problems/idempotency-key-reused"


def test_without_a_key_each_request_creates_a_game(client: FlaskClient) -> None:
    body = CreateGameFactory()
    first, second = _create(client, body, None).get_json(), _create(client, body, None).get_json()
    assert first["id"] != second["id"]
    assert not {s["token"] for s in first["seats"]} & {s["token"] for s in second["seats"]}


def test_different_keys_give_different_games_and_tokens(client: FlaskClient) -> None:
    body = CreateGameFactory()
    first, second = (_create(client, body, str(uuid.uuid4())).get_json() for _ in range(2))
    assert first["id"] != second["id"]
    assert not {s["token"] for s in first["seats"]} & {s["token"] for s in second["seats"]}


def test_a_key_too_short_to_be_a_secret_is_refused(client: FlaskClient) -> None:
    refused = _create(client, CreateGameFactory(), "short-key")
    assert refused.status_code == 400 and refused.get_json()["type"] == "/problems/malformed-request"
    assert "at least 16" in refused.get_json()["detail"]


def test_open_seats_answer_the_same_invites_again(client: FlaskClient) -> None:
    key = str(uuid.uuid4())
    body = CreateGameFactory(seats=[{"kind": "open"}, {"kind": "human"}, {"kind": "open"}, {"kind": "human"}])
    first = _create(client, body, key).get_json()
    assert _create(client, body, key).get_json() == first
    invite = first["seats"][0]["invite"]
    claimed = client.post(f"/v1/games/{first['id']}/seats/0/claim", json={"invite": invite})
    assert claimed.status_code == 201, claimed.get_json()


def test_the_key_is_stored_only_as_a_hash(client: FlaskClient, api_services: Services) -> None:
    key = str(uuid.uuid4())
    game_id = _create(client, CreateGameFactory(), key).get_json()["id"]
    with api_services.engine.connect() as conn:
        keys = conn.execute(sa.select(idempotency_keys_table).where(idempotency_keys_table.c.game_id == game_id)).all()
        hashes = conn.execute(sa.select(seats_table.c.token_hash).where(seats_table.c.game_id == game_id)).scalars().all()
    assert len(keys) == 1 and key not in keys[0].key and (keys[0].first_version, keys[0].last_version) == (1, 2)
    assert len(hashes) == 4 and all(key not in h for h in hashes)


def test_racing_repeats_create_one_game(api_services: Services) -> None:
    """Requests sent again before the first was answered: one stores the game, the others answer it."""
    key = str(uuid.uuid4())
    request = NewGame("team-auction", {}, [SeatRequest("human")] * 4, idempotency_key=key)
    answers: list[Any] = []
    start = threading.Barrier(4)

    def create() -> None:
        start.wait()
        answers.append(api_services.games.create(request))

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == 4 and all(a == answers[0] for a in answers)
    assert _games_under(api_services, answers[0].game_id) == 1
