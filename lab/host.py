"""What this machine offers the private servers the cluster and the fault tests start: a free port, PostgreSQL's
programs, and the user a server runs as.

Nothing here starts anything; lab/cluster.py and tests/faults/outages.py start their own
PostgreSQL and Redis with these.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
from pathlib import Path


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def postgres_bin(name: str) -> str:
    """Return the path of the PostgreSQL program ``name`` (Debian's newest, else the one on PATH)."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
    for folder in versions:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found


def server_user() -> str | None:
    """Return the user a PostgreSQL server runs as when this process is root (it refuses root), else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root, PostgreSQL needs a 'postgres' or 'nobody' user")
