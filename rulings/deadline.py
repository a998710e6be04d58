"""A time limit on the work of one request, enforced where the libraries offer a hook.

The web layer starts one for each request (``rulings serve --time-limit``); a costly kind of request may
also be given an allowance of CPU time (``limit_cpu``: linking a post). Every statement the Store runs
checks it before it starts (``check``) and SQLite's progress handler while it runs (a query past the limit
is interrupted); the index checks it through Whoosh's time-limited collector around each search; loops
of pure Python work that can run long (linking a post's mentions, rendering a whole document) check it
at each step. The error handler then answers 503 (413 past a CPU allowance). The CLI, builds and the
export run without one.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

_local = threading.local()


class Expired(Exception):
    """This thread's work went past its time limit, or past its allowance of CPU time (``cpu``)."""

    def __init__(self, cpu: bool = False):
        super().__init__("past the CPU time allowed" if cpu else "past the time limit")
        self.cpu = cpu


def start(seconds: float | None) -> None:
    """This thread's work may run until ``seconds`` from now (None: no limit)."""
    _local.deadline = None if seconds is None else time.monotonic() + seconds
    _local.cpu_deadline = None


def limit_cpu(seconds: float | None) -> None:
    """This thread's work may also spend ``seconds`` more of CPU time (None: no such allowance)."""
    _local.cpu_deadline = None if seconds is None else time.thread_time() + seconds


def clear() -> None:
    _local.deadline = None
    _local.cpu_deadline = None


def remaining() -> float | None:
    """Seconds left to this thread's limit (at least a millisecond), or None without a limit."""
    deadline = getattr(_local, "deadline", None)
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def expired() -> bool:
    return _which() is not None


def _which() -> str | None:
    """ "time" past the time limit, "cpu" past the CPU allowance, else None."""
    deadline = getattr(_local, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        return "time"
    cpu_deadline = getattr(_local, "cpu_deadline", None)
    if cpu_deadline is not None and time.thread_time() > cpu_deadline:
        return "cpu"
    return None


def check() -> None:
    """Raise ``Expired`` when this thread's work is past its limit: called before each step of work."""
    which = _which()
    if which is not None:
        raise Expired(cpu=which == "cpu")


def past_cpu_allowance() -> bool:
    """Whether what stopped this thread's work is its CPU allowance rather than its time limit."""
    return _which() == "cpu"


@contextmanager
def suspended():
    """No limit inside: for work whose result outlives the request (a value every later request shares),
    which must not be cut short, and cached half-done, because one request ran out of time computing it."""
    saved = getattr(_local, "deadline", None), getattr(_local, "cpu_deadline", None)
    _local.deadline = _local.cpu_deadline = None
    try:
        yield
    finally:
        _local.deadline, _local.cpu_deadline = saved
