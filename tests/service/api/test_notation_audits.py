"""POST /v1/audits of the notation (text/plain) and of score sheets: the same verdicts as JSON, errors at their line."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.notation import format_notation
from service.api.replay_schemas import RECORD_EXAMPLE
from tests.service.api.documented import check_answer

PROBLEM = "application/problem+json"
TEXT = format_notation(RECORD_EXAMPLE)


def _post_text(client: FlaskClient, text: str) -> Any:
    return client.post("/v1/audits", data=text.encode("utf-8"), content_type="text/plain; charset=utf-8")


def _sheet(client: FlaskClient) -> dict[str, Any]:
    """Return RECORD_EXAMPLE as the score sheet its table would have kept: the cards each side took, not the play."""
    replay = client.post("/v1/audits", json=RECORD_EXAMPLE).get_json()["replay"]
    taken: list[list[str]] = [[], []]
    for trick in replay["tricks"]:
        taken[trick["winner"] % 2] += [play["card"] for play in trick["cards"]]  # four seats: side is seat mod 2
    first_play = next(i for i, a in enumerate(RECORD_EXAMPLE["actions"]) if a["type"] == "play")
    sheet = copy.deepcopy(RECORD_EXAMPLE)
    sheet["actions"] = sheet["actions"][:first_play]
    sheet["taken"] = taken
    return sheet


def test_a_text_audits_as_its_record_does(client: FlaskClient) -> None:
    response = _post_text(client, TEXT)
    assert response.status_code == 200
    assert check_answer("auditRecord", response) == client.post("/v1/audits", json=RECORD_EXAMPLE).get_json()
    assert "checked" not in response.get_json()  # a whole record's play is checked


def test_a_trick_short_of_a_card_is_a_400_at_its_line(client: FlaskClient) -> None:
    lines = TEXT.splitlines()
    fourth = lines.index("[Play]") + 4
    lines[fourth] = " ".join(lines[fourth].split(";")[0].split()[:3])
    response = _post_text(client, "\n".join(lines))
    assert response.status_code == 400 and response.mimetype == PROBLEM
    body = check_answer("auditRecord", response)
    assert body["type"] == "/problems/malformed-request"
    assert (body["line"], body["column"]) == (fourth + 1, None)
    assert body["detail"].startswith(f"line {fourth + 1}: the 4th trick has 3 cards")
    assert body["reason"] == body["detail"].split(": ", 1)[1]


def test_a_card_that_is_no_card_is_a_400_at_its_line_and_column(client: FlaskClient) -> None:
    lines = TEXT.splitlines()
    row = lines.index("[Deal]") + 2
    column = lines[row].index(RECORD_EXAMPLE["cards"][1][2]) + 1
    lines[row] = lines[row][:column - 1] + "XT" + lines[row][column + 1:]
    body = _post_text(client, "\n".join(lines)).get_json()
    assert (body["line"], body["column"]) == (row + 1, column)
    assert body["detail"].startswith(f"line {row + 1}, column {column}: 'XT' is not a card")


@pytest.mark.parametrize("body, content_type, words", [
    (b"", "text/plain", "line 1"),
    (b"\xff\xfe", "text/plain", "not UTF-8"),
    (TEXT.encode(), "application/xml", "text/plain"),
    (TEXT.encode(), "application/json", "not JSON"),
])
def test_a_body_the_audit_cannot_read_is_a_400_saying_why(client: FlaskClient, body: bytes, content_type: str, words: str) -> None:
    response = client.post("/v1/audits", data=body, content_type=content_type)
    assert response.status_code == 400 and response.mimetype == PROBLEM
    assert words in check_answer("auditRecord", response)["detail"]


def test_a_score_sheet_as_json_or_text_is_scored_as_its_hand_with_the_play_not_checked(client: FlaskClient) -> None:
    whole = client.post("/v1/audits", json=RECORD_EXAMPLE).get_json()
    sheet = _sheet(client)
    response = client.post("/v1/audits", json=sheet)
    assert response.status_code == 200, response.get_json()
    body = check_answer("auditRecord", response)
    assert body["checked"] == "play not checked" and body["failed"] is None and body["complete"] is True
    assert body["checks"] and all(check["ok"] for check in body["checks"])
    assert any("play" in item for item in body["not_checked"])
    assert body["score"]["changes"] == whole["score"]["changes"]
    assert [(p["kind"], p["side"], p["card"]) for p in body["score"]["points"]] == [
        (p["kind"], p["side"], p["card"]) for p in whole["score"]["points"]
    ]
    assert body["scores_after"] == whole["scores_after"]
    text = format_notation(sheet)
    assert "[Taken]" in text and "[Play]" not in text
    assert check_answer("auditRecord", _post_text(client, text)) == body


def test_a_score_sheet_that_does_not_hold_says_which_check_failed(client: FlaskClient) -> None:
    sheet = _sheet(client)
    moved = len(sheet["taken"][0]) - 1
    sheet["taken"][1].append(sheet["taken"][0].pop())  # one card moved across: a trick is four cards, one a seat
    body = check_answer("auditRecord", client.post("/v1/audits", json=sheet))
    assert body["complete"] is False and body["score"] is None
    assert [check["name"] for check in body["checks"] if not check["ok"]] == ["whole tricks"]
    assert body["checks"][-1]["name"] == "whole tricks"  # the checks stop at the first that fails
    assert body["failed"] == f"whole tricks: side 0 took {moved} cards, not a whole number of tricks of 4"


def test_a_score_sheet_whose_auction_the_rules_refuse_is_a_422_as_a_record_is(client: FlaskClient) -> None:
    sheet = _sheet(client)
    first = sheet["actions"][0]
    sheet["actions"][0] = {**first, "seat": (first["seat"] + 1) % 4}
    response = client.post("/v1/audits", json=sheet)
    assert response.status_code == 422 and response.mimetype == PROBLEM
    body = check_answer("auditRecord", response)
    assert body["type"] == "/problems/illegal-action" and body["action_index"] == 0 and "turn" in body["reason"]


@pytest.mark.parametrize("change, words", [
    (lambda s: s.__setitem__("taken", [["AS"]]), "taken"),
    (lambda s: s.__setitem__("bid", 100), "bid"),
    (lambda s: s.__setitem__("held", {"ZZ": 1}), "held"),
    (lambda s: s.__setitem__("trump", "X"), "trump"),
    (lambda s: s.__setitem__("score", 3), "score"),
])
def test_a_malformed_score_sheet_is_a_400_naming_the_field(client: FlaskClient, change: Any, words: str) -> None:
    sheet = _sheet(client)
    change(sheet)
    response = client.post("/v1/audits", json=sheet)
    assert response.status_code == 400, response.get_json()
    assert words in check_answer("auditRecord", response)["detail"]


def test_no_edited_text_gets_a_500(client: FlaskClient) -> None:
    rng = random.Random(30)
    pieces = ["[", "]", '"', ";", "\n", " ", ":", "?1", "=", "+", "-", "AS", "RJ", "N", "pass", "claim", "[Play]",
              "[Taken]", "[Held]", '[Option "target_score=x"]', '[Rules "fish-pitch"]', "99999999999999999999", "\x00"]
    statuses = set()
    for _ in range(200):
        text = list(TEXT)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.4:
                del text[at:at + rng.randint(1, 12)]
            else:
                text[at:at] = rng.choice(pieces)
        response = _post_text(client, "".join(text))
        assert response.status_code in (200, 400, 422), response.get_json()
        statuses.add(response.status_code)
    assert {200, 400} <= statuses
