"""Search-as-you-type: term names completing what has been typed, per game or across all games.

Every name is filed by the build under its whole folded form and under each later word ("villain
phase" is also found by "pha") in the graph's ``completions`` table, sorted for range scans: a
keystroke reads at most a few hundred keys from disk, so completion costs the same for three games
as for thousands, and opening a build loads nothing for it.
"""

from __future__ import annotations

import difflib

from ..graph import index_feed
from ..graph.store import Store
from ..text import fold
from ..urls import urls

SCAN = 200  # keys looked at per keystroke at most (plenty to fill a short list)
CLOSEST_POOL = 5000  # keys compared by spelling when nothing matched (the alphabetical neighbourhood of what was typed)


def typed_key(text: str) -> str:
    return " ".join(fold(text or "").lower().split())


class Completions:
    def __init__(self, store: Store):
        self.store = store

    def complete(self, prefix: str, game: str | None = None, limit: int = 8) -> list[dict]:
        """Names starting with ``prefix`` (or with a word starting with it), whole-name matches first."""
        typed = typed_key(prefix)
        if not typed:
            return []
        rows = []
        for row in index_feed.completion_keys(self.store, typed, game, SCAN):
            if not row[0].startswith(typed):
                break
            rows.append(row)
        found = self._entries(rows)  # by URL: a term found by several of its names once
        ranked = sorted(
            found,
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
        typed = typed_key(text)
        if not typed:
            return []
        before = index_feed.completion_keys(self.store, typed, game, CLOSEST_POOL, before=True)[::-1]
        after = index_feed.completion_keys(self.store, typed, game, CLOSEST_POOL)
        half = CLOSEST_POOL // 2
        take_before = max(half, CLOSEST_POOL - len(after))
        pool = before[-take_before:] + after[: CLOSEST_POOL - min(take_before, len(before))]
        keys = [row[0] for row in pool]
        chosen = []
        for key in difflib.get_close_matches(typed, keys, n=limit * 3, cutoff=0.6):
            chosen.append(pool[keys.index(key)])
        return self._entries(chosen)[:limit]

    def _entries(self, rows: list[tuple]) -> list[dict]:
        """One answer per term, in the order found."""
        firsts: dict[str, tuple[str, int]] = {}  # URL -> (game, term id)
        for _, game, slug, term_id in rows:
            firsts.setdefault(urls.term(game, slug), (game, term_id))
        shown = index_feed.completion_entries(self.store, [term_id for _, term_id in firsts.values()]) if firsts else {}
        return [
            {"name": shown[term_id][0], "game": game, "game_name": shown[term_id][2], "kind": shown[term_id][1],
             "url": url}
            for url, (game, term_id) in firsts.items()
        ]  # fmt: skip
