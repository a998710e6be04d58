"""Definition previews: what a tap or hover on a term link shows without leaving the page.

A rendered text marks each term or card link with ``data-term`` (``attack``, ``status-cards#stunned``,
``card:ra``); the page carries one small inert ``<template>`` per target it links (no request, so it
works the same from a static export on disk): the definition's first paragraph, the sub-definition,
or a card's rulings, as in force at the version the page shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from markupsafe import Markup

from ..casing import sentence_case
from ..graph import answers, ruling_rows
from ..graph.rows import Game, VersionRow
from ..markup import plain_text
from ..text import is_all_caps
from .context import loaded, store
from .views import display_names

KEY = re.compile(r'data-term="([^"]+)"')
MAX_CHARS = 280


@dataclass(frozen=True)
class Preview:
    key: str
    name: str
    context: str  # "Keywords", "Card · 3 rulings": where the text comes from
    text: str

    @cached_property
    def html(self) -> Markup:
        """Its inert ``<template>``, written once per build (previews are kept per build: ``previews``)."""
        head = Markup('<p class="preview-head"><strong>{}</strong> <small>{}</small></p>')
        return Markup('<template data-term="{}">{}<p>{}</p></template>').format(
            self.key, head.format(self.name, self.context), self.text
        )


def previews(game: Game, version: VersionRow, *html: str) -> list[Preview]:
    """One preview per distinct target the rendered ``html`` links, in order of first link."""
    keys = dict.fromkeys(key for fragment in html for key in KEY.findall(fragment))
    found = (loaded().memo(("preview", game.slug, version.ordinal, key), lambda k=key: _preview(game, version, k))
             for key in keys)  # fmt: skip
    return [p for p in found if p is not None]


def _preview(game: Game, version: VersionRow, key: str) -> Preview | None:
    slug, _, anchor = key.partition("#")
    if slug.startswith("card:"):
        return _card(game, key, slug.removeprefix("card:"))
    st = store()
    term, _ = st.term_by_slug(game, slug)
    if term is None:
        return None
    revision, _ = answers.in_force(st.revisions(term), version.ordinal)
    if revision is None or revision.removed:
        return None
    name, context, text = revision.name, _kind(term.kind), revision.text
    if anchor:
        sub = st.subdef_text(term.id, anchor, version.ordinal)
        if sub is None:
            return None
        name, context, text = sub["name"], revision.name, sub["text"]
    elif not text.strip() and revision.redirect:
        found = answers.resolved_definition(st, game, revision, version.ordinal)
        if found is None:
            return Preview(key, name, context, f"See: {', '.join(revision.redirect)}")
        name, context, text = found["name"], found["term"].name, found["text"]
    return Preview(key, name, context, _first_paragraph(game, text))


def _card(game: Game, key: str, slug: str) -> Preview | None:
    card = ruling_rows.card(store(), game, slug)
    if card is None:
        return None
    rulings = card["rulings"]
    count = f"{len(rulings)} ruling{'' if len(rulings) == 1 else 's'}"
    first = _first_paragraph(game, rulings[0]["text"]) if rulings else ""
    return Preview(key, card["name"], f"Card · {count}", first)


def _kind(kind: str) -> str:
    return {"entry": "Glossary", "keyword": "Keyword", "section": "Section"}.get(kind, kind.title())


def _first_paragraph(game: Game, text: str) -> str:
    """The opening of a text as plain text (ALL CAPS in sentence case), cut at a word near ``MAX_CHARS``."""
    flat = ""
    for paragraph in re.split(r"\n\s*\n", text or ""):  # an opening that leads into a list takes its items too
        flat = " ".join(f"{flat} {plain_text(paragraph)}".split())
        if len(flat) >= MAX_CHARS / 2 and not flat.endswith(":"):
            break
    if is_all_caps(flat):
        flat = sentence_case(flat, display_names(game))
    if len(flat) <= MAX_CHARS:
        return flat
    return flat[:MAX_CHARS].rsplit(" ", 1)[0] + "\u2026"
