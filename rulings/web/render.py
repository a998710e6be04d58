"""Rule text to HTML: markdown (raw HTML off), every glossary mention and rule number linked, blocks anchored."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from markdown_it.token import Token

from ..graph.citations import rule_references
from ..graph.mentions import Linker, Target
from ..graph.store import BlockRow
from ..markup import _md

BLOCK_OPENERS = ("paragraph_open", "list_item_open")
RuleLink = Callable[[str], str | None]  # a rule number -> its URL, or None when the game has no such rule


@dataclass(frozen=True)
class Links:
    """How a text's mentions become links: terms by name, numbered rules by number."""

    linker: Linker | None = None
    href: Callable[[Target], str] | None = None
    self_slug: str | None = None
    rule: RuleLink | None = None


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
            token.children = _link_children(token.children or [], links)
    return md.renderer.render(tokens, md.options, {})


def render_blocks(
    blocks: list[BlockRow],
    links: Links | None = None,
    *,
    id_prefix: str = "",
    asked: str | None = None,
    shown: Callable[[str], str] = str,
) -> str:
    """A versioned text block by block, each element carrying the block's lasting anchor as its id.

    Consecutive bullets and steps form one list; a numbered rule shows its number; a block's own
    paragraphs ("Example: ...") stay inside it. ``id_prefix`` keeps ids unique where several terms
    share a page; ``asked`` marks the block a URL asked for; ``shown`` is applied to each text
    (sentence case for ALL CAPS sources).
    """
    out: list[str] = []
    open_list: str | None = None
    for block in blocks:
        kind = "ol" if block.kind == "step" else "ul" if block.kind == "bullet" else None
        if open_list and kind != open_list:
            out.append(f"</{open_list}>")
            open_list = None
        if kind and not open_list:
            out.append(f"<{kind}>")
            open_list = kind
        out.append(_block_html(block, links, id_prefix, asked, shown))
    if open_list:
        out.append(f"</{open_list}>")
    return "\n".join(out)


STEP = re.compile(r"^(\d+)\.\s+")


def _block_html(block: BlockRow, links: Links | None, id_prefix: str, asked: str | None, shown) -> str:
    attrs = f' id="{escape(id_prefix + block.anchor)}"'
    classes = [f"depth-{block.depth}"] if block.depth else []
    if asked and block.number == asked:
        classes.append("asked")
    paragraphs = [p for p in shown(block.text).split("\n\n") if p.strip()] or [""]
    if block.kind == "step":
        number = STEP.match(paragraphs[0])
        if number:
            attrs += f' value="{number.group(1)}"'
            paragraphs[0] = paragraphs[0][number.end() :]
    body = [_inline(p, links) for p in paragraphs]
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


def _inline(text: str, links: Links | None) -> str:
    md = _md()
    tokens = md.parseInline(text)
    if links is not None:
        for token in tokens:
            token.children = _link_children(token.children or [], links)
    return md.renderer.render(tokens, md.options, {})


def _link_children(children: list[Token], links: Links) -> list[Token]:
    """Text tokens with term mentions (first per paragraph) and rule references made links."""
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
        for start, end, url in _mentions(text, links, seen):
            if start < cursor:
                continue
            if start > cursor:
                out.append(_text(text[cursor:start]))
            link = Token("link_open", "a", 1)
            link.attrSet("href", url)
            link.attrSet("class", "term")
            out.extend([link, _text(text[start:end]), Token("link_close", "a", -1)])
            cursor = end
        if cursor < len(text):
            out.append(_text(text[cursor:]))
    return out


def _mentions(text: str, links: Links, seen: set[str]) -> list[tuple[int, int, str]]:
    found = []
    if links.linker is not None and links.href is not None:
        for start, end, target in links.linker.find(text):
            if target.slug != links.self_slug and target.slug not in seen:
                seen.add(target.slug)
                found.append((start, end, links.href(target)))
    if links.rule is not None:
        for start, end, number in rule_references(text):
            url = links.rule(number)
            if url:
                found.append((start, end, url))
    return sorted(found)


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
