"""Run the solver's tests on a search compiled from the current sources.

numba reuses a cached function while its own module is unchanged, even when a module it
inlines was edited (service/jobs/warm.py): the search inlines the fast simulator's rules
of play, so its cache is dropped whenever a simulator source is newer than it.
"""

from __future__ import annotations

from pathlib import Path

from service.jobs.warm import cache_folder, fastsim_folder, refresh_kernel_cache

refresh_kernel_cache()
_ANALYSIS = Path(__file__).resolve().parents[3] / "domain" / "analysis"
_cache = cache_folder(_ANALYSIS)
_newest = max(path.stat().st_mtime for path in fastsim_folder().glob("*.py"))
for _path in list(_cache.glob("*.nbi")) + list(_cache.glob("*.nbc")):
    if _path.stat().st_mtime < _newest:
        _path.unlink(missing_ok=True)
