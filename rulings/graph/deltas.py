"""Applying a delta: one changelog version's entries and patch lines, on the text in force before it.

An entry for a term the state lacks introduces it with the changelog's text. An entry for a known
term (the same heading, a declared rename, or the same name in another form on the same side of
glossary / sections: ``resolve``) replaces or amends its text (``merge.py``: the restatement rule,
unit-aware amend). A replacement is printed text; an amended text is assembled (the changelog gives
the changed passages, not where each goes) and so never ``complete``. A patch line is applied
exactly when it determines the new text (``merge.undetermined``: its old words found once, both
quotes ending on the same word); otherwise nothing is spliced in: the revision keeps the last known
text, is marked incomplete and shows the patch verbatim in a note. Every change a version makes to
one term lands in that term's one revision for the version. docs/versions.md states the rules.
"""

from __future__ import annotations

import re
from copy import copy

from ..ingest.manifest import DocumentSpec
from ..ingest.model import Block, ChangelogEntry, Entry, Patch
from ..text import base_key, name_key, split_names
from . import merge
from .identity import Revision, Term
from .state import VERSIONED, State
from .timeline import Delta
from .units import mark_openers

LEFT, RIGHT = "\u201c", "\u201d"


def entry_kind(name: str) -> str:
    """What a changelog heading names: an appendix is a section of the document, anything else an entry."""
    return "section" if name_key(name).startswith("appendix") else "entry"


def resolve(state: State, name: str, version: str) -> tuple[Term | None, str]:
    """The term a changelog name means, and how it was found (rename | name | form | base | new).

    A glossary entry never continues a section of a similar name ("Player Deck" is not the appendix
    "Player Decks"): only the same heading or a declared rename crosses that line (``NameIndex.continued``).
    """
    name = state.canonical(name)
    rename = state.rename(name, version)
    if rename is not None:
        term = state.index.get(rename.old, VERSIONED)
        if term is not None:
            return term, "rename"
    kind = entry_kind(name)
    for candidate in [name, *split_names(name)]:
        found = state.index.continued(state.canonical(candidate), kind, VERSIONED)
        if found is not None:
            return found
    if name_key(name) != base_key(name):
        term = state.index.by_base(name, VERSIONED)
        if term is not None:
            return term, "base"
    return None, "new"


def apply_delta(state: State, delta: Delta) -> None:
    """Every entry and patch line of one changelog version (see module docstring)."""
    label, spec = delta.label, delta.spec
    seen: dict[int, ChangelogEntry] = {}
    for entry in delta.change.entries:
        if not entry.name:
            state.warn(spec.display_path, entry.line, "changelog text without an entry name was not applied")
            continue
        term, how = resolve(state, entry.name, label)
        if term is not None and id(term) in seen:
            state.warn(
                spec.display_path,
                entry.line,
                f"{label} lists {LEFT}{entry.name}{RIGHT} twice (also line {seen[id(term)].line}); "
                "the second is kept as its own entry \u2014 correct its name in game.toml [[corrections]]",
            )
            term, how = None, "duplicate"
        if term is None:
            term = _new_term(state, entry, spec, label, how)
        else:
            _explain_merge(state, term, entry, label, spec, how)
        seen[id(term)] = entry
        apply_entry(state, term, entry, label, spec, how)
    for patch in delta.change.patches:
        apply_patch(state, patch, label, spec)


MERGES = {
    "rename": "a rename game.toml [[renames]] declares",
    "form": "the same name in another form (singular or plural)",
    "base": "the same name without its qualifier or variable",
}


def _explain_merge(state: State, term: Term, entry: ChangelogEntry, label: str, spec: DocumentSpec, how: str) -> None:
    """Say in the build report why a changelog name continues a term printed under another name."""
    if how not in MERGES or term.current is None:
        return
    state.merged(
        spec.display_path,
        entry.line,
        f"{label}: {LEFT}{entry.name}{RIGHT} continues {LEFT}{term.current.name}{RIGHT} ({term.kind}): {MERGES[how]}",
    )


def _new_term(state: State, entry: ChangelogEntry, spec: DocumentSpec, label: str, how: str) -> Term:
    names = split_names(entry.name) if "," in entry.name else [entry.name]
    term = state.new_term(Entry(entry_kind(names[0]), names, entry.line), spec)
    if how == "duplicate":
        term.names = [f"{state.canonical(names[0])} ({label}, line {entry.line})"]
        state.index.add_term(term)
    if spec.series or state.series_now:
        term.series.add(spec.series or state.series_now or "")
    state.place(term)
    return term


def _display_name(state: State, term: Term, entry: ChangelogEntry, label: str, how: str) -> str:
    """The name the term goes by from this version.

    A changelog heading that repeats a known name ("Ability, Card ability") keeps the current display
    name; a rename brings its new name (the old one is kept as a former name).
    """
    prev = term.current
    display = term.names[0] if how in ("new", "duplicate") else state.canonical(split_names(entry.name)[0])
    if how in ("name", "form") and prev is not None and name_key(display) in {name_key(n) for n in term.all_names()}:
        display = prev.name
    if how in ("rename", "base") and prev is not None and name_key(display) != name_key(prev.name):
        if prev.name not in term.former:
            term.former.append(prev.name)
        state.index.add(term, display, "alias")
        state.index.add(term, prev.name, "former")
        if how == "base":
            state.suggestions.append(
                f"{label}: treated {LEFT}{display}{RIGHT} as the new name of {LEFT}{prev.name}{RIGHT} (same name "
                "without its qualifier); declare it in game.toml [[renames]] to confirm"
            )
    return display


def apply_entry(state: State, term: Term, entry: ChangelogEntry, label: str, spec: DocumentSpec, how: str) -> None:
    """One changelog entry: introduce, replace (restatement) or amend the term's text."""
    prev = term.current if term.in_force else None
    display = _display_name(state, term, entry, label, how)
    blocks = mark_openers([copy(b) for b in entry.blocks])
    source = state.source(spec, entry.line, version=label)
    see_also = list(entry.see_also) or (list(prev.see_also) if prev else [])
    revision = Revision(label, display, blocks, "introduced", True, source, see_also=see_also)
    if prev is None:
        revision.see_also = list(entry.see_also)
        revision.notes.append(f"Added in {label}: text from the changelog.")
    elif prev.redirect and not prev.blocks:
        revision.change = "replaced"
        revision.notes.append(
            f"Until {label} this entry only pointed to {', '.join(prev.redirect)}; {label} gives it its own text."
        )
    elif merge.is_restatement(prev.blocks, blocks, term.all_names()):
        revision.change = "replaced"
        revision.notes.append(f"The {label} changelog restates this entry in full; its text replaces the earlier one.")
    else:
        revision.change, revision.complete = "amended", False
        revision.blocks = merge.amend(prev.blocks, blocks)
        revision.redirect = list(prev.redirect)
        revision.notes.append(
            f"The {label} changelog lists changed passages; they were merged into the earlier text paragraph by "
            "paragraph (a sub-definition replaces the one of the same name whole). No document prints this "
            "text whole: where each passage goes is worked out, not given."
        )
        if not prev.complete:
            revision.notes.append("The earlier text was not fully known either.")
    state.revise(term, revision)


# -- patch lines -------------------------------------------------------------------------------
def apply_patch(state: State, patch: Patch, label: str, spec: DocumentSpec) -> None:
    """One patch line; every patch of a version to one term lands in that term's one revision."""
    where = spec.display_path
    if patch.op == "add-section":
        _add_section(state, patch, label, spec)
        return
    if patch.op == "unknown" or not patch.target:
        state.warn(where, patch.line, f"patch line not understood, not applied: {patch.raw}")
        return
    term, _ = resolve(state, patch.target, label)
    if term is None or not term.in_force:
        state.warn(
            where, patch.line, f"patch names {LEFT}{patch.target}{RIGHT}, which no earlier version defines; not applied"
        )
        return
    revision = _revision_for(state, term, patch, label, spec)
    if patch.op == "rework":
        revision.change, revision.complete = "reworked", False
        revision.notes.append(
            f"{label} reworked this whole section; the changelog does not give the new text. "
            "Shown: the text it replaced."
        )
    elif patch.op == "replace":
        _replace_quote(state, term, revision, patch, label, where)
    elif patch.op == "add":
        text = re.sub(r"^\s*[\u2022\-*]\s*", "", patch.new or "").strip()
        bullet = bool(re.match(r"^\s*[\u2022\-*]", patch.new or ""))
        revision.blocks.extend(mark_openers([Block(text, patch.line, "bullet" if bullet else "para")]))
        revision.complete = False
        revision.notes.append(
            f"Added in {label}: {LEFT}{text}{RIGHT}. The changelog does not say where in the entry; it is shown at "
            "the end."
        )
    elif patch.op == "add-to-list":
        _add_to_sentence(revision, patch, label)


def _add_section(state: State, patch: Patch, label: str, spec: DocumentSpec) -> None:
    entry = Entry("section", [state.canonical(patch.target or f"Page {patch.page} section")], patch.line)
    if state.index.get(entry.names[0], VERSIONED) is not None:
        state.warn(
            spec.display_path,
            patch.line,
            f"{label} says it added the section {LEFT}{entry.names[0]}{RIGHT}, which already exists; not applied",
        )
        return
    term = state.new_term(entry, spec)
    if state.series_now:
        term.series.add(state.series_now)
    state.place(term)
    state.revise(
        term,
        Revision(
            label,
            entry.names[0],
            [],
            "introduced",
            False,
            state.source(spec, patch.line, version=label, page=patch.page),
            notes=[f"{label} added this section (p. {patch.page}); the changelog does not give its text."],
        ),
    )


def _revision_for(state: State, term: Term, patch: Patch, label: str, spec: DocumentSpec) -> Revision:
    """The term's revision for this version, opened by its first patch (the text before it, copied)."""
    current = term.current
    assert current is not None
    if current.version == label:
        return current
    revision = Revision(
        label,
        current.name,
        current.blocks,
        "patched",
        current.complete,
        state.source(spec, patch.line, version=label, page=patch.page),
        see_also=list(current.see_also),
        redirect=list(current.redirect),
    )
    if not current.complete:
        revision.notes.append("The text before this patch was not fully known.")
    return state.revise(term, revision)


WHY_NOT = {
    "missing": "the known text does not contain {old}",
    "repeated": "the known text has {old} more than once, and the patch does not say which",
    "ends": "the two quotes end on different words, so what follows them in the new text is not given",
    "starts": "the two quotes begin on different words, so what precedes them in the new text is not given",
}


def _replace_quote(state: State, term: Term, revision: Revision, patch: Patch, label: str, where: str) -> None:
    """Apply a patch that determines the new text (``merge.undetermined``); else keep the known text and say why."""
    old, new = patch.old or "", patch.new or ""
    why = merge.undetermined(revision.blocks, old, new)
    if why is None:
        merge.replace_quote(revision.blocks, old, new)
        revision.notes.append(f"Patched: {LEFT}{old}{RIGHT} \u2192 {LEFT}{new}{RIGHT}.")
        return
    revision.complete = False
    reason = WHY_NOT[why].format(old=f"{LEFT}{old}{RIGHT}")
    revision.notes.append(
        f"{label} changes {LEFT}{old}{RIGHT} to {LEFT}{new}{RIGHT}, but {reason}: "
        f"shown as it read in {_text_before(term, label)}."
    )
    if why in ("missing", "repeated"):
        state.warn(
            where,
            patch.line,
            f"patch text {LEFT}{old}{RIGHT} {'not found' if why == 'missing' else 'found more than once'} in "
            f"{LEFT}{term.name}{RIGHT}; the revision is marked incomplete",
        )


def _text_before(term: Term, label: str) -> str:
    """The version whose text a revision of ``label`` started from."""
    before = [r for r in term.revisions if r.version != label]
    return before[-1].version if before else label


def _add_to_sentence(revision: Revision, patch: Patch, label: str) -> None:
    """``X added to "<the whole new sentence>"``: the most similar sentence becomes the new one."""
    found = merge.find_sentence(revision.blocks, patch.new or "")
    if found:
        i, sentence = found
        revision.blocks[i].text = revision.blocks[i].text.replace(sentence, patch.new or "")
        revision.notes.append(f"{patch.old} added to the list: {LEFT}{patch.new}{RIGHT}.")
        return
    revision.blocks.append(Block(patch.new or "", patch.line, "para"))
    revision.complete = False
    revision.notes.append(
        f"{label} adds {patch.old} to a sentence the known text does not contain; the changelog's sentence is "
        f"shown at the end: {LEFT}{patch.new}{RIGHT}."
    )
