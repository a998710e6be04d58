"""Search-as-you-type: term names completing what has been typed, per game or across all games.

Every name is filed under its whole folded form and under each later word ("villain phase" is
also found by "pha"), in sorted lists bisected per keystroke, so a completion costs the same
for three games as for thousands.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left

from ..graph.store import Store
from ..text import fold
from ..urls import urls

SCAN = 200  # keys looked at per keystroke at most (plenty to fill a short list)
CLOSEST_POOL = 5000  # keys compared by spelling when nothing matched (the alphabetical neighbourhood past this)


class Completions:
    def __init__(self, store: Store):
        rows = store.completion_names()
        terms: dict[tuple, dict] = {}  # one answer per term, shared by all the keys that find it
        keyed: set[tuple[str, tuple]] = set()
        for name, display, slug, game, kind, game_name in rows:
            ident = (game, slug)
            if ident not in terms:
                terms[ident] = {
                    "name": display,
                    "game": game,
                    "game_name": game_name,
                    "kind": kind,
                    "url": urls.term(game, slug),
                }
            words = fold(name).lower().split()
            keyed.update((" ".join(words[i:]), ident) for i in range(len(words)))
        self._scopes: dict[str | None, tuple[list[str], list[dict]]] = {}
        for key, ident in sorted(keyed):
            entry, game = terms[ident], ident[0]
            for scope in (None, game):
                keys, entries = self._scopes.setdefault(scope, ([], []))
                keys.append(key)
                entries.append(entry)

    def complete(self, prefix: str, game: str | None = None, limit: int = 8) -> list[dict]:
        """Names starting with ``prefix`` (or with a word starting with it), whole-name matches first."""
        typed = " ".join(fold(prefix or "").lower().split())
        keys, entries = self._scopes.get(game, ([], []))
        if not typed or not keys:
            return []
        found: dict[str, dict] = {}  # by URL: a term found by several of its names once
        start = bisect_left(keys, typed)
        for i in range(start, min(start + SCAN, len(keys))):
            if not keys[i].startswith(typed):
                break
            found.setdefault(entries[i]["url"], entries[i])
        ranked = sorted(
            found.values(),
            key=lambda e: (
                e["kind"] == "section",
                not fold(e["name"]).lower().startswith(typed),
                len(e["name"]),
                e["name"],
            ),
        )
        return ranked[:limit]

    def closest(self, text: str, game: str | None = None, limit: int = 5) -> list[dict]:
        """Names spelled most like ``text`` (for "no results": what might have been meant)."""
        typed = " ".join(fold(text or "").lower().split())
        keys, entries = self._scopes.get(game, ([], []))
        if not typed or not keys:
            return []
        start = 0
        if len(keys) > CLOSEST_POOL:
            start = max(0, min(bisect_left(keys, typed) - CLOSEST_POOL // 2, len(keys) - CLOSEST_POOL))
        pool = keys[start : start + CLOSEST_POOL]
        found: dict[str, dict] = {}
        for key in difflib.get_close_matches(typed, pool, n=limit * 3, cutoff=0.6):
            found.setdefault(entries[start + pool.index(key)]["url"], entries[start + pool.index(key)])
        return list(found.values())[:limit]
