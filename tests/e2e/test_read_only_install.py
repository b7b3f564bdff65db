"""The package installed read-only and run by a user who may not write to it, nor to a home folder:
as a container image runs it (user pitch, packages owned by root) and a systemd unit with
``ProtectSystem=strict``.

The packages are copied to a folder that is then made read-only, and a Python with that
folder first on its path imports them. Run as root, the child drops the capabilities that
let root write anywhere (``setpriv``), so the folder's permissions hold for it too.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.jobs.warm import cache_folder

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "service", "workers", "migrations")
AS_UNPRIVILEGED = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"] if os.geteuid() == 0 else []
)
CHECK_READ_ONLY = """
import pathlib, service, sys
installed = pathlib.Path(service.__file__).parents[1]
assert str(installed) == sys.argv[1], (installed, sys.argv[1])
try:
    (installed / "domain" / "ai" / "fastsim" / "__pycache__").mkdir()
except PermissionError:
    pass
else:
    raise SystemExit("the package folder is writable: this test would prove nothing")
"""


@pytest.fixture(scope="module")
def installed() -> Iterator[Path]:
    """A read-only copy of the packages (under /tmp: every user may reach it)."""
    folder = Path(tempfile.mkdtemp(prefix="pitch-read-only-"))
    folder.chmod(0o755)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [folder, *folder.rglob("*")]:
        path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(stat.S_IMODE(path.stat().st_mode) | 0o200)
        shutil.rmtree(folder)


def _run(installed: Path, script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PITCH_", "PROMETHEUS_", "NUMBA_", "XDG_")) and k not in ("HOME", "TMPDIR")}
    # HOME is the read-only folder itself: numba finds no user-wide cache there either.
    clean.update(PYTHONPATH=str(installed), HOME=str(installed), TMPDIR=str(tmp_path / "tmp"), **env)
    (tmp_path / "tmp").mkdir(exist_ok=True)  # the child's user owns tmp_path: root, or the one running the tests
    argv = [*AS_UNPRIVILEGED, sys.executable, "-c", CHECK_READ_ONLY + script, str(installed)]
    done = subprocess.run(argv, cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.e2e
def test_create_app_serves_from_a_read_only_install_with_no_cache_folder(installed: Path, tmp_path: Path) -> None:
    script = f"""
import numpy as np
from domain.ai.fastsim.dealer import uniform
assert 0 <= uniform(np.ones(1, dtype=np.uint64)) < 1  # compiled in memory: there is nowhere to cache it
from service.api import create_app
from service.config import Settings
app = create_app(settings=Settings(database_url="sqlite:///{tmp_path}/pitch.db"))
assert app.test_client().get("/healthz").status_code == 200
"""
    _run(installed, script, tmp_path)


@pytest.mark.e2e
def test_the_kernels_are_cached_in_numba_cache_dir(installed: Path, tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    script = """
import numpy as np
from service.jobs.warm import prepare_kernel_cache
prepare_kernel_cache()
from domain.ai.fastsim.dealer import uniform
uniform(np.ones(1, dtype=np.uint64))
"""
    _run(installed, script, tmp_path, NUMBA_CACHE_DIR=str(cache))
    folder = cache_folder(installed / "domain" / "ai" / "fastsim", str(cache))
    assert list(folder.glob("dealer.uniform-*.nbi")), sorted(cache.rglob("*"))


@pytest.mark.e2e
def test_with_no_numba_cache_dir_the_entry_points_choose_a_writable_one_and_say_so(
    installed: Path, tmp_path: Path,
) -> None:
    script = """
import logging, os
import numpy as np
logging.basicConfig(level=logging.WARNING)
from service.jobs.warm import prepare_kernel_cache
print(prepare_kernel_cache())
print(os.environ["NUMBA_CACHE_DIR"])
from domain.ai.fastsim.dealer import uniform
uniform(np.ones(1, dtype=np.uint64))
"""
    done = _run(installed, script, tmp_path)
    folder, chosen = done.stdout.split()
    assert Path(chosen).parent == tmp_path / "tmp", chosen  # the home folder is not writable: the temporary one
    assert "is not writable and NUMBA_CACHE_DIR is unset" in done.stderr
    assert list(Path(folder).glob("dealer.uniform-*.nbi"))
