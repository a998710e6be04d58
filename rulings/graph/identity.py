"""Term identity: which record a name means, across aliases, OCR spellings, typos and renames."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from ..ingest.model import Block
from ..text import base_key, heading_key, name_key

# Lower ranks win when two terms answer to the same name.
RANK = {"name": 0, "subdef": 1, "alias": 2, "former": 3, "spelling": 3, "section": 4, "section-alias": 5}


def name_rank(kind: str, how: str) -> int:
    """How strongly a name points at its term: glossary names beat aliases, and both beat the names of
    sections and numbered rules (the glossary's "Trample" before rule 702.19 "Trample")."""
    if kind in ("section", "rule") and how in ("name", "alias"):
        return RANK["section" if how == "name" else "section-alias"]
    return RANK[how]


def glossary_kind(kind: str) -> bool:
    """Glossary entries and keywords on one side, document sections and numbered rules on the other."""
    return kind not in ("section", "rule")


@dataclass
class Revision:
    """A term's text as of one version (only versions that changed it get one).

    ``complete`` is False where the exact text cannot be vouched for (a patch that could not be
    applied, a reconstructed earlier text). ``inferred`` is True where no document says the change
    happened in this version: a snapshot differs from text derived from deltas, so the change
    happened at the latest in this version ("first seen", "changed at the latest in").
    """

    version: str
    name: str
    blocks: list[Block]
    change: str  # introduced | amended | replaced | patched | reworked | removed
    complete: bool
    source: dict
    see_also: list[str] = field(default_factory=list)
    redirect: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    inferred: bool = False
    number: str | None = None  # the number this version prints a numbered rule or section under

    @property
    def removed(self) -> bool:
        return self.change == "removed"


@dataclass
class Term:
    """A glossary entry, keyword, section or numbered rule, with every name it has gone by."""

    kind: str  # entry | keyword | section | rule
    names: list[str]
    document: str  # slug of the document that first defines it
    line: int
    path: list[str] = field(default_factory=list)
    lineage: str = "versioned"  # terms of one lineage merge by name; others never do
    revisions: list[Revision] = field(default_factory=list)
    former: list[str] = field(default_factory=list)  # names before a rename
    spellings: list[str] = field(default_factory=list)
    later_names: list[tuple[str, str]] = field(default_factory=list)  # (alias, version) a later edition added
    number: str | None = None  # a numbered rule or section: its number in the latest edition that has it
    series: set[str] = field(default_factory=set)  # the snapshot series whose editions hold it
    slug: str = ""

    @property
    def name(self) -> str:
        return self.revisions[-1].name if self.revisions else self.names[0]

    @property
    def current(self) -> Revision | None:
        """The latest revision so far (the state, while versions are walked in order)."""
        return self.revisions[-1] if self.revisions else None

    @property
    def in_force(self) -> bool:
        return bool(self.revisions) and not self.revisions[-1].removed

    def all_names(self) -> list[str]:
        seen: list[str] = []
        later = [name for name, _ in self.later_names]
        for name in [*self.names, *later, *(r.name for r in self.revisions), *self.former, *self.spellings]:
            if name not in seen:
                seen.append(name)
        return seen


class NameIndex:
    """Finds terms by any of their names; ties go to glossary names over aliases and sections."""

    def __init__(self) -> None:
        self._by_key: dict[str, list[tuple[int, int, Term]]] = {}
        self._by_base: dict[str, dict[int, Term]] = {}  # base key -> terms (no qualifiers, no X)
        self._order = 0

    def add(self, term: Term, name: str, how: str) -> None:
        key = name_key(name)
        if not key:
            return
        rank = name_rank(term.kind, how)
        bucket = self._by_key.setdefault(key, [])
        if any(t is term for _, _, t in bucket):
            return
        self._by_base.setdefault(base_key(name), {})[id(term)] = term
        self._order += 1
        bucket.append((rank, self._order, term))
        bucket.sort(key=lambda item: (item[0], item[1]))

    def add_term(self, term: Term) -> None:
        for i, name in enumerate(term.names):
            self.add(term, name, "name" if i == 0 else "alias")
        for name in term.former:
            self.add(term, name, "former")
        for name in term.spellings:
            self.add(term, name, "spelling")

    def get(self, name: str, lineage: str | None = None) -> Term | None:
        return next(self.candidates(name, lineage), None)

    def candidates(self, name: str, lineage: str | None = None) -> Iterator[Term]:
        """Every term answering to ``name``, best first."""
        for _, _, term in self._by_key.get(name_key(name), []):
            if lineage is None or term.lineage == lineage:
                yield term

    def continued(self, name: str, kind: str, lineage: str) -> tuple[Term, str] | None:
        """The term an entry of ``kind`` printed under ``name`` continues, and how the name matched it:
        ``"name"`` (the same heading) or ``"form"`` (the same name in another form, "Keyword" for
        "Keywords", only between two entries of one side of ``glossary_kind``). A glossary entry and a
        section whose names differ ("Player Deck", the deck in play; "Player Decks", the appendix on
        building one) are two terms unless a document says otherwise (a declared rename, the same heading).
        """
        found = list(self.candidates(name, lineage))
        printed = heading_key(name)
        same = [t for t in found if printed in {heading_key(n) for n in t.all_names()}]
        side = [t for t in found if glossary_kind(t.kind) == glossary_kind(kind)]
        same.sort(key=lambda t: glossary_kind(t.kind) != glossary_kind(kind))  # stable: rank order within
        if same:
            return same[0], "name"
        return (side[0], "form") if side else None

    def by_base(self, name: str, lineage: str) -> Term | None:
        """The one term whose name, without qualifiers or variables, is this name's base."""
        found = [
            t for t in self._by_base.get(base_key(name), {}).values() if t.lineage == lineage and t.kind != "section"
        ]
        return found[0] if len(found) == 1 else None

    def near(self, term: Term, lineage: str, cutoff: float = 0.85) -> Term | None:
        """Another term whose name differs from this one's by a typo ("Villanous" / "Villainous")."""
        key = name_key(term.names[0])
        if len(key) <= 4:
            return None
        matcher = SequenceMatcher(None, b=key)
        best, best_score = None, cutoff
        for other, bucket in self._by_key.items():
            matcher.set_seq1(other)
            if other == key or matcher.real_quick_ratio() <= best_score or matcher.quick_ratio() <= best_score:
                continue
            score = matcher.ratio()
            if score > best_score:
                for _, _, candidate in bucket:
                    if candidate.lineage == lineage and candidate is not term:
                        best, best_score = candidate, score
                        break
        return best
