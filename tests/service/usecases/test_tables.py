"""The tables' use cases over the in-memory fakes (tests/service/fakes.py): claims, the listing, leaving,
the turn clock and rematches, each in milliseconds, through the one writer every use case stores with.

docs/tables.md says what a table promises; the HTTP tests (tests/service/api/test_tables_*.py)
show the same over the API and the databases.
"""

from __future__ import annotations

import pytest

from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.state import Phase
from domain.tables import SeatNotOpenError
from service.errors import GameNotFinishedError, InviteRefusedError, VersionConflictError
from service.games import ClockSettings, GameService, NewGame, SeatRequest
from service.games.clock import TurnClock
from service.games.rematch import Rematches
from service.games.tables import TableService
from service.ports.jobs import CLOCK, MOVE
from tests.service.fakes import MemoryEventLog, SentJobs

OPEN, HUMAN, COMPUTER = SeatRequest("open"), SeatRequest("human"), SeatRequest("ai", 1)


def world() -> tuple[GameService, TableService, MemoryEventLog, SentJobs]:
    store, sent = MemoryEventLog(), SentJobs()
    games = GameService(store, sent)
    return games, TableService(games, store), store, sent


def test_a_listed_table_waits_for_its_seats_then_deals_and_leaves_the_list() -> None:
    games, tables, store, _ = world()
    created = games.create(NewGame("team-auction", {}, [SeatRequest("open", invite_only=True), OPEN, COMPUTER, COMPUTER],
                                   seed="listed", listed=True))
    game_id = created.game_id
    assert games.load(game_id).phase == Phase.WAITING
    (listed,) = tables.listing(None, 10)[0]
    assert (listed["id"], listed["open_seats"], listed["waiting_for"]) == (game_id, [1], 2)  # seat 0 is invite-only

    with pytest.raises(InviteRefusedError):
        tables.claim(game_id, 0, None)  # an invite-only seat is not taken from the list
    with pytest.raises(InviteRefusedError):
        tables.claim(game_id, 0, created.seats[1]["invite"])  # another seat's invite
    from_list = tables.claim(game_id, 1, None)
    assert tables.listing(None, 10)[0][0]["open_seats"] == [] and tables.listing(None, 10)[0][0]["waiting_for"] == 1
    with pytest.raises(SeatNotOpenError):
        tables.claim(game_id, 1, None)

    by_invite = tables.claim(game_id, 0, created.seats[0]["invite"])
    state = games.load(game_id)
    assert state.phase != Phase.WAITING and state.hand is not None  # the last seat claimed deals
    assert tables.listing(None, 10) == ([], None)
    assert {s.seat: s.token_hash for s in store.seats(game_id)}.keys() == {0, 1, 2, 3}
    assert games.seat_of(game_id, by_invite.token) == 0 and games.seat_of(game_id, from_list.token) == 1


def test_leaving_hands_the_seat_to_a_computer_whose_move_is_stored_and_sent_with_it() -> None:
    games, tables, store, sent = world()
    created = games.create(NewGame("team-auction", {}, [HUMAN] * 4, seed="leave", listed=True))
    game_id = created.game_id
    leaver = games.load(game_id).to_act
    assert leaver is not None
    changed = tables.leave(game_id, created.seats[leaver]["token"], level=2)
    assert [e["type"] for e in changed.events] == ["SeatLeft"]
    after = games.load(game_id)
    assert after.seats[leaver].kind == "ai" and after.seats[leaver].level == 2 and after.to_act == leaver
    job = store.jobs.get(sent.sent[-1])  # its computer acts now: the move was stored with the departure
    assert job is not None and (job.kind, job.seat, job.for_version) == (MOVE, leaver, changed.version)

    others = [seat for seat in range(4) if seat != leaver]
    for seat in others[:-1]:
        tables.leave(game_id, created.seats[seat]["token"])
    assert games.load(game_id).ended is None
    last = tables.leave(game_id, created.seats[others[-1]]["token"])
    assert games.load(game_id).ended is not None  # no person is left: the game is abandoned
    assert last.events[-1]["type"] == "GameAbandoned"


def test_a_turn_clock_is_stored_with_the_turn_and_its_stand_in_acts_once_at_its_version() -> None:
    games, _, store, sent = world()
    created = games.create(NewGame("team-auction", {}, [HUMAN] * 4, seed="clock", clock=ClockSettings(30, level=1)))
    game_id = created.game_id
    state = games.load(game_id)
    (clock,) = [store.jobs.get(job_id) for job_id in sent.sent]
    assert clock is not None and (clock.kind, clock.seat, clock.for_version) == (CLOCK, state.to_act, state.version)

    turn_clock = TurnClock(games.writer)
    seat = state.to_act
    assert seat is not None
    command = legal_commands(state, seat)[0]
    version = turn_clock.run_out(game_id, command, state.version, key=f"job:{clock.id}")
    ran_out = [e.type for e in store.read(game_id, after=state.version)]
    assert ran_out[0] == "ClockRanOut" and version == games.load(game_id).version
    with pytest.raises(VersionConflictError):  # the same clock again: the game moved on, nothing is stored
        turn_clock.run_out(game_id, command, state.version, key=f"job:{clock.id}-again")
    assert games.load(game_id).version == version


def test_a_rematch_is_created_once_and_each_player_gets_back_the_same_seat() -> None:
    games, tables, store, _ = world()
    rematches = Rematches(tables)
    created = games.create(NewGame("team-auction", {}, [HUMAN, HUMAN, COMPUTER, COMPUTER], seed="rematch"))
    game_id = created.game_id
    first, second = created.seats[0]["token"], created.seats[1]["token"]
    with pytest.raises(GameNotFinishedError):
        rematches.rematch(game_id, first)
    tables.leave(game_id, first)
    tables.leave(game_id, second)  # both people left: the game ends, abandoned
    assert games.load(game_id).ended is not None

    asked = rematches.rematch(game_id, first)
    again = rematches.rematch(game_id, first)
    assert (again.game_id, again.seat, again.token) == (asked.game_id, 0, asked.token)
    assert games.load(asked.game_id).phase == Phase.WAITING  # the other player's seat waits for them
    joined = rematches.rematch(game_id, second)
    assert joined.game_id == asked.game_id and joined.seat == 1
    assert games.load(asked.game_id).hand is not None  # everyone is back: it deals
    assert [e.type for e in store.read(game_id)].count("RematchCreated") == 1
    with pytest.raises(IllegalActionError):  # a computer's seat does not ask
        rematches.rematch(game_id, created.seats[2]["token"])
