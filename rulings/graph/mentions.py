"""Finding glossary terms mentioned in running text (for cross-links and "referenced by").

One matcher per game: every name and alias (and simple plurals), longest first,
whole words, case-insensitive, so ALL CAPS sources link the same as mixed case.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from itertools import pairwise

from ..text import FUNCTION_WORDS, QUOTES, fold

# Single words too common in rules prose to link every time they appear.
COMMON = FUNCTION_WORDS | frozenset(
    """
    you then after cannot gets gains choose both once before while during only other must
    """.split()
)


Candidate = tuple[int, int, int, int, str]  # (first word, words, start, end, name key): a possible mention


@dataclass(frozen=True)
class Target:
    slug: str
    anchor: str | None
    name: str


def _variants(name: str) -> list[str]:
    name = re.sub(r"\s+", " ", fold(name)).strip()
    out = [name]
    if re.search(r"[a-z]$", name, re.I) and len(name) > 3:
        if name.endswith("y") and not name.endswith(("ay", "ey", "oy", "uy")):
            out.append(name[:-1] + "ies")
        elif not name.endswith("s"):
            out.append(name + ("es" if name.endswith(("ch", "sh", "x")) else "s"))
        elif not name.endswith(("ss", "us", "is")) and len(name) > 4:
            out.append(name[:-1])  # "Keywords" is mentioned as "keyword"
    return out


WORD = re.compile(r"[\w][\w+]*")
SEPARATOR = re.compile(r"\s+|[-/']")


def _key(words: list[str]) -> str:
    return " ".join(w.lower() for w in words)


class Linker:
    """Longest-first, whole-word matcher from names to targets.

    Names are looked up word sequence by word sequence in a dictionary (no giant
    regular expression to compile), so building one per game and version is cheap.
    """

    def __init__(self, names: list[tuple[str, Target]]):
        self.targets: dict[str, Target] = {}
        self.first: set[str] = set()  # first words of names: most words start no name at all
        self.longest = 0
        for name, target in names:
            if not name or name.lower() in COMMON or len(name) < 2 or not re.search(r"[A-Za-z]", name):
                continue
            for variant in _variants(name):
                words = WORD.findall(variant)
                if words and _key(words) == re.sub(r"[^\w+]+", " ", variant.lower()).strip():
                    self.targets.setdefault(_key(words), target)
                    self.first.add(words[0].lower())
                    self.longest = max(self.longest, len(words))

    def find(self, text: str) -> list[tuple[int, int, Target]]:
        """Non-overlapping mentions in ``text``, as positions in ``text`` itself."""
        return self.pick(self.candidates(text))

    def candidates(self, text: str) -> list[Candidate]:
        """Every place a name of this linker could start a mention in ``text``, longest first at each word.

        The build stores them found by a linker of every name a game ever had (``graph/inline.py``);
        ``pick`` with the linker of the version shown then chooses exactly what ``find`` would.
        """
        if not self.targets or not text:
            return []
        plain = text.translate(QUOTES)  # same length as text
        spans = [(m.start(), m.end(), m.group(0).lower()) for m in WORD.finditer(plain)]
        out = []
        for i, (_, _, word) in enumerate(spans):
            if word not in self.first:
                continue
            for size in range(min(self.longest, len(spans) - i), 0, -1):
                chunk = spans[i : i + size]
                key = " ".join(w for _, _, w in chunk)
                if key in self.targets and _clean_edges(plain, chunk[0][0], chunk[-1][1], chunk):
                    out.append((i, size, chunk[0][0], chunk[-1][1], key))
        return out

    def pick(self, candidates: list[Candidate]) -> list[tuple[int, int, Target]]:
        """The mentions ``find`` would see among ``candidates``: at each word the longest name this linker
        knows, the words it covers taken."""
        out, free = [], 0
        for word, size, start, end, key in candidates:
            if word < free:
                continue
            target = self.targets.get(key)
            if target is not None:
                out.append((start, end, target))
                free = word + size
        return out

    def targets_in(self, text: str) -> set[Target]:
        return {t for _, _, t in self.find(text)}


def _clean_edges(text: str, start: int, end: int, chunk: list[tuple[int, int, str]]) -> bool:
    """A mention stands alone (not glued to "/" or "-"); its words are joined by spaces, "-" or "/"."""
    if start > 0 and text[start - 1] in "/-":
        return False
    if end < len(text) and text[end] in "/-" and end + 1 < len(text) and text[end + 1].isalnum():
        return False
    return all(SEPARATOR.fullmatch(text[a_end:b_start]) for (_, a_end, _), (b_start, _, _) in pairwise(chunk))


def game_linker(conn: sqlite3.Connection, game_id: int, ordinal: int | None = None) -> Linker:
    """Names worth linking in running text: glossary names and aliases, and multi-word section titles.

    With ``ordinal``, only terms in force at that version, by the names they had by then (no links
    into the future, none to a removed term). Numbered rules are linked by number, not by title.
    """
    rows = conn.execute(
        "SELECT n.name, t.slug, t.name, t.kind, t.lineage FROM term_names n "
        "JOIN terms t ON t.id = n.term_id WHERE t.game_id = ? AND n.how IN ('name', 'alias') AND t.kind != 'rule' "
        "AND (? IS NULL OR (n.since <= ? AND (SELECT r.change FROM revisions r WHERE r.term_id = t.id "
        "AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1) != 'removed')) "
        "ORDER BY n.rank, t.id",
        (game_id, ordinal, ordinal, ordinal),
    ).fetchall()
    return Linker(
        [
            (name, Target(slug, None, display))
            for name, slug, display, kind, lineage in rows
            if kind != "section" or (lineage == "versioned" and len(name.split()) >= 2)
        ]
    )
