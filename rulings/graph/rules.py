"""Numbered rules: a game's rules by number ("702.19b"), their text at a version and their history.

A numbered rule ("702.19", Magic's Trample) is a term; the number is what one version prints it
under (``lineage.py``: Trample was 502.9, then 702.17, 702.18 and 702.19). Its subrules ("702.19b")
are numbered blocks of its text, each with a thread that follows it across re-letterings; chapters
and sections ("7", "702") are numbered section terms. A number is looked up at a version; a rule's
history follows the rule, not the number. URLs (``urls.rule``): ``/<game>/rules/<number>`` (the
latest version) and, pinned, ``/<game>/v/<version>/rules/<number>`` (docs/versions.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Unanswerable
from ..text import comparable
from ..urls import urls
from . import rule_numbers
from .rows import BlockRow, Game, RevisionRow, TermRow, VersionRow
from .store import Store

NUMBER = re.compile(r"\d+(?:\.\d+[a-z]?)?")


def normalise(text: str) -> str:
    """ "702.19." / " 702.19B " / "rule 702.19b" -> "702.19b" (the number as printed without its final period)."""
    text = (text or "").strip().rstrip(".").lower()
    return text[5:].strip() if text.startswith("rule ") else text


def level(number: str) -> int:
    """0 a chapter ("7"), 1 a section ("702"), 2 a rule ("702.19")."""
    return 2 if "." in number else (0 if len(number) == 1 else 1)


def parent(number: str) -> str | None:
    """The number of the section or chapter holding a numbered entry ("702.19" -> "702" -> "7")."""
    if "." in number:
        return number.split(".", 1)[0]
    return number[0] if len(number) > 1 else None


UNTITLED = re.compile(r"Rule \d")  # the name of a rule with no title of its own ("Rule 100.1")


def title(name: str, number: str) -> str:
    """A numbered entry's own title, without its number: "702. Keyword Abilities" -> "Keyword Abilities",
    "Trample" -> "Trample", "Rule 100.1" (a rule with no title) -> ""."""
    if UNTITLED.match(name):
        return ""
    if name.startswith(number + "."):
        return name[len(number) + 1 :].strip()
    return name


def heading(number: str | None, name: str) -> str:
    """How a page names a numbered entry: "702.19. Trample", "702. Keyword Abilities", "100.1" (no title)."""
    if not number:
        return name
    own = title(name, number)
    return f"{number}. {own}" if own else number


def looks_like_number(text: str) -> bool:
    return bool(NUMBER.fullmatch(normalise(text)))


@dataclass(frozen=True)
class Located:
    """Where a number lives at one version: the term printing it, and the block inside it (None: the term
    itself) with the block's thread (the subrule whatever its number in other versions)."""

    term: TermRow
    block: str | None
    thread: str | None = None
    printed: str = ""  # the number as that version prints it

    @property
    def number(self) -> str:
        return self.printed or self.block or self.term.number or ""


def locate(store: Store, game: Game, number: str, ordinal: int) -> Located | None:
    """The rule or section printed under ``number`` at the version with this ordinal, or the rule whose
    text there holds it as a subrule. Numbers move between editions: the same number can be another
    rule at another version (``lineage.py``)."""
    number = normalise(number)
    if not NUMBER.fullmatch(number):
        return None
    term = rule_numbers.term_by_number(store, game, number, ordinal)
    if term is not None:
        return Located(term, None, printed=number)
    holder = rule_numbers.numbered_in(store, game, number, ordinal)
    if holder is None:
        return None
    revision, _ = _in_force(store.revisions(holder), ordinal)
    assert revision is not None
    thread = next((b.thread for b in store.blocks(revision.id) if b.number == number), None)
    return Located(holder, number, thread or number, number)


def locate_near(store: Store, game: Game, number: str, ordinal: int) -> tuple[Located, int] | None:
    """Where ``number`` lives nearest the version with this ordinal: at the latest version before it that
    prints the number, else the first after it; with that version's ordinal (None: no version prints it)."""
    ordinals = rule_numbers.number_ordinals(store, game, normalise(number))
    before = [o for o in ordinals if o <= ordinal]
    for at in ([before[-1]] if before else []) + [o for o in ordinals if o > ordinal]:
        found = locate(store, game, number, at)
        if found is not None:
            return found, at
    return None


def is_rule_number(store: Store, game: Game, text: str) -> bool:
    return looks_like_number(text) and bool(rule_numbers.number_ordinals(store, game, normalise(text)))


def _in_force(revisions: list[RevisionRow], ordinal: int) -> tuple[RevisionRow | None, RevisionRow | None]:
    current = next((r for r in reversed(revisions) if r.ordinal <= ordinal), None)
    after = next((r for r in revisions if r.ordinal > ordinal), None)
    return current, after


def text_in(revision: RevisionRow, blocks: list[BlockRow], located: Located) -> tuple[str | None, str | None]:
    """(the text, the number it is printed under) of a located rule in one revision ((None, None): not there)."""
    if revision.removed:
        return None, None
    if located.block is None:
        return revision.text, revision.number
    block = next((b for b in blocks if (b.thread or b.number) == located.thread), None)
    return (block.text, block.number) if block is not None else (None, None)


@dataclass(frozen=True)
class Step:
    """A version where a rule's text or number changed, it appeared (text) or went away (text None)."""

    revision: RevisionRow
    text: str | None
    number: str | None = None  # what the version numbers it


def history(store: Store, located: Located) -> list[Step]:
    """The versions where the rule's text (formatting aside, ``comparable``) or number changed: the rule
    followed through its renumberings, a subrule by its thread."""
    steps: list[Step] = []
    revisions = store.revisions(located.term)
    blocks = store.blocks_of([r.id for r in revisions]) if located.block else {}
    for revision in revisions:
        text, number = text_in(revision, blocks.get(revision.id, []), located)
        before = steps[-1] if steps else None
        if before is None and text is None:
            continue
        if before is None or (text is None) != (before.text is None) or number != before.number:
            steps.append(Step(revision, text, number))
        elif text is not None and comparable(text) != comparable(before.text or ""):
            steps.append(Step(revision, text, number))
    return steps


def step_at(steps: list[Step], ordinal: int) -> tuple[Step | None, Step | None]:
    """(the step in force at the version with this ordinal, the next step after it)."""
    current = next((s for s in reversed(steps) if s.revision.ordinal <= ordinal), None)
    after = next((s for s in steps if s.revision.ordinal > ordinal), None)
    return current, after


def enclosing(store: Store, game: Game, number: str, ordinal: int) -> list[tuple[str, str]]:
    """(number, name) of the chapter and section holding a numbered entry at the version with this ordinal,
    outermost first, named as that version names them ("702.19b" -> [("7", "7. Additional Rules"), ("702",
    "702. Keyword Abilities")]): a number's section at one edition can be another section at another."""
    out = []
    up = parent(number)
    while up:
        term = rule_numbers.term_by_number(store, game, up, ordinal)
        if term is None:
            break
        revision = _in_force(store.revisions(term), ordinal)[0]
        assert revision is not None
        out.append((up, revision.name))
        up = parent(up)
    return out[::-1]


def step_words(steps: list[Step], index: int, numbered: bool = True) -> str:
    """What a step of a rule's history did, in plain words ("renumbered 702.18 -> 702.19"); ``numbered``:
    with the number it printed the rule under ("changed as 702.19")."""
    step = steps[index]
    before = steps[index - 1] if index else None
    where = f" as {step.number}" if numbered and step.number else ""
    if step.text is None:
        return "removed"
    if before is None:
        return ("first seen" if step.revision.inferred else "added") + where
    if before.text is None:
        return "back" + where
    if before.number != step.number:
        moved = f"{before.number} \u2192 {step.number}"
        same = comparable(before.text) == comparable(step.text)
        return f"renumbered {moved}" if same else f"changed and renumbered {moved}"
    return "changed" + where


@dataclass(frozen=True)
class Edition:
    """One version as a rule's versions list shows it: the number it prints the rule under (None: the rule
    is not in it) and the index of the step of the rule's history it made (None: it left the rule as it was)."""

    version: VersionRow
    number: str | None
    step: int | None


def editions(steps: list[Step], versions: list[VersionRow]) -> list[Edition]:
    """Every version from the rule's first text on, with its number there and the step it made, if any."""
    out = []
    made = {s.revision.ordinal: i for i, s in enumerate(steps)}
    for version in versions:
        now, _ = step_at(steps, version.ordinal)
        if now is None:
            continue  # before the rule
        number = now.number if now.text is not None else None
        if number is None and version.ordinal not in made:
            continue  # after its removal
        out.append(Edition(version, number, made.get(version.ordinal)))
    return out


def not_here(store: Store, game: Game, number: str, target: VersionRow) -> Unanswerable:
    """The answer for a number the version asked does not print: where the number, and the rule that
    had it, are at other versions."""
    wanted = normalise(number)
    message = f"rule {wanted} is not in version {target.label} of the {game.name} rules"
    extra: dict = {"term": wanted, "in_force": target.label, "first_defined": None}
    near = locate_near(store, game, wanted, target.ordinal)
    if near is None:
        return Unanswerable("not-defined", message, **extra)
    located, at = near
    steps = history(store, located)
    versions = {v.ordinal: v for v in store.versions(game)}
    first = steps[0].revision if steps else None
    if first is not None:
        extra["first_defined"] = {"version": first.version, "date": first.date}
    if at > target.ordinal:
        if first is not None and first.ordinal == at:  # the rule itself is new there
            message += f"; it was {'first seen' if first.inferred else 'introduced'} in {first.version}"
        else:
            message += f"; the number {wanted} is first printed in {versions[at].label}"
        return Unanswerable("not-defined", message, **extra)
    now, _ = step_at(steps, target.ordinal)
    if now is not None and now.text is not None and now.number:
        extra["renumbered"] = {"number": now.number, "url": urls.rule(game.slug, now.number, target.label)}
        message += f"; the rule numbered {wanted} in {versions[at].label} is {now.number} here"
    elif now is not None:
        extra["removed_in"] = {"version": now.revision.version, "date": now.revision.date}
        message += f"; the rule numbered {wanted} in {versions[at].label} was removed in {now.revision.version}"
    return Unanswerable("not-defined", message, **extra)


def rule_answer(store: Store, game: Game, number: str, target: VersionRow) -> dict:
    """ "Which text of rule 702.19b applied then?" in the shape of a term answer (PRODUCT.md): the rule
    printed under that number at the version asked, with the history of that rule (not of the number)."""
    located = locate(store, game, number, target.ordinal)
    if located is None:
        raise not_here(store, game, number, target)
    steps = history(store, located)
    current, after = step_at(steps, target.ordinal)
    assert current is not None and current.text is not None
    wanted = located.number
    revision = current.revision
    first = steps[0].revision
    numbers = [s.number for s in steps if s.number and s.revision.ordinal <= target.ordinal]
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
        "numbers": list(dict.fromkeys(numbers)),  # every number this rule was printed under so far, in order
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
    if revision.number and revision.number not in out:
        out[revision.number] = revision.name
    return out
