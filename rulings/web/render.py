"""Rule text to HTML: markdown (raw HTML off), every glossary mention and rule number linked, blocks anchored."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import cast

from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from ..graph import inline
from ..graph.inline import prepare_children
from ..graph.mentions import Linker, Target
from ..graph.rows import BlockRow
from ..markup import _md

BLOCK_OPENERS = ("paragraph_open", "list_item_open")
RuleLink = Callable[[str], str | None]  # a rule number -> its URL, or None when the game has no such rule


@dataclass(frozen=True)
class Links:
    """How a text's mentions become links: terms by name, numbered rules by number.

    ``self_slug`` and ``self_names`` are the page's own term: its mentions are never links (a page
    titled "Attack (Enemy Activation)" does not link its "attack"s away).
    """

    linker: Linker | None = None
    href: Callable[[Target], str] | None = None
    self_slug: str | None = None
    rule: RuleLink | None = None
    self_names: frozenset[str] = frozenset()


def render_rules(markdown: str, links: Links | None = None, anchors: str | None = "p") -> str:
    """Render ``markdown`` (a ruling, an answer); link mentions of other terms (first mention per paragraph).

    Mentions are never linked inside links or headings, nor to the page's own term. ``anchors``
    prefixes per-paragraph ids ("p-1", ...): texts that are not versioned have no lasting anchors.
    """
    md = _md()
    tokens = md.parse(markdown or "")
    number = 0
    in_heading = False
    for token in tokens:
        if token.type in BLOCK_OPENERS and anchors and token.level <= 1:
            number += 1
            token.attrSet("id", f"{anchors}-{number}")
        if token.type == "heading_open":
            in_heading = True
        elif token.type == "heading_close":
            in_heading = False
        elif token.type == "inline" and links is not None and not in_heading:
            html = Token("html_inline", "", 0)
            html.content = assemble(prepare_children(token.children or [], links.linker), links)
            token.children = [html]
    return md.renderer.render(tokens, md.options, {})


def render_blocks(
    blocks: list[BlockRow],
    links: Links | None = None,
    *,
    id_prefix: str = "",
    asked: str | None = None,
    cased: bool = False,
) -> str:
    """A versioned text block by block, each element carrying the block's lasting anchor as its id.

    Consecutive bullets and steps form one list; a numbered rule shows its number; a block's own
    paragraphs ("Example: ...") stay inside it. ``id_prefix`` keeps ids unique where several terms
    share a page; ``asked`` marks the block a URL asked for; ``cased`` shows an ALL CAPS source in
    sentence case. Each block comes prepared by the build (``graph/inline.py``): only its links are
    chosen here, for the version shown.
    """
    out: list[str] = []
    open_list: str | None = None
    stored = [block.inline_cased if cased and block.inline_cased else block.inline for block in blocks]
    prepared = inline.loads(cast(list[str], stored))  # a build prepares every block's text
    for block, (value, paragraphs) in zip(blocks, prepared, strict=True):
        kind = "ol" if block.kind == "step" else "ul" if block.kind == "bullet" else None
        if open_list and kind != open_list:
            out.append(f"</{open_list}>")
            open_list = None
        if kind and not open_list:
            out.append(f"<{kind}>")
            open_list = kind
        out.append(_block_html(block, value, paragraphs, links, id_prefix, asked))
    if open_list:
        out.append(f"</{open_list}>")
    return "\n".join(out)


def _block_html(
    block: BlockRow, value: str | None, paragraphs: list, links: Links | None, id_prefix: str, asked: str | None
) -> str:
    attrs = f' id="{escape(id_prefix + block.anchor)}"'
    classes = [f"depth-{block.depth}"] if block.depth else []
    if asked and block.number == asked:
        classes.append("asked")
    if value is not None:
        attrs += f' value="{value}"'
    seen: set[str] = set()  # a term is linked once per block, at its first mention
    body = [assemble(p, links, seen) for p in paragraphs]
    if block.number:
        body[0] = f'<span class="number">{escape(block.number)}</span> {body[0]}'
        classes.append("numbered")
    attrs += f' class="{" ".join(classes)}"' if classes else ""
    if block.kind in ("bullet", "step"):
        return f"<li{attrs}>" + "<br>".join(body) + "</li>"
    if len(body) == 1:
        return f"<p{attrs}>{body[0]}</p>"
    inner = "".join(f"<p>{b}</p>" for b in body)
    return f"<div{attrs}>{inner}</div>"


def assemble(pieces: inline.Pieces, links: Links | None, seen: set[str] | None = None) -> str:
    """A prepared paragraph as HTML, its links chosen by ``links``: each other term once (its first
    mention; ``seen`` carries the terms already linked across a block's paragraphs), rule numbers the
    game has at the version shown. Term and card links carry ``data-term`` for previews."""
    out: list[str] = []
    seen = set() if seen is None else seen
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        text, names, rules = piece
        cursor = 0
        for start, end, url, preview in _links(text, names, rules, links, seen) if links is not None else ():
            if start < cursor:
                continue
            out.append(escapeHtml(text[cursor:start]))
            data = f' data-term="{escapeHtml(preview)}"' if preview else ""  # a term or card: it has a preview
            out.append(f'<a href="{escapeHtml(url)}" class="term"{data}>{escapeHtml(text[start:end])}</a>')
            cursor = end
        out.append(escapeHtml(text[cursor:]))
    return "".join(out)


# Only spaces and quotes between two mentions: two links would touch, so the later one waits for its next mention.
TOUCHING = re.compile(r"[\s\"'\u2018\u2019\u201c\u201d]*")


def _links(text: str, names: list, rules: list, links: Links, seen: set[str]) -> list[tuple[int, int, str, str | None]]:
    """(start, end, url, preview key) of what to link in ``text``: each target's first mention, never the
    page's own, never two touching; and the rule numbers the game has."""
    found: list[tuple[int, int, str, str | None]] = []
    if links.linker is not None and links.href is not None:
        last_end = -1
        for mention in links.linker.pick(text, names):
            target = mention.target
            own = target.kind == "term" and (target.slug == links.self_slug or mention.words in links.self_names)
            touching = last_end >= 0 and TOUCHING.fullmatch(text, last_end, mention.start)
            if not own and not touching and target.key not in seen:
                seen.add(target.key)
                found.append((mention.start, mention.end, links.href(target), target.key))
                last_end = mention.end
    if links.rule is not None:
        for start, end, number in rules:
            url = links.rule(number)
            if url:
                found.append((start, end, url, None))
    return sorted(found)
