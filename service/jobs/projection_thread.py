"""The players' projection run by a thread of the server, when jobs run in the server (the embedded default).

Every ``every`` seconds the thread counts what the feed holds beyond the projection's
position (service/players/projection.py), until it has caught up. With a broker, ``pitch
ratings run`` is the process that does it. Two of them at once (several server processes,
or a server and a command) do not double a game: a batch stored by one voids the other's.
"""

from __future__ import annotations

import logging
import threading

from service.players.projection import PlayersProjection
from service.ports.events import StoreError
from service.ports.players import ProjectionMovedError

log = logging.getLogger(__name__)


class ProjectionThread:
    """A daemon thread keeping the players' projection caught up with the feed."""

    def __init__(self, projection: PlayersProjection, every: float = 1.0) -> None:
        self.projection = projection
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread, unless it runs."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pitch-projection", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the thread (after its batch in hand)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
            try:
                self.projection.release()
            except StoreError:
                log.warning("the players' projection could not give up its lease; it ends when it expires", exc_info=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.projection.run_until_caught_up()
            except ProjectionMovedError:
                continue  # another process counted that batch: read on from where it stopped
            except StoreError:
                log.warning("the players' projection could not read or store; it tries again", exc_info=True)
