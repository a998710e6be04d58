"""Turn ``[[term]]`` / ``[[term@1.2]]`` / ``[[term|label]]`` in a forum post into links."""

from __future__ import annotations

import html
import re

from .. import deadline
from ..errors import TooCostly, Unanswerable
from ..markup import bbcode_text, markdown_label
from ..urls import Urls
from .answers import near_miss, version_by_label
from .rows import Game
from .store import Store

MENTION = re.compile(r"\[\[([^\[\]|@\n]{1,80})(?:@([^\[\]|\n]{1,20}))?(?:\|([^\[\]\n]{1,80}))?\]\]")
FORMATS = ("markdown", "bbcode", "html")
MAX_LINKIFY_CHARS = 20_000  # a long forum post is 5,000
MAX_LINKIFY_NAMES = 200  # different names one post may link (a forum post names a few dozen at most)


def linkify_post(store: Store, game: Game, text: str, fmt: str = "markdown", base_url: str = "") -> dict:
    """``linkify`` on at most ``MAX_LINKIFY_CHARS`` characters of a post (``truncated`` says when more came):
    the answer of the site's linkify tool, the JSON API and the assistants' tool.

    A post naming more than ``MAX_LINKIFY_NAMES`` different names is refused before any look-up
    (``TooCostly``): each name a post misspells is compared with every name of the game."""
    post = text[:MAX_LINKIFY_CHARS]
    if names_to_look_up(post, MAX_LINKIFY_NAMES) > MAX_LINKIFY_NAMES:
        said = f"A post may link at most {MAX_LINKIFY_NAMES} different names; this one names more. Link it in parts."
        raise TooCostly(said)
    result = linkify(store, game, post, fmt, base_url)
    return {**result, "truncated": len(text) > MAX_LINKIFY_CHARS}


def names_to_look_up(text: str, most: int) -> int:
    """How many look-ups linking ``text`` makes (one per different name and version it mentions), counted up to
    ``most + 1``: a post past the limit is refused without reading all of it."""
    seen: set[tuple[str, str | None]] = set()
    for match in MENTION.finditer(text):
        seen.add((match.group(1).strip(), match.group(2)))
        if len(seen) > most:
            break
    return len(seen)


def linkify(store: Store, game: Game, text: str, fmt: str = "markdown", base_url: str = "") -> dict:
    """The text with every resolvable mention linked, and the mentions that were not."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    site = Urls(base_url)
    unresolved: list[str] = []
    links: list[dict] = []
    resolved: dict[tuple[str, str | None], tuple] = {}  # a name mentioned again is looked up once

    def resolve(name: str, version: str | None) -> tuple:
        """(term, anchor, near miss, pinned version label) for a mention's name and version."""
        deadline.check()  # a post of many names stops at the request's time limit or CPU allowance
        term, anchor = store.find_term(game, name)
        near = near_miss(store, game, name) if term is None else None  # "[[Villanous]]": a typo of one name
        term = term or near
        pinned = None
        if term is not None and version:
            try:
                pinned = version_by_label(store, game, version.strip()).label
            except Unanswerable:
                term = None
        return term, anchor, near, pinned

    def replace(match: re.Match) -> str:
        name, version, label = match.group(1).strip(), match.group(2), match.group(3)
        key = (name, version)
        if key not in resolved:
            resolved[key] = resolve(name, version)
        term, anchor, near, pinned = resolved[key]
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
