"""Sub-definitions inside an entry: which blocks open one, and the unit each one heads.

A KEYWORDS entry is a list of small definitions ("Overkill \u2014 ...", "Patrol: ...", a bullet
"\u2022 Uses (X "type"): ..."). A **unit** is the block that opens a sub-definition plus the blocks that
follow it up to the next opener or the end of the entry (the "Uses" definition runs over three
paragraphs). Units are what an amend replaces (never two Overkill definitions), what a sub-definition
anchor points at, and what the ``subdefs`` table and the search index hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ingest.model import Block, SubDefinition
from ..text import SUBDEF_PLAIN, clean_name, fold, name_key

# "Patrol: While a minion ..." -- a name of a few words, a colon, the definition.
SUBDEF_COLON = re.compile(r"^([A-Z][\w'\-/ ()\u201c\u201d\"]{0,40}?):\s+(\S.*)$")
MAX_NAME_WORDS = 4
# Words that open an ordinary paragraph with a colon; they name no definition.
DISCOURSE = frozenset({"note", "example", "for example", "exception", "see", "see also", "important", "reminder"})
SEPARATOR = re.compile(r"^[\s*_]*(?:[:\u2014\u2013]|-\s)\s*")


@dataclass(frozen=True)
class Unit:
    """A sub-definition: its name and the blocks ``start .. end - 1`` of its entry."""

    name: str
    start: int
    end: int

    @property
    def key(self) -> str:
        return name_key(self.name)


def _name_words(name: str) -> int:
    return len(re.sub(r"\([^)]*\)", " ", name).split())


def _pattern_name(text: str, colon: bool) -> str | None:
    """The name a block's text opens with, by its shape ("Name \u2014 ..." or, with ``colon``, "Name: ...")."""
    match = SUBDEF_PLAIN.match(text) or (SUBDEF_COLON.match(text) if colon else None)
    if not match:
        return None
    name = clean_name(match.group(1))
    if not name or _name_words(name) > MAX_NAME_WORDS or name_key(name) in DISCOURSE:
        return None
    return name


def _known_name(text: str, known: list[str]) -> str | None:
    """A name the parser found (a bold heading) that the text opens by defining."""
    folded = fold(text).lower().lstrip(" *_-")
    for name in known:
        head = fold(name).lower()
        if folded.startswith(head) and SEPARATOR.match(folded[len(head) :]):
            return name
    return None


def mark_openers(blocks: list[Block], known: list[str] | tuple[str, ...] = ()) -> list[Block]:
    """Set ``opens`` on the blocks that open a sub-definition; returns ``blocks``.

    A block opens one when it starts with a name the parser marked (bold) or has the shape
    "Name \u2014 definition". The shape "Name: definition" counts only where at least two blocks
    of the entry have it: a list of definitions, not a lone "Timing: ..." sentence. Numbered
    rules never open one (their number is their identity).
    """
    colon = sum(1 for b in blocks if not b.number and SUBDEF_COLON.match(b.text) and _pattern_name(b.text, True)) >= 2
    for block in blocks:
        if block.number:
            block.opens = None
            continue
        block.opens = _known_name(block.text, list(known)) or _pattern_name(block.text, colon)
    return blocks


def units(blocks: list[Block]) -> list[Unit]:
    """The sub-definition units of marked blocks, in order."""
    starts = [i for i, b in enumerate(blocks) if b.opens]
    ends = [*starts[1:], len(blocks)] if starts else []
    return [Unit(blocks[s].opens or "", s, e) for s, e in zip(starts, ends, strict=True)]


def definition_text(block: Block) -> str:
    """An opener's text without its name and separator ("Guard \u2014 While ..." -> "While ...")."""
    name = block.opens or ""
    text = block.text.lstrip(" *_-\u2022")
    if fold(text).lower().startswith(fold(name).lower()):
        rest = text[len(name) :]
        separator = SEPARATOR.match(rest)
        if separator:
            return rest[separator.end() :].strip()
    match = SUBDEF_PLAIN.match(text) or SUBDEF_COLON.match(text)
    return match.group(2).strip() if match else text


def subdefinitions(blocks: list[Block]) -> list[tuple[SubDefinition, str | None]]:
    """The sub-definitions of marked blocks: name, the unit's text (its paragraphs joined), and the
    opener's anchor, which is the sub-definition's anchor."""
    out = []
    for unit in units(blocks):
        opener = blocks[unit.start]
        parts = [definition_text(opener), *(b.text for b in blocks[unit.start + 1 : unit.end])]
        out.append((SubDefinition(unit.name, "\n\n".join(p for p in parts if p), opener.line), opener.anchor))
    return out
