"""One line describing the machine a figure was measured on (benchmarks print it)."""

from __future__ import annotations

import os
import platform


def processor() -> str:
    """Return the processor's model name (from /proc/cpuinfo on Linux), or what platform knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def describe() -> str:
    """Return the machine: architecture, Python, processor, cores and load average."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{processor()}, {os.cpu_count()} cores, load {load}"
    )


def processes(count: int) -> str:
    """Return "1 process" or "N processes"."""
    return f"{count} process" if count == 1 else f"{count} processes"
