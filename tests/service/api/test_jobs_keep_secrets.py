"""Jobs never carry the game's secret: not in their stored request or result, nor in messages.

docs/architecture.md "The event store" keeps the seed outside the log until its reveal; a job's row and its message are
no exception. A server-seeded game with computer seats plays a hand, a hint and a bid
analysis are asked for, and every job row is scanned for the secret and unrevealed keys.
"""

from __future__ import annotations

import sqlalchemy as sa
from flask.testing import FlaskClient

from domain.fairness import deal_key
from service.store.db import make_engine
from tests.service.api.client import ApiGame, bearer
from tests.service.api.test_hints import poll, wait_for


def test_no_job_row_holds_the_seed_or_an_unrevealed_key(ai_client: FlaskClient, api_database_url: str) -> None:
    seats = [{"kind": "human"}] + [{"kind": "ai", "level": 3}] * 3
    game = ApiGame.create(ai_client, seats=seats, seed=None, rules={"preset": "team-auction", "options": {}})
    wait_for(lambda: game.view()["to_act"] == 0 or game.view()["phase"] == "ended", "the human's turn")
    token = game.tokens[0]
    hint = ai_client.post(f"/v1/games/{game.id}/hints", json={"level": 4}, headers=bearer(token))
    assert hint.status_code == 202
    poll(ai_client, hint.headers["Location"], token)
    for _ in range(10):  # act until a computer has had to answer, so that a move job exists
        view = game.view(0)
        if view["phase"] == "ended":
            break
        if view["to_act"] != 0:
            wait_for(lambda: game.view()["to_act"] == 0 or game.view()["phase"] == "ended", "the computers")
            break
        assert game.act(0, view["legal_actions"][-1], view["version"]).status_code == 201
    engine = make_engine(api_database_url)
    try:
        with engine.connect() as conn:
            secret = conn.execute(
                sa.text("SELECT secret FROM game_secrets WHERE game_id = :g"), {"g": game.id},
            ).scalar_one()
            rows = conn.execute(sa.text("SELECT * FROM jobs WHERE game_id = :g"), {"g": game.id}).mappings().all()
    finally:
        engine.dispose()
    assert len(rows) >= 2  # computer moves and the hint
    revealed = {e["data"]["deal"] for e in ai_client.get(f"/v1/games/{game.id}/events?limit=1000").get_json()["events"]
                if e["type"] == "DealKeyRevealed"}
    hidden = {secret} | {deal_key(bytes.fromhex(secret), d).hex() for d in range(1, 20) if d not in revealed}
    for row in rows:
        text = " ".join(str(value) for value in row.values())
        assert not [h for h in hidden if h in text], f"job {row['id']} holds a secret"
