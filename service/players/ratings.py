"""Ratings and statistics of a finished game: what it changes for each of its players, by family.

Ratings are openskill's Weng-Lin model (Plackett-Luce), made for teams and several sides
at once: a partnership's side is a team of its seats, a cut-throat side a team of one.
Each seat held by a player brings the player's rating in the game's family (a new player
starts at openskill's mu 25, sigma 25/3); a computer's seat brings its level's fixed anchor
(``ANCHORS``), which is never updated, so a rating means the same thing over time. Sides
are ranked by the result: the winner first, then by final score (a tie shares its rank).
A rated game counts only when it ended with a result (not abandoned) and every human seat
was a player's.

Statistics are sums over the game's scored hands (domain/events.py ``HandScored``), per
player: hands, bids made and set (the player's own bids), the hands and points (score
changes) of the player's side as makers and as defenders, and moons shot.

Everything here is a pure function of the game's events and the ratings before it, so the
projection and ``pitch ratings rebuild`` compute the same values (service/players/projection.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from domain.events import Event, HandScored
from domain.evolve import replay
from domain.state import GameState
from domain.tables import COMPUTER
from service.ports.players import GameFound, Rating, StatisticsAdded

ANCHORS = {1: 14.0, 2: 18.0, 3: 22.0, 4: 25.0, 5: 28.0, 6: 31.0}
"""The fixed rating (mu) of each computer level: roughly where a player who beats it half the time stands."""
ANCHOR_SIGMA = 1.0
START = Rating(25.0, 25.0 / 3.0, 0)


@functools.cache
def model() -> PlackettLuce:
    """Return the rating model (openskill's Plackett-Luce, its default parameters)."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the ratings and statistics read it: its index row, its final state and its hands."""

    found: GameFound
    state: GameState
    hands: tuple[HandScored, ...]
    events: tuple[Event, ...]

    @property
    def is_rateable(self) -> bool:
        """Tell whether the game counts in ratings: rated, ended with a result, every human seat a player's."""
        if not self.found.rated or self.state.ended == "abandoned":
            return False
        return all(s in self.found.players or spec.kind == COMPUTER for s, spec in enumerate(self.state.seats))


def finished_game(found: GameFound, events: Sequence[Event]) -> FinishedGame:
    """Return the finished game of these events."""
    return FinishedGame(found, replay(events), tuple(e for e in events if isinstance(e, HandScored)), tuple(events))


def ranks(state: GameState) -> list[int]:
    """Return each side's rank: the winner first (0), then by final score; equal results share a rank."""
    sides = state.rules.sides
    keys = [(0 if side == state.winner else 1, -state.scores[side]) for side in range(sides)]
    ordered = sorted(set(keys))
    return [ordered.index(key) for key in keys]


def rate(game: FinishedGame, current: Callable[[str], Rating]) -> dict[str, Rating]:
    """Return the new rating of each player of a rateable game, from ``current`` (a player's rating before)."""
    rules, state = game.state.rules, game.state
    teams: list[list[Any]] = []
    holders: list[list[tuple[str, int] | None]] = []
    for side in range(rules.sides):
        team: list[Any] = []
        held: list[tuple[str, int] | None] = []
        for seat in rules.seats_of(side):
            player = game.found.players.get(seat)
            if player is not None:
                before = current(player.id)
                team.append(model().rating(mu=before.mu, sigma=before.sigma))
                held.append((player.id, before.games))
            else:
                level = state.seats[seat].level or 3
                team.append(model().rating(mu=ANCHORS[level], sigma=ANCHOR_SIGMA))
                held.append(None)
        teams.append(team)
        holders.append(held)
    after = model().rate(teams, ranks=[float(r) for r in ranks(state)])
    changed: dict[str, Rating] = {}
    for team, held in zip(after, holders):
        for rating, holder in zip(team, held):
            if holder is not None:
                changed[holder[0]] = Rating(float(rating.mu), float(rating.sigma), holder[1] + 1)
    return changed


def statistics(game: FinishedGame) -> list[StatisticsAdded]:
    """Return what the game adds to each of its players' statistics."""
    rules = game.state.rules
    added = []
    for seat, player in sorted(game.found.players.items()):
        side = rules.side_of(seat)
        sums = dict.fromkeys(("hands", "bids_made", "bids_set", "maker_hands", "maker_points", "defender_hands",
                              "defender_points", "moons"), 0)
        for hand in game.hands:
            sums["hands"] += 1
            change = hand.changes[side] if side < len(hand.changes) else 0
            if side == hand.makers:
                sums["maker_hands"] += 1
                sums["maker_points"] += change
            else:
                sums["defender_hands"] += 1
                sums["defender_points"] += change
            if seat == hand.maker:
                sums["bids_made" if hand.bid_made else "bids_set"] += 1
                sums["moons"] += int(hand.moon and hand.bid_made)
        added.append(StatisticsAdded(player.id, game.found.family, **sums))
    return added


def shown_statistics(sums: Mapping[str, int]) -> dict[str, float | int | None]:
    """Return a player's statistics in a family as shown: counts, and points per hand as makers and defenders."""
    return {
        "hands": sums["hands"], "bids_made": sums["bids_made"], "bids_set": sums["bids_set"],
        "points_as_makers": sums["maker_points"] / sums["maker_hands"] if sums["maker_hands"] else None,
        "points_as_defenders": sums["defender_points"] / sums["defender_hands"] if sums["defender_hands"] else None,
        "moons": sums["moons"],
    }
