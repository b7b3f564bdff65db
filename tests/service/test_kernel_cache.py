"""The fast simulator's numba cache is dropped when any of its sources changes (service/jobs/warm.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.jobs.warm import STAMP, refresh_kernel_cache


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


def test_a_cache_kept_elsewhere_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    (tmp_path / "kernel.py").write_text("A = 1\n")
    assert not refresh_kernel_cache(tmp_path)
