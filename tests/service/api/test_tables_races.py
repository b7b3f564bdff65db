"""Racing claims over HTTP: of eight claimers of one seat exactly one gets a token, the rest 409.

Each claimer posts from its own thread with its own client of one app (each request its
own database transaction): the claim is appended at the version its claimer saw, with the
seat's token row, so one append wins and the others find the seat taken when they look
again. Claims of different seats racing each other all succeed, and the last deals once.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.service.api.table_client import Table

CLAIMERS = 8


def _race(app: Flask, claims: list[tuple[str, int, dict[str, Any]]]) -> list[tuple[int, int, dict[str, Any]]]:
    """Post every claim at once, each from a thread of its own; return (seat, status, body) of each."""
    start = threading.Barrier(len(claims))
    answers: list[tuple[int, int, dict[str, Any]]] = []
    lock = threading.Lock()

    def claim(game_id: str, seat: int, body: dict[str, Any]) -> None:
        client = app.test_client()
        start.wait()
        response = client.post(f"/v1/games/{game_id}/seats/{seat}/claim", json=body)
        with lock:
            answers.append((seat, response.status_code, response.get_json()))

    threads = [threading.Thread(target=claim, args=c) for c in claims]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_eight_racing_claims_of_one_seat_give_one_token(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "open"}, {"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "human"}])
    answers = _race(table_client.application, [(table.id, 0, {"invite": table.invite(0)})] * CLAIMERS)

    statuses = Counter(status for _, status, _ in answers)
    assert statuses == Counter({201: 1, 409: CLAIMERS - 1}), answers
    assert all(body["type"] == "/problems/seat-taken" for _, status, body in answers if status == 409)
    (token,) = [body["token"] for _, status, body in answers if status == 201]
    types = table.types()
    assert types.count("SeatClaimed") == 1 and types.count("HandDealt") == 1
    assert table_client.get(f"/v1/games/{table.id}", headers={"Authorization": f"Bearer {token}"}).get_json()["seat"] == 0


def test_claims_of_different_seats_racing_each_other_all_win_once(table_client: FlaskClient) -> None:
    table = Table.create(table_client, [{"kind": "open"}] * 4)
    claims = [(table.id, seat, {"invite": table.invite(seat)}) for seat in range(4)] * 2
    answers = _race(table_client.application, claims)

    won = sorted(seat for seat, status, _ in answers if status == 201)
    assert won == [0, 1, 2, 3], answers
    assert sorted(seat for seat, status, _ in answers if status == 409) == [0, 1, 2, 3]
    types = table.types()
    assert types.count("SeatClaimed") == 4 and types.count("HandDealt") == 1
    assert types[-2:] == ["SeatClaimed", "HandDealt"]  # the claim that filled the last seat dealt
    view = table.view()
    assert view["phase"] == "bidding" and view["table"]["open_seats"] == []
