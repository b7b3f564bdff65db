"""Every line the service writes is a JSON log line (docs/operations.md "Logs"), whoever logs it.

A library's logger that does not propagate and has no handler of its own (billiard's
``multiprocessing`` logger, which reports a Celery pool process that died) falls back on
logging's last resort; that fallback writes JSON too, as the root's handler does.
"""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import logging
from service.logs import configure_logging
configure_logging("info")
lonely = logging.getLogger("multiprocessing")
lonely.propagate = False
lonely.error("Process %r pid:%r exited with %r", "ForkPoolWorker-1", 42, "signal 15 (SIGTERM)")
logging.getLogger("service.test").info("through the root")
"""


def test_a_logger_without_a_handler_of_its_own_writes_json_lines() -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]  # each line is JSON, or this fails
    assert [(e["logger"], e["level"]) for e in entries] == [("multiprocessing", "error"), ("service.test", "info")]
    assert entries[0]["message"] == "Process 'ForkPoolWorker-1' pid:42 exited with 'signal 15 (SIGTERM)'"
