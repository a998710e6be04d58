"""The build a running server answers from, swapped when a new build becomes current."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..builds import current_build
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
    """

    def __init__(self, store_dir: Path):
        self.store_dir = store_dir
        self._loaded: Loaded | None = None
        self._target: str | None = None
        self._lock = threading.Lock()

    def get(self) -> Loaded:
        try:
            target = os.readlink(self.store_dir / "current")
        except OSError:
            target = None
        loaded = self._loaded
        if loaded is not None and target == self._target:
            return loaded
        with self._lock:
            if self._loaded is None or target != self._target:
                build = current_build(self.store_dir)
                if build is None:
                    if self._loaded is not None:
                        return self._loaded
                    raise StoreError(f"no build in {self.store_dir}; run `rulings build`")
                self._loaded = Loaded(build, Store(build))
                self._target = target
            return self._loaded
