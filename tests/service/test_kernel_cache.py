"""The fast simulator's numba cache is dropped when any of its sources changes, wherever it is kept
(service/jobs/warm.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.jobs.warm import (
    STAMP, KernelCacheError, cache_folder, fastsim_folder, prepare_kernel_cache, refresh_kernel_cache,
)


def test_cached_kernels_are_dropped_when_any_source_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "kernel.py").write_text("A = 1\n")
    (tmp_path / "batch.py").write_text("B = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    compiled = [cache / "batch.play_deals-50.py311.nbi", cache / "batch.play_deals-50.py311.1.nbc"]
    other = cache / "batch.cpython-311.pyc"
    for path in compiled + [other]:
        path.write_bytes(b"x")
    assert refresh_kernel_cache(tmp_path)  # no stamp yet: nothing cached is trusted
    assert not any(p.exists() for p in compiled) and other.exists() and (cache / STAMP).exists()
    for path in compiled:
        path.write_bytes(b"x")
    assert not refresh_kernel_cache(tmp_path)  # the sources are those the cache was made from
    assert all(p.exists() for p in compiled)
    (tmp_path / "kernel.py").write_text("A = 2\n")  # a callee changed: its callers' caches are stale
    assert refresh_kernel_cache(tmp_path)
    assert not any(p.exists() for p in compiled)


def test_a_cache_kept_in_numba_cache_dir_is_dropped_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, elsewhere = tmp_path / "fastsim", tmp_path / "elsewhere"
    source.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(elsewhere))
    (source / "kernel.py").write_text("A = 1\n")
    cache = cache_folder(source)
    assert cache.parent == elsewhere
    assert refresh_kernel_cache(source) and (cache / STAMP).exists()
    compiled = cache / "kernel.playout-9.py311.nbi"
    compiled.write_bytes(b"x")
    assert not refresh_kernel_cache(source) and compiled.exists()
    (source / "kernel.py").write_text("A = 2\n")  # an upgrade: the cache kept across it is stale
    assert refresh_kernel_cache(source) and not compiled.exists()
    assert not (source / "__pycache__").exists()


def test_numba_caches_a_kernel_in_the_folder_cache_folder_names(tmp_path: Path) -> None:
    """The folder ``cache_folder`` computes is the one numba writes to (its naming is numba's own)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    script = "import numpy as np; from domain.ai.fastsim.dealer import uniform; uniform(np.ones(1, dtype=np.uint64))"
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=300)
    assert list(cache_folder(fastsim_folder(), str(tmp_path)).glob("dealer.uniform-*.nbi"))


def test_an_unwritable_numba_cache_dir_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    with pytest.raises(KernelCacheError, match="NUMBA_CACHE_DIR"):
        prepare_kernel_cache()
