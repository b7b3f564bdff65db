"""JSON log lines, each carrying the request id of the request (or job) it belongs to.

A request's id is the ``X-Request-Id`` it came with (when it is 1-128 characters of
letters, digits and ``._:-``) or a new one; it is answered in the ``X-Request-Id``
header, set in a context variable for as long as the request runs, stored in the request
JSON of every job the request causes, and set again while that job runs, so one id
follows a click through the API, the jobs table and the worker that ran the job.

``configure_logging`` is called by the entry points only (``pitch serve``, gunicorn's
config, ``pitch worker``); importing this module changes nothing.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

REQUEST_ID_HEADER = "X-Request-Id"
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("pitch_request_id", default=None)

# Attributes every LogRecord has; anything else passed with extra= goes into the line.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "request_id"}


def current_request_id() -> str | None:
    """Return the id of the request (or job) this thread is working for, if any."""
    return _request_id.get()


def accept_request_id(sent: str | None) -> str:
    """Return the client's request id when it is well formed, else a new one."""
    if sent is not None and _VALID_ID.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


def bind_request_id(request_id: str | None) -> contextvars.Token[str | None]:
    """Make ``request_id`` the current one; return the token that restores the previous."""
    return _request_id.set(request_id)


def unbind_request_id(token: contextvars.Token[str | None]) -> None:
    """Restore the request id that was current before ``bind_request_id``."""
    _request_id.reset(token)


@contextmanager
def request_id_bound(request_id: str | None) -> Iterator[None]:
    """Run the block with ``request_id`` as the current request id."""
    token = bind_request_id(request_id)
    try:
        yield
    finally:
        unbind_request_id(token)


class RequestIdFilter(logging.Filter):
    """Adds the current request id to every record as ``request_id``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = _request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object: time, level, logger, message, request id, extras."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or _request_id.get(),
            "pid": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def json_line(level: str, logger: str, message: str) -> str:
    """Return one log line, as JsonFormatter writes it, for a message written without logging."""
    return json.dumps({
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "level": level, "logger": logger,
        "message": message, "request_id": None, "pid": os.getpid(),
    }, ensure_ascii=False)


def configure_logging(level: str = "info") -> None:
    """Send every log line (ours, gunicorn's, Celery's, and warnings) to stderr as JSON, at ``level``."""
    logging.captureWarnings(True)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # A logger that does not propagate and has no handler of its own (billiard's "multiprocessing",
    # which says so when a Celery pool process dies) falls back on logging's last resort: a JSON line too.
    last_resort = logging.StreamHandler(sys.stderr)
    last_resort.setFormatter(JsonFormatter())
    last_resort.setLevel(logging.WARNING)
    logging.lastResort = last_resort


def gunicorn_logconfig(level: str = "info") -> dict[str, Any]:
    """Return gunicorn's ``logconfig_dict``: its error log as JSON lines; its access log off.

    The app logs one line per request itself (service/api/observe.py), with the request
    id it generated when the client sent none, which gunicorn's access log cannot know.
    """
    handler = {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request_id"],
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": handler},
        "root": {"level": level.upper(), "handlers": ["json"]},
        "loggers": {
            "gunicorn.error": {"level": level.upper(), "handlers": [], "propagate": True},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }
