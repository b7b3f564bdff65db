"""Players: names and tokens, the seats they hold, their games, ratings and statistics (docs/players.md).

- service.py: ``PlayerService``: make a player, rotate its token, know a token's player,
  a player's page, a player's games and the search of games;
- ratings.py, statistics.py, projection.py: the ratings and statistics, projections of the
  event feed kept exactly once per game.
"""

from service.players.service import CreatedPlayer, PlayerService

__all__ = ["CreatedPlayer", "PlayerService"]
