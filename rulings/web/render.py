"""Rule text to HTML: markdown (raw HTML off), every glossary mention linked, paragraphs anchored."""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.token import Token

from ..graph.mentions import Linker, Target
from ..markup import _md

BLOCK_OPENERS = ("paragraph_open", "list_item_open")
DEFINES = re.compile(r"[*_]*\s*(?:$|[:\u2014\u2013(.]|-\s)")  # what follows a name that opens its definition


def render_rules(
    markdown: str,
    linker: Linker | None = None,
    self_slug: str | None = None,
    href: Callable[[Target], str] | None = None,
    anchors: str | None = "p",
    named: dict[str, str] | None = None,
) -> str:
    """Render ``markdown``; link mentions of other terms (first mention per paragraph).

    Mentions are never linked inside links or headings, nor to the page's own term.
    ``anchors`` prefixes per-paragraph ids ("p-1", "p-2", ...) used by copy-link buttons;
    the first paragraph that opens with a name in ``named`` (a sub-definition, "Guard: ...")
    gets that anchor instead.
    """
    named = dict(named or {})
    md = _md()
    tokens = md.parse(markdown or "")
    number = 0
    in_heading = False
    opener = None
    for token in tokens:
        if token.type in BLOCK_OPENERS and anchors and token.level <= 1:
            number += 1
            token.attrSet("id", f"{anchors}-{number}")
            opener = token
        if token.type == "inline" and named and opener is not None:
            anchor = _named_anchor(token.content, named)
            if anchor:
                opener.attrSet("id", anchor)
            opener = None
        if token.type == "heading_open":
            in_heading = True
        elif token.type == "heading_close":
            in_heading = False
        elif token.type == "inline" and linker is not None and href is not None and not in_heading:
            token.children = _link_children(token.children or [], linker, self_slug, href)
    return md.renderer.render(tokens, md.options, {})


def _named_anchor(content: str, named: dict[str, str]) -> str | None:
    """The anchor of the sub-definition a paragraph defines, used once (ids are unique on a page)."""
    start = re.sub(r"^[*_\s-]+", "", content).lower()
    for name in named:
        rest = start[len(name) :] if start.startswith(name.lower()) else None
        if rest is not None and DEFINES.match(rest):
            return named.pop(name)
    return None


def _link_children(children: list[Token], linker: Linker, self_slug, href) -> list[Token]:
    out: list[Token] = []
    depth = 0
    seen: set[str] = set()
    for child in children:
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close":
            depth -= 1
        if child.type != "text" or depth > 0:
            out.append(child)
            continue
        text, cursor = child.content, 0
        for start, end, target in linker.find(text):
            if target.slug == self_slug or target.slug in seen:
                continue
            seen.add(target.slug)
            if start > cursor:
                out.append(_text(text[cursor:start]))
            link = Token("link_open", "a", 1)
            link.attrSet("href", href(target))
            link.attrSet("class", "term")
            out.extend([link, _text(text[start:end]), Token("link_close", "a", -1)])
            cursor = end
        if cursor < len(text):
            out.append(_text(text[cursor:]))
    return out


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def excerpt(text: str, limit: int = 220) -> str:
    """A plain-text summary for meta descriptions and OpenGraph."""
    from ..markup import plain_text

    flat = re.sub(r"\s+", " ", plain_text(text)).strip()
    if len(flat) <= limit:
        return flat
    return flat[:limit].rsplit(" ", 1)[0] + "\u2026"
