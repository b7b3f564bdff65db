"""The live streams over HTTP: server-sent events (``text/event-stream``) of a game and of the global feed.

Each stored event is one message whose ``id:`` is the game's version (or, in the feed, the
global position) and whose ``data:`` is the event's JSON exactly as one item of
``GET /v1/games/{id}/events`` (or ``GET /v1/events``) shows it to the same caller. A client
resumes with the standard ``Last-Event-ID`` header (an EventSource sends it by itself when
it reconnects; it wins over ``?after=``, which the same EventSource sends again unchanged):
the stream then starts after that id, so nothing is missed and nothing is sent twice. A
comment (``: heartbeat``) comes whenever nothing else was sent for the heartbeat interval
(15 s at most); when a game has ended and its last event was sent, an ``end`` event
(``data: {"version": N}``) closes its stream. An unknown game answers 404, a token of no
seat of the game 401, an ``after`` past the game's version 400, all as problem+json and
before the stream starts.

The fan-out, the wake-ups and the redaction are the use cases' (service/streams); here are
only the routes, the SSE framing and the JSON of each message.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from typing import Any, Protocol

from flask import Response, request
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from service.api.context import serving
from service.api import schemas
from service.api.blueprint import PitchBlueprint
from service.api.routes import _token
from service.api.sse import frame
from service.errors import InvalidRequestError, PositionNotFoundError
from service.ports.events import StoreUnavailableError
from service.streams import Outlet, StreamHub, Subscription

log = logging.getLogger(__name__)

MEDIA_TYPE = "text/event-stream"
RETRY_MS = 2000  # how long an EventSource waits before it reconnects

streams = PitchBlueprint(
    "streams", __name__, url_prefix="/v1",
    description="Live streams (server-sent events) of a game's events and of every game's.",
)

LAST_EVENT_ID = {
    "name": "Last-Event-ID", "in": "header", "required": False,
    "description": "The `id` of the last message received: the stream resumes after it (it wins over `after`; empty: not sent).",
    "schema": {"type": "string", "pattern": "^[0-9]{0,19}$"},
}


class GameStreamQuery(Schema):
    after = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=schemas.MAX_VERSION),
        metadata={"description": "The version after which to start (0: from the first event)."},
    )


class FeedStreamQuery(Schema):
    after = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=schemas.MAX_POSITION),
        metadata={"description": "The global position after which to start (0: from the first event)."},
    )


# One server-sent event as a client's SSE parser hands it over (the `schema` of an event-stream
# response describes each event, as OpenAPI 3.2's `itemSchema` does): comments such as the
# heartbeat are not events.
STREAM_EVENT = {
    "type": "object",
    "properties": {
        "id": {
            "type": "string", "pattern": "^[0-9]+$",
            "description": "The game's version (a game's stream) or the global position (the feed).",
        },
        "event": {
            "type": "string", "enum": ["message", "end"],
            "description": "`message` (the default): a stored event; `end`: the game is over.",
        },
        "data": {
            "type": "string", "contentMediaType": "application/json",
            "description": "The event's JSON, or `{\"version\": N}` for `end`.",
        },
        "retry": {"type": "integer", "minimum": 0, "description": "How long to wait before reconnecting, in milliseconds."},
    },
}


def _stream_doc(what: str, example: str) -> dict[str, Any]:
    return {"200": {
        "description": what,
        "content": {MEDIA_TYPE: {"schema": STREAM_EVENT, "example": example}},
    }}


GAME_EXAMPLE = (
    'retry: 2000\n\nid: 3\ndata: {"data":{"amount":2,"seat":1},"hash":null,"recorded_at":"...","type":"BidMade","version":3}\n\n'
    ': heartbeat\n\nevent: end\ndata: {"version":212}\n\n'
)
FEED_EXAMPLE = (
    'retry: 2000\n\nid: 57\ndata: {"data":{"amount":2,"seat":1},"game_id":"...","hash":null,"position":57,'
    '"recorded_at":"...","type":"BidMade","version":3}\n\n: heartbeat\n\n'
)


def _hub() -> StreamHub:
    return serving().streams


def _after(query: dict[str, Any], most: int) -> int:
    """Return where to resume: the Last-Event-ID header when sent, else the ``after`` of the query."""
    header = request.headers.get("Last-Event-ID")
    if header is None or not header.strip():
        after: int = query["after"]
        return after
    text = header.strip()
    if not text.isdigit() or len(text) > 20:
        raise InvalidRequestError(f"Last-Event-ID must be an id this stream sent (a number from 0 to {most}), not {text[:40]!r}")
    if int(text) > most:
        raise PositionNotFoundError(f"no stream sent the id {text}: resume after one that was sent")
    return int(text)


@streams.route("/games/<game_id>/stream")
class GameStream(MethodView):
    @streams.arguments(GameStreamQuery, location="query")
    @streams.doc(
        security=[{}, {"seatToken": []}], parameters=[LAST_EVENT_ID],
        responses=_stream_doc(
            "Server-sent events: one message per stored event (`id`: its version; `data`: the event as an item "
            "of the game's event list shows it to this caller), a `: heartbeat` comment at least every 15 s, "
            "and once the game has ended and its last event was sent, an `end` event (`data`: "
            '`{"version": N}`), after which the stream closes.', GAME_EXAMPLE,
        ),
    )
    @streams.operation("streamGameEvents")
    @streams.problems(400, 401, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Stream the game's events live, as the token's seat (or, without a token, a spectator) sees them.

        Resume after the last message received with `Last-Event-ID` (or `after`): no event
        is missed or sent twice. Each event is hidden exactly as `GET /v1/games/{id}/events`
        hides it for the same caller.
        """
        subscription = _hub().game(game_id, _token(), _after(query, schemas.MAX_VERSION))
        return event_stream(subscription)


@streams.route("/events/stream")
class FeedStream(MethodView):
    @streams.arguments(FeedStreamQuery, location="query")
    @streams.doc(
        parameters=[LAST_EVENT_ID],
        responses=_stream_doc(
            "Server-sent events: one message per stored event of any game (`id`: its global position; `data`: "
            "the event as an item of `GET /v1/events` shows it), and a `: heartbeat` comment at least every 15 s.",
            FEED_EXAMPLE,
        ),
    )
    @streams.operation("streamEvents")
    @streams.problems(400, 404, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """Stream every game's events live by global position, as a spectator sees them.

        The same promise as `GET /v1/events`: positions only grow, none is ever skipped, and
        no card a spectator may not see yet is shown. Resume with `Last-Event-ID` (or `after`).
        """
        subscription = _hub().feed(_after(query, schemas.MAX_POSITION))
        return event_stream(subscription)


def event_stream(subscription: Subscription) -> Response:
    """Return the streaming response of ``subscription`` in the SSE format.

    The generator needs no request context (none is kept while the stream is open): the
    subscription holds what it reads through. Under gunicorn's gevent worker, once its first
    frame is out, the stream is pushed through the process's writer thread
    (service/server/stream_writer.py); anywhere else it writes each batch itself.
    """
    writer, fd = _writer_of(request.environ)

    def frames() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"  # sent at once: the client knows the stream is open
        try:
            if writer is not None:
                _push(subscription, writer.outlet(fd))
                return
            for batch in subscription:
                yield "".join(frame(item) for item in batch)
        except StoreUnavailableError:
            # The client reconnects with Last-Event-ID; until the store is back, that answers 503.
            log.warning("a live stream lost the event store; it closes and its client resumes", exc_info=True)

    response = Response(frames(), mimetype=MEDIA_TYPE)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must pass each message on at once
    return response


class PushedOutlet(Outlet, Protocol):
    """An outlet whose bytes a writer outside the event loop sends (service/server/stream_writer.py)."""

    @property
    def behind(self) -> bool:
        """Tell whether the client fell too far behind (rather than left)."""

    def detach(self) -> bool:
        """Wait until the writer has let go of the socket; return True when everything sent was written."""


class Writer(Protocol):
    def outlet(self, fd: int) -> PushedOutlet:
        """Return the outlet of the client socket ``fd``."""


WRITER_KEY = "pitch.stream_writer"  # the environ key under which gunicorn's gevent worker hands the app its writer


def _writer_of(environ: dict[str, Any]) -> tuple[Writer | None, int]:
    """Return the process's stream writer and the client socket's number, or (None, -1) where streams write themselves.

    The writer writes whole chunks of the chunked transfer coding straight to the socket:
    only where the server offers one (gunicorn's gevent worker, on a plain socket), for an
    HTTP/1.1 GET, which gunicorn answers chunked.
    """
    writer: Writer | None = environ.get(WRITER_KEY)
    sock = environ.get("gunicorn.socket")
    if writer is None or sock is None or environ.get("SERVER_PROTOCOL") != "HTTP/1.1" or environ.get("REQUEST_METHOD") != "GET":
        return None, -1
    return writer, sock.fileno()


def _push(subscription: Subscription, outlet: PushedOutlet) -> None:
    """Push ``subscription`` through ``outlet``; close the connection at once when not all of it was written."""
    try:
        subscription.push(outlet)
    finally:
        complete = outlet.detach()
        if outlet.behind:
            log.info("a live stream's client fell too far behind; its connection closes and it resumes")
        if not complete:
            # No closing chunk after a partial one (whatever ended the stream): the client sees the
            # connection end and resumes.
            raise BrokenPipeError(errno.EPIPE, "the stream's client is gone or fell behind")
