"""Numbered rules: a game's rules by number ("702.19b"), their text at a version and their history.

A numbered rule ("702.19", Magic's Trample) is a term identified by its number; its subrules
("702.19b") are numbered blocks of its text; chapters and sections ("7", "702") are numbered
section terms. A subrule's history is read block by block: the versions where its text (formatting
aside) changed, appeared or went away. URLs (``urls.rule``): ``/<game>/rules/<number>`` and, pinned,
``/<game>/v/<version>/rules/<number>`` (README "Numbered rules").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Unanswerable
from ..text import comparable
from ..urls import urls
from .store import BlockRow, Game, RevisionRow, Store, TermRow, VersionRow

NUMBER = re.compile(r"\d+(?:\.\d+[a-z]?)?")


def normalise(text: str) -> str:
    """ "702.19." / " 702.19B " -> "702.19b" (the number as printed without its final period)."""
    return (text or "").strip().rstrip(".").lower()


def looks_like_number(text: str) -> bool:
    return bool(NUMBER.fullmatch(normalise(text)))


@dataclass(frozen=True)
class Located:
    """Where a number lives: the term holding it, and the block number inside it (None: the term itself)."""

    term: TermRow
    block: str | None

    @property
    def number(self) -> str:
        return self.block or self.term.number or ""


def locate(store: Store, game: Game, number: str) -> Located | None:
    """The term a rule number names, or the term whose text holds it as a subrule."""
    number = normalise(number)
    if not NUMBER.fullmatch(number):
        return None
    term = store.term_by_number(game, number)
    if term is not None:
        return Located(term, None)
    holder = store.numbered_in(game, number)
    return Located(holder, number) if holder is not None else None


def is_rule_number(store: Store, game: Game, text: str) -> bool:
    return looks_like_number(text) and locate(store, game, text) is not None


def text_in(revision: RevisionRow, blocks: list[BlockRow], located: Located) -> str | None:
    """The text of a located number in one revision (None: not there)."""
    if revision.removed:
        return None
    if located.block is None:
        return revision.text
    return next((b.text for b in blocks if b.number == located.block), None)


@dataclass(frozen=True)
class Step:
    """A version where a number's text changed, appeared (text) or went away (text None)."""

    revision: RevisionRow
    text: str | None


def history(store: Store, located: Located) -> list[Step]:
    """The versions where the number's text changed, formatting aside (``comparable``)."""
    steps: list[Step] = []
    for revision in store.revisions(located.term):
        text = text_in(revision, store.blocks(revision.id), located)
        before = steps[-1].text if steps else None
        if not steps and text is None:
            continue
        if (text is None) != (before is None) or (text is not None and comparable(text) != comparable(before)):
            steps.append(Step(revision, text))
    return steps


def step_at(steps: list[Step], ordinal: int) -> tuple[Step | None, Step | None]:
    """(the step in force at the version with this ordinal, the next step after it)."""
    current = next((s for s in reversed(steps) if s.revision.ordinal <= ordinal), None)
    after = next((s for s in steps if s.revision.ordinal > ordinal), None)
    return current, after


def rule_answer(store: Store, game: Game, number: str, target: VersionRow) -> dict:
    """ "Which text of rule 702.19b applied then?" in the shape of a term answer (PRODUCT.md)."""
    located = locate(store, game, number)
    assert located is not None
    steps = history(store, located)
    current, after = step_at(steps, target.ordinal)
    wanted = located.number
    if current is None or current.text is None:
        first = steps[0].revision if steps else None
        message = f"rule {wanted} is not in version {target.label} of the {game.name} rules"
        extra = {
            "term": wanted,
            "in_force": target.label,
            "first_defined": {"version": first.version, "date": first.date} if first else None,
        }
        if current is not None:
            extra["removed_in"] = {"version": current.revision.version, "date": current.revision.date}
            message += f"; it was removed in {current.revision.version}"
        elif first is not None:
            message += f"; it was {'first seen' if first.inferred else 'introduced'} in {first.version}"
        raise Unanswerable("not-defined", message, **extra)
    revision = current.revision
    first = steps[0].revision
    return {
        "status": "ok",
        "game": game.slug,
        "term": wanted,
        "name": revision.name,  # its name then
        "number": wanted,
        "slug": f"{located.term.slug}#{wanted}" if located.block else located.term.slug,
        "in_force": target.label,
        "version": revision.version,
        "date": revision.date,
        "text": current.text,
        "complete": revision.complete,
        "inferred": revision.inferred,
        "change": revision.change,
        "source": revision.source,
        "introduced_in": None if first.inferred else first.version,
        "first_seen": first.version,
        "superseded_by": {"version": after.revision.version, "date": after.revision.date} if after else None,
        "notes": [*target.notes],
        "url": urls.rule(game.slug, wanted, target.label),
    }


def number_key(number: str) -> tuple:
    """Sort key: "702.9" before "702.19", "702.19b" after "702.19"."""
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in re.findall(r"\d+|[a-z]+", number))


def numbered_texts(store: Store, term: TermRow, revision: RevisionRow | None) -> dict[str, str]:
    """Every number a numbered term's revision holds, with its text (the term's own number: its title)."""
    if revision is None or revision.removed:
        return {}
    out = {b.number: b.text for b in store.blocks(revision.id) if b.number}
    if term.number and term.number not in out:
        out[term.number] = revision.name
    return out
