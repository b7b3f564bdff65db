"""The games' use cases over in-memory fakes of their ports (tests/service/fakes.py): no database.

What the outbox promises a game: a change and the jobs its new state calls for are stored
together, the jobs are sent only after that, a send that fails loses nothing (the row
waits for the sweep), and nothing is stored twice for a repeated request.
"""

from __future__ import annotations

import pytest

from domain.actions import Action
from domain.errors import IllegalActionError
from service.errors import VersionConflictError
from service.games import GameService
from service.jobs.handlers import default_handlers
from service.jobs.runner import JobRunner
from service.ports.jobs import DONE, MOVE, PENDING
from tests.service.fakes import MemoryEventLog, SentJobs
from tests.factories import start_game

PASS = Action.parse({"type": "pass"})

HUMANS = [{"kind": "human"}] * 4


def service() -> tuple[GameService, MemoryEventLog, SentJobs]:
    store, sent = MemoryEventLog(), SentJobs()
    return GameService(store, sent), store, sent


def test_a_game_whose_first_seat_to_act_is_a_computer_stores_and_sends_its_move() -> None:
    games, store, sent = service()
    seats = [{"kind": "ai", "level": 2}] * 4
    created = start_game(games, "team-auction", {}, seats, seed="outbox")
    (job_id,) = sent.sent
    job = store.jobs.get(job_id)
    assert job is not None
    assert (job.game_id, job.kind, job.for_version, job.level, job.state) == (created.game_id, MOVE, created.version, 2, PENDING)
    assert job.seat == games.load(created.game_id).to_act


def test_a_game_of_humans_stores_no_job() -> None:
    games, store, sent = service()
    start_game(games, "team-auction", {}, HUMANS, seed="humans")
    assert store.jobs.rows == {} and sent.sent == []


def test_an_action_that_hands_the_turn_to_a_computer_stores_its_move_with_the_events() -> None:
    games, store, sent = service()
    seats = [{"kind": "human"}] * 4
    created = start_game(games, "team-auction", {}, seats, seed="hand-over")
    state = games.load(created.game_id)
    to_act = state.to_act
    assert to_act is not None
    # Make the next seat a computer by playing a table where it is one.
    seats = [{"kind": "ai", "level": 1} if i == (to_act + 1) % 4 else {"kind": "human"} for i in range(4)]
    created = start_game(games, "team-auction", {}, seats, seed="hand-over")
    token = created.seats[to_act]["token"]
    result = games.act(created.game_id, token, created.version, PASS)
    (job_id,) = sent.sent
    job = store.jobs.get(job_id)
    assert job is not None and (job.kind, job.seat, job.for_version) == (MOVE, (to_act + 1) % 4, result.version)


def test_a_stale_action_stores_nothing_and_sends_nothing() -> None:
    games, store, sent = service()
    seats = [{"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]
    created = start_game(games, "team-auction", {}, seats, seed="stale")
    to_act = games.load(created.game_id).to_act
    assert to_act is not None
    token = created.seats[to_act]["token"]
    before = (store.appends, dict(store.jobs.rows), list(sent.sent))
    with pytest.raises((VersionConflictError, IllegalActionError)):
        games.act(created.game_id, token, created.version - 1, PASS)
    assert (store.appends, dict(store.jobs.rows), list(sent.sent)) == before


def test_a_send_that_fails_loses_no_job_and_the_sweep_sends_it() -> None:
    games, store, sent = service()
    sent.down = True
    created = start_game(games, "team-auction", {}, [{"kind": "ai", "level": 1}] * 4, seed="broker-down")
    assert sent.sent == []
    (job,) = store.jobs.rows.values()
    assert job.state == PENDING and job.for_version == created.version
    runner = JobRunner(store.jobs, games, default_handlers(games, store.jobs, sent), sent)
    sent.down = False
    assert runner.sweep() == [job.id]


def test_a_repeated_request_stores_no_second_job() -> None:
    games, store, sent = service()
    seats = [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3
    created = start_game(games, "team-auction", {}, seats, seed="repeat")
    state = games.load(created.game_id)
    if state.to_act != 0:  # play the computers up to the human's turn
        runner = JobRunner(store.jobs, games, default_handlers(games, store.jobs, sent), sent)
        while games.load(created.game_id).to_act != 0:
            assert runner.run(sent.sent[-1], "test") is not None
    version = games.load(created.game_id).version
    token = created.seats[0]["token"]
    first = games.act(created.game_id, token, version, PASS, idempotency_key="once")
    jobs_after_first, sent_after_first = dict(store.jobs.rows), list(sent.sent)
    again = games.act(created.game_id, token, version, PASS, idempotency_key="once")
    assert again.replayed and again.version == first.version
    assert store.jobs.rows == jobs_after_first and sent.sent == sent_after_first


def test_a_table_of_computers_plays_a_hand_through_the_runner() -> None:
    """Each move's job stores the next seat's move with it, until the hand is scored."""
    games, store, sent = service()
    created = start_game(games, "team-auction", {}, [{"kind": "ai", "level": 1}] * 4, seed="table")
    runner = JobRunner(store.jobs, games, default_handlers(games, store.jobs, sent), sent)
    ran = 0
    while not any(e.type == "HandScored" for e in store.read(created.game_id)):
        job = runner.run(sent.sent[ran], "test")
        assert job is not None and job.state == DONE
        ran += 1
    assert ran == len(store.jobs.finished()) >= 4  # every move was a job, each done once; a claim may end the play early

