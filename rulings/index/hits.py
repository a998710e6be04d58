"""What a hit shows of a ranked answer: its title and other names, its URL (pinned to the version
searched, at the passage or numbered rule that answers) and its snippet, as the pages show texts."""

from __future__ import annotations

import json

from ..graph import ruling_rows
from ..graph.store import Store
from ..urls import urls
from .ranking import Answer
from .results import Hit
from .snippets import Readable

LEGACY_CATEGORY = {"term": "glossary", "subdefinition": "glossary"}  # an index written before ``category``


class HitMaker:
    """Makes the hits of one build's answers (its games' card names kept capitalised in snippets)."""

    def __init__(self, store: Store):
        self.store = store
        self._names: dict[str, tuple[str, ...]] = {}  # a game's display names (``_display_names``)
        self.readable = Readable(self._display_names)  # snippets as the pages show texts

    def hit(self, answer: Answer, pattern, version: str | None) -> Hit:
        """The hit of a ranked answer, pointed at what it shows (``best_fields``); ``pattern``: the words to mark."""
        shown = answer.best_fields
        entry = answer.entry
        passage = shown["kind"] == "passage"
        kind = entry.get("category") or LEGACY_CATEGORY.get(entry["kind"], entry["kind"])
        number = shown.get("number") or entry.get("number")
        if kind == "ruling":
            url = entry["url"]
        elif kind == "rule" and number:  # a numbered rule lives at its number (the subrule that answers)
            url = urls.rule(entry["game"], number, version, None if shown.get("number") else shown.get("anchor"))
        else:  # pinned to the version searched; at the passage that answers (or the sub-definition)
            slug, _, own_anchor = entry["slug"].partition("#")
            anchor = shown.get("anchor") if passage else own_anchor or entry.get("anchor")
            url = urls.term(entry["game"], slug, version, anchor or None)
        title = entry["label"]
        names = json.loads(entry.get("aliases") or "[]")
        if passage and shown.get("label"):  # the passage is a sub-definition: the hit goes by its name
            title, names = shown["label"], [title, *names]
        for companion in answer.companions:  # the glossary entries pointing here (the best first): their names too
            if title == f"Rule {entry.get('number')}" and (companion.get("names_rule") or answer.named):
                title = companion["label"]  # a rule without a title of its own goes by the glossary's name
            names += [companion["label"], *json.loads(companion.get("aliases") or "[]")]
        text = self._text_of(shown, entry)
        return Hit(
            title,
            [n for n in dict.fromkeys(names) if n != title],
            entry["game"],
            kind,
            entry["slug"],
            url,
            answer.best,
            self.readable.snippet(text, entry["game"], pattern),
            entry.get("subkind", "") if entry["kind"] != "passage" else "",
            entry.get("version"),
            number,
        )

    def _display_names(self, game: str) -> tuple[str, ...]:
        """The names to keep capitalised when an ALL CAPS text is shown in sentence case: the game's cards."""
        names = self._names.get(game)
        if names is None:
            found = self.store.game(game)
            names = self._names[game] = tuple(c["name"] for c in ruling_rows.cards(self.store, found)) if found else ()
        return names

    @staticmethod
    def _text_of(shown: dict, entry: dict) -> str:
        """What a hit shows the text of: its own, or (a passage) where it is in its entry's text."""
        if "body" in shown or "span" not in shown:
            return shown.get("body") or ""
        start, length = shown["span"]
        return entry.get("body", "")[start : start + length]
