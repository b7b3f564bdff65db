"""gunicorn's master calls ``worker_exit`` too, on its own copy of a worker that already exited
(a worker recycled just as a HUP's reload told it to stop). That copy never loaded an app: the
hook must leave it alone, or the master's loop ends on the exception and takes the server down."""

from __future__ import annotations

from types import SimpleNamespace

from service.server.hooks import worker_exit


def test_worker_exit_on_the_masters_copy_of_a_worker_does_nothing() -> None:
    worker_exit(SimpleNamespace(), SimpleNamespace(pid=12345, alive=False))  # no wsgi attribute: no error
