"""Finding glossary terms mentioned in running text (for cross-links, previews and "referenced by").

One matcher per game and version, with the rules a good wiki links by:

- every name and alias (and simple plurals), longest first, whole words, case-insensitive, so ALL
  CAPS sources link the same as mixed case; then the names of sub-definitions ("Stunned" in Status
  Cards), which land on their own paragraph; then, where asked, card names;
- a *guarded* name, a common English word ("then", "may") or one of the game's ``[links] stop``
  words in game.toml ("play", "uses"), is a mention only where it is written as a name: quoted
  (``"play"``) or capitalised in mid-sentence ("the Uses keyword"); "in play" and "uses that value"
  are plain words;
- two mentions side by side ("enemy activation", "boost icon") are one phrase, linked once, to the
  term whose definition uses that phrase (Activation, Boost); when no definition does, they stay
  two mentions ("ally defends").

Which mentions a page links (the first of each term per paragraph, never the page's own term) is the
renderer's choice (``web/render.py``); this module only says what the words mean. Everything here
is a pure function of the build, so it can run at build time or per request with the same result.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import NamedTuple

from ..text import FUNCTION_WORDS, fold, split_qualifier, straightened

# Single words too common in rules prose to be a mention unless written as a name.
COMMON = FUNCTION_WORDS | frozenset(
    """
    you then after cannot gets gains choose both once before while during only other must already
    """.split()
)


Candidate = tuple[int, int, int, int, str]  # (first word, words, start, end, name key): a possible mention


@dataclass(frozen=True)
class Target:
    """Where a mention leads: a term (``anchor`` for a sub-definition inside it) or a card."""

    slug: str
    anchor: str | None
    name: str
    kind: str = "term"  # term | card

    @cached_property
    def key(self) -> str:
        """One string per target, for previews and de-duplication: "status-cards#stunned", "card:ra"."""
        base = f"card:{self.slug}" if self.kind == "card" else self.slug
        return f"{base}#{self.anchor}" if self.anchor else base


class Mention(NamedTuple):
    """A name found in a text (a tuple: made by the dozen for every paragraph a page shows)."""

    start: int
    end: int
    target: Target
    words: str  # the words matched, as a key ("boost icon"): the page's own names are never links


def _forms(word: str) -> list[str]:
    """A word and its simple plural or singular: "icon" -> icon, icons; "keywords" -> keyword."""
    out = [word]
    if len(word) > 3 and word[-1].isalpha():
        if word.endswith("y") and not word.endswith(("ay", "ey", "oy", "uy")):
            out.append(word[:-1] + "ies")
        elif not word.endswith("s"):
            out.append(word + ("es" if word.endswith(("ch", "sh", "x")) else "s"))
        elif not word.endswith(("ss", "us", "is")) and len(word) > 4:
            out.append(word[:-1])
    return out


def _variants(name: str) -> list[str]:
    """A name as running text may write it: the name and its last word's plural or singular."""
    name = re.sub(r"\s+", " ", fold(name)).strip()
    head, _, last = name.rpartition(" ")
    if not re.search(r"[a-z]$", name, re.I) or len(name) <= 3:
        return [name]
    return [f"{head} {form}".strip() for form in _forms(last)]


WORD = re.compile(r"[\w][\w+]*")
SEPARATOR = re.compile(r"\s+|[-/']")
PHRASE_GAP = re.compile(r"[ \t]+")  # two mentions side by side, on one line
# After a phrase, an article makes its last word a verb: "an ally defends the attack" is no phrase.
ARTICLE_AFTER = re.compile(r"[ \t]+(?:a|an|the|that|this|these|those|each|any|its|their|his|her|all|one)\b", re.I)
PLURAL_ENDS = (("ies", "y"), ("es", ""), ("s", ""))
NOUN_AFTER_ARTICLE = re.compile(r"\b(?:a|an|the)\s+([a-z][\w+]*)")
OPENERS = "\"'([*_ \t"
CLOSERS = "\"')]*_ \t"


def _folded(word: str) -> str:
    """A word of running text as names are folded ("\u00c6mber" meets "AEmber", "Caf\u00e9" meets "Cafe")."""
    return word.lower() if word.isascii() else fold(word).lower()


def _key(words: Iterable[str]) -> str:
    return " ".join(w.lower() for w in words)


def name_keys(names: Iterable[str]) -> frozenset[str]:
    """The keys running text can mention these names by, with and without a qualifier.

    A page titled "Attack (Enemy Activation)" is itself what its "attack"s mean: its own names and
    their bare forms are never links on it.
    """
    out: set[str] = set()
    for name in names:
        for form in {name, split_qualifier(name)[0]}:
            for variant in _variants(form):
                out.add(_key(WORD.findall(variant.lower())))
    return frozenset(out)


@dataclass
class Linker:
    """Longest-first, whole-word matcher from names to targets, with guarded words and phrases.

    Names are looked up word sequence by word sequence in a dictionary (no giant regular
    expression to compile), so building one per game and version is cheap. ``texts`` holds each
    target's definition (folded, lower case): it decides which term owns a two-word phrase.
    """

    names: list[tuple[str, Target]]
    guarded: frozenset[str] = frozenset()
    texts: dict[Target, str] = field(default_factory=dict)
    targets: dict[str, Target] = field(init=False, default_factory=dict)
    first: set[str] = field(init=False, default_factory=set)  # first words of names: most words start none
    prefixes: set[str] = field(init=False, default_factory=set)  # the names' first words, first two words...
    longest: int = field(init=False, default=0)
    _owners: dict[str, Target | None] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for name, target in self.names:
            if not name or len(name) < 2 or not re.search(r"[A-Za-z]", name):
                continue
            for variant in _variants(name):
                words = WORD.findall(variant)
                if words and _key(words) == re.sub(r"[^\w+]+", " ", variant.lower()).strip():
                    self.targets.setdefault(_key(words), target)
                    self.first.add(words[0].lower())
                    self.prefixes.update(_key(words[:size]) for size in range(1, len(words) + 1))
                    self.longest = max(self.longest, len(words))

    def find(self, text: str) -> list[Mention]:
        """Non-overlapping mentions in ``text``, as positions in ``text`` itself."""
        return self.pick(text, self.candidates(text))

    def candidates(self, text: str) -> list[Candidate]:
        """Every place a name of this linker could start a mention in ``text``, longest first at each word.

        The build stores them found by a linker of every name a game ever had (``graph/inline.py``);
        ``pick`` with the linker of the version shown then chooses exactly what ``find`` would.
        """
        if not self.targets or not text:
            return []
        plain = straightened(text)  # same length as text
        if plain.isascii():  # lower-cased in one call, the same length: words as names are folded, in place
            scanned = plain.lower()
            words = WORD.findall(scanned)
        else:
            scanned = plain
            words = [_folded(word) for word in WORD.findall(plain)]
        first, prefixes, targets = self.first, self.prefixes, self.targets
        spans = None  # where each word is: worked out only for a text that names something
        out = []
        for i in [i for i, word in enumerate(words) if word in first]:
            found = []
            key = words[i]
            for size in range(1, min(self.longest, len(words) - i) + 1):  # as long as some name goes on so
                if size > 1:
                    key = f"{key} {words[i + size - 1]}"
                if key not in prefixes:
                    break
                if key not in targets:
                    continue
                if spans is None:
                    spans = [match.span() for match in WORD.finditer(scanned)]
                chunk = [(*spans[j], words[j]) for j in range(i, i + size)]
                if _clean_edges(plain, chunk[0][0], chunk[-1][1], chunk):
                    found.append((i, size, chunk[0][0], chunk[-1][1], key))
            out.extend(reversed(found))  # longest first
        return out

    def pick(self, text: str, candidates: list[Candidate]) -> list[Mention]:
        """The mentions ``find`` would see in ``text`` among ``candidates``: at each word the longest name
        this linker knows (a guarded one only where written as a name), the words it covers taken; then
        side-by-side mentions joined into phrases."""
        plain = straightened(text)
        out, free = [], 0
        for word, size, start, end, key in candidates:
            if word < free:
                continue
            target = self.targets.get(key)
            if target is None or (key in self.guarded and not _written_as_name(text, plain, start, end)):
                continue
            out.append(Mention(start, end, target, key))
            free = word + size
        return self._phrases(plain, out)

    def targets_in(self, text: str) -> set[Target]:
        return {m.target for m in self.find(text)}

    def _phrases(self, plain: str, found: list[Mention]) -> list[Mention]:
        """Side-by-side mentions whose phrase a definition uses become one mention of that term.

        Only noun phrases: the second mention must be words the definitions use as nouns (seen after
        "a", "an", "the"), and no article may follow it; "an ally defends the attack" is two mentions.
        """
        out: list[Mention] = []
        merged = False
        for mention in found:
            before = out[-1] if out else None
            head = mention.words.split()
            if (
                before is not None
                and not merged
                and PHRASE_GAP.fullmatch(plain[before.end : mention.start])
                and not ARTICLE_AFTER.match(plain, mention.end)
                and head[0] in self.nouns
                and head[-1] in self.nouns
                and not self._plural(before.words)
            ):
                owner = self._owner(f"{before.words} {mention.words}", (before.target, mention.target))
                if owner is not None:
                    out[-1] = Mention(before.start, mention.end, owner, f"{before.words} {mention.words}")
                    merged = True
                    continue
            out.append(mention)
            merged = False
        return out

    def _plural(self, words: str) -> bool:
        """A mention in its plural form ("minions"): a subject ("minions attack"), never a compound's first half."""
        return words.endswith("s") and any(words[: -len(end)] + add in self.targets for end, add in PLURAL_ENDS)

    @cached_property
    def nouns(self) -> frozenset[str]:
        """Words the definitions use as nouns: seen right after an article ("a boost icon", "the attack")."""
        found = {w for text in self.texts.values() for w in NOUN_AFTER_ARTICLE.findall(text)}
        return frozenset(found - FUNCTION_WORDS)

    def _owner(self, phrase: str, candidates: tuple[Target, Target]) -> Target | None:
        """The candidate whose definition uses ``phrase`` most (the later one on a tie), or None."""
        if phrase not in self._owners:
            head, _, last = phrase.rpartition(" ")
            forms = "|".join(map(re.escape, _forms(last)))
            pattern = re.compile(rf"(?<![\w-]){re.escape(head)}[\s-]+(?:{forms})(?![\w-])(?!{ARTICLE_AFTER.pattern})")
            counts = [len(pattern.findall(self.texts.get(t, ""))) for t in candidates]
            best = max(counts)
            self._owners[phrase] = None if best == 0 else candidates[len(counts) - 1 - counts[::-1].index(best)]
        return self._owners[phrase]


def _clean_edges(text: str, start: int, end: int, chunk: list[tuple[int, int, str]]) -> bool:
    """A mention stands alone (not glued to "/" or "-"); its words are joined by spaces, "-" or "/"."""
    if start > 0 and text[start - 1] in "/-":
        return False
    if end < len(text) and text[end] in "/-" and end + 1 < len(text) and text[end + 1].isalnum():
        return False
    return all(SEPARATOR.fullmatch(text[a_end:b_start]) for (_, a_end, _), (b_start, _, _) in pairwise(chunk))


def _written_as_name(text: str, plain: str, start: int, end: int) -> bool:
    """A common word means the term only when quoted ("play") or capitalised in mid-sentence (Uses)."""
    if start > 0 and end < len(plain) and plain[start - 1] in "\"'" and plain[end] == plain[start - 1]:
        return True
    word = text[start:end]
    if not word[0].isupper() or (len(word) > 1 and word.isupper()):
        return False
    before = plain[:start].rstrip(OPENERS).rstrip(CLOSERS)  # "... skip this step.) Then" opens a sentence
    return bool(before) and before[-1] not in ".!?:;\n"


# -- one linker per game and version -------------------------------------------------------------
_IN_FORCE = (
    "(SELECT r.id FROM revisions r WHERE r.term_id = t.id AND (? IS NULL OR r.ordinal <= ?) "
    "ORDER BY r.ordinal DESC LIMIT 1)"
)


def game_linker(conn: sqlite3.Connection, game_id: int, ordinal: int | None = None, *, cards: bool = False) -> Linker:
    """Names worth linking in running text, as in force at the version with ``ordinal``.

    Glossary names and aliases, multi-word section titles, then the sub-definitions of glossary
    entries, then (``cards``) card names. With ``ordinal``, only terms in force at that version, by
    the names they had by then (no links into the future, none to a removed term); without, every
    name the game ever had (what the build looks for: ``graph/inline.py``, "referenced by"), each
    phrase judged by the latest definitions. Numbered rules are linked by number, not by title.
    """
    rows = conn.execute(
        "SELECT n.name, t.slug, t.name, t.kind, t.lineage, t.id FROM term_names n "
        "JOIN terms t ON t.id = n.term_id WHERE t.game_id = ? AND n.how IN ('name', 'alias') AND t.kind != 'rule' "
        "AND t.number IS NULL "
        "AND (? IS NULL OR (n.since <= ? AND (SELECT r.change FROM revisions r WHERE r.term_id = t.id "
        "AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1) != 'removed')) "
        "ORDER BY n.rank, t.id",
        (game_id, ordinal, ordinal, ordinal),
    ).fetchall()
    names: list[tuple[str, Target]] = []
    term_ids: dict[Target, int] = {}
    for name, slug, display, kind, lineage, term_id in rows:
        if kind != "section" or (lineage == "versioned" and len(name.split()) >= 2):
            target = Target(slug, None, display)
            names.append((name, target))
            term_ids[target] = term_id
    texts = _definitions(conn, term_ids, ordinal)
    in_force = f"AND s.revision_id = {_IN_FORCE}" if ordinal is not None else ""  # None: every one ever
    for name, slug, anchor, text in conn.execute(
        "SELECT s.name, t.slug, s.anchor, s.text FROM subdefs s JOIN terms t ON t.id = s.term_id "
        f"WHERE t.game_id = ? AND t.kind IN ('entry', 'keyword') {in_force} ORDER BY s.id",
        (game_id, ordinal, ordinal) if ordinal is not None else (game_id,),
    ):
        target = Target(slug, anchor, name)
        names.append((name, target))
        texts[target] = fold(text).lower()
    if cards:
        names += [
            (name, Target(slug, None, name, "card"))
            for name, slug in conn.execute(
                "SELECT name, slug FROM cards WHERE game_id = ? ORDER BY kind DESC, id", (game_id,)
            )
        ]
    return Linker(names, guarded_words(conn, game_id, names), texts)


def _definitions(conn: sqlite3.Connection, term_ids: dict[Target, int], ordinal: int | None) -> dict[Target, str]:
    """Each term's text in force (folded, lower case): which phrases its definition uses."""
    by_id = {term_id: target for target, term_id in term_ids.items()}
    texts: dict[Target, str] = {}
    ids = sorted(by_id)
    for begin in range(0, len(ids), 500):
        chunk = ids[begin : begin + 500]
        for term_id, text in conn.execute(
            f"SELECT t.id, (SELECT r.text FROM revisions r WHERE r.id = {_IN_FORCE}) FROM terms t "
            f"WHERE t.id IN ({','.join('?' * len(chunk))})",
            (ordinal, ordinal, *chunk),
        ):
            texts[by_id[term_id]] = fold(text or "").lower()
    return texts


def guarded_words(conn: sqlite3.Connection, game_id: int, names: list[tuple[str, Target]]) -> frozenset[str]:
    """Keys of the names that are mentions only when written as names: common words and the game's stoplist."""
    row = conn.execute("SELECT links FROM games WHERE id = ?", (game_id,)).fetchone()
    stop = json.loads(row[0]).get("stop", []) if row else []
    words = {name for name, _ in names if _key(WORD.findall(name)) in COMMON} | set(stop)
    return name_keys(words) | COMMON
