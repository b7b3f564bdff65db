"""Run the computer players' tests on kernels compiled from the current sources.

numba reuses a cached kernel while its own module is unchanged, even when a module it
calls was edited (service/jobs/warm.py); the tests must never run stale code.
"""

from __future__ import annotations

from service.jobs.warm import refresh_kernel_cache

refresh_kernel_cache()
