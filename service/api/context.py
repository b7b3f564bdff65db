"""What the routes serve with, in one typed place: the process's services, its live streams and its metrics.

``create_app`` (service/api/__init__.py) keeps one ``Serving`` in the app; a route reaches
it through ``serving()`` (or ``services()``), never through a string key of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from service.bootstrap import Services
from service.metrics import PrometheusMetrics
from service.streams import StreamHub

_KEY = "pitch"


class Drain:
    """Whether the server this process serves for is draining (told to stop, still serving): a file its gunicorn
    master creates then (service/server/hooks.py), which ``/readyz`` looks for."""

    def __init__(self) -> None:
        self.path: Path | None = None

    def watch(self, path: Path) -> None:
        """Look for ``path`` from now on."""
        self.path = path

    @property
    def is_draining(self) -> bool:
        """Tell whether the server is draining."""
        return self.path is not None and self.path.exists()


@dataclass(frozen=True, slots=True)
class Serving:
    """The app's services, the streams it serves from them, the metrics it counts, and whether it drains."""

    services: Services
    streams: StreamHub
    metrics: PrometheusMetrics
    drain: Drain = field(default_factory=Drain)


def keep(app: Flask, serving: Serving) -> None:
    """Keep ``serving`` in ``app`` for its routes."""
    app.extensions[_KEY] = serving


def kept(extensions: Mapping[str, Any]) -> Serving | None:
    """Return the ``Serving`` an app's ``extensions`` keep (None: not an app ``create_app`` built)."""
    found = extensions.get(_KEY)
    return found if isinstance(found, Serving) else None


def serving() -> Serving:
    """Return what the current app serves with."""
    found: Serving = current_app.extensions[_KEY]
    return found


def services() -> Services:
    """Return the current app's services."""
    return serving().services
