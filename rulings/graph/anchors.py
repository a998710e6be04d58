"""Anchors for the blocks of a term's text that stay with the block from version to version.

A forum post links ``.../v/1.2/terms/keywords#overkill`` or ``...#p-if-a-hero-defends``: the link
must show the same words in every build, and the paragraph a later version revises keeps its
anchor. Anchors are assigned term by term, revision by revision in version order, each from the
revisions before it only, so adding a later version never changes an earlier anchor:

* a numbered rule's anchor is its number (``702.19b``), and its *thread* names the subrule across
  revisions whatever its number (``lineage.threads``: a subrule renumbered or re-lettered keeps it);
* a block that opens a sub-definition takes the slug of its name (``overkill``, ``uses-x-type``),
  the same anchor for that name in every revision;
* any other block inherits the anchor of the block it continues in the previous revision (the same
  text, else the closest revision of it, in order), else of the same text in any earlier revision (an
  edition inserted between two others never renames the later one's paragraphs); a block that
  continues none gets a new anchor from its first words (``p-if-a-hero-defends``), never one the term
  has used before.
"""

from __future__ import annotations

import re

from ..ingest.model import Block
from ..text import comparable, name_key, slugify, words
from .identity import Term
from .lineage import thread_numbered
from .merge import MATCH, revises

FIRST_WORDS = 4
STEP_NUMBER = re.compile(r"^\s*\d{1,2}[.)]\s+")


class _Anchors:
    """The anchors one term has handed out, so none is ever reused with another meaning."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.by_name: dict[str, str] = {}  # sub-definition name key -> its anchor

    def fresh(self, base: str) -> str:
        anchor, n = base, 2
        while anchor in self.used:
            anchor, n = f"{base}-{n}", n + 1
        self.used.add(anchor)
        return anchor

    def for_name(self, name: str) -> str:
        key = name_key(name)
        if key not in self.by_name:
            self.by_name[key] = self.fresh(slugify(name))
        return self.by_name[key]

    def for_text(self, text: str) -> str:
        content = STEP_NUMBER.sub("", text)  # a step's number is its place, not its words
        return self.fresh("p-" + slugify(" ".join(words(content)[:FIRST_WORDS])))


def assign_anchors(term: Term) -> None:
    """Give every block of every revision of ``term`` its anchor (see module docstring)."""
    book = _Anchors()
    previous: list[Block] = []
    earlier: dict[str, str] = {}  # a text any earlier revision had -> the anchor it had first
    threads: set[str] = set()
    for revision in term.revisions:
        thread_numbered(revision.blocks, previous, threads)
        here: set[str] = set()
        for block in revision.blocks:
            block.anchor = None
            if block.number:
                block.anchor = block.number
            elif block.opens:
                block.anchor = book.for_name(block.opens)
            if block.anchor in here:  # the same name twice in one text: the second is its own block
                block.anchor = book.fresh(block.anchor)
            if block.anchor:
                book.used.add(block.anchor)
                here.add(block.anchor)
        plain = [b for b in revision.blocks if b.anchor is None]
        inherited = _continued(plain, [b for b in previous if not b.number and not b.opens])
        inherited.update(_seen_before(plain, earlier, inherited, here))
        for block in plain:
            anchor = inherited.get(id(block))
            block.anchor = anchor if anchor and anchor not in here else book.for_text(block.text)
            here.add(block.anchor)
        previous = revision.blocks
        for block in plain:
            earlier.setdefault(comparable(block.text), block.anchor or "")


def _seen_before(blocks: list[Block], earlier: dict[str, str], found: dict[int, str], here: set[str]) -> dict[int, str]:
    """A block that continues nothing in the revision before but whose words an earlier revision had takes
    the anchor they had: an edition inserted between two others (a misprint, a text later undone) never
    renames a paragraph of the editions after it."""
    out: dict[int, str] = {}
    taken = set(found.values()) | here
    for block in blocks:
        if id(block) in found:
            continue
        anchor = earlier.get(comparable(block.text))
        if anchor and anchor not in taken:
            out[id(block)] = anchor
            taken.add(anchor)
    return out


def _continued(blocks: list[Block], before: list[Block]) -> dict[int, str]:
    """For each block (by id) the anchor of the earlier block it continues, if any.

    Identical text first (in either order), then the closest revision (``merge.revises`` >= 0.5)
    among the earlier blocks left, keeping the order of the text: a block may only continue an
    earlier block that lies between those its neighbours continue.
    """
    found: dict[int, int] = {}  # index in blocks -> index in before
    free = list(range(len(before)))
    texts = [comparable(b.text) for b in before]
    for i, block in enumerate(blocks):
        same = comparable(block.text)
        j = next((j for j in free if texts[j] == same), None)
        if j is not None:
            found[i] = j
            free.remove(j)
    for i, block in enumerate(blocks):
        if i in found:
            continue
        low = max((found[k] for k in found if k < i), default=-1)
        high = min((found[k] for k in found if k > i), default=len(before))
        scored = [(revises(before[j].text, block.text), j) for j in free if low < j < high]
        if scored:
            score, j = max(scored)
            if score >= MATCH:
                found[i] = j
                free.remove(j)
    return {id(blocks[i]): before[j].anchor for i, j in found.items() if before[j].anchor}
