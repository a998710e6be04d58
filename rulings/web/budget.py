"""A cost budget for each kind of request, so that no cheap request to send starves the server.

Every request has the time limit (``deadline``, ``rulings serve --time-limit``). The kinds whose one
request can cost a hundred pages (linking a post, a search or a report the answer cache does not hold)
also share a budget of the server's CPU time: each kind may use ``share`` of one core on average (a bucket
refilled continuously, holding at most ``burst`` CPU-seconds) with at most ``slots`` of its requests at
work at once. A request of a kind past its budget is refused at once, before any work, with a 429 and a
``Retry-After``, so its thread goes back to serving pages: however many clients send costly requests,
they get the share of the server their kind has, and pages the rest. Answers the cache holds are sent
without entering Flask and cost no budget.

The budget is per kind, not per client: behind nginx every client has the same address, and nginx
already limits each address's rate of requests (``deploy/nginx.conf``).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app, g, request

from ..errors import Busy


@dataclass(frozen=True)
class Budget:
    """What one kind of request may spend: ``share`` of one core on average, ``burst`` CPU-seconds at once,
    ``slots`` requests at work at once for every four server threads."""

    share: float
    burst: float
    slots: int = 1
    said: str = "requests like this one"  # how the refusal names the kind


# Together well under one core, all Python can use at once (its interpreter lock): pages keep the rest. A
# search the cache does not hold costs 10-30 ms, a change report 5-200 ms, a post to link up to 0.5 s.
BUDGETS = {
    "linkify": Budget(share=0.1, burst=0.5, said="posts to link"),
    "search": Budget(share=0.2, burst=2.0, slots=2, said="searches"),
    "report": Budget(share=0.1, burst=1.0, said="change reports, diffs and whole documents"),
}
KIND_OF = {  # endpoint -> the budget it spends; every other endpoint has only the time limit
    "site.link": "linkify",
    "api.link": "linkify",
    "site.search": "search",
    "api.search": "search",
    "site.changes": "report",
    "api.changes": "report",
    "site.diff": "report",
    "api.diff": "report",
    "site.version_page": "report",
    "api.version_document": "report",
    "site.feed": "report",
}


class Spending:
    """What one kind of request has left to spend, shared by the server's threads."""

    def __init__(self, kind: str, budget: Budget, threads: int, clock=time.monotonic):
        self.kind = kind
        self.budget = budget
        self.slots = budget.slots * max(1, threads // 4)
        self.clock = clock
        self.seconds = budget.burst  # CPU-seconds left in the bucket (below zero: owed)
        self.at = clock()
        self.working = 0
        self._lock = threading.Lock()

    def admit(self) -> None:
        """Take a slot, or raise ``Busy`` when the kind has none free or has spent its share for now."""
        with self._lock:
            self._refill()
            if self.working < self.slots and self.seconds > 0:
                self.working += 1
                return
            wait = max(1, math.ceil(-self.seconds / self.budget.share)) if self.seconds <= 0 else 1
        raise Busy(
            f"The server is busy with other {self.budget.said}; try again in {wait} s.",
            retry_after=wait,
        )

    def spent(self, cpu_seconds: float) -> None:
        """A request admitted is done, having used ``cpu_seconds``."""
        with self._lock:
            self._refill()
            self.working -= 1
            self.seconds -= cpu_seconds

    def _refill(self) -> None:
        now = self.clock()
        self.seconds = min(self.budget.burst, self.seconds + (now - self.at) * self.budget.share)
        self.at = now


def register(app: Flask) -> None:
    """Each request of a budgeted kind is admitted before its view runs and charged when it ends."""
    app.before_request(admit)
    app.teardown_request(charge)


def spending(kind: str) -> Spending:
    found = current_app.extensions.setdefault("rulings.budgets", {})
    if kind not in found:
        threads = current_app.config.get("SERVER_THREADS") or 4
        found.setdefault(kind, Spending(kind, BUDGETS[kind], threads))
    return found[kind]


def kind_of_request() -> str | None:
    kind = KIND_OF.get(request.endpoint or "")
    if kind == "linkify" and not (request.values.get("text") or request.is_json):
        return None  # the empty linkify form costs a page
    return kind


def admit() -> None:
    kind = kind_of_request()
    if kind is None or current_app.config.get("STATIC_EXPORT"):
        return
    budget = spending(kind)
    budget.admit()
    g.budget = budget, time.thread_time()


def charge(_error=None) -> None:
    taken = g.pop("budget", None)
    if taken is not None:
        budget, started = taken
        budget.spent(time.thread_time() - started)
