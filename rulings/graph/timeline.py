"""A game's timeline: one ordered list of versions (label and date), and which document sits where.

Versions come from changelog headers, from the ``version``/``date`` of documents in ``game.toml``
and from ``[[versions]]``. A dated, versioned full document (reference, rulebook, FAQ) is a
**snapshot** of its version; a changelog version is a **delta**; undated documents belong to no
version. Everything downstream walks this list in order, so manifest order never matters.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from ..ingest.manifest import DocumentSpec, GameManifest
from ..ingest.model import ChangelogVersion, ParsedDocument
from .identity import Term
from .rows import UNSTATED as UNDATED_LABEL  # the only version of unversioned documents

SNAPSHOT_KINDS = ("reference", "rulebook", "faq")
KIND_ORDER = ("reference", "rulebook", "faq", "player-aid")  # whose text wins, by default, within a version


def precedence_key(spec: DocumentSpec, precedence: list[str]) -> tuple[int, int]:
    """Where a document stands when several of one version define a term: the manifest's ``precedence``
    (a file, then a kind), then the kind order reference > rulebook > faq > player aid."""
    named = precedence.index(spec.file) if spec.file in precedence else None
    if named is None and spec.kind in precedence:
        named = precedence.index(spec.kind)
    kind = KIND_ORDER.index(spec.kind) if spec.kind in KIND_ORDER else len(KIND_ORDER)
    return (named if named is not None else len(precedence), kind)


@dataclass
class Version:
    label: str
    date: dt.date | None
    parent: str | None = None
    document: str | None = None  # slug of the document that declares it
    line: int | None = None
    notes: list[str] = field(default_factory=list)
    contents: list[Term] = field(default_factory=list)  # the versioned terms in document order (set by the walk)


def version_key(label: str) -> tuple:
    """Sort key for labels: "1.4.2" after "1.4", "1.10" after "1.9"; numbers before words ("2e")."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part.lower()) for part in re.findall(r"\d+|[^\d.\-]+", label)
    )


@dataclass
class Snapshot:
    """A complete document at its version: the whole truth for the entries of its series."""

    spec: DocumentSpec
    doc: ParsedDocument
    label: str
    position: int  # in game.toml, to keep documents of one version in a stable order
    rank: tuple[int, int] = (0, 0)  # precedence among the documents of its version (``precedence_key``)

    @property
    def series(self) -> str:
        return self.spec.series or self.spec.kind

    @property
    def incomplete(self) -> bool:
        """game.toml says this edition is not whole: what it lacks is not removed (``completeness.py``)."""
        return self.spec.incomplete is not None


@dataclass
class Delta:
    """One changelog version: what changed between the version before and this one."""

    spec: DocumentSpec
    change: ChangelogVersion

    @property
    def label(self) -> str:
        return self.change.label


@dataclass
class Documents:
    """A game's parsed documents sorted by their place on the timeline."""

    snapshots: list[Snapshot]
    deltas: list[Delta]
    undated: list[tuple[DocumentSpec, ParsedDocument]]

    def snapshots_at(self, label: str) -> list[Snapshot]:
        return [s for s in self.snapshots if s.label == label]

    def deltas_at(self, label: str) -> list[Delta]:
        return [d for d in self.deltas if d.label == label]

    def ordered(self) -> list[tuple[DocumentSpec, ParsedDocument]]:
        """Every document, undated ones first, then by version: the order rulings claim their ids in."""
        dated = sorted(self.snapshots, key=lambda s: (version_key(s.label), s.rank, s.position))
        return [*self.undated, *((s.spec, s.doc) for s in dated)]


def sort_documents(
    parsed: list[tuple[DocumentSpec, ParsedDocument]], versions: list[Version], precedence: Sequence[str] = ()
) -> Documents:
    """Snapshots, deltas and undated documents, each in timeline order; snapshots of one version in order
    of precedence, so the one whose text a shared term shows comes first (manifest order breaks ties)."""
    only = versions[0].label if len(versions) == 1 else None
    snapshots: list[Snapshot] = []
    deltas: list[Delta] = []
    undated: list[tuple[DocumentSpec, ParsedDocument]] = []
    for position, (spec, doc) in enumerate(parsed):
        if spec.kind == "changelog":
            deltas.extend(Delta(spec, change) for change in doc.versions)
            continue
        label = spec.version or doc.version_label or only
        if label and spec.kind in SNAPSHOT_KINDS:
            snapshots.append(Snapshot(spec, doc, label, position, precedence_key(spec, list(precedence))))
        else:
            undated.append((spec, doc))
    snapshots.sort(key=lambda s: (version_key(s.label), s.rank, s.position))
    deltas.sort(key=lambda d: version_key(d.label))
    return Documents(snapshots, deltas, undated)


def build_timeline(
    manifest: GameManifest,
    parsed: list[tuple[DocumentSpec, ParsedDocument]],
    warn: Callable[[str, int | None, str], None],
) -> list[Version]:
    """Every version the documents and the manifest name, in order; dating problems are warned about."""
    found: dict[str, Version] = {}
    for spec, doc in parsed:
        for v in doc.versions:
            found.setdefault(v.label, Version(v.label, v.date, v.parent, spec.slug, v.line))
            if found[v.label].date is None:
                found[v.label].date = v.date
    for spec, doc in parsed:
        label = spec.version or doc.version_label
        if label and spec.kind != "changelog":
            version = found.setdefault(label, Version(label, spec.date, None, spec.slug))
            version.date = version.date or spec.date
    for item in manifest.versions:
        version = found.setdefault(item["label"], Version(item["label"], item["date"], item.get("parent"), "game.toml"))
        version.date = item["date"] or version.date
    if not found:
        dates = [spec.date for spec, _ in parsed if spec.date]
        found[UNDATED_LABEL] = Version(
            UNDATED_LABEL, min(dates) if dates else None, notes=["The only version: the documents are not versioned."]
        )
    versions = sorted(found.values(), key=lambda v: version_key(v.label))
    paths = {spec.slug: spec.display_path for spec, _ in parsed}
    toml = f"corpus/{manifest.slug}/game.toml"

    def where(v: Version) -> tuple[str, int | None]:
        return (paths[v.document], v.line) if v.document in paths else (toml, None)

    for earlier, later in pairwise(versions):
        if earlier.date and later.date and earlier.date > later.date:
            warn(
                *where(later), f"version {later.label} ({later.date}) is dated before {earlier.label} ({earlier.date})"
            )
    for v in versions:
        if v.date is None and len(versions) > 1:
            warn(
                *where(v),
                f"version {v.label} has no date: give it in game.toml [[versions]] "
                "(until then, date questions cannot reach it)",
            )
    return versions
