"""Opened Whoosh searchers, lent to one thread at a time for the length of one search.

A Whoosh searcher is not thread-safe (its readers keep file positions and caches), and opening
one costs reading the index's table of contents and every segment's metadata, then, on its
first searches, the field lengths and term dictionary pages it scores with. Keeping one per
thread (``threading.local``) made each server thread, and every short-lived thread, pay for
that on its first search, and kept a set per thread for ever. Here opened sets wait in a pool:
a thread takes one for a search (``lend``) and gives it back, so a set opened and warmed once
serves whichever thread comes next, and only as many sets exist as searches ever ran at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from whoosh import scoring

# BM25F's term-frequency saturation: texts here are short (a definition, a paragraph, a subrule), where a
# word said again tells little more than the word said once (Whoosh's default is 1.2).
BM25_K1 = 0.8


class SearcherSet:
    """One opened searcher per index (by index name), each opened on first use."""

    def __init__(self, indexes: dict):
        self._indexes = indexes
        self._opened: dict = {}

    def __getitem__(self, name: str):
        if name not in self._opened:
            self._opened[name] = self._indexes[name].searcher(weighting=scoring.BM25F(K1=BM25_K1))
        return self._opened[name]


class SearcherPool:
    """Sets of opened searchers over the same indexes; each lent to one thread at a time."""

    def __init__(self, indexes: dict):
        """``indexes``: Whoosh indexes by name (the build's MAIN and HISTORY)."""
        self._indexes = indexes
        self._idle: list[SearcherSet] = []  # last in, first out: the set used last is the warmest
        self._lock = threading.Lock()
        self._held = threading.local()
        self.opened = 0  # sets ever opened (as many as searches that ran at once)

    @contextmanager
    def lend(self) -> Iterator[SearcherSet]:
        """A set for this thread until the block ends; within it, a nested ``lend`` gets the same set."""
        held = self.held()
        if held is not None:
            yield held
            return
        with self._lock:
            lent = self._idle.pop() if self._idle else self._new()
        try:
            with self._holding(lent):
                yield lent
        finally:
            with self._lock:
                self._idle.append(lent)

    def held(self) -> SearcherSet | None:
        """The set this thread holds, if it is inside ``lend``."""
        return getattr(self._held, "set", None)

    def prepare(self, count: int, warm: Callable[[], object]) -> None:
        """Have ``count`` sets open, ``warm()`` run holding each new one: that many searches at once
        find one ready (a server prepares one per thread before it serves)."""
        with self._lock:
            missing = count - len(self._idle)
            fresh = [self._new() for _ in range(max(0, missing))]
        for searchers in fresh:
            with self._holding(searchers):
                warm()
        with self._lock:
            self._idle[:0] = fresh  # behind the sets already warm

    def _new(self) -> SearcherSet:
        self.opened += 1
        return SearcherSet(self._indexes)

    @contextmanager
    def _holding(self, searchers: SearcherSet) -> Iterator[None]:
        self._held.set = searchers
        try:
            yield
        finally:
            self._held.set = None
