"""PostgreSQL and Redis servers of the fault tests' own, in a temporary directory, to stop and start.

The fault tests crash, restart and freeze their database and broker. They never touch the
machine's servers, which a developer's database and every other test on the machine use:
``PrivatePostgres`` runs ``initdb`` and ``pg_ctl`` on a data directory of its own and
``PrivateRedis`` a ``redis-server`` child process, each on a free port of 127.0.0.1, and
every stop, kill, freeze and restart acts on that directory or that process only. A
frozen Redis (SIGSTOP) still accepts connections, in the kernel's backlog, and never
answers: a hung broker. ``BlackHole`` is a port that accepts connections and never
answers either, as a black-holed network path does.

PostgreSQL refuses to run as root: under root the cluster belongs to the ``postgres``
user (or ``nobody``), and its commands run as that user.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from lab.host import free_port, postgres_bin, server_user


READY_WAIT = 60.0


class PrivatePostgres:
    """A PostgreSQL cluster in ``folder``, listening on 127.0.0.1:``port`` only, trust authentication."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.sockets = folder / "sockets"
        self.port = free_port()
        self.user = server_user()

    @property
    def admin_url(self) -> str:
        """Return the URL of the cluster's maintenance database, as its superuser ``postgres``."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(argv, user=self.user, capture_output=True, timeout=timeout, cwd=self.folder)

    def create(self) -> PrivatePostgres:
        """Create the cluster and start it; return it once it accepts connections."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        if self.user is not None:
            for path in (self.folder, self.sockets):
                shutil.chown(path, self.user)
        done = self._run(postgres_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                         "-E", "UTF8", "--no-sync")
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        self.start()
        return self

    def start(self) -> None:
        """Start the cluster unless it runs, and wait until it accepts connections."""
        if not self.ready():
            options = (f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                       "-c max_connections=200")
            self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "postgres.log"),
                      "-o", options, "-w", "-t", str(int(READY_WAIT)), "start")
        deadline = time.monotonic() + READY_WAIT
        while not self.ready():
            assert time.monotonic() < deadline, f"PostgreSQL did not start within {READY_WAIT:.0f} s:\n{self.log()}"
            time.sleep(0.1)

    def stop(self, mode: str = "immediate") -> None:
        """Stop the cluster (``immediate``: as a crash would, no checkpoint, every connection cut)."""
        done = self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", timeout=60)
        assert done.returncode == 0 or not self.ready(), done.stderr.decode(errors="replace")

    def ready(self) -> bool:
        """Tell whether the cluster accepts connections on its port."""
        done = subprocess.run([postgres_bin("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)], timeout=30)
        return done.returncode == 0

    def log(self) -> str:
        """Return the server's log."""
        path = self.folder / "postgres.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def destroy(self) -> None:
        """Stop the cluster (fast) and remove its files."""
        if (self.data / "postmaster.pid").exists():
            self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivateRedis:
    """A ``redis-server`` child process on 127.0.0.1:``port``, persisting nothing."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        """Return the broker URL of database ``db``."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> PrivateRedis:
        """Start the server unless it runs, and wait until it answers a PING."""
        if self.process is None or self.process.poll() is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(self.folder / "redis.log", "ab") as log:
                self.process = subprocess.Popen(
                    ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                     "--appendonly", "no", "--dir", str(self.folder)],
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                )
        deadline = time.monotonic() + READY_WAIT
        while not self.ready():
            assert self.process.poll() is None, (self.folder / "redis.log").read_text(errors="replace")
            assert time.monotonic() < deadline, f"Redis did not start within {READY_WAIT:.0f} s"
            time.sleep(0.05)
        return self

    def freeze(self) -> None:
        """Stop the server's process where it is (SIGSTOP): it keeps its port and answers nothing until thawed."""
        assert self.process is not None and self.process.poll() is None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen server run again (SIGCONT); it answers what it was sent meanwhile."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Kill the server: every queued message is lost with it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def ready(self) -> bool:
        """Tell whether the server answers a PING (at once: the client's own retries would take seconds)."""
        client = redis.Redis(
            host="127.0.0.1", port=self.port, socket_connect_timeout=1, socket_timeout=1, retry=Retry(NoBackoff(), 0),
        )
        try:
            return bool(client.ping())
        except redis.exceptions.RedisError:
            return False
        finally:
            client.close()


class BlackHole:
    """A port of 127.0.0.1 that accepts every connection and never sends a byte, until closed."""

    def __init__(self) -> None:
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self.port: int = self._listener.getsockname()[1]
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, name="black-hole", daemon=True)
        self._thread.start()

    def url(self, scheme: str = "redis", path: str = "/0") -> str:
        """Return a URL naming the hole, as a broker's."""
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:  # closed
                return
            self._held.append(connection)  # kept open, never read or written

    def close(self) -> None:
        """Stop listening and drop every connection."""
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        except OSError:
            pass
        self._listener.close()
        self._thread.join(5)
        for connection in self._held:
            connection.close()

    def __enter__(self) -> BlackHole:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
