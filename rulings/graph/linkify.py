"""Turn ``[[term]]`` / ``[[term@1.2]]`` / ``[[term|label]]`` in a forum post into links."""

from __future__ import annotations

import html
import re

from ..errors import Unanswerable
from ..markup import bbcode_text, markdown_label
from ..urls import Urls
from .answers import near_miss, version_by_label
from .store import Game, Store

MENTION = re.compile(r"\[\[([^\[\]|@\n]{1,80})(?:@([^\[\]|\n]{1,20}))?(?:\|([^\[\]\n]{1,80}))?\]\]")
FORMATS = ("markdown", "bbcode", "html")
MAX_LINKIFY_CHARS = 20_000  # a long forum post is 5,000


def linkify_post(store: Store, game: Game, text: str, fmt: str = "markdown", base_url: str = "") -> dict:
    """``linkify`` on at most ``MAX_LINKIFY_CHARS`` characters of a post (``truncated`` says when more came):
    the answer of the site's linkify tool, the JSON API and the assistants' tool."""
    result = linkify(store, game, text[:MAX_LINKIFY_CHARS], fmt, base_url)
    return {**result, "truncated": len(text) > MAX_LINKIFY_CHARS}


def linkify(store: Store, game: Game, text: str, fmt: str = "markdown", base_url: str = "") -> dict:
    """The text with every resolvable mention linked, and the mentions that were not."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    site = Urls(base_url)
    unresolved: list[str] = []
    links: list[dict] = []

    def replace(match: re.Match) -> str:
        name, version, label = match.group(1).strip(), match.group(2), match.group(3)
        term, anchor = store.find_term(game, name)
        near = near_miss(store, game, name) if term is None else None  # "[[Villanous]]": a typo of one name
        term = term or near
        pinned = None
        if term is not None and version:
            try:
                pinned = version_by_label(store, game, version.strip()).label
            except Unanswerable:
                term = None
        if term is None:
            unresolved.append(match.group(0))
            return _escape(match.group(0), fmt)
        url = site.term(game.slug, term.slug, pinned, anchor)
        shown = label or (name if name.lower() != term.name.lower() and near is None else term.name)
        if pinned and not label:
            shown = f"{shown} (v{pinned})"
        link = {"mention": match.group(0), "term": term.name, "url": url, "version": pinned}
        if near is not None:
            link["note"] = (
                f"no term is named \u201c{name}\u201d; linked to \u201c{near.name}\u201d, the one name it is close to"
            )
        links.append(link)
        if fmt == "markdown":
            return f"[{markdown_label(shown)}]({url})"
        if fmt == "bbcode":
            return f"[url={url}]{bbcode_text(shown)}[/url]"
        return f'<a href="{html.escape(url)}">{html.escape(shown)}</a>'

    if fmt == "html":
        # Escape everything first; mentions contain no characters html.escape changes but quotes.
        parts, last = [], 0
        for match in MENTION.finditer(text):
            parts.append(html.escape(text[last : match.start()]))
            parts.append(replace(match))
            last = match.end()
        parts.append(html.escape(text[last:]))
        out = "".join(parts)
    else:
        out = MENTION.sub(replace, text)
    return {"text": out, "format": fmt, "links": links, "unresolved": unresolved}


def _escape(text: str, fmt: str) -> str:
    return html.escape(text) if fmt == "html" else text
