"""The rules of a table (domain/tables.py), one test per sentence of docs/tables.md's rules.

From a fixed seed: a game with open seats waits undealt and deals when the last is
claimed; a human seat at a table with a clock is due its stand-in after the clock's
seconds, at once once the stand-in keeps it; timeouts in a row hand the seat over; the
holder's next action takes it back; leaving hands a seat to a computer, and the last
human's leaving abandons the game, revealing the deal's key and the seed.
"""

from __future__ import annotations

import pytest

from domain.errors import GameOverError, IllegalActionError, MalformedError
from domain.events import DealKeyRevealed, HandDealt, SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.presets import resolve_rules
from domain.dealing import start_game
from domain.state import GameState, Phase
from domain.table_events import (
    ClockRanOut, GameAbandoned, SeatClaimed, SeatHandedOver, SeatLeft, SeatTakenBack,
)
from domain.tables import (
    SeatNotOpenError, StandIn, claim_seat, clock_ran_out, holder_acting, is_claimable_from_list, leave_seat,
    open_table, rematch_seats, stand_in_due, table_view, take_seat_back,
)

SECRET = seed_from_text("tables")
DEALS = SeededDeals(SECRET)


def _game(seats: list[SeatSpec], **table: object) -> GameState:
    rules = resolve_rules("team-auction", {})
    started, dealt = start_game(rules, "team-auction", seats, first_dealer(SECRET, 4), commit(SECRET, "client"), DEALS)
    opened = open_table(seats, **table)  # type: ignore[arg-type]
    return replay([started, opened] if opened.open_seats else [started, opened, dealt])


HUMANS = [SeatSpec("human")] * 4
OPEN_TWO = [SeatSpec("open"), SeatSpec("human"), SeatSpec("open"), SeatSpec("ai", 1)]


def test_a_game_with_open_seats_waits_with_nothing_dealt() -> None:
    state = _game(OPEN_TWO, listed=True, invite_only=[2])
    assert state.phase == Phase.WAITING and state.hand is None and state.to_act is None
    assert state.table is not None and state.table.open_seats == (0, 2) and state.table.invite_only == (2,)
    assert is_claimable_from_list(state, 0) and not is_claimable_from_list(state, 2)


def test_the_claim_that_fills_the_last_open_seat_deals_the_first_hand() -> None:
    state = _game(OPEN_TWO)
    first = claim_seat(state, 0, DEALS)
    assert first == [SeatClaimed(0)]
    state = replay(first, state)
    assert state.seats[0] == SeatSpec("human") and state.phase == Phase.WAITING
    last = claim_seat(state, 2, DEALS)
    assert last[0] == SeatClaimed(2) and isinstance(last[1], HandDealt) and last[1].hand == 1
    assert replay(last, state).phase == Phase.BIDDING


def test_a_seat_that_is_not_open_cannot_be_claimed() -> None:
    state = replay([SeatClaimed(0)], _game(OPEN_TWO))
    with pytest.raises(SeatNotOpenError, match="taken"):
        claim_seat(state, 0, DEALS)
    with pytest.raises(SeatNotOpenError, match="not an open seat"):
        claim_seat(state, 3, DEALS)
    with pytest.raises(IllegalActionError, match="no seat 7"):
        claim_seat(state, 7, DEALS)


def test_bad_table_settings_are_refused() -> None:
    with pytest.raises(MalformedError, match="not open"):
        open_table(HUMANS, invite_only=[1])
    with pytest.raises(MalformedError, match="level"):
        open_table(HUMANS, clock_seconds=5, stand_in_level=9)
    with pytest.raises(MalformedError, match="handed over"):
        open_table(HUMANS, clock_seconds=5, handover_after=0)


def test_a_human_seat_to_act_is_due_its_stand_in_after_the_clock() -> None:
    state = _game(HUMANS, clock_seconds=30, stand_in_level=2)
    assert stand_in_due(state) == StandIn(state.to_act, 2, 30)  # type: ignore[arg-type]
    assert stand_in_due(_game(HUMANS)) is None  # no clock, no stand-in
    computers = _game([SeatSpec("ai", 1)] * 4, clock_seconds=30)
    assert stand_in_due(computers) is None  # computers need no clock


def test_timeouts_in_a_row_hand_the_seat_over_and_the_stand_in_then_acts_at_once() -> None:
    state = _game(HUMANS, clock_seconds=30, handover_after=2)
    seat = state.to_act
    assert seat is not None
    assert clock_ran_out(state, seat) == [ClockRanOut(seat, 1)]
    once = replay([ClockRanOut(seat, 1)], state)
    assert clock_ran_out(once, seat) == [ClockRanOut(seat, 2), SeatHandedOver(seat)]
    kept = replay([ClockRanOut(seat, 2), SeatHandedOver(seat)], once)
    assert kept.table is not None and kept.table.away == (seat,)
    assert stand_in_due(kept) == StandIn(seat, 3, 0)


def test_the_holders_next_action_takes_the_seat_back_and_counts_again_from_zero() -> None:
    state = _game(HUMANS, clock_seconds=30, handover_after=2)
    seat = state.to_act
    assert seat is not None
    assert holder_acting(state, seat) == []
    kept = replay([ClockRanOut(seat, 1), ClockRanOut(seat, 2), SeatHandedOver(seat)], state)
    assert holder_acting(kept, seat) == [SeatTakenBack(seat)]
    back = replay([SeatTakenBack(seat)], kept)
    assert back.table is not None and back.table.away == () and back.table.timeouts[seat] == 0
    with pytest.raises(IllegalActionError, match="yours already"):
        take_seat_back(back, seat)
    assert take_seat_back(kept, seat) == [SeatTakenBack(seat)]


def test_leaving_hands_the_seat_to_a_computer_and_the_last_human_leaving_abandons_the_game() -> None:
    state = _game([SeatSpec("human"), SeatSpec("ai", 1), SeatSpec("human"), SeatSpec("ai", 1)], clock_seconds=30)
    first = leave_seat(state, 0, 4, DEALS)
    assert first == [SeatLeft(0, 4)]
    state = replay(first, state)
    assert state.seats[0] == SeatSpec("ai", 4) and state.table is not None and state.table.left == (0,)
    with pytest.raises(IllegalActionError, match="left already"):
        leave_seat(state, 0, 4, DEALS)
    with pytest.raises(IllegalActionError, match="you left"):
        holder_acting(state, 0)
    last = leave_seat(state, 2, 3, DEALS)
    assert state.hand is not None
    assert last == [SeatLeft(2, 3), DealKeyRevealed(state.hand.deal, DEALS.key(state.hand.deal)),
                    GameAbandoned(tuple(state.scores), DEALS.seed())]
    ended = replay(last, state)
    assert ended.phase == Phase.ENDED and ended.ended == "abandoned" and ended.winner is None
    with pytest.raises(GameOverError):
        leave_seat(ended, 1, 3, DEALS)


def test_a_rematch_keeps_every_persons_seat_open_for_them() -> None:
    state = replay([SeatClaimed(0), SeatLeft(1, 3)], _game(OPEN_TWO))
    seats, kept = rematch_seats(state)
    assert seats == [SeatSpec("open"), SeatSpec("open"), SeatSpec("open"), SeatSpec("ai", 1)] and kept == [0, 1, 2]


def test_the_table_view_shows_the_settings_and_who_keeps_each_seat() -> None:
    state = _game(OPEN_TWO, listed=True, clock_seconds=45, stand_in_level=5, handover_after=4)
    view = table_view(state)
    assert view == {
        "open_seats": [0, 2], "invite_only": [], "listed": True,
        "clock": {"seconds": 45, "stand_in": {"kind": "ai", "level": 5}, "handover_after": 4},
        "deadline": None, "timeouts": [0, 0, 0, 0], "stand_in_seats": [], "left": [], "rematch_of": None,
        "rematch": None, "rated": False,
    }
    rules = resolve_rules("team-auction", {})
    plain = replay(start_game(rules, "team-auction", HUMANS, 0, commit(SECRET, "client"), DEALS))
    assert plain.table is None and table_view(plain) is None
