"""``pitch bench stream`` end to end, tiny: 20 streams, one player, two rounds. Its figures are printed,
not judged (speed is measured by the command, never asserted in tests); what is checked is
that every stream opened, every delivery expected was made (through the gevent workers'
stream writer), and no error was met.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.e2e
def test_a_tiny_run_opens_every_stream_and_makes_every_delivery() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    run = subprocess.run(
        [str(Path(sys.executable).with_name("pitch")), "bench", "stream", "--subscribers", "20", "--players", "1",
         "--actions", "80", "--rounds", "2", "--pace", "0.05"],
        env=env, capture_output=True, text=True, timeout=600,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "streams: 20 of 20 open" in out and "at niceness 10" in out, out
    made = re.search(r"\(([\d,]+) of ([\d,]+) deliveries", out)
    assert made is not None and made.group(1) == made.group(2) and made.group(1) != "0", out
    assert "error:" not in out, out
    assert re.search(r"action p99 with the streams open / without: \d+\.\d\d", out), out
