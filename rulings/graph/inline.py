"""Inline text prepared for pages: markdown rendered once, and where glossary names and rule numbers
could be linked, so showing it only picks the links its version allows (``web/render.py``).

A prepared paragraph is a list of pieces: HTML (markup, escaped) as strings, and runs of linkable
text as ``[text, names, rules]`` where ``names`` are the places a name could start a mention
(``Linker.candidates``) and ``rules`` the rule numbers the text cites (``citations``). The build
prepares every block of every revision with a linker of every name the game ever had and stores
it (``blocks.inline``; ``blocks.inline_cased`` for the sentence-cased display of ALL CAPS sources);
a page then takes, with the linker of the version it shows, exactly the links rendering the text
afresh would give. Texts that are not blocks (rulings, answers) are prepared when shown, the same way.
"""

from __future__ import annotations

import json
import re

from markdown_it.token import Token

from ..markup import _md
from .citations import rule_references
from .mentions import Linker

STEP = re.compile(r"^(\d+)\.\s+")  # a numbered step's own number ("3. Draw a card"), shown as the list's
Pieces = list  # [str | [text, candidates, rule references], ...]


def prepare_inline(markdown: str, linker: Linker | None) -> Pieces:
    """One paragraph of inline markdown as pieces: its HTML, with its linkable text runs kept apart.

    Text inside a link is not linkable (it is HTML already); everything else outside markup is.
    """
    pieces: Pieces = []
    for token in _md().parseInline(markdown or ""):
        pieces += prepare_children(token.children or [], linker)
    return pieces


def prepare_children(children: list[Token], linker: Linker | None) -> Pieces:
    """The children of one inline token (a paragraph, a list item's text) as pieces."""
    md = _md()
    pieces: Pieces = []
    depth, start = 0, 0
    for i, child in enumerate(children):
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close":
            depth -= 1
        if child.type == "text" and depth == 0:
            _html(pieces, md, children[start:i])
            found = linker.candidates(child.content) if linker is not None else []
            pieces.append([child.content, found, rule_references(child.content)])
            start = i + 1
    _html(pieces, md, children[start:])
    return pieces


def _html(pieces: Pieces, md, tokens: list[Token]) -> None:
    if tokens:
        html = md.renderer.renderInline(tokens, md.options, {})
        if pieces and isinstance(pieces[-1], str):
            pieces[-1] += html
        else:
            pieces.append(html)


def prepare_block(text: str, kind: str, linker: Linker | None) -> tuple[str | None, list[Pieces]]:
    """A block's paragraphs (it may hold an "Example: ..." of its own) prepared; a step's number apart."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()] or [""]
    value = None
    if kind == "step":
        number = STEP.match(paragraphs[0])
        if number:
            value = number.group(1)
            paragraphs[0] = paragraphs[0][number.end() :]
    return value, [prepare_inline(p, linker) for p in paragraphs]


def dumps(prepared: tuple[str | None, list[Pieces]]) -> str:
    return json.dumps(prepared, ensure_ascii=False, separators=(",", ":"))


def loads(stored: list[str]) -> list[tuple[str | None, list[Pieces]]]:
    """Prepared blocks (what ``dumps`` stored), decoded in one call: a text shows several blocks."""
    return json.loads(f"[{','.join(stored)}]")
