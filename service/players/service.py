"""The use cases of players: make one, rotate its token, know who a token is, its games, the search.

A player is an id (a UUID), a name of 1 to 40 printable characters (names need not be
unique: the id is the identity) and a bearer token of 256 random bits, shown once and
stored as its SHA-256 (service/games/tokens.py, as seats' tokens are). Rotating the token
stores the next one, which ends the one before. Everything is written as rows of a change
through the one writer (service/games/writer.py ``record``).

Integrators (a club's site, an app) hold an app key (``PITCH_APP_KEYS``): with it they make
players for their users and create games that seat those players by id. Without app keys
set, anyone may make a player for themself (the web client does, on a first visit); a
game seats its creator's player with ``"player": "me"`` and the player's token.
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from service.errors import ForbiddenError, InvalidRequestError, PlayerNotFoundError, UnauthorizedError
from service.games.tokens import hash_token, new_token
from service.games.writer import Writer
from service.players.ratings import shown_statistics
from service.players.review_costs import review_costs
from service.players.review_costs import shown as shown_costs
from service.ports.players import (
    FAMILIES, GameFound, GameQuery, NewPlayer, Player, PlayerLog, PlayerToken, StatisticsAdded,
)

NAME_LENGTH = range(1, 41)
ME = "me"
NO_STATISTICS = {k: v for k, v in asdict(StatisticsAdded("", "")).items() if k not in ("player_id", "family")}


@dataclass(frozen=True, slots=True)
class CreatedPlayer:
    """A new player (or a new token of one): its id, name and bearer token, shown only now."""

    id: str
    name: str
    token: str


class PlayerService:
    """Players over the writer and the store's players."""

    def __init__(self, writer: Writer, log: PlayerLog, app_keys: Sequence[str] = ()) -> None:
        self.writer = writer
        self.log = log
        self._app_keys = tuple(hash_token(key) for key in app_keys)

    def create(self, name: str) -> CreatedPlayer:
        """Make a player named ``name``; return it with its token (shown only now)."""
        check_name(name)
        player_id, token = str(uuid.uuid4()), new_token()
        self.writer.record([NewPlayer(player_id, name), PlayerToken(player_id, hash_token(token))])
        return CreatedPlayer(player_id, name, token)

    def rotate(self, token: str | None) -> CreatedPlayer:
        """Give the token's player a new token, ending this one; return it (shown only now)."""
        player = self.authenticate(token)
        fresh = new_token()
        self.writer.record([PlayerToken(player.id, hash_token(fresh))])
        return CreatedPlayer(player.id, player.name, fresh)

    def authenticate(self, token: str | None) -> Player:
        """Return the player whose current token this is; raise UnauthorizedError for none."""
        if token is None:
            raise UnauthorizedError("this needs a player's bearer token")
        player = self.log.player_by_token(hash_token(token))
        if player is None:
            raise UnauthorizedError("this token is not a player's (or it was rotated since)")
        return player

    def is_app_key(self, token: str | None) -> bool:
        """Tell whether ``token`` is one of the app keys the service was given."""
        if token is None or not self._app_keys:
            return False
        hashed = hash_token(token)
        return any(hmac.compare_digest(hashed, key) for key in self._app_keys)

    def seat_players(self, token: str | None, asked: Sequence[str | None]) -> list[str | None]:
        """Return the player id of each seat asked for (``"me"``: the token's player; an id: with an app key)."""
        if all(a is None for a in asked):
            return [None] * len(asked)
        app = self.is_app_key(token)
        me = None
        found: list[str | None] = []
        for seat, player in enumerate(asked):
            if player is None:
                found.append(None)
            elif player == ME:
                if me is None:
                    if app:
                        raise InvalidRequestError(f"seat {seat}: an app key is no player; seat players by their ids")
                    me = self.authenticate(token).id
                found.append(me)
            else:
                if not app:
                    raise ForbiddenError(
                        f"seat {seat}: seating a player by id needs an app key (PITCH_APP_KEYS); a player seats "
                        "themself with \"player\": \"me\" and their own token"
                    )
                if self.log.player(player) is None:
                    raise InvalidRequestError(f"seat {seat}: there is no player {player[:80]!r}")
                found.append(player)
        return found

    def player(self, player_id: str) -> Player:
        """Return the player with this id; raise PlayerNotFoundError for none."""
        player = self.log.player(player_id)
        if player is None:
            raise PlayerNotFoundError(f"there is no player {player_id[:80]!r}")
        return player

    def profile(self, player_id: str) -> dict[str, Any]:
        """Return a player's page: the name, the ratings and statistics by family."""
        player = self.player(player_id)
        ratings = {
            family: {"rating": r.rating, "mu": r.mu, "uncertainty": r.sigma, "games": r.games}
            for family, r in sorted(self.log.player_ratings(player_id).items())
        }
        sums = self.log.player_statistics(player_id)
        costs = review_costs(self.log.player_review_costs(player_id))  # stored with each review: not a projection
        shown = {
            family: {**shown_statistics(sums.get(family) or NO_STATISTICS), **costs.get(family, shown_costs(0, 0.0))}
            for family in sorted(set(sums) | set(costs))
        }
        return {"id": player.id, "name": player.name, "created_at": player.created_at, "ratings": ratings,
                "statistics": shown}

    def rating_history(self, player_id: str, family: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """Return a page of a player's rating in ``family`` after each rated game, oldest first, and the next page's start."""
        if family not in FAMILIES:
            raise PlayerNotFoundError(f"there are no ratings {family[:40]!r}: the families are {', '.join(FAMILIES)}")
        self.player(player_id)
        found = self.log.rating_history(player_id, family, after, limit + 1)
        page = found[:limit]
        points = [{"games": p.games, "game_id": p.game_id, "rating": p.mu - 3 * p.sigma, "mu": p.mu,
                   "uncertainty": p.sigma, "at": p.at} for p in page]
        return points, (page[-1].games if len(found) > limit else None)

    def leaderboard(self, family: str, after: str | None, limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """Return a page of a family's players by rating, highest first, and the cursor of the next page.

        The cursor is the last row's rank, rating and id (``rank|rating|id``): any text that is
        not one starts from the top.
        """
        if family not in FAMILIES:
            raise PlayerNotFoundError(f"there is no leaderboard {family[:40]!r}: the families are {', '.join(FAMILIES)}")
        rank, start = 0, None
        if after is not None:
            parts = after.split("|", 2)
            try:
                rank, start = int(parts[0]), (float(parts[1]), parts[2])
            except (ValueError, IndexError):
                raise InvalidRequestError("after: not the `next` of a page of this leaderboard") from None
        rows = self.log.leaderboard(family, start, limit + 1)
        page = rows[:limit]
        leaders = [
            {"rank": rank + i + 1, "id": p.id, "name": p.name, "rating": r.rating, "uncertainty": r.sigma, "games": r.games}
            for i, (p, r) in enumerate(page)
        ]
        more = len(rows) > limit
        last = page[-1] if page else None
        return leaders, (f"{rank + len(page)}|{last[1].rating!r}|{last[0].id}" if more and last else None)

    def games(self, player_id: str, after: str | None, limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """Return a page of the player's games, newest first, and the cursor of the next page."""
        self.player(player_id)
        return self.search(GameQuery(player=player_id, after=cursor(after), limit=limit))

    def search(self, query: GameQuery) -> tuple[list[dict[str, Any]], str | None]:
        """Return a page of the games ``query`` finds, newest first, and the cursor of the next page."""
        asked = query.limit
        found = self.log.search(GameQuery(
            query.player, query.preset, query.status, query.since, query.until, query.rated, query.after, asked + 1,
        ))
        page = found[:asked]
        more = len(found) > asked
        return [game_summary(g) for g in page], (f"{page[-1].created_at}|{page[-1].game_id}" if more else None)


def check_name(name: str) -> None:
    """Raise InvalidRequestError unless ``name`` is 1 to 40 printable characters, not all spaces."""
    if len(name) not in NAME_LENGTH or not name.isprintable() or not name.strip():
        raise InvalidRequestError("a player's name is 1 to 40 printable characters, not only spaces")


def cursor(text: str | None) -> tuple[str, str] | None:
    """Return the (created time, game id) a page starts after: the cursor's two halves (any text is a place)."""
    if text is None:
        return None
    created_at, _, game_id = text.partition("|")
    return created_at, game_id


def game_summary(game: GameFound) -> dict[str, Any]:
    """Return a found game as the API shows it."""
    return {
        "id": game.game_id, "preset": game.preset, "family": game.family, "rated": game.rated,
        "status": game.status, "created_at": game.created_at, "finished_at": game.finished_at,
        "players": [{"seat": seat, "id": p.id, "name": p.name} for seat, p in sorted(game.players.items())],
    }
