"""The build a running server answers from, and how a new build takes its place.

A new build is opened and warmed in the background (``Current``: index, completion, the pages
asked most of the build being served) and then swapped in atomically: no request pays for opening
a build, and each request answers from the one build it started with.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from whoosh.searching import TimeLimit

from .. import deadline
from ..builds import Damage, intact_build, verify
from ..errors import StoreError
from ..graph.mentions import Linker, game_linker
from ..graph.store import Store
from ..index.results import Results, clean_query
from ..index.search import Searcher
from .cache import Answers

SEARCHES_KEPT = 4096  # search results and completions remembered per build
DOCUMENTS_KEPT = 8  # versions' whole texts (``reading.document``) held per build: some 14 MB each for Magic


class Recent:
    """At most ``size`` values by key, least recently used first out (search results of one build).

    A key is computed by one thread at a time: another thread asking for it meanwhile waits for that
    result (within its own time limit) rather than computing it too. Otherwise clients asking for
    the same costly search at once (eight of them: eight server threads) each pay for it in full,
    and every other request waits for a thread meanwhile. When the computation fails (its request
    ran out of time), the next thread that asks computes it afresh.
    """

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._computing: dict = {}  # key -> set once the thread computing it is done
        self._lock = threading.Lock()

    def get_or_compute(self, key, compute: Callable):
        if not self.size:
            return compute()
        while True:
            with self._lock:
                if key in self._items:
                    self._items.move_to_end(key)
                    return self._items[key]
                computing = self._computing.get(key)
                if computing is None:
                    done = self._computing[key] = threading.Event()
                    break
            if not computing.wait(deadline.remaining()):  # a thread waiting holds no lock and no CPU
                raise TimeLimit
        try:
            value = compute()
            with self._lock:
                self._items[key] = value
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
            return value
        finally:
            with self._lock:
                del self._computing[key]
            done.set()


@dataclass
class Loaded:
    """One opened build: graph, index, per-game linkers, and its answers (``cache.py``)."""

    build: Path
    store: Store
    answers: Answers
    damage: Damage | None = None  # set when an error led to its files and they failed their checksums
    hashed_until: float = 0.0  # an error before then is not worth hashing its files again: they were just now
    _linkers: dict[tuple[str, int], Linker] = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, build: Path, cache_bytes: int) -> Loaded:
        return cls(build, Store(build), Answers(cache_bytes))

    @cached_property
    def _searches(self) -> Recent:
        return Recent(SEARCHES_KEPT if self.answers.max_bytes else 0)

    @cached_property
    def _documents(self) -> Recent:
        return Recent(DOCUMENTS_KEPT)

    def document(self, key, compute):
        """A version's whole text, read once while it is among the ``DOCUMENTS_KEPT`` read last: every page of
        a long text and every section's rule page reads it, but a game of 86 editions cannot hold them all."""
        with deadline.suspended():  # shared by later requests: never cut short by this one's limit
            return self._documents.get_or_compute(key, compute)

    def memo(self, key, compute):
        """A value derived from this build, computed once (the build never changes)."""
        if key not in self._memo:
            with deadline.suspended():  # shared by every later request: never cut short by this one's limit
                self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def searcher(self) -> Searcher:
        return Searcher(self.build)

    def search(self, query: str, game=None, kind=None, version=None, limit: int = 10, partial=False) -> Results:
        """``Searcher.search``, remembered for the query as it is searched (spaces and control characters
        collapsed) and its filters: the site and the API, any spelling of the URL, share one answer."""
        kind = (kind or "").lower() or None
        key = ("search", clean_query(query), game, kind, version, limit, partial)
        filters = {"game": game, "kind": kind, "version": version, "limit": limit, "partial": partial}
        return self._searches.get_or_compute(key, lambda: self.searcher.search(query, **filters))

    def complete(self, text: str, game: str | None, limit: int) -> list[dict]:
        key = ("complete", text, game, limit)
        return self._searches.get_or_compute(key, lambda: self.searcher.complete(text, game, limit))

    def linker(self, game_id: int, game_slug: str, ordinal: int) -> Linker:
        """Links to the terms defined at the version with this ordinal."""
        key = (game_slug, ordinal)
        with self._lock:
            if key not in self._linkers:
                with deadline.suspended():
                    self._linkers[key] = game_linker(self.store.conn, game_id, ordinal, cards=True)
            return self._linkers[key]


Warm = Callable[[Loaded, "Loaded | None"], None]


class Current:
    """The build being served; a new current build is warmed in the background, then swapped in.

    ``get()`` costs a ``readlink`` when nothing changed. When ``<store>/current`` moved, a thread
    opens the new build and runs ``warm`` on it while requests keep answering from the build they
    have; then the new build replaces it in one assignment. Requests already running keep the
    build they started with, so a rebuild under load fails no request; old builds are kept for a
    while (``builds.prune``). The build being served is also checked against its recorded sizes
    every few seconds and after any unexpected error: when its files were damaged under the
    server, it gives way at once to the newest intact build (``builds.intact_build``).
    """

    CHECK_EVERY = 2.0  # seconds between quick checks of the files of the build being served
    HASH_EVERY = 10.0  # seconds an error waits before the files of its build are hashed again

    def __init__(
        self, store_dir: Path, log: logging.Logger | None = None, cache_bytes: int = 0, warm: Warm | None = None
    ):
        self.store_dir = store_dir
        self._current_link = str(store_dir / "current")  # read at every request: joined once
        self.log = log or logging.getLogger("rulings")
        self.cache_bytes = cache_bytes
        self.warm = warm
        self._loaded: Loaded | None = None
        self._target: str | None = None  # where ``current`` pointed when the build served was chosen
        self._warming: str | None = None  # where it points now, while that build is being warmed
        self._next_check = 0.0
        self._lock = threading.Lock()
        self.swapped = threading.Event()  # set each time a warmed build is swapped in (tests, benches)

    def _link(self) -> str | None:
        try:
            return os.readlink(self._current_link)
        except OSError:
            return None

    def get(self) -> Loaded:
        target = self._link()
        loaded = self._loaded
        if loaded is not None and target in (self._target, self._warming) and time.monotonic() < self._next_check:
            return loaded
        with self._lock:
            if self._loaded is None:  # nothing to answer from yet: this request opens it (serve warms first)
                self._open(target)
            elif target not in (self._target, self._warming):
                self._warming = target
                threading.Thread(target=self._swap, args=(target,), name="rulings-warm", daemon=True).start()
            elif time.monotonic() >= self._next_check:
                self._next_check = time.monotonic() + self.CHECK_EVERY
                if verify(self._loaded.build):  # damaged under us: nothing to wait for, switch now
                    self._open(self._target)
            if self._loaded is None:
                raise StoreError(f"no build in {self.store_dir}; run `rulings build`")
            return self._loaded

    def open_now(self) -> Loaded:
        """Open and warm the current build before serving (``rulings serve`` calls it before listening),
        having hashed every file of it: damage that left no trace in the files' stat fields (a disk's own
        bit rot) is found before the first request."""
        with self._lock:
            self._open(self._link(), thorough=True)
        loaded = self.get()
        if self.warm is not None:
            self.warm(loaded, None)
        return loaded

    def watch(self, every: float = 0.5) -> None:
        """Look for a new build every ``every`` seconds, so a swap is done before the next request comes."""

        def loop():
            while True:
                time.sleep(every)
                try:
                    self.get()
                except Exception:  # noqa: S112 (no build yet, or a store being repaired: the next look will tell)
                    continue

        threading.Thread(target=loop, name="rulings-watch", daemon=True).start()

    def recheck(self, loaded: Loaded | None) -> bool:
        """After an unexpected error on ``loaded`` (the build its request answered from): whether that build's
        files turned out damaged. Every file is hashed (a garbled page of the graph fails a query, whatever
        its stat fields say), at most once every ``HASH_EVERY`` seconds; a damaged build is left at once for
        the newest intact one, and the requests still answering from it are told so (503) without a look."""
        loaded = loaded or self._loaded
        if loaded is None:
            return False
        with self._lock:
            if loaded.damage is None and time.monotonic() >= loaded.hashed_until:
                problems = verify(loaded.build, thorough=True)
                loaded.hashed_until = time.monotonic() + self.HASH_EVERY
                if problems:
                    loaded.damage = Damage(loaded.build, problems)
                    if self._loaded is not None and self._loaded.build == loaded.build:
                        self._open(self._target, known=(loaded.damage,))
            return loaded.damage is not None

    def _open(self, target: str | None, thorough: bool = False, known: tuple[Damage, ...] = ()) -> None:
        """Switch to the intact build now, unwarmed (the first build, or the served one was damaged)."""
        build = intact_build(self.store_dir, self.log.warning, thorough, known)
        self._next_check = time.monotonic() + self.CHECK_EVERY
        if build is None:  # nothing intact: keep what is loaded, it may still answer most requests
            self._next_check = time.monotonic() + 30 * self.CHECK_EVERY
            return
        if self._loaded is None or self._loaded.build != build:
            self._loaded = Loaded.open(build, self.cache_bytes)
        self._target = target

    def _swap(self, target: str | None) -> None:
        """In the background: open the build ``current`` now names, warm it, then serve it."""
        fresh = None
        try:
            build = intact_build(self.store_dir, self.log.warning, thorough=True)  # every file hashed once
            previous = self._loaded
            if build is not None and (previous is None or build != previous.build):
                fresh = Loaded.open(build, self.cache_bytes)
                if self.warm is not None:
                    self.warm(fresh, previous)
        except Exception:  # warming is only a head start: serve the build anyway, cold
            self.log.exception("warming build %s failed", target)
        with self._lock:
            if fresh is not None:
                self._loaded = fresh
            self._target = target
            if self._warming == target:
                self._warming = None
            self._next_check = time.monotonic() + self.CHECK_EVERY
        self.swapped.set()
