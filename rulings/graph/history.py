"""Assemble a game's terms and their revisions by walking its timeline in order.

The model (docs/versions.md): a complete document at a version is a **snapshot**, the whole truth
for its series at that version (``snapshots.py``); a changelog version is a **delta** applied to the
text in force before it (``deltas.py``); a version with neither carries everything over. The state
at a version depends only on the documents at versions up to it (and, for the versions before the
first snapshot, on that snapshot read backwards), so adding a later document never changes what an
earlier version says: the walk never looks ahead. Slugs, anchors and ruling ids are then claimed in
that same order (``builder.py``, ``anchors.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Diagnostic
from ..ingest.manifest import DocumentSpec, GameManifest
from ..ingest.model import ParsedDocument
from .anchors import assign_anchors
from .completeness import check_editions
from .deltas import apply_delta
from .identity import Term
from .snapshots import apply_edition, first_edition, knowledge
from .state import State
from .suggestions import adopt_spellings, suggest_renames
from .timeline import Documents, Version, build_timeline, sort_documents, version_key


@dataclass
class Assembly:
    versions: list[Version]
    terms: list[Term]
    documents: Documents
    diagnostics: list[Diagnostic]
    suggestions: list[str]


class Assembler:
    """Builds one game's versions and terms from its parsed documents (see module docstring)."""

    def __init__(self, manifest: GameManifest, parsed: list[tuple[DocumentSpec, ParsedDocument]]):
        self.manifest = manifest
        self.parsed = parsed

    def run(self) -> Assembly:
        state = State(self.manifest)
        versions = build_timeline(self.manifest, self.parsed, state.warn)
        documents = sort_documents(self.parsed, versions, self.manifest.precedence)
        check_editions(documents, versions, state.warn)
        walk(state, versions, documents)
        add_undated(state, documents, versions[0].label)
        suggest_renames(state, versions[0].label)
        adopt_spellings(state)
        for term in state.terms:
            assign_anchors(term)
        return Assembly(versions, state.terms, documents, state.diagnostics, state.suggestions)


def walk(state: State, versions: list[Version], documents: Documents) -> None:
    """Every version in order: its snapshots, else its deltas, else everything carried over."""
    first_snapshot = documents.snapshots[0].label if documents.snapshots else None
    start = version_key(first_snapshot or versions[0].label)
    for i, version in enumerate(versions):
        if version_key(version.label) < start:
            continue  # reconstructed from the first snapshot, when it comes
        snapshots, deltas = documents.snapshots_at(version.label), documents.deltas_at(version.label)
        before = documents.snapshots_at(versions[i - 1].label) if i else []
        if version.label == first_snapshot:
            for snapshot in snapshots:
                first_edition(state, snapshot, knowledge(state, snapshot, deltas, before, i == 0), versions[:i])
        elif snapshots:
            for snapshot in snapshots:
                apply_edition(state, snapshot, knowledge(state, snapshot, deltas, before, i == 0))
        elif any(d.change.entries or d.change.patches for d in deltas):
            for delta in deltas:
                apply_delta(state, delta)
        elif i:
            version.notes.append(_carried_over(version, deltas))
        version.contents = state.contents()


def _carried_over(version: Version, deltas: list) -> str:
    if deltas:
        return (
            f"The changelog lists no changes for {version.label}; every term is carried over unchanged "
            "from the version before."
        )
    return f"No document gives the changes of {version.label}; every term is carried over from the version before."


def add_undated(state: State, documents: Documents, first: str) -> None:
    """Documents tied to no version (a player aid): each its own lineage, at the first version."""
    for spec, doc in documents.undated:
        official = "" if spec.official else " (unofficial)"
        for entry in doc.entries:
            term = state.new_term(entry, spec, spec.slug)
            revision = state.entry_revision(spec, entry, first)
            revision.notes.append(f"From {spec.title}, which is not tied to a rules version{official}.")
            state.revise(term, revision)
