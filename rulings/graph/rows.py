"""The rows a built graph is read as (games, versions, terms, revisions, blocks) and the SQL columns each is
read from: what every reader of the graph (``store.py`` and the modules beside it) hands its callers."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    id: int
    slug: str
    name: str
    aliases: list[str]


@dataclass(frozen=True)
class VersionRow:
    id: int
    label: str
    date: str | None
    parent: str | None
    ordinal: int
    notes: list[str]
    stated: bool = True  # False for the one version of a game whose documents name none ("1"): never shown
    documented: bool = True  # a document puts it on the timeline (not only game.toml's [[versions]])
    changed: int = 0  # how many terms it gave a revision

    @property
    def quiet(self) -> bool:
        """A version its documents say changed nothing (a changelog listing no entries): shown as such on
        the game's home, and no footnote of every term."""
        return self.documented and not self.changed

    @property
    def term_notes(self) -> list[str]:
        """The version's notes a term's answer and page carry: none for a quiet version."""
        return [] if self.quiet else self.notes


UNSTATED = "1"  # the label the timeline gives the only version of unversioned documents (graph/timeline.py)


@dataclass(frozen=True)
class TermRow:
    id: int
    slug: str
    name: str
    kind: str
    path: list[str]
    document: str
    line: int
    lineage: str
    number: str | None = None  # numbered rules and sections ("702.19", "702")


@dataclass(frozen=True)
class RevisionRow:
    id: int
    term_id: int
    version: str
    date: str | None
    ordinal: int
    name: str
    text: str
    change: str
    complete: bool
    source: dict
    see_also: list[str]
    redirect: list[str]
    notes: list[str]
    inferred: bool = False  # no document dates the change: it happened at the latest in this version
    summary: str = ""  # the text's opening in plain words (``markup.excerpt``), made by the build
    number: str | None = None  # the number this version prints a numbered rule or section under

    @property
    def removed(self) -> bool:
        return self.change == "removed"


@dataclass(frozen=True)
class BlockRow:
    """One paragraph, bullet, step or numbered rule of a revision, with its lasting anchor."""

    revision_id: int
    position: int
    anchor: str
    kind: str
    depth: int
    number: str | None
    text: str
    inline: str | None = None  # the text prepared for pages (graph/inline.py)
    inline_cased: str | None = None  # ... in sentence case, when the revision is written in ALL CAPS
    thread: str | None = None  # a numbered block's lineage in its term, whatever its number


REVISION_COLUMNS = (
    "r.id, r.term_id, v.label, v.date, r.ordinal, r.name, r.text, r.change, r.complete, "
    "r.source, r.see_also, r.redirect, r.notes, r.inferred, r.summary, r.number"
)
# The same packed in a JSON array (``term_sheet.term_sheet``): the columns holding JSON text nest as JSON, decoded
# with the rest in one call rather than four calls a revision.
PACKED_REVISION_COLUMNS = (
    "r.id, r.term_id, v.label, v.date, r.ordinal, r.name, r.text, r.change, r.complete, "
    "json(r.source), json(r.see_also), json(r.redirect), json(r.notes), r.inferred, r.summary, r.number"
)
SELECT_REVISION = f"SELECT {REVISION_COLUMNS} FROM revisions r JOIN versions v ON v.id = r.version_id "
BLOCK_COLUMNS = (
    "b.revision_id, b.position, b.anchor, b.kind, b.depth, b.number, b.text, b.inline, b.inline_cased, b.thread"
)
SELECT_BLOCK = f"SELECT {BLOCK_COLUMNS} FROM blocks b "
SUBDEF_COLUMNS = "s.id, s.name, s.anchor, s.text"
TERM_COLUMNS = "t.id, t.slug, t.name, t.kind, t.path, d.slug, t.line, t.lineage, t.number"
TERMS_FROM = "FROM terms t JOIN documents d ON d.id = t.document_id"
# The revision ``r`` is the one of its term in force at the version whose ordinal is the next parameter.
IN_FORCE = "r.ordinal = (SELECT MAX(o.ordinal) FROM revisions o WHERE o.term_id = r.term_id AND o.ordinal <= ?)"


def revision_row(row, nested: bool = False) -> RevisionRow:
    """A revision from its columns; ``nested``: its JSON columns come decoded (``PACKED_REVISION_COLUMNS``)."""
    load = _decoded if nested else json.loads
    return RevisionRow(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        bool(row[8]),
        load(row[9]),
        load(row[10]),
        load(row[11]),
        load(row[12]),
        bool(row[13]),
        row[14],
        row[15],
    )


def _decoded(value):
    return value


def aliases_among(term: TermRow, names: list[tuple[str, str]]) -> list[str]:
    """The other names a term goes by (aliases and former names), from its (name, how) pairs."""
    out = []
    for name, how in names:
        if how in ("alias", "former") and name != term.name and name not in out:
            out.append(name)
    return out


def subdef_row(row) -> dict:
    return dict(id=row[0], name=row[1], anchor=row[2], text=row[3])


def term_row(row) -> TermRow:
    """A term from its columns (``TERM_COLUMNS``)."""
    return TermRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7], row[8])


SELECT_TERM = f"SELECT {TERM_COLUMNS} {TERMS_FROM} "
