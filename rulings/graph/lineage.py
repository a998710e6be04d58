"""Which numbered rule an edition's numbered entry continues: identity by lineage, not by number.

A numbered rule, section or chapter at an edition is the entry that edition prints under that number;
across editions it continues the entry it descends from. Numbers move (Magic's 2009 renumbering moved
almost every rule; sections 715, 723 and 726 changed hands in 2022-2023), so a number alone never
says which rule a text continues. An edition's numbered entries are matched to the numbered terms in
force before it, level by level, leaves first:

* **rules** ("702.19"): a titled rule ("Trample") continues the rule of that title (the same number
  first when two share it); an untitled rule ("100.1 These Magic rules apply...") continues the rule
  of its number when their words are alike, else the rule whose words are most alike (a move);
* **sections** ("702") and **chapters** ("7"): the one whose rules (or sections) they hold, most of
  them, then the one of the same title, then the one of the same number and title words.

Every match is between one edition and the state just before it, so adding a later edition never
changes what an earlier one continued. What no earlier term continues is new; what no entry
continues is gone from the edition (``snapshots.apply_edition``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from ..ingest.model import Block, Entry
from ..text import comparable, name_key
from .identity import Term
from .rules import level, parent

SAME_NUMBER = 0.45  # words two texts of one number must share to be one rule (Dice of their word sets)
MOVED = 0.7  # ... and two texts of different numbers, to be one rule that moved
NUMBER_BONUS = 0.2  # how much more alike a pair of one number counts (a rule inserted before shifts the rest)
RARE = 40  # a word found in more old rules than this does not propose candidates
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def heading_words(name: str, number: str) -> str:
    """A numbered entry's own words: "702. Keyword Abilities" -> "keyword abilities"; "Rule 100.1" -> ""."""
    if name == f"Rule {number}":
        return ""
    if name.startswith(number + "."):
        name = name[len(number) + 1 :]
    return name_key(name)


def words(text: str) -> frozenset[str]:
    """The words of a text, numbers left out (a renumbered rule cites renumbered rules)."""
    return frozenset(WORD.findall(comparable(text).lower()))


def alike(a: frozenset[str], b: frozenset[str]) -> float:
    """How alike two sets of words are (Dice: shared words over the mean size), 0 to 1."""
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


class _Side:
    """One side of a match: numbered things at one level, by number, with their title and words."""

    def __init__(self, items: Mapping[str, object], titles: dict[str, str], texts: dict[str, str]):
        self.items = items  # number -> Entry (new) or Term (old)
        self.titles = titles
        self.texts = texts
        self._words: dict[str, frozenset[str]] = {}

    def words(self, number: str) -> frozenset[str]:
        if number not in self._words:
            self._words[number] = words(self.texts[number])
        return self._words[number]


def continuations(old_terms: Iterable[Term], entries: Iterable[Entry]) -> dict[int, Term]:
    """For each numbered entry of an edition (by ``id``), the term in force it continues, if any.

    ``old_terms`` are the numbered terms in force before the edition, each with its current revision.
    """
    old: dict[int, dict[str, Term]] = defaultdict(dict)
    for term in old_terms:
        revision = term.current
        if revision is not None and not revision.removed and revision.number:
            old[level(revision.number)].setdefault(revision.number, term)
    new: dict[int, dict[str, Entry]] = defaultdict(dict)
    for entry in entries:
        if entry.number:
            new[level(entry.number)].setdefault(entry.number, entry)
    found: dict[str, str] = {}  # new number -> old number it continues (at every level)
    for depth in (2, 1, 0):
        found.update(_match_level(old[depth], new[depth], found))
    found.update(_within_sections(old[2], new[2], found))
    out: dict[int, Term] = {}
    for depth in (2, 1, 0):
        for number, entry in new[depth].items():
            was = found.get(number)
            if was is not None:
                out[id(entry)] = old[depth][was]
    return out


def _old_side(terms: dict[str, Term]) -> _Side:
    titles, texts = {}, {}
    for number, term in terms.items():
        revision = term.current
        assert revision is not None
        titles[number] = heading_words(revision.name, number)
        texts[number] = " ".join(block.text for block in revision.blocks)
    return _Side(dict(terms), titles, texts)


def _new_side(entries: dict[str, Entry]) -> _Side:
    titles = {number: heading_words(entry.names[0], number) for number, entry in entries.items()}
    texts = {number: " ".join(block.text for block in entry.blocks) for number, entry in entries.items()}
    return _Side(dict(entries), titles, texts)


def _match_level(old_items: dict[str, Term], new_items: dict[str, Entry], below: dict[str, str]) -> dict[str, str]:
    """new number -> old number, for one level; ``below`` holds the matches of the level beneath."""
    old, new = _old_side(old_items), _new_side(new_items)
    found: dict[str, str] = {}
    taken: set[str] = set()

    def take(new_number: str, old_number: str) -> None:
        found[new_number] = old_number
        taken.add(old_number)

    if new_items and level(next(iter(new_items))) < 2:
        for new_number, old_number in _by_children(old_items, new_items, below):
            if new_number not in found and old_number not in taken:
                take(new_number, old_number)
    _by_title(old, new, found, taken, take)
    _by_words(old, new, found, taken, take)
    return found


def _within_sections(old_items: dict[str, Term], new_items: dict[str, Entry], found: dict[str, str]) -> dict[str, str]:
    """Rules left over inside two sections that continue one another (Magic's 2009 renumbering moved "424.
    Costs" to "116. Costs"), paired by words as rules of one number are (``SAME_NUMBER``), the same place
    in the section preferred."""
    sections = {n: o for n, o in found.items() if level(n) == 1}
    taken = {o for n, o in found.items() if level(n) == 2}
    left_old = {n: t for n, t in old_items.items() if n not in taken}
    left_new = {n: e for n, e in new_items.items() if n not in found and parent(n) in sections}
    if not left_old or not left_new:
        return {}
    old, new = _old_side(left_old), _new_side(left_new)
    by_section: dict[str, list[str]] = defaultdict(list)
    for number in left_old:
        by_section[parent(number) or ""].append(number)
    scored = []
    for number in left_new:
        for other in by_section.get(sections[parent(number) or ""], []):
            if new.titles[number] and old.titles[other] and not _close_titles(old, new, other, number):
                continue
            score = alike(old.words(other), new.words(number))
            if score >= SAME_NUMBER:
                place = NUMBER_BONUS if number.split(".")[1] == other.split(".")[1] else 0.0
                scored.append((-(score + place), number, other))
    out: dict[str, str] = {}
    used: set[str] = set()
    for _, number, other in sorted(scored):
        if number not in out and other not in used:
            out[number] = other
            used.add(other)
    return out


def _by_children(
    old_items: dict[str, Term], new_items: dict[str, Entry], below: dict[str, str]
) -> list[tuple[str, str]]:
    """Sections (chapters) paired by the rules (sections) they hold: most shared first."""
    shared: Counter[tuple[str, str]] = Counter()
    held_new: Counter[str] = Counter()
    held_old: Counter[str] = Counter()
    for new_child, old_child in below.items():
        new_parent, old_parent = parent(new_child), parent(old_child)
        if new_parent in new_items and old_parent in old_items:
            shared[new_parent, old_parent] += 1
    for new_child in below:
        held_new[parent(new_child) or ""] += 1
    for old_child in below.values():
        held_old[parent(old_child) or ""] += 1
    new_titles = {n: heading_words(e.names[0], n) for n, e in new_items.items()}
    old_titles = {n: heading_words(t.current.name, n) for n, t in old_items.items() if t.current is not None}
    pairs = []
    for (new_number, old_number), count in shared.items():
        if new_titles.get(new_number) == old_titles.get(old_number):
            strong = count * 2 > min(held_new[new_number], held_old[old_number])  # most of the smaller one's
        else:  # another title: most of the children of both, and more than one
            strong = count >= 2 and count * 2 > max(held_new[new_number], held_old[old_number])
        if strong:
            pairs.append((-count, new_number, old_number))
    return [(n, o) for _, n, o in sorted(pairs)]


def _by_title(old: _Side, new: _Side, found: dict, taken: set, take) -> None:
    """Entries of one title: the same number first, then the only one of that title left."""
    by_title: dict[str, list[str]] = defaultdict(list)
    for number, text in old.titles.items():
        if text:
            by_title[text].append(number)
    for number, text in new.titles.items():
        if not text or number in found:
            continue
        candidates = [n for n in by_title.get(text, []) if n not in taken]
        if number in candidates:
            take(number, number)
        elif len(candidates) == 1:
            take(number, candidates[0])


def _close_titles(old: _Side, new: _Side, old_number: str, new_number: str) -> bool:
    """Two titles that differ only a little ("Bands with Other" / "Banding") do not stop a match by
    number; two different titles do ("310. Phenomena" is not "310. Battles")."""
    return alike(frozenset(old.titles[old_number].split()), frozenset(new.titles[new_number].split())) >= 0.5


def _by_words(old: _Side, new: _Side, found: dict, taken: set, take) -> None:
    """What is left, paired by words in common, the most alike pairs first: a pair of one number needs
    ``SAME_NUMBER`` and is preferred (``NUMBER_BONUS``), a pair of two numbers ``MOVED``. Titled entries
    pair only with entries of close titles ("310. Phenomena" is not "310. Battles")."""
    left_old = [n for n in old.items if n not in taken]
    left_new = [n for n in new.items if n not in found]
    if not left_old or not left_new:
        return
    postings: dict[str, list[str]] = defaultdict(list)
    for number in left_old:
        for word in old.words(number):
            postings[word].append(number)
    free_old = set(left_old)
    scored = []
    for number in left_new:
        mine = new.words(number)
        candidates = {o for word in mine if len(postings.get(word, ())) <= RARE for o in postings.get(word, ())}
        if number in free_old:
            candidates.add(number)
        for other in candidates:
            if new.titles[number] and old.titles[other] and not _close_titles(old, new, other, number):
                continue
            score = alike(old.words(other), mine)
            if other == number and (score >= SAME_NUMBER or (new.titles[number] and old.titles[other])):
                scored.append((-(score + NUMBER_BONUS), number, other))
            elif score >= MOVED:
                scored.append((-score, number, other))
    for _, number, other in sorted(scored):
        if number not in found and other not in taken:
            take(number, other)


def thread_numbered(blocks: list[Block], before: list[Block], used: set[str]) -> None:
    """Give each numbered block the thread of the numbered block it continues in the revision before,
    or a new one: its number, made unique among the threads ``used`` by the term so far.

    Blocks pair as rules do, by their place in the rule rather than their number ("702.19b" is "b" of
    its rule, so a renumbered rule's subrules keep their threads): the same letters and alike, else the
    most alike."""
    old = {_letters(b.number): b for b in before if b.number and b.thread}
    new = {_letters(b.number): b for b in blocks if b.number}
    if old:
        old_side = _Side(old, dict.fromkeys(old, ""), {k: b.text for k, b in old.items()})
        new_side = _Side(new, dict.fromkeys(new, ""), {k: b.text for k, b in new.items()})
        found: dict[str, str] = {}
        taken: set[str] = set()

        def take(new_key: str, old_key: str) -> None:
            found[new_key] = old_key
            taken.add(old_key)

        _by_words(old_side, new_side, found, taken, take)
        for key, block in new.items():
            if key in found:
                block.thread = old[found[key]].thread
    for block in new.values():
        if block.thread is None:
            thread, n = block.number or "", 2
            while thread in used:
                thread, n = f"{block.number}~{n}", n + 1
            block.thread = thread
        used.add(block.thread)


def _letters(number: str | None) -> str:
    """A block's place in its rule: "702.19b" -> "b", "702.19" -> ""; a number shaped otherwise is itself."""
    match = re.fullmatch(r"\d+\.\d+([a-z]*)", number or "")
    return match.group(1) if match else number or ""
