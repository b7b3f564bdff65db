"""Waiting for a condition, with a deadline: a fault test fails, never hangs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

WAIT = 90.0


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT, every: float = 0.05) -> Any:
    """Return ``check()``'s first true answer, asked every ``every`` seconds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")
