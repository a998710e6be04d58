"""Assemble a game's terms and their revisions, version by version.

Starting point: the full documents (a Rules Reference at its version). Versions
before it are reconstructed from the document's own change notes and the
changelog ("what 1.1 added or expanded since 1.0"); versions after it apply the
changelog's entries (``merge.py`` decides replace vs amend) and patch lines.
Everything not vouched for by a document is marked ``complete=False`` with a
note saying why.
"""

from __future__ import annotations

import datetime as dt
import re
from copy import deepcopy
from dataclasses import dataclass, field
from itertools import pairwise

from ..errors import Diagnostic
from ..ingest.manifest import DocumentSpec, GameManifest
from ..ingest.model import Block, ChangelogEntry, Entry, ParsedDocument, Patch, SubDefinition
from ..text import SUBDEF_PLAIN, base_key, clean_name, containment, name_key, similarity, split_names, words
from . import merge
from .identity import NameIndex, Revision, Term

UNDATED_LABEL = "1"


@dataclass
class Version:
    label: str
    date: dt.date | None
    parent: str | None = None
    document: str | None = None  # slug of the document that declares it
    line: int | None = None
    notes: list[str] = field(default_factory=list)


def version_key(label: str) -> tuple:
    """Sort key for labels: "1.4.2" after "1.4", "1.10" after "1.9"; numbers before words ("2e")."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part.lower()) for part in re.findall(r"\d+|[^\d.\-]+", label)
    )


@dataclass
class Assembly:
    versions: list[Version]
    terms: list[Term]
    diagnostics: list[Diagnostic]
    suggestions: list[str]


class Assembler:
    def __init__(self, manifest: GameManifest, parsed: list[tuple[DocumentSpec, ParsedDocument]]):
        self.manifest = manifest
        self.parsed = parsed
        self.diagnostics: list[Diagnostic] = []
        self.suggestions: list[str] = []
        self.index = NameIndex()
        self.terms: list[Term] = []
        self.spellings = {name_key(k): v for k, v in manifest.spellings.items()}
        self.renames = {name_key(r.new): r for r in manifest.renames}

    # -- versions -------------------------------------------------------
    def timeline(self) -> list[Version]:
        found: dict[str, Version] = {}
        for spec, doc in self.parsed:
            for v in doc.versions:
                found.setdefault(v.label, Version(v.label, v.date, v.parent, spec.slug, v.line))
                if found[v.label].date is None:
                    found[v.label].date = v.date
        for spec, doc in self.parsed:
            label = spec.version or doc.version_label
            if label and spec.kind != "changelog":
                version = found.setdefault(label, Version(label, spec.date, None, spec.slug))
                version.date = version.date or spec.date
        for item in self.manifest.versions:
            version = found.setdefault(
                item["label"], Version(item["label"], item["date"], item.get("parent"), "game.toml")
            )
            version.date = item["date"] or version.date
        if not found:
            dates = [spec.date for spec, _ in self.parsed if spec.date]
            found[UNDATED_LABEL] = Version(
                UNDATED_LABEL,
                min(dates) if dates else None,
                notes=["The only version: the documents are not versioned."],
            )
        versions = sorted(found.values(), key=lambda v: version_key(v.label))
        paths = {spec.slug: spec.display_path for spec, _ in self.parsed}
        manifest = f"corpus/{self.manifest.slug}/game.toml"

        def where(v: Version) -> tuple[str, int | None]:
            return (paths[v.document], v.line) if v.document in paths else (manifest, None)

        for earlier, later in pairwise(versions):
            if earlier.date and later.date and earlier.date > later.date:
                self.warn(
                    *where(later),
                    f"version {later.label} ({later.date}) is dated before {earlier.label} ({earlier.date})",
                )
        for v in versions:
            if v.date is None and len(versions) > 1:
                self.warn(
                    *where(v),
                    f"version {v.label} has no date: give it in game.toml [[versions]] "
                    "(until then, date questions cannot reach it)",
                )
        return versions

    def warn(self, path: str, line: int | None, message: str) -> None:
        self.diagnostics.append(Diagnostic("warning", path, line, message))

    # -- terms ------------------------------------------------------------
    def new_term(self, entry: Entry, spec: DocumentSpec, lineage: str) -> Term:
        names = [self.canonical(n) for n in entry.names]
        spellings = [n for n in entry.names if self.canonical(n) != n]
        term = Term(entry.kind, _unique(names), spec.slug, entry.line, list(entry.path), lineage, spellings=spellings)
        self.terms.append(term)
        self.index.add_term(term)
        return term

    def canonical(self, name: str) -> str:
        return self.spellings.get(name_key(name), name)

    def source(self, spec: DocumentSpec, line: int, **extra) -> dict:
        return {"document": spec.slug, "title": spec.title, "file": spec.file, "line": line, **extra}

    def base_revision(self, entry: Entry, version: str, spec: DocumentSpec) -> Revision:
        return Revision(
            version,
            self.canonical(entry.names[0]),
            deepcopy(entry.blocks),
            "introduced",
            True,
            self.source(spec, entry.line),
            list(entry.see_also),
            list(entry.redirect),
            deepcopy(entry.subdefs),
        )

    def run(self) -> Assembly:
        versions = self.timeline()
        labels = [v.label for v in versions]
        changelogs = [(spec, doc) for spec, doc in self.parsed if spec.kind == "changelog"]
        full = [(spec, doc) for spec, doc in self.parsed if spec.kind != "changelog"]
        versioned = [
            (s, d)
            for s, d in full
            if (s.version or d.version_label or len(labels) == 1) and s.kind in ("reference", "rulebook", "faq")
        ]
        versioned.sort(key=lambda sd: version_key(sd[0].version or sd[1].version_label or labels[0]))
        others = [(s, d) for s, d in full if (s, d) not in versioned]
        base_label = None
        for spec, doc in versioned:
            label = spec.version or doc.version_label or labels[0]
            base_label = base_label or label
            self.add_full_document(spec, doc, label, labels, changelogs)
        for spec, doc in others:
            self.add_undated_document(spec, doc, labels[0])
        changes = {v.label: (spec, v) for spec, doc in changelogs for v in doc.versions}
        for version in versions:
            if base_label and version_key(version.label) <= version_key(base_label):
                continue
            spec_v = changes.get(version.label)
            if spec_v is None:
                continue
            spec, change = spec_v
            if not change.entries and not change.patches:
                version.notes.append(
                    f"The changelog lists no changes for {version.label}; every term "
                    "is carried over unchanged from the version before."
                )
                continue
            self.apply_version(version.label, spec, change.entries, change.patches)
        self.suggest_renames(labels)
        for wrong, right in self.manifest.spellings.items():  # curated misspellings find their term
            term = self.index.get(right)
            if term is not None and wrong not in term.spellings:
                term.spellings.append(wrong)
                self.index.add(term, wrong, "spelling")
        return Assembly(versions, self.terms, self.diagnostics, self.suggestions)

    # -- full documents ----------------------------------------------------
    def add_full_document(self, spec, doc: ParsedDocument, label: str, labels: list[str], changelogs) -> None:
        earlier = [other for other in labels if version_key(other) < version_key(label)]
        first = earlier[0] if earlier else label
        changelog_here = {}
        for _, cl in changelogs:
            for v in cl.versions:
                if v.label == label:
                    for e in v.entries:
                        for part in split_names(e.name):
                            changelog_here[name_key(self.canonical(part))] = e
        added = {name_key(n.target) for n in doc.change_notes if n.action == "added"}
        changed = {name_key(n.target) for n in doc.change_notes if n.action != "added"}
        changed |= set(changelog_here) - added
        for entry in doc.entries:
            existing = self.index.get(entry.names[0], "versioned") if entry.kind != "section" else None
            if existing is not None and any(r.version == label for r in existing.revisions):
                existing = None  # two entries of one name in one document stay apart
            if existing is not None:
                revision = self.base_revision(entry, label, spec)
                revision.change = "replaced"
                revision.notes.append(f"Full text from {spec.title} {label}.")
                existing.revisions.append(revision)
                continue
            term = self.new_term(entry, spec, "versioned")
            keys = {name_key(self.canonical(n)) for n in entry.names}
            revision = self.base_revision(entry, label, spec)
            if not earlier or keys & added:
                if earlier:
                    revision.notes.append(f"{spec.title} {label} says this was added in {label}.")
                term.revisions.append(revision)
                continue
            if keys & changed:
                term.revisions.append(
                    self.reconstruct_earlier(
                        entry, first, label, spec, next((changelog_here[k] for k in keys if k in changelog_here), None)
                    )
                )
                revision.change = "amended"
                revision.notes.append(f"{spec.title} {label} lists this among its changes since {earlier[-1]}.")
                term.revisions.append(revision)
                continue
            revision.version = first
            if first != label:
                revision.notes.append(f"Text of {spec.title} {label}, which lists no change to it since {first}.")
            term.revisions.append(revision)

    def reconstruct_earlier(self, entry: Entry, first: str, label: str, spec, change: ChangelogEntry | None):
        """The text before ``label``: the full text minus what the changelog says ``label`` added."""
        listed = change.blocks if change else []
        kept = [b for b in entry.blocks if not any(containment(b.text, c.text) >= merge.ABSORB for c in listed)]
        note = (
            f"Reconstructed: the {label} text without the passages the changelog lists for {label}."
            if change
            else f"{label} changed this entry; its earlier text is not recorded."
        )
        if change and not kept:
            note = (
                f"Everything in the {label} text is listed as added or changed in {label}, so the "
                "earlier text is unknown."
            )
        if not change:
            kept = deepcopy(entry.blocks)
        return Revision(
            first,
            self.canonical(entry.names[0]),
            deepcopy(kept),
            "introduced",
            False,
            self.source(spec, entry.line, reconstructed=True),
            list(entry.see_also),
            list(entry.redirect),
            [s for s in entry.subdefs if any(s.name.lower() in b.text.lower() for b in kept)],
            [note],
        )

    def add_undated_document(self, spec, doc: ParsedDocument, first: str) -> None:
        for entry in doc.entries:
            term = self.new_term(entry, spec, spec.slug)
            revision = self.base_revision(entry, first, spec)
            revision.notes.append(
                f"From {spec.title}, which is not tied to a rules version"
                + ("" if spec.official else " (unofficial)")
                + "."
            )
            term.revisions.append(revision)

    # -- changelog ---------------------------------------------------------------
    def resolve(self, name: str, version: str) -> tuple[Term | None, str]:
        """The term a changelog name means, and how it was found."""
        name = self.canonical(name)
        rename = self.renames.get(name_key(name))
        if rename and (rename.version is None or version_key(rename.version) <= version_key(version)):
            term = self.index.get(rename.old, "versioned")
            if term is not None:
                return term, "rename"
        for candidate in [name, *split_names(name)]:
            term = self.index.get(self.canonical(candidate), "versioned")
            if term is not None:
                return term, "name"
        if name_key(name) != base_key(name):
            term = self.index.by_base(name, "versioned")
            if term is not None:
                return term, "base"
        return None, "new"

    def apply_version(self, label: str, spec, entries: list[ChangelogEntry], patches: list[Patch]) -> None:
        seen: dict[int, ChangelogEntry] = {}
        for entry in entries:
            if not entry.name:
                self.warn(spec.display_path, entry.line, "changelog text without an entry name was not applied")
                continue
            term, how = self.resolve(entry.name, label)
            if term is not None and id(term) in seen:
                self.warn(
                    spec.display_path,
                    entry.line,
                    f"{label} lists \u201c{entry.name}\u201d twice (also line {seen[id(term)].line}); "
                    "the second is kept as its own entry \u2014 correct its name in game.toml [[corrections]]",
                )
                term, how = None, "duplicate"
            if term is None:
                names = split_names(entry.name) if "," in entry.name else [entry.name]
                kind = "section" if name_key(names[0]).startswith("appendix") else "entry"
                fake = Entry(kind, names, entry.line)
                term = self.new_term(fake, spec, "versioned")
                if how == "duplicate":
                    term.names = [f"{self.canonical(names[0])} ({label}, line {entry.line})"]
                    self.index.add_term(term)
            seen[id(term)] = entry
            self.apply_entry(term, entry, label, spec, how)
        for patch in patches:
            self.apply_patch(patch, label, spec)

    def current(self, term: Term) -> Revision | None:
        return term.revisions[-1] if term.revisions else None

    def apply_entry(self, term: Term, entry: ChangelogEntry, label: str, spec, how: str) -> None:
        prev = self.current(term)
        # The name the term goes by from this version: a changelog heading that repeats a known name
        # ("Ability, Card ability") keeps the current display name; a rename brings its new name.
        display = term.names[0] if how in ("new", "duplicate") else self.canonical(split_names(entry.name)[0])
        if how == "name" and prev is not None and name_key(display) in {name_key(n) for n in term.all_names()}:
            display = prev.name
        if how in ("rename", "base") and prev is not None and name_key(display) != name_key(prev.name):
            if prev.name not in term.former:
                term.former.append(prev.name)
            self.index.add(term, display, "alias")
            self.index.add(term, prev.name, "former")
            if how == "base":
                self.suggestions.append(
                    f"{label}: treated \u201c{display}\u201d as the new name of "
                    f"\u201c{prev.name}\u201d (same name without its qualifier); declare it in "
                    "game.toml [[renames]] to confirm"
                )
        blocks = deepcopy(entry.blocks)
        source = self.source(spec, entry.line, version=label)
        subdefs = _subdefinitions(blocks)
        if prev is None:
            revision = Revision(
                label,
                display,
                blocks,
                "introduced",
                True,
                source,
                list(entry.see_also),
                [],
                subdefs,
                [f"Added in {label}: text from the changelog."],
            )
        elif prev.redirect and not prev.blocks:
            revision = Revision(
                label,
                display,
                blocks,
                "replaced",
                True,
                source,
                list(entry.see_also) or list(prev.see_also),
                [],
                subdefs,
                [
                    f"Until {label} this entry only pointed to "
                    f"{', '.join(prev.redirect)}; {label} gives it its own text."
                ],
            )
        elif merge.is_restatement(prev.blocks, blocks, term.all_names()):
            revision = Revision(
                label,
                display,
                blocks,
                "replaced",
                True,
                source,
                list(entry.see_also) or list(prev.see_also),
                [],
                subdefs or [],
                [f"The {label} changelog restates this entry in full; its text replaces the earlier one."],
            )
        else:
            merged = merge.amend(prev.blocks, blocks)
            revision = Revision(
                label,
                display,
                merged,
                "amended",
                prev.complete,
                source,
                list(entry.see_also) or list(prev.see_also),
                list(prev.redirect),
                _merge_subdefs(prev.subdefs, subdefs),
                [
                    f"The {label} changelog lists changed passages; they were merged into "
                    "the earlier text paragraph by paragraph."
                ],
            )
            if not prev.complete:
                revision.notes.append("The earlier text was not fully known, so neither is this one.")
        term.revisions.append(revision)

    def apply_patch(self, patch: Patch, label: str, spec) -> None:
        """One patch line; every patch of a version to one term lands in that term's one revision."""
        where = spec.display_path
        if patch.op == "add-section":
            entry = Entry("section", [self.canonical(patch.target or f"Page {patch.page} section")], patch.line)
            if self.index.get(entry.names[0], "versioned") is not None:
                self.warn(
                    where,
                    patch.line,
                    f"{label} says it added the section \u201c{entry.names[0]}\u201d, "
                    "which already exists; not applied",
                )
                return
            term = self.new_term(entry, spec, "versioned")
            term.revisions.append(
                Revision(
                    label,
                    entry.names[0],
                    [],
                    "introduced",
                    False,
                    self.source(spec, patch.line, version=label, page=patch.page),
                    notes=[f"{label} added this section (p. {patch.page}); the changelog does not give its text."],
                )
            )
            return
        if patch.op == "unknown" or not patch.target:
            self.warn(where, patch.line, f"patch line not understood, not applied: {patch.raw}")
            return
        term, _ = self.resolve(patch.target, label)
        if term is None or not term.revisions:
            self.warn(
                where,
                patch.line,
                f"patch names \u201c{patch.target}\u201d, which no earlier version defines; not applied",
            )
            return
        revision = self.current(term)
        if revision.version != label:  # the first change to this term in this version
            prev = revision
            revision = Revision(
                label,
                prev.name,
                deepcopy(prev.blocks),
                "patched",
                prev.complete,
                self.source(spec, patch.line, version=label, page=patch.page),
                list(prev.see_also),
                list(prev.redirect),
                deepcopy(prev.subdefs),
                [],
            )
            if not prev.complete:
                revision.notes.append("The text before this patch was not fully known.")
            term.revisions.append(revision)
        if patch.op == "rework":
            revision.change = "reworked"
            revision.complete = False
            revision.notes.append(
                f"{label} reworked this whole section; the changelog does not give the new "
                f"text. Shown: the text it replaced."
            )
        elif patch.op == "replace":
            _, partial = merge.quote_core(patch.old or "")
            if merge.replace_quote(revision.blocks, patch.old or "", patch.new or ""):
                note = f"Patched: \u201c{patch.old}\u201d \u2192 \u201c{patch.new}\u201d."
                if partial:
                    revision.complete = False
                    note += " The patch quotes only part of the sentence; the rest is assumed unchanged."
                revision.notes.append(note)
            else:
                revision.complete = False
                revision.notes.append(
                    f"Could not apply \u201c{patch.old}\u201d \u2192 \u201c{patch.new}\u201d: the "
                    "quoted text is not in the known text."
                )
                self.warn(
                    where,
                    patch.line,
                    f"patch text \u201c{patch.old}\u201d not found in "
                    f"\u201c{term.name}\u201d; the revision is marked incomplete",
                )
        elif patch.op == "add":
            text = re.sub(r"^\s*[\u2022\-*]\s*", "", patch.new or "").strip()
            bullet = bool(re.match(r"^\s*[\u2022\-*]", patch.new or ""))
            revision.blocks.append(Block(text, patch.line, "bullet" if bullet else "para"))
            revision.notes.append(f"Added in {label}: \u201c{text}\u201d.")
        elif patch.op == "add-to-list":
            found = merge.find_sentence(revision.blocks, patch.new or "")
            if found:
                i, sentence = found
                revision.blocks[i].text = revision.blocks[i].text.replace(sentence, patch.new)
                revision.notes.append(f"{patch.old} added to the list: \u201c{patch.new}\u201d.")
            else:
                revision.blocks.append(Block(patch.new or "", patch.line, "para"))
                revision.complete = False
                revision.notes.append(
                    f"{label} adds {patch.old} to a sentence the known text does not "
                    "contain; the changelog's sentence is shown at the end: "
                    f"\u201c{patch.new}\u201d."
                )

    # -- suggestions -----------------------------------------------------------
    def suggest_renames(self, labels: list[str]) -> None:
        """New names in later versions whose text reads like an older term's: possible renames."""
        first = labels[0]
        older = [t for t in self.terms if t.revisions and t.revisions[0].version == first and t.lineage == "versioned"]
        declared = {name_key(r.new) for r in self.manifest.renames}
        for term in self.terms:
            if not term.revisions or term.revisions[0].version == first or term.lineage != "versioned":
                continue
            if name_key(term.names[0]) in declared or term.kind == "section":
                continue
            text = " ".join(b.text for b in term.revisions[0].blocks)
            mine = set(words(term.names[0]))
            best = None
            for other in older:
                if other is term or not other.revisions[-1].blocks:
                    continue
                shares = mine & set(words(other.names[0]))
                if not shares:
                    continue
                score = similarity(text, " ".join(b.text for b in other.revisions[0].blocks))
                if score >= 0.6 and (best is None or score > best[0]):
                    best = (score, other)
            opener = " ".join(words(text)[:1])
            for other in older:
                if best or other is term or not set(words(other.names[0])) <= mine:
                    continue
                score = similarity(text, " ".join(b.text for b in other.revisions[0].blocks))
                if score >= 0.3 or opener in ("additionally", "also", "however"):
                    best = (score, other)
            if best:
                self.suggestions.append(
                    f"{term.revisions[0].version}: \u201c{term.names[0]}\u201d is new but may continue "
                    f"\u201c{best[1].names[0]}\u201d (names overlap, texts {best[0]:.0%} similar); if it is a "
                    "rename, declare it in game.toml [[renames]]"
                )
            near = self.index.near(term, "versioned")
            if near is not None and not best:
                self.suggestions.append(
                    f"\u201c{term.names[0]}\u201d looks like a misspelling of "
                    f"\u201c{near.names[0]}\u201d; map it in game.toml [spellings]"
                )


def _unique(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if name_key(name) not in {name_key(n) for n in out}:
            out.append(name)
    return out


def _subdefinitions(blocks: list[Block]) -> list[SubDefinition]:
    found = []
    for block in blocks:
        match = SUBDEF_PLAIN.match(block.text)
        if match and len(match.group(1).split()) <= 4:
            found.append(SubDefinition(clean_name(match.group(1)), match.group(2), block.line))
    return found


def _merge_subdefs(old: list[SubDefinition], new: list[SubDefinition]) -> list[SubDefinition]:
    keys = {name_key(s.name) for s in new}
    return [s for s in old if name_key(s.name) not in keys] + new
