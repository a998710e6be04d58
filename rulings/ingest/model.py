"""What parsers produce: plain data, independent of storage.

Every record keeps the source lines it came from, so a build can prove that
no line of rules text was silently dropped (see ``ParsedDocument.coverage``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ..errors import Diagnostic


@dataclass
class Block:
    """A paragraph, bullet, numbered step or numbered rule of an entry's text (markdown-ish).

    A ``rule`` block carries its number ("702.19b") apart from its text, which is the rule's
    words and any "Example:" paragraphs that follow it in the document. The graph marks the
    sub-definition a block opens (``opens``) and gives every block an ``anchor`` that stays with
    it across versions (``rulings.graph.anchors``).
    """

    text: str
    line: int
    kind: str = "para"  # para | bullet | step | rule
    depth: int = 0
    number: str | None = None  # a numbered rule's number: "702.19", "702.19b"
    opens: str | None = None  # the sub-definition this block opens ("Overkill"), set by the graph
    anchor: str | None = None  # set by the graph
    thread: str | None = None  # set by the graph: a numbered block's lineage within its term (its first number)

    def markdown(self) -> str:
        indent = "  " * self.depth
        if self.kind == "bullet":
            return f"{indent}- {self.text}"
        if self.kind == "step":
            return f"{indent}{self.text}"
        if self.kind == "rule" and self.number:  # as printed: "702.19. text", "702.19b text"
            return f"{self.number}{'' if self.number[-1].isalpha() else '.'} {self.text}"
        return self.text


def blocks_markdown(blocks: list[Block]) -> str:
    """Join blocks: consecutive list items stay one list, paragraphs are separated."""
    out: list[str] = []
    previous = None
    for block in blocks:
        listy = block.kind in ("bullet", "step")
        if out and not (listy and previous in ("bullet", "step")):
            out.append("")
        out.append(block.markdown())
        previous = block.kind
    return "\n".join(out)


@dataclass
class SubDefinition:
    """A named definition inside an entry (a keyword under KEYWORDS, a status card...)."""

    name: str
    text: str
    line: int


@dataclass
class Entry:
    """A glossary entry, keyword definition, document section or numbered rule.

    Kinds: ``entry`` (a glossary term), ``keyword``, ``section`` (a part of the document;
    numbered chapters and sections carry ``number`` "7" / "702"), ``rule`` (a numbered rule,
    ``number`` "702.19", its text and subrules as ``rule`` blocks).
    """

    kind: str  # entry | keyword | section | rule
    names: list[str]
    line: int
    blocks: list[Block] = field(default_factory=list)
    see_also: list[str] = field(default_factory=list)
    redirect: list[str] = field(default_factory=list)
    subdefs: list[SubDefinition] = field(default_factory=list)
    path: list[str] = field(default_factory=list)  # enclosing section titles
    lines: list[int] = field(default_factory=list)
    number: str | None = None  # numbered chapters, sections and rules: "7", "702", "702.19"
    why: str = ""  # why the parser made this entry (the build report's --explain)
    spellings: list[str] = field(default_factory=list)  # names it answers to but never shows (heading as printed)

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def text(self) -> str:
        return blocks_markdown(self.blocks)


@dataclass
class Ruling:
    """A FAQ answer, card clarification, errata or designer note."""

    kind: str  # faq | clarification | errata | note
    title: str
    line: int
    text: str = ""
    question: str | None = None
    answer: str | None = None
    card: str | None = None
    cards: list[str] = field(default_factory=list)
    card_set: str | None = None
    card_number: str | None = None
    group: str | None = None  # hero / villain / environment / section it sits under
    group_kind: str | None = None  # general | hero | villain | environment | card
    section: str | None = None  # the part of the document (CHARACTERS, VILLAINS...)
    expansion: str | None = None
    sources: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


@dataclass
class ChangeNote:
    """One line of a document's own change notes ("Page 15: Expanded the definition of X")."""

    action: str  # added | expanded | changed
    target: str
    page: str | None
    line: int
    lines: list[int] = field(default_factory=list)


@dataclass
class ChangelogEntry:
    name: str
    line: int
    blocks: list[Block] = field(default_factory=list)
    see_also: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    @property
    def text(self) -> str:
        return blocks_markdown(self.blocks)


@dataclass
class Patch:
    """A terse patch line: ``p. 13, Excess Damage - "old..." -> "new..."``."""

    target: str | None
    page: str | None
    op: str  # replace | add | rework | add-to-list | add-section | unknown (reported, not applied)
    line: int
    old: str | None = None
    new: str | None = None
    raw: str = ""


@dataclass
class ChangelogVersion:
    label: str
    date: dt.date | None
    parent: str | None
    line: int
    entries: list[ChangelogEntry] = field(default_factory=list)
    patches: list[Patch] = field(default_factory=list)


@dataclass
class ParsedDocument:
    """Everything one parser pulled out of one document."""

    entries: list[Entry] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    change_notes: list[ChangeNote] = field(default_factory=list)
    versions: list[ChangelogVersion] = field(default_factory=list)
    version_label: str | None = None  # a version the document states about itself
    effective_date: dt.date | None = None  # a date the document states it takes effect
    furniture: dict[int, str] = field(default_factory=dict)  # line -> why it was dropped
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parser: str = ""  # which parser family read it (recorded with the document)

    def covered_lines(self) -> set[int]:
        covered: set[int] = set(self.furniture)
        for entry in self.entries:
            covered.update(entry.lines)
        for ruling in self.rulings:
            covered.update(ruling.lines)
        for note in self.change_notes:
            covered.add(note.line)
            covered.update(note.lines)
        for version in self.versions:
            covered.add(version.line)
            for change in version.entries:
                covered.update(change.lines)
            covered.update(p.line for p in version.patches)
        return covered

    def uncovered(self, lines: list[str]) -> list[int]:
        """Non-blank source lines that are in no record and not listed as furniture."""
        covered = self.covered_lines()
        return [n for n, text in enumerate(lines, 1) if text.strip() and n not in covered]
