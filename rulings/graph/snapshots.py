"""Applying a snapshot: a complete edition is the whole truth at its version for the terms of its series.

Each entry of the edition is matched to the term the state already has (by rule number, a declared
rename, or a name), then compared with the text in force: the same text (``comparable()``) makes no
revision, another text a new one, a term the state lacks is introduced, and a term of the series the
edition no longer has is removed. Whether the change is *known* to have happened at this version or
only *inferred* (it happened at the latest here) depends on what the documents say:

* known when the version before had an edition of the same series (two complete editions in a row),
  when this is the first version, when a changelog of this version lists the term, or when the
  edition's own change notes name it;
* otherwise inferred: a term first seen here is "first seen", never back-dated.

The first edition of a game, when versions precede it, also reconstructs those earlier versions
backwards from its own change notes and the changelog of its version (``first_edition``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ingest.model import ChangelogEntry, Entry, blocks_markdown
from ..text import comparable, containment, name_key, split_names
from .identity import Revision, Term
from .lineage import continuations, heading_words
from .merge import ABSORB
from .state import VERSIONED, State
from .timeline import Delta, Snapshot, Version, version_key


@dataclass
class Knowledge:
    """What the documents say about the version a snapshot is applied at."""

    first_version: bool = False  # nothing came before
    after_edition: bool = False  # the version before had an edition of the same series
    listed: dict[str, ChangelogEntry] = field(default_factory=dict)  # name key -> a changelog entry of this version
    added: set[str] = field(default_factory=set)  # name keys the edition's own change notes say it added
    changed: set[str] = field(default_factory=set)  # ... say it changed

    def introduced_known(self, keys: set[str]) -> bool:
        return self.first_version or self.after_edition or bool(keys & (set(self.listed) | self.added))

    def change_known(self, keys: set[str]) -> bool:
        return self.after_edition or bool(keys & (set(self.listed) | self.changed | self.added))


def knowledge(state: State, snapshot: Snapshot, deltas: list[Delta], before: list[Snapshot], first: bool) -> Knowledge:
    listed: dict[str, ChangelogEntry] = {}
    for delta in deltas:
        for entry in delta.change.entries:
            for part in split_names(entry.name):
                listed[name_key(state.canonical(part))] = entry
    notes = snapshot.doc.change_notes
    return Knowledge(
        first_version=first,
        after_edition=any(s.series == snapshot.series for s in before),
        listed=listed,
        added={name_key(n.target) for n in notes if n.action == "added"},
        changed={name_key(n.target) for n in notes if n.action != "added"},
    )


def entry_keys(state: State, entry: Entry) -> set[str]:
    return {name_key(state.canonical(n)) for n in entry.names}


def _glossary(kind: str) -> bool:
    return kind not in ("section", "rule")


def match(state: State, entry: Entry, version: str, taken: set[int], continued: dict[int, Term]) -> Term | None:
    """The term an edition's entry continues: a numbered entry by lineage (``continued``, from
    ``lineage.continuations``), any other by declared rename, then its names (first name first).

    A term already matched by another entry of this edition is never matched twice, and glossary
    entries and sections never merge.
    """
    if entry.number:
        term = continued.get(id(entry))
        return term if term is not None and id(term) not in taken else None

    def usable(term: Term) -> bool:
        return id(term) not in taken and term.number is None and _glossary(term.kind) == _glossary(entry.kind)

    for name in entry.names:
        rename = state.rename(name, version)
        if rename is not None:
            found = next((t for t in state.index.candidates(rename.old, VERSIONED) if usable(t)), None)
            if found is not None:
                return found
    for name in entry.names:
        found = [t for t in state.index.candidates(state.canonical(name), VERSIONED) if usable(t)]
        found.sort(key=lambda t: t.path != entry.path)  # stable: same place in the document first
        if found:
            return found[0]
    return None


def same_text(revision: Revision, new: Revision) -> bool:
    """Would ``new`` say nothing ``revision`` does not (number, name, text, links), formatting aside?"""
    if revision.number != new.number:
        return False
    old_text, new_text = blocks_markdown(revision.blocks), blocks_markdown(new.blocks)
    if (revision.name, old_text, revision.see_also, revision.redirect) == (
        new.name,
        new_text,
        new.see_also,
        new.redirect,
    ):
        return True  # most entries of a new edition are printed exactly as before
    return (
        comparable(revision.name) == comparable(new.name)
        and comparable(old_text) == comparable(new_text)
        and [comparable(s) for s in revision.see_also] == [comparable(s) for s in new.see_also]
        and [comparable(r) for r in revision.redirect] == [comparable(r) for r in new.redirect]
    )


def retitled(previous: Revision, new: Revision) -> bool:
    """Whether a term's name changed, not just the number a numbered rule or section's name carries."""
    if previous.number and new.number:
        return heading_words(previous.name, previous.number) != heading_words(new.name, new.number)
    return comparable(new.name) != comparable(previous.name)


def renumbered_only(previous: Revision, new: Revision) -> bool:
    """A numbered rule printed under another number with the same title and words, formatting aside."""
    if previous.number == new.number or retitled(previous, new) or len(previous.blocks) != len(new.blocks):
        return False
    return all(comparable(a.text) == comparable(b.text) for a, b in zip(previous.blocks, new.blocks, strict=True))


def apply_edition(state: State, snapshot: Snapshot, known: Knowledge) -> None:
    """A later edition: revise, introduce and remove terms of its series (see module docstring)."""
    label, title = snapshot.label, snapshot.spec.title
    taken: set[int] = set()
    contents: list[Term] = []
    continued = continuations(state.numbered(), snapshot.doc.entries)
    for entry in snapshot.doc.entries:
        term = match(state, entry, label, taken, continued)
        held = state.held_elsewhere(term, entry, snapshot)
        if held is not None:  # a document of higher precedence gives this term its text
            state.also(held, snapshot, entry)
            taken.add(id(term))
            term.series.add(snapshot.series)
            continue
        new = state.entry_revision(snapshot.spec, entry, label)
        keys = entry_keys(state, entry)
        if term is None:
            term = state.new_term(entry, snapshot.spec)
        else:
            state.add_names(term, entry.names, label)
        taken.add(id(term))
        term.series.add(snapshot.series)
        contents.append(term)
        previous = term.current
        if previous is None or previous.removed:
            _introduce(state, term, new, known, keys, title, previous)
        elif not same_text(previous, new):
            _replace(state, term, new, known, keys, title, previous)
        state.give(term, term.current, snapshot)
    for term in state.order:
        if id(term) not in taken and term.in_force and snapshot.series in term.series and not snapshot.incomplete:
            term.series.discard(snapshot.series)
            giver = state.given.get(id(term))
            if giver is not None and giver.series == snapshot.series:
                del state.given[id(term)]  # its text stays until a document still defining it revises it
            if not term.series:  # no document of another series (a reference beside a rulebook) still has it
                _remove(state, term, snapshot, known)
    state.order = contents + [t for t in state.order if id(t) not in taken and t.in_force]
    state.series_now = snapshot.series


def _introduce(
    state: State, term: Term, new: Revision, known: Knowledge, keys: set[str], title: str, previous: Revision | None
) -> None:
    label = new.version
    if previous is not None:
        new.notes.append(f"Back in {title} {label} after its removal in {previous.version}.")
    if known.introduced_known(keys):
        if keys & (set(known.listed) | known.added):
            new.notes.append(f"{label} lists this as added in {label}.")
        elif known.after_edition:
            new.notes.append(f"New in {title} {label}: the edition before did not have it.")
    else:
        new.inferred = True
        new.notes.append(f"First seen in {title} {label}: added at the latest in {label}; not listed in any changelog.")
    state.revise(term, new)


def _replace(
    state: State, term: Term, new: Revision, known: Knowledge, keys: set[str], title: str, previous: Revision
) -> None:
    label = new.version
    new.change = "renumbered" if renumbered_only(previous, new) else "replaced"
    if retitled(previous, new) and previous.name not in term.former:
        term.former.append(previous.name)  # a declared rename, or a numbered rule with a new title
        state.index.add(term, previous.name, "former")
    if previous.number != new.number:
        new.notes.append(f"Numbered {previous.number} until {previous.version}; {new.number} from {label}.")
    if known.change_known(keys):
        new.notes.append(f"Text of {title} {label}.")
    else:
        new.inferred = True
        new.notes.append(
            f"Text of {title} {label}. It differs from the {previous.version} text and no changelog lists the "
            f"change, so it changed at the latest in {label}."
        )
    state.revise(term, new)


def _remove(state: State, term: Term, snapshot: Snapshot, known: Knowledge) -> None:
    previous = term.current
    assert previous is not None
    label, title = snapshot.label, snapshot.spec.title
    revision = Revision(
        label, previous.name, [], "removed", True, state.source(snapshot.spec, None), inferred=not known.after_edition
    )
    if known.after_edition:
        revision.notes.append(f"{title} {label} no longer has this entry: removed in {label}.")
    else:
        revision.notes.append(
            f"{title} {label} does not have this entry: removed at the latest in {label}; no changelog lists it."
        )
    state.revise(term, revision)


# -- the first edition, and the versions before it -------------------------------------------------
def first_edition(state: State, snapshot: Snapshot, known: Knowledge, earlier: list[Version]) -> None:
    """The first edition of a game; versions before it are reconstructed backwards from it.

    An entry the edition's change notes say it added is introduced at its version. An entry that
    its change notes or the changelog of its version list as changed has an earlier text: the
    edition's text without the passages listed as added (incomplete). Any other entry is taken to
    have read the same since the first version, as the edition itself says by not listing it.
    """
    label, title = snapshot.label, snapshot.spec.title
    first = earlier[0].label if earlier else label
    changed = known.changed | (set(known.listed) - known.added)
    taken: set[int] = set()
    contents: list[Term] = []
    continued = continuations(state.numbered(), snapshot.doc.entries) if state.order else {}
    for entry in snapshot.doc.entries:
        term = match(state, entry, label, taken, continued) if state.order else None
        held = state.held_elsewhere(term, entry, snapshot)
        if held is not None:  # the same term in a document of higher precedence: one term, this text a source
            state.also(held, snapshot, entry)
            taken.add(id(term))
            term.series.add(snapshot.series)
            continue
        if term is None or any(r.version == label for r in term.revisions):
            term = state.new_term(entry, snapshot.spec)  # two entries of one name in one edition stay apart
        taken.add(id(term))
        term.series.add(snapshot.series)
        contents.append(term)
        keys = entry_keys(state, entry)
        revision = state.entry_revision(snapshot.spec, entry, label)
        if not earlier or keys & known.added:
            if earlier:
                revision.notes.append(f"{title} {label} says this was added in {label}.")
        elif keys & changed:
            listed = next((known.listed[k] for k in sorted(keys) if k in known.listed), None)
            state.revise(term, reconstruct_earlier(state, snapshot, entry, first, listed))
            revision.change = "amended"
            revision.notes.append(f"{title} {label} lists this among its changes since {earlier[-1].label}.")
        else:
            revision.version = first
            revision.notes.append(f"Text of {title} {label}, which lists no change to it since {first}.")
        state.give(term, state.revise(term, revision), snapshot)
    state.order = contents + [t for t in state.order if id(t) not in taken]
    state.series_now = snapshot.series
    for version in earlier:
        at = version_key(version.label)
        version.contents = [t for t in state.order if t.revisions and version_key(t.revisions[0].version) <= at]


def reconstruct_earlier(
    state: State, snapshot: Snapshot, entry: Entry, first: str, change: ChangelogEntry | None
) -> Revision:
    """The text before the edition: its text minus the passages the changelog says its version added."""
    label = snapshot.label
    revision = state.entry_revision(snapshot.spec, entry, first)
    revision.complete = False
    revision.source["reconstructed"] = True
    if change is None:
        revision.notes.append(f"{label} changed this entry; its earlier text is not recorded.")
        return revision
    kept = [b for b in revision.blocks if not any(containment(b.text, c.text) >= ABSORB for c in change.blocks)]
    revision.blocks = kept
    if kept:
        revision.notes.append(f"Reconstructed: the {label} text without the passages the changelog lists for {label}.")
    else:
        revision.notes.append(
            f"Everything in the {label} text is listed as added or changed in {label}, so the earlier text is unknown."
        )
    return revision
