"""Hints and bid analyses (service/hints/service.py) over in-memory fakes: stored as jobs, sent, read back by their seat."""

from __future__ import annotations

import pytest

from domain.actions import Action
from domain.errors import IllegalActionError
from service.errors import UnauthorizedError
from service.games import GameService
from service.hints.service import HintService
from service.jobs.handlers import default_handlers
from service.jobs.runner import JobRunner
from service.ports.jobs import HINT
from tests.service.fakes import MemoryEventLog, SentJobs
from tests.factories import start_game

PASS = Action.parse({"type": "pass"})


def table() -> tuple[GameService, HintService, JobRunner, SentJobs, str, list[str]]:
    store, sent = MemoryEventLog(), SentJobs()
    games = GameService(store, sent)
    hints = HintService(games, store.jobs, sent)
    runner = JobRunner(store.jobs, games, default_handlers(games, store.jobs, sent), sent)
    created = start_game(games, "team-auction", {}, [{"kind": "human"}] * 4, seed="hints")
    return games, hints, runner, sent, created.game_id, [s["token"] for s in created.seats]


def test_a_hint_is_stored_sent_computed_and_read_by_its_seat_only() -> None:
    games, hints, runner, sent, game_id, tokens = table()
    seat = games.load(game_id).to_act
    assert seat is not None
    job = hints.request_hint(game_id, tokens[seat], level=1)
    assert sent.sent == [job.id] and job.kind == HINT and job.seat == seat
    assert hints.read(job.id, tokens[seat], HINT)["status"] == "pending"
    runner.run(job.id, "test")
    answer = hints.read(job.id, tokens[seat], HINT)
    assert answer["status"] == "done" and answer["suggestion"] in [e["action"] for e in answer["estimates"]]
    with pytest.raises(UnauthorizedError):
        hints.read(job.id, tokens[(seat + 1) % 4], HINT)


def test_a_hint_is_for_the_seat_to_act() -> None:
    games, hints, _, sent, game_id, tokens = table()
    seat = games.load(game_id).to_act
    assert seat is not None
    with pytest.raises(IllegalActionError):
        hints.request_hint(game_id, tokens[(seat + 1) % 4], level=1)
    assert sent.sent == []


def test_a_hint_for_a_version_the_game_has_left_reads_superseded() -> None:
    games, hints, _, _, game_id, tokens = table()
    state = games.load(game_id)
    seat = state.to_act
    assert seat is not None
    job = hints.request_hint(game_id, tokens[seat], level=1)
    games.act(game_id, tokens[seat], state.version, PASS)
    assert hints.read(job.id, tokens[seat], HINT)["status"] == "superseded"
