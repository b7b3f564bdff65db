"""Warming the fast simulator's compiled kernels, and numba's on-disk cache of them: where it is, kept in step with the sources, filled ahead of serving.

- Where. numba caches each compiled function beside its module
  (``domain/ai/fastsim/__pycache__``) when that folder is writable, else in the folder
  ``NUMBA_CACHE_DIR`` names. An installed package is often read-only to the user that
  runs it (a container image, a package owned by root): the image and the systemd units
  set ``NUMBA_CACHE_DIR`` (docs/operations.md, "Kernels and readiness"). When it is unset there, the entry points
  (``pitch serve``, ``pitch worker``, ``pitch compile``, the gunicorn config) set it to a
  folder of the user's own, or of the temporary directory, and say so in the log
  (``prepare_kernel_cache``); a bare ``create_app`` on such an install still works, its
  kernels compiled in memory (domain/ai/fastsim/kernel.py).
- In step. numba checks only a function's own module before reusing it; a function that
  calls compiled code in another module (batch.py and fromdeal.py call kernel.py,
  fromdeal.py calls discards.py and auction.py) would keep the old callee after an edit
  or an upgrade. So before the kernels are warmed, the cached functions are thrown away
  whenever any of the simulator's sources changed since they were cached (a digest of
  them is kept beside the cache, wherever it is).
- Ahead of serving. A cold compile takes about a minute of CPU. ``compile_ahead`` runs it
  in a child process (``python -P -m service.jobs.warm``) before gunicorn forks its
  workers and before ``pitch worker`` starts Celery, so the processes that serve load the
  kernels from the cache in a second, and ``/readyz`` answers 200 only from a process
  whose computer players are ready to move.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

STAMP = "fastsim-sources.sha256"
CACHE_ENV = "NUMBA_CACHE_DIR"


class KernelCacheError(RuntimeError):
    """The kernels could not be compiled ahead of serving, or NUMBA_CACHE_DIR cannot be written."""


def fastsim_folder() -> Path:
    """Return the folder of the fast simulator's sources, without importing it (nor numba)."""
    spec = importlib.util.find_spec("domain.ai.fastsim")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent


def cache_folder(source: Path, cache_dir: str | None = None) -> Path:
    """Return the folder where numba caches the functions of the modules in ``source``.

    With ``NUMBA_CACHE_DIR`` set, numba names it after the source folder: its last part
    and the SHA-1 of its absolute path (numba's ``get_suitable_cache_subpath``; a test
    compiles a function and finds it there).
    """
    cache_dir = os.environ.get(CACHE_ENV) if cache_dir is None else cache_dir
    if not cache_dir:
        return source / "__pycache__"
    absolute = os.path.abspath(source)
    return Path(cache_dir) / f"{os.path.basename(absolute)}_{hashlib.sha1(absolute.encode()).hexdigest()}"


def is_writable(folder: Path) -> bool:
    """Tell whether files can be made in ``folder`` (made if missing), as numba tries it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def prepare_kernel_cache() -> Path:
    """Make sure numba has a writable cache for the kernels, setting NUMBA_CACHE_DIR if need be; return its folder.

    Call it before anything imports the fast simulator. Raise KernelCacheError when
    NUMBA_CACHE_DIR names a folder that cannot be written.
    """
    source = fastsim_folder()
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        if not is_writable(Path(chosen)):
            raise KernelCacheError(f"{CACHE_ENV}={chosen} is not a folder this user can write to")
    elif not is_writable(source / "__pycache__"):
        home_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        candidates = [home_cache / "pitch" / "numba", Path(tempfile.gettempdir()) / f"pitch-numba-{os.getuid()}"]
        chosen = str(next((c for c in candidates if is_writable(c)), candidates[-1]))
        os.environ[CACHE_ENV] = chosen
        log.warning(
            "the package folder %s is not writable and %s is unset: the fast simulator's compiled kernels "
            "are cached in %s (set %s to a lasting folder of this user's)", source, CACHE_ENV, chosen, CACHE_ENV,
        )
    if "numba" in sys.modules:  # numba reads its settings when first imported
        from numba.core import config

        config.reload_config()  # type: ignore[no-untyped-call]
    return cache_folder(source)


def sources_digest(folder: Path) -> str:
    """Return a digest of the simulator's Python sources in ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_folders() -> tuple[Path, ...]:
    """Return the folders whose modules numba compiles: the fast simulator and the open-hand search, which inlines the simulator's functions."""
    spec = importlib.util.find_spec("domain.analysis")
    assert spec is not None and spec.origin is not None
    return fastsim_folder(), Path(spec.origin).parent


def refresh_kernel_cache(folder: Path | None = None) -> bool:
    """Drop numba's cached kernels when the compiled sources changed; return whether it did.

    Without ``folder``, every compiled folder is refreshed against a digest of them all: a
    function of one that inlines a function of another is stale when either changes.
    """
    folders = (folder,) if folder is not None else compiled_folders()
    digest = hashlib.sha256("".join(sources_digest(source) for source in folders).encode()).hexdigest()
    changed = False
    for source in folders:
        changed = _refresh(cache_folder(source), digest) or changed
    return changed


def _refresh(cache: Path, digest: str) -> bool:
    stamp = cache / STAMP
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    try:
        for path in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            path.unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:  # nowhere to write: numba then compiles in memory, which is correct too
        log.warning("could not refresh the compiled kernels' cache in %s", cache)
    return True


def warm_fast_simulator() -> None:
    """Compile (or load from cache) the fast simulator's kernels; a failure only delays the first rollout."""
    try:
        log.info("the fast simulator's kernels are loaded (%.1f s)", compile_kernels())
    except Exception:  # a background thread's outermost guard: rollouts compile it on first use anyway
        log.exception("warming the fast simulator failed; it will compile on first use")


def compile_kernels() -> float:
    """Compile the fast simulator's kernels (or load them from the cache) in this process; return the seconds it took."""
    started = time.monotonic()
    refresh_kernel_cache()
    from domain.ai import fastsim

    fastsim.warm()
    return time.monotonic() - started


def compile_ahead() -> None:
    """Fill the kernels' cache from a child process, so that the processes started next load them at once.

    Raise KernelCacheError when the child fails (its output is in the log).
    """
    folder = prepare_kernel_cache()
    log.info("compiling the fast simulator's kernels before serving (cached in %s)", folder)
    started = time.monotonic()
    # -P: the working folder is not put on the child's path, so it imports the very package this
    # process runs (a source tree in the working folder would be another path, another cache).
    done = subprocess.run([sys.executable, "-P", "-m", "service.jobs.warm"], capture_output=True, text=True)
    if done.returncode != 0:
        log.error("compiling the fast simulator failed:\n%s", done.stderr)
        raise KernelCacheError(f"compiling the fast simulator's kernels failed (exit status {done.returncode})")
    log.info("the fast simulator's kernels are ready (%.1f s)", time.monotonic() - started)


if __name__ == "__main__":
    prepare_kernel_cache()
    compile_kernels()
