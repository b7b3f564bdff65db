"""A rematch of a game between players seats the same players (docs/players.md, docs/tables.md).

On each backend, Ada and Bob (players) play a rated one-hand game beside two computers.
Ada asks for the rematch with her player's token, Bob with his old seat's token: each gets
back the seat they held, held by them (their player's token acts for it), asking again
answers the same token, the rematch is rated and deals once both are back; a player who
held no seat of the game gets none.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.state import Phase
from service.bootstrap import Services
from service.errors import ForbiddenError
from service.games.creation import NewGame, SeatRequest
from service.store.migrate import upgrade
from tests.dbs import postgres_database, sqlite_url
from tests.service.players.playing import play_to_end
from tests.service.serving import services_over

ONE_HAND = {"game_over": "hands", "hand_limit": 1}


@pytest.fixture(params=["sqlite", "postgresql"])
def services(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    if request.param == "sqlite":
        url = sqlite_url(tmp_path_factory.mktemp("rematch"))
        upgrade(url)
        built = services_over(url)
        yield built
        built.close()
        return
    with postgres_database() as url:
        upgrade(url)
        built = services_over(url)
        yield built
        built.close()


def test_a_rematch_of_a_game_between_players_seats_the_same_players(services: Services) -> None:
    assert services.players is not None
    ada, bob = services.players.create("Ada"), services.players.create("Bob")
    seats = [SeatRequest("human", player=ada.id), SeatRequest("ai", 2), SeatRequest("human", player=bob.id),
             SeatRequest("ai", 3)]
    created = services.games.create(NewGame("team-auction", ONE_HAND, seats, "rematch-players", rated=True))
    play_to_end(services, created.game_id, "rematch-players")
    bob_seat_token = created.seats[2]["token"]

    asked = services.rematches.rematch(created.game_id, ada.token)  # with her player's token
    rematch = asked.game_id
    assert asked.seat == 0 and services.rematches.rematch(created.game_id, ada.token).token == asked.token
    held = services.games.store.game_players(rematch)  # type: ignore[attr-defined]
    assert {seat: p.id for seat, p in held.items()} == {0: ada.id}
    assert services.games.load(rematch).phase == Phase.WAITING  # Bob is not back yet
    with pytest.raises(ForbiddenError):  # a player who held no seat of the game takes none of the rematch
        services.rematches.rematch(created.game_id, services.players.create("Cy").token)

    joined = services.rematches.rematch(created.game_id, bob_seat_token)  # with his old seat's token
    assert joined.seat == 2 and services.rematches.rematch(created.game_id, bob_seat_token).token == joined.token
    held = services.games.store.game_players(rematch)  # type: ignore[attr-defined]
    assert {seat: p.id for seat, p in held.items()} == {0: ada.id, 2: bob.id}
    indexed = services.games.store.indexed(rematch)  # type: ignore[attr-defined]
    assert indexed is not None and indexed.rated and indexed.family == "partnership"
    assert services.games.load(rematch).phase != Phase.WAITING  # both back: dealt
    assert services.games.seat_of(rematch, ada.token) == 0 and services.games.seat_of(rematch, bob.token) == 2
    view = services.games.view(rematch, None)
    assert [s["name"] for s in view["seats"]][0::2] == ["Ada", "Bob"]
