"""What the walk over a game's timeline has established so far: its terms and how to find them.

Shared by the phases of assembly (``snapshots.py``, ``deltas.py``, ``suggestions.py``): the terms
with their revisions (the last revision of each is the text in force at the version being walked),
the name and number indexes, the curated spellings and renames of ``game.toml``, the versioned
terms in document order, and the warnings found on the way.
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass

from ..errors import Diagnostic
from ..ingest.manifest import DocumentSpec, GameManifest, Rename
from ..ingest.model import Entry
from ..text import name_key
from .identity import NameIndex, Revision, Term
from .timeline import Snapshot, version_key
from .units import mark_openers

VERSIONED = "versioned"  # the lineage of every term the versions of a game define


@dataclass
class Giver:
    """The document whose text of a term is shown: it holds the term against documents of lower
    precedence at its own version and, while its series still defines the term, at later ones."""

    revision: Revision
    document: str  # its slug
    series: str
    version: str
    rank: tuple[int, int]  # ``precedence_key``: lower wins


class State:
    def __init__(self, manifest: GameManifest):
        self.manifest = manifest
        self.terms: list[Term] = []
        self.index = NameIndex()
        self.order: list[Term] = []  # versioned terms in document order, as of the version being walked
        self.series_now: str | None = None  # the series of the latest edition walked: what deltas amend
        self.given: dict[int, Giver] = {}  # id(term) -> the snapshot that gave the text shown
        self.diagnostics: list[Diagnostic] = list(manifest.diagnostics)  # the manifest's own warnings first
        self.suggestions: list[str] = []
        self._spellings = {name_key(k): v for k, v in manifest.spellings.items()}
        self._renames = {name_key(r.new): r for r in manifest.renames}

    def warn(self, path: str, line: int | None, message: str) -> None:
        self.diagnostics.append(Diagnostic("warning", path, line, message))

    def merged(self, path: str, line: int | None, message: str) -> None:
        """Explain, in the build report, a name taken for a term printed under another name."""
        self.diagnostics.append(Diagnostic("merge", path, line, message))

    def canonical(self, name: str) -> str:
        """The name a misspelling means (``[spellings]`` of game.toml), else the name itself."""
        return self._spellings.get(name_key(name), name)

    def rename(self, name: str, version: str) -> Rename | None:
        """The declared rename that gives ``name`` to an older term, if in force by ``version``."""
        rename = self._renames.get(name_key(self.canonical(name)))
        if rename and (rename.version is None or version_key(rename.version) <= version_key(version)):
            return rename
        return None

    @staticmethod
    def source(spec: DocumentSpec, line: int | None, **extra) -> dict:
        return {"document": spec.slug, "title": spec.title, "file": spec.file, "line": line, **extra}

    def new_term(self, entry: Entry, spec: DocumentSpec, lineage: str = VERSIONED) -> Term:
        names = _unique([self.canonical(n) for n in entry.names])
        # misspellings game.toml maps, and what the document printed (a heading's every name, an OCR form)
        spellings = [n for n in [*entry.names, *entry.spellings] if self.canonical(n) != n or n in entry.spellings]
        term = Term(
            entry.kind,
            names,
            spec.slug,
            entry.line,
            list(entry.path),
            lineage,
            spellings=spellings,
            number=entry.number,
        )
        self.terms.append(term)
        self.index.add_term(term)
        return term

    def add_names(self, term: Term, names: list[str], version: str) -> None:
        """Names a later edition gives a term (a second heading name) become its aliases from ``version``."""
        for name in (self.canonical(n) for n in names):
            if name_key(name) not in {name_key(n) for n in term.all_names()}:
                term.later_names.append((name, version))
                self.index.add(term, name, "alias")

    def entry_revision(self, spec: DocumentSpec, entry: Entry, version: str) -> Revision:
        """A document's text of an entry as a revision at ``version`` (the caller sets change and notes)."""
        blocks = mark_openers([copy(b) for b in entry.blocks], [s.name for s in entry.subdefs])
        return Revision(
            version,
            self.canonical(entry.names[0]),
            blocks,
            "introduced",
            True,
            self.source(spec, entry.line),
            see_also=list(entry.see_also),
            redirect=list(entry.redirect),
            number=entry.number,
        )

    def give(self, term: Term, revision: Revision, snapshot: Snapshot) -> Revision:
        """``snapshot`` gave ``term`` the text it shows from ``revision`` on."""
        self.given[id(term)] = Giver(revision, snapshot.spec.slug, snapshot.series, snapshot.label, snapshot.rank)
        return revision

    def held_elsewhere(self, term: Term | None, entry: Entry, snapshot: Snapshot) -> Giver | None:
        """The giver of a glossary term this entry also names, when it outranks ``snapshot``: another
        document of this version (snapshots of a version come in order of precedence), or one of higher
        precedence of an earlier version whose series still defines the term (a newer rulebook does not
        override the reference still in force)."""
        if term is None or entry.kind in ("section", "rule"):
            return None
        giver = self.given.get(id(term))
        if giver is None or giver.document == snapshot.spec.slug:
            return None
        if giver.version == snapshot.label:
            return giver
        still_defined = giver.series in term.series and giver.series != snapshot.series
        return giver if still_defined and giver.rank < snapshot.rank else None

    def also(self, giver: Giver, snapshot: Snapshot, entry: Entry) -> None:
        """Keep a lower-precedence document's text of a term as a further source of the revision shown,
        when that revision is of this version: a revision of an earlier version says what it said then."""
        if giver.version != snapshot.label:
            return
        spec = snapshot.spec
        giver.revision.source.setdefault("also", []).append(
            {"document": spec.slug, "title": spec.title, "file": spec.file, "kind": spec.kind, "line": entry.line,
             "text": entry.text, "see_also": list(entry.see_also), "redirect": list(entry.redirect)}
        )  # fmt: skip

    @staticmethod
    def revise(term: Term, revision: Revision) -> Revision:
        """Append a revision that owns its blocks (anchors and patches never reach an earlier one)."""
        revision.blocks = [copy(b) for b in revision.blocks]  # blocks hold only strings: a shallow copy is enough
        term.revisions.append(revision)
        if revision.number:
            term.number = revision.number
        return revision

    def numbered(self) -> list[Term]:
        """The numbered rules and sections in force now (what an edition's numbered entries may continue)."""
        return [t for t in self.order if t.number is not None and t.in_force]

    def place(self, term: Term) -> None:
        """Put a term a delta introduced into the document order: by name among the glossary entries."""
        if term in self.order:
            return
        if term.kind in ("section", "rule"):
            self.order.append(term)
            return
        key = name_key(term.name)
        at, last = None, None
        for i, other in enumerate(self.order):
            if other.kind in ("section", "rule"):
                continue
            last = i
            if name_key(other.name) > key:
                at = i
                break
        self.order.insert(at if at is not None else (last + 1 if last is not None else len(self.order)), term)

    def contents(self) -> list[Term]:
        """The versioned terms in force now, in document order."""
        return [t for t in self.order if t.in_force]


def _unique(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if name_key(name) not in {name_key(n) for n in out}:
            out.append(name)
    return out
