"""Warming the Monte Carlo players' compiled kernels, and numba's on-disk cache of them.

``warm_fast_simulator`` compiles the fast simulator (or loads it from numba's cache) before
the first job needs it.

numba stores each compiled function beside its module (``domain/ai/fastsim/__pycache__``)
and checks only that module's file before reusing it; a function that calls compiled
code in another module (batch.py and fromdeal.py call kernel.py, fromdeal.py calls
discards.py and auction.py) would keep the old callee after an edit. So before the
kernels are warmed, the cached functions are thrown away whenever any of the simulator's
sources changed since they were cached (a digest of them is kept beside the cache).
With ``NUMBA_CACHE_DIR`` set the cache lives elsewhere and is left alone.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from domain.ai import fastsim

log = logging.getLogger(__name__)

STAMP = "fastsim-sources.sha256"


def sources_digest(folder: Path) -> str:
    """Return a digest of the simulator's Python sources in ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def refresh_kernel_cache(folder: Path | None = None) -> bool:
    """Drop numba's cached kernels when the simulator's sources changed; return whether it did."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    source = folder or Path(fastsim.__file__).parent
    cache = source / "__pycache__"
    digest = sources_digest(source)
    stamp = cache / STAMP
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    try:
        for path in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:  # a read-only install: numba then compiles in memory, which is correct too
        log.warning("could not refresh the fast simulator's cache in %s", cache)
    return True


def warm_fast_simulator() -> None:
    """Compile (or load from cache) the fast simulator's kernels; a failure only delays the first rollout."""
    try:
        refresh_kernel_cache()
        fastsim.warm()
    except Exception:  # a background thread's outermost guard: rollouts compile it on first use anyway
        log.exception("warming the fast simulator failed; it will compile on first use")
