"""A time limit on the work of one request, enforced where the libraries offer a hook.

The web layer starts one for each request (``rulings serve --time-limit``). SQLite checks it
through a progress handler on each connection of the Store (a query past the limit is
interrupted) and the index through Whoosh's time-limited collector around each search; the
error handler then answers 503. The CLI, builds and the export run without one.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

_local = threading.local()


def start(seconds: float | None) -> None:
    """This thread's work may run until ``seconds`` from now (None: no limit)."""
    _local.deadline = None if seconds is None else time.monotonic() + seconds


def clear() -> None:
    _local.deadline = None


def remaining() -> float | None:
    """Seconds left to this thread's limit (at least a millisecond), or None without a limit."""
    deadline = getattr(_local, "deadline", None)
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def expired() -> bool:
    deadline = getattr(_local, "deadline", None)
    return deadline is not None and time.monotonic() > deadline


@contextmanager
def suspended():
    """No limit inside: for work whose result outlives the request (a value every later request shares),
    which must not be cut short, and cached half-done, because one request ran out of time computing it."""
    saved = getattr(_local, "deadline", None)
    _local.deadline = None
    try:
        yield
    finally:
        _local.deadline = saved
