"""A small cluster on this machine: private PostgreSQL and Redis, N ``pitch serve`` instances, HAProxy, Celery workers.

Each part stands for a host of the production shape (docs/operations.md, "Running a
cluster"): the instances are separate ``pitch serve`` processes on ports of their own, all on
one PostgreSQL (a private cluster made with ``initdb`` in a temporary folder, with
``pg_stat_statements``) and one Redis (a private ``redis-server``: database 0 the Celery
broker, 1 the rate limits). HAProxy, from Debian's packages, balances over them with health
checks on ``/readyz`` (the same checks as ``deploy/haproxy/haproxy.cfg``), and its runtime
socket takes instances in and out. ``pitch worker`` processes move the computer seats and
run the clocks' stand-ins.

Nothing here touches the machine's own servers; every process is a child of this one, and
``Cluster.close`` ends them all. ``pitch bench cluster`` (lab/bench_cluster.py) and the
end-to-end test of an instance killed (tests/e2e/test_cluster.py) run on it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from lab.host import free_port, postgres_bin, server_user


PITCH = Path(sys.executable).with_name("pitch")
START_SECONDS = 300.0  # a cold kernel cache is compiled before a server listens
HAPROXY_MISSING = (
    "HAProxy is not installed: the cluster runs its instances behind it (apt-get install -y haproxy; .ci/run does)"
)


def haproxy_path() -> str:
    """Return the haproxy program's path; raise RuntimeError saying how to install it when it is missing."""
    found = shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if Path(p).exists()), None)
    if found is None:
        raise RuntimeError(HAPROXY_MISSING)
    return found


def _wait(check: Callable[[], bool], what: str, seconds: float, alive: Callable[[], bool] | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if alive is not None and not alive():
            raise RuntimeError(f"{what} exited")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not become ready within {seconds:.0f} s")
        time.sleep(0.1)


class Postgres:
    """A private PostgreSQL cluster in ``folder`` on a free port of 127.0.0.1, trust authentication."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.user = server_user()

    @property
    def url(self) -> str:
        """Return the URL of the service's database ``pitch``."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/pitch"

    def _run(self, *argv: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(argv, user=self.user, capture_output=True, timeout=120, cwd=self.folder)

    def start(self) -> Postgres:
        """Create the cluster, start it, and create the database ``pitch`` with pg_stat_statements."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "sockets").mkdir(exist_ok=True)
        if self.user is not None:
            shutil.chown(self.folder, self.user)
            shutil.chown(self.folder / "sockets", self.user)
        done = self._run(postgres_bin("initdb"), "-D", str(self.folder / "data"), "-U", "postgres", "--auth=trust",
                         "-E", "UTF8", "--no-sync")
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode(errors="replace"))
        options = (f"-p {self.port} -k {self.folder / 'sockets'} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=300 -c shared_preload_libraries=pg_stat_statements")
        done = self._run(postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-l", str(self.folder / "postgres.log"),
                         "-o", options, "-w", "-t", "60", "start")
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode(errors="replace") + self.log())
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as db:
            db.execute("CREATE DATABASE pitch")
        with psycopg.connect(self.dsn, autocommit=True) as db:
            db.execute("CREATE EXTENSION pg_stat_statements")
        return self

    @property
    def dsn(self) -> str:
        """Return psycopg's connection string of the database ``pitch``."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=pitch"

    def log(self) -> str:
        """Return the server's log."""
        path = self.folder / "postgres.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop the cluster at once and remove its files."""
        if (self.folder / "data" / "postmaster.pid").exists():
            self._run(postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """A private ``redis-server`` on a free port of 127.0.0.1, persisting nothing."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int) -> str:
        """Return the URL of database ``db``."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> Redis:
        """Start the server and wait until it accepts connections."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
                 "--dir", str(self.folder)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        _wait(lambda: _accepts(self.port), "redis-server", 30, lambda: self.process is not None and self.process.poll() is None)
        return self

    def stop(self) -> None:
        """Kill the server."""
        _end(self.process, signal.SIGKILL)


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _ready(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def _end(process: subprocess.Popen[bytes] | None, how: signal.Signals = signal.SIGTERM, wait: float = 60) -> None:
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, how)  # the process and its children (gunicorn's workers, Celery's pool)
    except ProcessLookupError:
        return
    try:
        process.wait(wait)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


class Instance:
    """One ``pitch serve`` process (a host's API server) on a port of its own."""

    def __init__(self, name: str, folder: Path, env: dict[str, str], workers: int = 1) -> None:
        self.name = name
        self.folder = folder
        self.port = free_port()
        self.env = env
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        """Return the instance's own URL (the balancer's clients never use it)."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server (again, on the same port)."""
        self.starts += 1
        with open(self.folder / f"{self.name}.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(PITCH), "serve", "--port", str(self.port), "--workers", str(self.workers)],
                cwd=self.folder, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )

    def wait_ready(self) -> None:
        """Wait until the instance's ``/readyz`` answers 200."""
        _wait(lambda: _ready(self.base), f"instance {self.name}", START_SECONDS,
              lambda: self.process is not None and self.process.poll() is None)

    def kill(self) -> None:
        """SIGKILL the instance, its master and workers at once, as a host that dies."""
        _end(self.process, signal.SIGKILL)

    def stop(self) -> None:
        """Stop the instance as a supervisor does (SIGTERM: it drains, then stops)."""
        _end(self.process, signal.SIGTERM)

    @property
    def alive(self) -> bool:
        """Tell whether the instance's process runs."""
        return self.process is not None and self.process.poll() is None


HAPROXY_CONFIG = """\
# Written by lab/cluster.py: deploy/haproxy/haproxy.cfg's checks and timeouts, with this cluster's ports.
global
    maxconn 4000
    stats socket {socket} mode 600 level admin
    log stderr format raw local0 err

defaults
    mode http
    log global
    option httplog
    option redispatch
    retries 3
    retry-on conn-failure empty-response response-timeout
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    timeout queue 30s

frontend pitch
    bind 127.0.0.1:{port}
    option forwardfor
    default_backend api

backend api
    balance leastconn
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
{servers}
"""


class Balancer:
    """HAProxy in front of the instances, with a runtime socket to take them in and out."""

    def __init__(self, folder: Path, instances: list[Instance]) -> None:
        self.folder = folder
        self.port = free_port()
        self.instances = instances
        self.socket = folder / "haproxy.sock"
        self.config = folder / "haproxy.cfg"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """Return the URL the clients use."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Write the config and start HAProxy in the foreground."""
        program = haproxy_path()
        servers = "\n".join(f"    server {i.name} 127.0.0.1:{i.port} check" for i in self.instances)
        self.config.write_text(HAPROXY_CONFIG.format(socket=self.socket, port=self.port, servers=servers))
        with open(self.folder / "haproxy.log", "ab") as log:
            self.process = subprocess.Popen([program, "-db", "-f", str(self.config)], stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        _wait(lambda: _accepts(self.port) and self.socket.exists(), "haproxy", 30,
              lambda: self.process is not None and self.process.poll() is None)

    def command(self, line: str) -> str:
        """Send one command to HAProxy's runtime socket; return its answer."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(self.socket))
            sock.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")

    def only(self, count: int) -> None:
        """Send traffic to the first ``count`` instances only."""
        for index, instance in enumerate(self.instances):
            self.command(f"{'enable' if index < count else 'disable'} server api/{instance.name}")

    def up(self) -> set[str]:
        """Return the names of the instances HAProxy sends traffic to now."""
        found = set()
        for line in self.command("show servers state api").splitlines()[2:]:
            fields = line.split()
            if len(fields) > 5 and fields[5] == "2":  # srv_op_state 2: running
                found.add(fields[3])
        return found

    def stop(self) -> None:
        """Stop HAProxy."""
        _end(self.process, signal.SIGTERM, 10)


class Worker:
    """One ``pitch worker`` (Celery) process."""

    def __init__(self, name: str, folder: Path, env: dict[str, str], concurrency: int = 1) -> None:
        self.name = name
        self.folder = folder
        self.env = env
        self.concurrency = concurrency
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the worker."""
        with open(self.folder / f"{self.name}.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(PITCH), "worker", "--concurrency", str(self.concurrency), "--pool", "prefork", "-n", f"{self.name}@%h"],
                cwd=self.folder, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )

    def wait_ready(self) -> None:
        """Wait until the worker says it is ready (Celery's ``ready`` line)."""
        log = self.folder / f"{self.name}.log"
        _wait(lambda: log.exists() and "ready." in log.read_text(errors="replace"), f"worker {self.name}", START_SECONDS,
              lambda: self.process is not None and self.process.poll() is None)

    def stop(self) -> None:
        """Stop the worker (warm shutdown)."""
        _end(self.process, signal.SIGTERM, 30)


class Cluster:
    """The whole set: one PostgreSQL, one Redis, ``instances`` API servers behind HAProxy, ``workers`` Celery workers."""

    def __init__(self, folder: Path, instances: int, workers: int, drain_seconds: float = 2.0,
                 extra: dict[str, str] | None = None) -> None:
        self.folder = folder
        # Under /tmp, not in ``folder``: PostgreSQL's user (root may not run it) must reach its folder.
        self.postgres = Postgres(Path(tempfile.mkdtemp(prefix="pitch-cluster-postgres-")))
        self.redis = Redis(folder / "redis")
        self.instance_count = instances
        self.worker_count = workers
        self.drain_seconds = drain_seconds
        self.extra = extra or {}
        self.instances: list[Instance] = []
        self.workers: list[Worker] = []
        self.balancer: Balancer | None = None

    def env(self) -> dict[str, str]:
        """Return the environment of the service's processes."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
        env.update(
            PITCH_DATABASE_URL=self.postgres.url, PITCH_BROKER_URL=self.redis.url(0), PITCH_LIMITS_URL=self.redis.url(1),
            PITCH_PROXY_HOPS="1", PITCH_DRAIN_SECONDS=str(self.drain_seconds), PITCH_LOG_LEVEL="warning",
            PITCH_WRITE_RATE="2000", PITCH_WRITE_BURST="4000", PITCH_JOB_LEASE="4",
        )
        env.update(self.extra)
        return env

    def start(self) -> Cluster:
        """Start every part and wait until each is ready; the balancer last, with every instance up."""
        haproxy_path()  # fail first, and clearly, when the balancer is missing
        self.folder.mkdir(parents=True, exist_ok=True)
        self.postgres.start()
        self.redis.start()
        from service.store.migrate import upgrade

        upgrade(self.postgres.url)
        env = self.env()
        self.instances = [Instance(f"api{i + 1}", self.folder, env) for i in range(self.instance_count)]
        worker_env = {**env, "PITCH_LOG_LEVEL": "info"}  # its "ready." line says it takes jobs
        self.workers = [Worker(f"worker{i + 1}", self.folder, worker_env) for i in range(self.worker_count)]
        parts: list[Instance | Worker] = [*self.instances, *self.workers]
        for part in parts:
            part.start()
        for part in parts:
            part.wait_ready()
        self.balancer = Balancer(self.folder, self.instances)
        self.balancer.start()
        _wait(lambda: self.balancer is not None and len(self.balancer.up()) == self.instance_count, "the balancer's checks", 30)
        return self

    def close(self) -> None:
        """End every process and the private servers."""
        if self.balancer is not None:
            self.balancer.stop()
        for instance in self.instances:
            instance.kill()
        for worker in self.workers:
            _end(worker.process, signal.SIGKILL)
        self.redis.stop()
        self.postgres.stop()

    def logs(self) -> str:
        """Return the tail of every log, for a failure's message."""
        parts = [f"== postgres.log\n{self.postgres.log()[-3000:]}"]
        for path in sorted(self.folder.glob("*.log")):
            parts.append(f"== {path.name}\n{path.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
