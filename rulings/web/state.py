"""The build a running server answers from, swapped when a new build becomes current."""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..builds import intact_build, verify
from ..errors import StoreError
from ..graph.mentions import Linker, game_linker
from ..graph.store import Store
from ..index.search import Searcher


@dataclass
class Loaded:
    """One opened build: graph, index and per-game linkers (built on first use)."""

    build: Path
    store: Store
    _linkers: dict[tuple[str, int], Linker] = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def memo(self, key, compute):
        """A value derived from this build, computed once (the build never changes)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def searcher(self) -> Searcher:
        return Searcher(self.build)

    def linker(self, game_id: int, game_slug: str, ordinal: int) -> Linker:
        """Links to the terms defined at the version with this ordinal."""
        key = (game_slug, ordinal)
        with self._lock:
            if key not in self._linkers:
                self._linkers[key] = game_linker(self.store.conn, game_id, ordinal)
            return self._linkers[key]


class Current:
    """Re-checks ``<store>/current`` at most once per request and reopens when it moved.

    Requests already running keep the build they started with, so a rebuild
    under load fails no request; old builds are kept for a while (build.py).
    The build being served is also checked against its recorded sizes every few seconds
    and after any unexpected error: when its files were damaged under the server, it gives
    way to the newest intact build (``builds.intact_build``).
    """

    CHECK_EVERY = 2.0  # seconds between quick checks of the files of the build being served

    def __init__(self, store_dir: Path, log: logging.Logger | None = None):
        self.store_dir = store_dir
        self.log = log or logging.getLogger("rulings")
        self._loaded: Loaded | None = None
        self._target: str | None = None
        self._next_check = 0.0
        self._lock = threading.Lock()

    def get(self) -> Loaded:
        try:
            target = os.readlink(self.store_dir / "current")
        except OSError:
            target = None
        loaded = self._loaded
        if loaded is not None and target == self._target and time.monotonic() < self._next_check:
            return loaded
        with self._lock:
            moved = self._loaded is None or target != self._target
            if moved or time.monotonic() >= self._next_check:
                self._next_check = time.monotonic() + self.CHECK_EVERY
                if moved or verify(self._loaded.build):
                    self._open(target)
            if self._loaded is None:
                raise StoreError(f"no build in {self.store_dir}; run `rulings build`")
            return self._loaded

    def recheck(self) -> bool:
        """After an unexpected error: True when the build being served turned out damaged and was replaced."""
        with self._lock:
            if self._loaded is None or not verify(self._loaded.build):
                return False
            before = self._loaded.build
            self._open(self._target)
            return self._loaded.build != before

    def _open(self, target: str | None) -> None:
        build = intact_build(self.store_dir, self.log.warning)
        if build is None:  # nothing intact: keep what is loaded, it may still answer most requests
            self._next_check = time.monotonic() + 30 * self.CHECK_EVERY
            return
        if self._loaded is None or self._loaded.build != build:
            self._loaded = Loaded(build, Store(build))
        self._target = target
