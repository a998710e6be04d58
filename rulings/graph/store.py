"""Read access to a built graph. Every query the CLI and the site need, as plain rows."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import deadline
from ..text import heading_key, name_key, slugify

PROGRESS_EVERY = 20_000  # SQLite virtual-machine steps between checks of the request's time limit


@dataclass(frozen=True)
class Game:
    id: int
    slug: str
    name: str
    aliases: list[str]


@dataclass(frozen=True)
class VersionRow:
    id: int
    label: str
    date: str | None
    parent: str | None
    ordinal: int
    notes: list[str]
    stated: bool = True  # False for the one version of a game whose documents name none ("1"): never shown
    documented: bool = True  # a document puts it on the timeline (not only game.toml's [[versions]])
    changed: int = 0  # how many terms it gave a revision

    @property
    def quiet(self) -> bool:
        """A version its documents say changed nothing (a changelog listing no entries): shown as such on
        the game's home, and no footnote of every term."""
        return self.documented and not self.changed

    @property
    def term_notes(self) -> list[str]:
        """The version's notes a term's answer and page carry: none for a quiet version."""
        return [] if self.quiet else self.notes


UNSTATED = "1"  # the label the timeline gives the only version of unversioned documents (graph/timeline.py)
DECK_KINDS = ("hero", "villain", "environment")  # rulings grouped under one of these are about a deck of the game


@dataclass(frozen=True)
class TermRow:
    id: int
    slug: str
    name: str
    kind: str
    path: list[str]
    document: str
    line: int
    lineage: str
    number: str | None = None  # numbered rules and sections ("702.19", "702")


@dataclass(frozen=True)
class RevisionRow:
    id: int
    term_id: int
    version: str
    date: str | None
    ordinal: int
    name: str
    text: str
    change: str
    complete: bool
    source: dict
    see_also: list[str]
    redirect: list[str]
    notes: list[str]
    inferred: bool = False  # no document dates the change: it happened at the latest in this version
    summary: str = ""  # the text's opening in plain words (``markup.excerpt``), made by the build
    number: str | None = None  # the number this version prints a numbered rule or section under

    @property
    def removed(self) -> bool:
        return self.change == "removed"


@dataclass(frozen=True)
class BlockRow:
    """One paragraph, bullet, step or numbered rule of a revision, with its lasting anchor."""

    revision_id: int
    position: int
    anchor: str
    kind: str
    depth: int
    number: str | None
    text: str
    inline: str | None = None  # the text prepared for pages (graph/inline.py)
    inline_cased: str | None = None  # ... in sentence case, when the revision is written in ALL CAPS
    thread: str | None = None  # a numbered block's lineage in its term, whatever its number


_REVISION_COLUMNS = (
    "r.id, r.term_id, v.label, v.date, r.ordinal, r.name, r.text, r.change, r.complete, "
    "r.source, r.see_also, r.redirect, r.notes, r.inferred, r.summary, r.number"
)
# The same packed in a JSON array (``Store.term_sheet``): the columns holding JSON text nest as JSON, decoded
# with the rest in one call rather than four calls a revision.
_PACKED_REVISION_COLUMNS = (
    "r.id, r.term_id, v.label, v.date, r.ordinal, r.name, r.text, r.change, r.complete, "
    "json(r.source), json(r.see_also), json(r.redirect), json(r.notes), r.inferred, r.summary, r.number"
)
_REVISION = f"SELECT {_REVISION_COLUMNS} FROM revisions r JOIN versions v ON v.id = r.version_id "
_BLOCK_COLUMNS = (
    "b.revision_id, b.position, b.anchor, b.kind, b.depth, b.number, b.text, b.inline, b.inline_cased, b.thread"
)
_BLOCK = f"SELECT {_BLOCK_COLUMNS} FROM blocks b "
_SUBDEF_COLUMNS = "s.id, s.name, s.anchor, s.text"
_TERM_COLUMNS = "t.id, t.slug, t.name, t.kind, t.path, d.slug, t.line, t.lineage, t.number"
_TERMS_FROM = "FROM terms t JOIN documents d ON d.id = t.document_id"
# The revision ``r`` is the one of its term in force at the version whose ordinal is the next parameter.
_IN_FORCE = "r.ordinal = (SELECT MAX(o.ordinal) FROM revisions o WHERE o.term_id = r.term_id AND o.ordinal <= ?)"


@dataclass(frozen=True)
class TermSheet:
    """A term and what its page reads about it, read in one statement (``Store.term_sheet``)."""

    term: TermRow
    revisions: list[RevisionRow]  # in version order
    names: list[tuple[str, str]]  # (name, how), as ``Store.names``
    blocks: dict[int, list[BlockRow]]  # revision id -> its blocks, in order
    subdefs: dict[int, list[dict]]  # revision id -> its sub-definitions, as ``Store.subdefs``
    referrer_spans: list[tuple[str, str, int, int, int | None]]  # (slug, name then, id, since, until) of each edge
    ruling_ids: list[int]  # the rulings about the term

    def referrers(self, ordinal: int) -> list[tuple[str, str]]:
        """(slug, name) of the terms referring to this one at the version with this ordinal, as
        ``Store.referrers``."""
        return _referrers_at(self.referrer_spans, ordinal)


def _referrers_at(spans, ordinal: int) -> list[tuple[str, str]]:
    """One (slug, name) a referring term, by its name then: the edges holding at the version with ``ordinal``."""
    held: dict[str, tuple[str, int]] = {}
    for slug, name, term_id, since, until in sorted(spans, key=lambda e: (e[1], e[2], e[3])):
        if since <= ordinal and (until is None or until > ordinal):
            held.setdefault(slug, (name, term_id))
    return [(slug, name) for slug, (name, _) in sorted(held.items(), key=lambda item: item[1])]


def _packed(expression: str, rest: str) -> str:
    """A subquery giving every row of ``rest`` as one JSON array of arrays (in no particular order)."""
    return f"(SELECT json_group_array(json_array({expression})) {rest})"


def _revision(row, nested: bool = False) -> RevisionRow:
    """A revision from its columns; ``nested``: its JSON columns come decoded (``_PACKED_REVISION_COLUMNS``)."""
    load = _decoded if nested else json.loads
    return RevisionRow(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        bool(row[8]),
        load(row[9]),
        load(row[10]),
        load(row[11]),
        load(row[12]),
        bool(row[13]),
        row[14],
        row[15],
    )


def _decoded(value):
    return value


def aliases_among(term: TermRow, names: list[tuple[str, str]]) -> list[str]:
    """The other names a term goes by (aliases and former names), from its (name, how) pairs."""
    out = []
    for name, how in names:
        if how in ("alias", "former") and name != term.name and name not in out:
            out.append(name)
    return out


def _subdef(row) -> dict:
    return dict(id=row[0], name=row[1], anchor=row[2], text=row[3])


def _referrers_from(term: str, kinds: tuple[str, ...]) -> tuple[str, dict]:
    """The FROM and WHERE of the edges (``x``) of one of ``kinds`` from other terms (``e``) to the term whose
    id is the SQL ``term``, and the kinds' parameters."""
    marks = ", ".join(f":kind{i}" for i in range(len(kinds)))
    rest = (
        "FROM edges x JOIN terms e ON e.id = x.src_id "
        f"WHERE x.dst_id = {term} AND x.kind IN ({marks}) AND x.src_id != {term}"
    )
    return rest, {f"kind{i}": kind for i, kind in enumerate(kinds)}


_REFERRER_COLUMNS = "e.slug, x.src_name, e.id, x.since, x.until"


class CheckedConnection(sqlite3.Connection):
    """A connection whose every statement first checks the request's time limit: a view making many short
    queries (each too short for the progress handler to run) stops at the limit too."""

    def execute(self, *args):
        deadline.check()
        return super().execute(*args)


class Store:
    """One built graph, opened read-only; safe to share between threads."""

    def __init__(self, build: Path):
        self.build = build
        self.path = build / "graph.sqlite"
        self._local = threading.local()
        self._versions: dict[int, tuple[VersionRow, ...]] = {}  # game id -> its versions (a build never changes)
        self._games: dict[str, Game] | None = None  # slug -> game, read once (every request names its game)

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False, factory=CheckedConnection
            )
            conn.set_progress_handler(deadline.expired, PROGRESS_EVERY)  # a query past the limit is interrupted
            self._local.conn = conn
        return conn

    def q(self, sql: str, *args):
        return self.conn.execute(sql, args).fetchall()

    def one(self, sql: str, *args):
        return self.conn.execute(sql, args).fetchone()

    # -- games and versions ------------------------------------------------
    def games(self) -> list[Game]:
        return [
            Game(r[0], r[1], r[2], json.loads(r[3]))
            for r in self.q("SELECT id, slug, name, aliases FROM games ORDER BY name")
        ]

    def vocabularies(self) -> dict[str, dict[str, list[str]]]:
        """Each game's ``[vocabulary]`` (what its players say -> the words its rules use), for search."""
        return {slug: json.loads(v) for slug, v in self.q("SELECT slug, vocabulary FROM games") if v != "{}"}

    def variant_words(self) -> dict[str, list[str]]:
        """Each game's own heading words for a variant's rules (``[search] variants``), for the index."""
        return {slug: json.loads(v) for slug, v in self.q("SELECT slug, variant_words FROM games") if v != "[]"}

    def game(self, slug_or_alias: str) -> Game | None:
        if self._games is None:
            self._games = {game.slug: game for game in self.games()}
        if slug_or_alias in self._games:  # the slug itself, as nearly every URL names it
            return self._games[slug_or_alias]
        wanted = slugify(slug_or_alias or "")
        if wanted in self._games:
            return self._games[wanted]
        for row in self.q("SELECT id, slug, name, aliases FROM games WHERE aliases != '[]'"):
            if wanted in {slugify(a) for a in json.loads(row[3])}:
                return Game(row[0], row[1], row[2], json.loads(row[3]))
        return None

    def versions(self, game: Game) -> list[VersionRow]:
        """A game's versions in order; read once per game (every page asks, most of them twice)."""
        found = self._versions.get(game.id)
        if found is None:
            found = self._versions[game.id] = tuple(self._read_versions(game))
        return list(found)

    def _read_versions(self, game: Game) -> list[VersionRow]:
        rows = self.q(
            "SELECT id, label, date, parent, ordinal, notes, document_id FROM versions WHERE game_id = ? "
            "ORDER BY ordinal",
            game.id,
        )
        unstated = len(rows) == 1 and rows[0][1] == UNSTATED and rows[0][6] is None
        changed = dict(
            self.q(
                "SELECT r.version_id, COUNT(*) FROM revisions r JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? "
                "GROUP BY r.version_id",
                game.id,
            )
        )
        return [
            VersionRow(
                r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), not unstated, r[6] is not None, changed.get(r[0], 0)
            )
            for r in rows
        ]

    def documents(self, game: Game) -> list[dict]:
        cols = ("slug", "file", "kind", "title", "version", "date", "official", "sha256", "parser", "lines")
        rows = self.q(f"SELECT {', '.join(cols)} FROM documents WHERE game_id = ? ORDER BY id", game.id)
        return [dict(zip(cols, r, strict=True)) for r in rows]

    # -- terms -------------------------------------------------------------------
    def _term(self, row) -> TermRow:
        return TermRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7], row[8])

    _TERM = f"SELECT {_TERM_COLUMNS} {_TERMS_FROM} "

    def terms(self, game: Game, kinds: tuple[str, ...] = ("entry", "keyword", "section")) -> list[TermRow]:
        marks = ",".join("?" * len(kinds))
        return [
            self._term(r)
            for r in self.q(
                self._TERM + f"WHERE t.game_id = ? AND t.kind IN ({marks}) ORDER BY t.name COLLATE NOCASE",
                game.id,
                *kinds,
            )
        ]

    def term(self, term_id: int) -> TermRow:
        return self._term(self.one(self._TERM + "WHERE t.id = ?", term_id))

    def term_by_slug(self, game: Game, slug: str) -> tuple[TermRow | None, bool]:
        """(term, exact): exact is False when the slug is an alias slug that should redirect."""
        row = self.one(self._TERM + "WHERE t.game_id = ? AND t.slug = ?", game.id, slug)
        if row:
            return self._term(row), True
        row = self.one("SELECT term_id FROM slug_aliases WHERE game_id = ? AND slug = ?", game.id, slug)
        return (self.term(row[0]), False) if row else (None, False)

    def find_term(self, game: Game, name: str, ordinal: int | None = None) -> tuple[TermRow | None, str | None]:
        """A term by any name, alias, spelling, former name or slug (case-insensitive).

        Returns (term, anchor): a sub-definition name ("Stunned") leads to its parent with an anchor.
        With ``ordinal``, a term in force at that version wins over one that is not, so a name a
        later version gives another term never changes what an earlier version answers.
        """
        key = name_key(name)
        if not key:
            return None, None
        rows = self.q(
            "SELECT n.term_id, n.rank, n.how, n.since, n.name FROM term_names n JOIN terms t ON t.id = n.term_id "
            "WHERE t.game_id = ? AND n.key = ? ORDER BY n.rank, t.id",
            game.id,
            key,
        )
        asked = heading_key(name)
        rows.sort(key=lambda r: heading_key(r[4]) != asked)  # stable: "Player Decks" is not "Player Deck"
        subs = self.q(
            "SELECT s.term_id, s.anchor, r.ordinal, r.id FROM subdefs s JOIN terms t ON t.id = s.term_id "
            "JOIN revisions r ON r.id = s.revision_id WHERE t.game_id = ? AND s.key = ? ORDER BY r.ordinal DESC, s.id",
            game.id,
            key,
        )
        if ordinal is not None:
            # stable: rank order among equals
            rows.sort(key=lambda r: (not self.in_force(r[0], ordinal), r[3] > ordinal))
            subs = [s for s in subs if self.revision_at(s[0], ordinal) == s[3]] or subs
        chosen = _named(rows[0] if rows else None, subs[0] if subs else None)
        if chosen is not None:
            return self.term(chosen[0]), chosen[1]
        found, _ = self.term_by_slug(game, slugify(name))
        return found, None

    def name_table(self, game: Game) -> dict[str, tuple[int, str | None]]:
        """Every name key of a game (its terms' names and sub-definitions') -> (term id, anchor), as
        ``find_term`` answers it at no version: the static export's linkify resolves names from this."""
        rows = self.q(
            "SELECT n.key, n.term_id, n.rank FROM term_names n JOIN terms t ON t.id = n.term_id "
            "WHERE t.game_id = ? ORDER BY n.key, n.rank, t.id",
            game.id,
        )
        subs = self.q(
            "SELECT s.key, s.term_id, s.anchor FROM subdefs s JOIN terms t ON t.id = s.term_id "
            "JOIN revisions r ON r.id = s.revision_id WHERE t.game_id = ? ORDER BY s.key, r.ordinal DESC, s.id",
            game.id,
        )
        first_row: dict[str, tuple] = {}
        for key, term_id, rank in rows:
            first_row.setdefault(key, (term_id, rank))
        first_sub: dict[str, tuple] = {}
        for key, term_id, anchor in subs:
            first_sub.setdefault(key, (term_id, anchor))
        table = {}
        for key in sorted(first_row.keys() | first_sub.keys()):
            chosen = _named(first_row.get(key), first_sub.get(key))
            if chosen is not None:
                table[key] = chosen
        return table

    def printed_table(self, game: Game) -> dict[str, tuple[int, str | None]]:
        """Names whose printed form leads elsewhere than their key (``name_table``), as ``find_term`` answers
        them: heading key -> (term id, anchor). "Player Decks" (a section) and "Player Deck" (a glossary entry)
        share a key; each printed name finds its own term."""
        rows = self.q(
            "SELECT n.key, n.name FROM term_names n JOIN terms t ON t.id = n.term_id WHERE t.game_id = ? "
            "AND n.key IN (SELECT n2.key FROM term_names n2 JOIN terms t2 ON t2.id = n2.term_id "
            "WHERE t2.game_id = ? GROUP BY n2.key HAVING COUNT(DISTINCT n2.term_id) > 1) ORDER BY n.key, n.name",
            game.id,
            game.id,
        )
        by_key = self.name_table(game)
        table: dict[str, tuple[int, str | None]] = {}
        for key, name in rows:
            term, anchor = self.find_term(game, name)
            if term is not None and by_key.get(key) != (term.id, anchor):
                table.setdefault(heading_key(name), (term.id, anchor))
        return table

    def slug_table(self, game: Game) -> dict[str, int]:
        """Every slug that leads to a term of a game (its own and the alias slugs) -> term id, as ``term_by_slug``."""
        table = dict(self.q("SELECT slug, term_id FROM slug_aliases WHERE game_id = ? ORDER BY slug", game.id))
        table.update(self.q("SELECT slug, id FROM terms WHERE game_id = ? ORDER BY slug", game.id))
        return table

    def revision_at(self, term_id: int, ordinal: int) -> int | None:
        """The id of the revision of a term in force at the version with this ordinal (removed or not)."""
        row = self.one(
            "SELECT id FROM revisions WHERE term_id = ? AND ordinal <= ? ORDER BY ordinal DESC LIMIT 1",
            term_id,
            ordinal,
        )
        return row[0] if row else None

    def in_force(self, term_id: int, ordinal: int) -> bool:
        row = self.one(
            "SELECT change FROM revisions WHERE term_id = ? AND ordinal <= ? ORDER BY ordinal DESC LIMIT 1",
            term_id,
            ordinal,
        )
        return row is not None and row[0] != "removed"

    def numbers_at(self, game: Game, ordinal: int) -> frozenset[str]:
        """Every rule number (rules and their subrules) in force at the version with this ordinal."""
        rows = self.q(
            "SELECT r.number, r.id FROM terms t JOIN revisions r ON r.term_id = t.id "
            f"WHERE t.game_id = ? AND t.number IS NOT NULL AND {_IN_FORCE} AND r.number IS NOT NULL",
            game.id,
            ordinal,
        )
        numbers = {number for number, _ in rows}
        for blocks in self.blocks_of([rid for _, rid in rows]).values():
            numbers.update(b.number for b in blocks if b.number)
        return frozenset(numbers)

    def term_by_number(self, game: Game, number: str, ordinal: int) -> TermRow | None:
        """The numbered rule or section ("702.19", "702") printed under ``number`` at the version with
        this ordinal: numbers move between editions, and a term is the rule, not the number."""
        row = self.one(
            self._TERM + f"JOIN revisions r ON r.term_id = t.id WHERE t.game_id = ? AND r.number = ? AND {_IN_FORCE}",
            game.id,
            number,
            ordinal,
        )
        return self._term(row) if row else None

    def numbered_in(self, game: Game, number: str, ordinal: int) -> TermRow | None:
        """The term whose text at the version with this ordinal holds the numbered block ``number`` ("702.19b")."""
        row = self.one(
            "SELECT r.term_id FROM blocks b JOIN revisions r ON r.id = b.revision_id JOIN terms t ON t.id = r.term_id "
            f"WHERE t.game_id = ? AND b.number = ? AND {_IN_FORCE} LIMIT 1",
            game.id,
            number,
            ordinal,
        )
        return self.term(row[0]) if row else None

    def numbers_of(self, game: Game, slugs: list[str], ordinal: int) -> dict[str, str]:
        """slug -> the number the version with this ordinal prints it under, for those of ``slugs`` that are
        numbered rules or sections in force then (a page links them by that number)."""
        out: dict[str, str] = {}
        for start in range(0, len(slugs), 500):
            chunk = slugs[start : start + 500]
            rows = self.q(
                "SELECT t.slug, r.number FROM terms t JOIN revisions r ON r.term_id = t.id WHERE t.game_id = ? "
                f"AND t.number IS NOT NULL AND t.slug IN ({','.join('?' * len(chunk))}) AND {_IN_FORCE} "
                "AND r.number IS NOT NULL",
                game.id,
                *chunk,
                ordinal,
            )
            out.update(dict(rows))
        return out

    def number_ordinals(self, game: Game, number: str) -> list[int]:
        """The ordinals of the versions where some revision printed ``number`` (a rule, section or subrule)
        first came into force, to say where a number lives when the version asked has none."""
        rows = self.q(
            "SELECT r.ordinal FROM revisions r JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? AND r.number = ? "
            "UNION SELECT r.ordinal FROM blocks b JOIN revisions r ON r.id = b.revision_id "
            "JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? AND b.number = ? ORDER BY 1",
            game.id,
            number,
            game.id,
            number,
        )
        return [ordinal for (ordinal,) in rows]

    def names(self, term: TermRow) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self.q("SELECT name, how FROM term_names WHERE term_id = ? ORDER BY rank, rowid", term.id)
        ]

    def names_in(self, game: Game) -> dict[int, list[tuple[str, str]]]:
        """Every term's names in a game (``names``), by term id: one statement for the game."""
        out: dict[int, list[tuple[str, str]]] = {}
        sql = (
            "SELECT n.term_id, n.name, n.how FROM term_names n JOIN terms t ON t.id = n.term_id "
            "WHERE t.game_id = ? ORDER BY n.term_id, n.rank, n.rowid"
        )
        for term_id, name, how in self.q(sql, game.id):
            out.setdefault(term_id, []).append((name, how))
        return out

    def cited_rules_in(self, game: Game) -> dict[int, list[int]]:
        """The numbered rules (not sections) each term of a game cites in its text in force ("See rule 702.19"),
        by term id: each rule once, though its edge is recorded once per span of versions."""
        out: dict[int, list[int]] = {}
        sql = (
            "SELECT DISTINCT e.src_id, e.dst_id FROM edges e JOIN terms d ON d.id = e.dst_id "
            "WHERE e.game_id = ? AND e.kind = 'cites' AND d.kind = 'rule' AND e.until IS NULL "
            "ORDER BY e.src_id, e.dst_id"
        )
        for src, dst in self.q(sql, game.id):
            out.setdefault(src, []).append(dst)
        return out

    def ruling_terms_in(self, game: Game) -> dict[int, list[int]]:
        """The terms each ruling of a game mentions, by ruling id."""
        out: dict[int, list[int]] = {}
        sql = (
            "SELECT rt.ruling_id, rt.term_id FROM ruling_terms rt JOIN rulings r ON r.id = rt.ruling_id "
            "WHERE r.game_id = ? ORDER BY rt.ruling_id, rt.term_id"
        )
        for ruling, term in self.q(sql, game.id):
            out.setdefault(ruling, []).append(term)
        return out

    def name_keys(self, game: Game) -> list[tuple[str, int]]:
        """(key, term id) of every name of a game's terms, for finding the name a typo misses."""
        return self.q(
            "SELECT DISTINCT n.key, n.term_id FROM term_names n JOIN terms t ON t.id = n.term_id WHERE t.game_id = ?",
            game.id,
        )

    def names_with_role(self, roles: tuple[str, ...]) -> list[str]:
        """Every name of every game's terms that has one of these roles (``name``, ``alias``, ``former``...)."""
        marks = ",".join("?" * len(roles))
        return [r[0] for r in self.q(f"SELECT name FROM term_names WHERE how IN ({marks})", *roles)]

    def completion_keys(self, start: str, game: str | None, limit: int, before: bool = False) -> list[tuple]:
        """(key, game slug, term slug, term id) of the completion keys from ``start`` on in key order (the
        ones before it, nearest first, with ``before``), in one game or across all, at most ``limit``."""
        where, order = ("key < ?", "DESC") if before else ("key >= ?", "")
        if game is None:
            sql = f"SELECT key, game, slug, term_id FROM completions WHERE {where} ORDER BY key {order}, game {order}"
            return self.q(f"{sql}, slug {order} LIMIT ?", start, limit)
        sql = f"SELECT key, game, slug, term_id FROM completions WHERE game = ? AND {where} ORDER BY key {order}"
        return self.q(f"{sql}, slug {order} LIMIT ?", game, start, limit)

    def completion_entries(self, term_ids: list[int]) -> dict[int, tuple[str, str, str]]:
        """term id -> (display name, kind, game name) for completions found."""
        marks = ",".join("?" * len(term_ids))
        rows = self.q(
            "SELECT t.id, t.name, t.kind, g.name FROM terms t JOIN games g ON g.id = t.game_id "
            f"WHERE t.id IN ({marks})",
            *term_ids,
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def aliases(self, term: TermRow) -> list[str]:
        return aliases_among(term, self.names(term))

    # -- revisions -----------------------------------------------------------
    def revisions(self, term: TermRow) -> list[RevisionRow]:
        return [_revision(r) for r in self.q(_REVISION + "WHERE r.term_id = ? ORDER BY r.ordinal", term.id)]

    def revisions_in(self, game: Game) -> dict[int, list[RevisionRow]]:
        """Every term's revisions in a game (``revisions``), by term id: one statement for the game."""
        out: dict[int, list[RevisionRow]] = {}
        sql = _REVISION + "JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? ORDER BY r.term_id, r.ordinal"
        for row in self.q(sql, game.id):
            revision = _revision(row)
            out.setdefault(revision.term_id, []).append(revision)
        return out

    def blocks(self, revision_id: int) -> list[BlockRow]:
        """A revision's text as blocks, in order, each with its lasting anchor."""
        return [BlockRow(*r) for r in self.q(_BLOCK + "WHERE b.revision_id = ? ORDER BY b.position", revision_id)]

    def blocks_of(self, revision_ids: list[int]) -> dict[int, list[BlockRow]]:
        """The blocks of many revisions at once (a whole document as it stood), by revision id."""
        out: dict[int, list[BlockRow]] = {i: [] for i in revision_ids}
        for start in range(0, len(revision_ids), 500):
            chunk = revision_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.q(_BLOCK + f"WHERE b.revision_id IN ({marks}) ORDER BY b.revision_id, b.position", *chunk):
                out[row[0]].append(BlockRow(*row))
        return out

    def contents(self, version: VersionRow) -> list[tuple[TermRow, RevisionRow]]:
        """The versioned terms in force at a version, in document order, each with its revision in force."""
        rows = self.q(
            "SELECT c.term_id, (SELECT r.id FROM revisions r WHERE r.term_id = c.term_id AND r.ordinal <= ? "
            "ORDER BY r.ordinal DESC LIMIT 1) FROM contents c WHERE c.version_id = ? ORDER BY c.position",
            version.ordinal,
            version.id,
        )
        revisions = {r.id: r for r in self._revisions_by_id([rid for _, rid in rows])}
        terms = {t.id: t for t in self._terms_by_id([tid for tid, _ in rows])}
        return [(terms[tid], revisions[rid]) for tid, rid in rows]

    def _revisions_by_id(self, ids: list[int]) -> list[RevisionRow]:
        out = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            out += [_revision(r) for r in self.q(_REVISION + f"WHERE r.id IN ({','.join('?' * len(chunk))})", *chunk)]
        return out

    def _terms_by_id(self, ids: list[int]) -> list[TermRow]:
        out = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            out += [self._term(r) for r in self.q(self._TERM + f"WHERE t.id IN ({','.join('?' * len(chunk))})", *chunk)]
        return out

    def subdefs_in(self, game: Game) -> dict[int, list[dict]]:
        """Every revision's sub-definitions in a game (``subdefs``), by revision id: one statement for the game."""
        out: dict[int, list[dict]] = {}
        sql = (
            f"SELECT s.revision_id, {_SUBDEF_COLUMNS} FROM subdefs s JOIN terms t ON t.id = s.term_id "
            "WHERE t.game_id = ? ORDER BY s.revision_id, s.id"
        )
        for row in self.q(sql, game.id):
            out.setdefault(row[0], []).append(_subdef(row[1:]))
        return out

    def subdefs(self, revision_id: int) -> list[dict]:
        sql = f"SELECT {_SUBDEF_COLUMNS} FROM subdefs s WHERE s.revision_id = ? ORDER BY s.id"
        return [_subdef(r) for r in self.q(sql, revision_id)]

    def subdef_named(self, game: Game, name: str, ordinal: int) -> str | None:
        """The text of the latest sub-definition called ``name`` in the game at or before ``ordinal``."""
        row = self.one(
            "SELECT s.text FROM subdefs s JOIN revisions r ON r.id = s.revision_id JOIN terms t ON t.id = s.term_id "
            "WHERE t.game_id = ? AND s.key = ? AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1",
            game.id,
            name_key(name),
            ordinal,
        )
        return row[0] if row else None

    def subdef_text(self, term_id: int, anchor: str, ordinal: int) -> dict | None:
        """A sub-definition of the term's text in force at the version with this ordinal."""
        revision_id = self.revision_at(term_id, ordinal)
        row = self.one(
            "SELECT name, anchor, text FROM subdefs WHERE revision_id = ? AND anchor = ?", revision_id, anchor
        )
        return dict(name=row[0], anchor=row[1], text=row[2]) if row else None

    # -- graph edges -----------------------------------------------------------
    def referrers(self, term: TermRow, kinds: tuple[str, ...], ordinal: int) -> list[tuple[str, str]]:
        """(slug, name then) of the other terms with an edge of one of these kinds to ``term`` at the version
        with this ordinal ("referenced by"), by name: only what a list of links shows, so no row is made a
        ``TermRow`` (tens on a common term)."""
        rest, params = _referrers_from(":term", kinds)
        rows = self.conn.execute(f"SELECT {_REFERRER_COLUMNS} {rest}", {"term": term.id, **params}).fetchall()
        return _referrers_at(rows, ordinal)

    def term_sheet(self, game: Game, slug: str, referrer_kinds: tuple[str, ...]) -> TermSheet | None:
        """The term of this slug (not an alias slug: ``term_by_slug``) and everything its page reads about
        it (its revisions, names, every revision's blocks and sub-definitions, its referrers, its
        rulings), in one statement of one row; None when no term has the slug.

        Each step of a statement lets go of Python's interpreter lock. With server threads waiting for
        it, every letting go is a hand-over, and the eight statements a page made (twenty rows) cost
        more than the page's own work (``bench/http_load.py --compare``). Rows come packed as JSON and
        are sorted here, as the single-purpose reads above order them.
        """
        rest, params = _referrers_from("t.id", referrer_kinds)
        by_term = "WHERE r.term_id = t.id"
        revisions_from = f"FROM revisions r JOIN versions v ON v.id = r.version_id {by_term}"
        row = self.conn.execute(
            ", ".join(
                [
                    f"SELECT {_TERM_COLUMNS}",
                    _packed(_PACKED_REVISION_COLUMNS, revisions_from),
                    _packed("name, how, rank, rowid", "FROM term_names n WHERE n.term_id = t.id"),
                    _packed(_BLOCK_COLUMNS, f"FROM blocks b JOIN revisions r ON r.id = b.revision_id {by_term}"),
                    _packed(f"s.revision_id, {_SUBDEF_COLUMNS}", "FROM subdefs s WHERE s.term_id = t.id"),
                    _packed(_REFERRER_COLUMNS, rest),
                    _packed("ruling_id", "FROM ruling_terms rt WHERE rt.term_id = t.id"),
                ]
            )
            + f" {_TERMS_FROM} WHERE t.game_id = :game AND t.slug = :slug",
            {"game": game.id, "slug": slug, **params},
        ).fetchone()
        if row is None:
            return None
        term = self._term(row)
        revisions, names, blocks, subdefs, referrers, rulings = json.loads(f"[{','.join(row[-6:])}]")  # one call
        sheet = TermSheet(
            term=term,
            revisions=[_revision(r, nested=True) for r in sorted(revisions, key=lambda r: r[4])],
            names=[(name, how) for name, how, *_ in sorted(names, key=lambda n: (n[2], n[3]))],
            blocks={r[0]: [] for r in revisions},
            subdefs={r[0]: [] for r in revisions},
            referrer_spans=[tuple(r) for r in referrers],
            ruling_ids=sorted(r[0] for r in rulings),
        )
        for block in sorted(blocks, key=lambda b: (b[0], b[1])):
            sheet.blocks[block[0]].append(BlockRow(*block))
        for revision_id, *subdef in sorted(subdefs, key=lambda s: s[1]):
            sheet.subdefs[revision_id].append(_subdef(subdef))
        return sheet

    # -- rulings and cards -------------------------------------------------------
    _RULING = (
        "SELECT r.id, r.slug, r.kind, r.title, r.question, r.answer, r.text, r.group_name, r.group_kind, "
        "r.section, r.expansion, r.sources, d.slug, d.title, r.line, r.caps, d.file, r.also, r.former_slug "
        "FROM rulings r "
        "JOIN documents d ON d.id = r.document_id "
    )
    _RULING_COLS = (
        "id",
        "slug",
        "kind",
        "title",
        "question",
        "answer",
        "text",
        "group",
        "group_kind",
        "section",
        "expansion",
        "sources",
        "document",
        "document_title",
        "line",
        "caps",
        "file",
        "also",  # later editions that print the same ruling: {document, title, line}
        "former_slug",  # the slug of the scheme before 2026-11-27 (its URL redirects; card pages' anchors)
    )

    def _rulings(self, rows: list) -> list[dict]:
        """Rulings with their cards, the cards of all of them read in one query (not one per ruling)."""
        rulings = []
        for row in rows:
            ruling = dict(zip(self._RULING_COLS, row, strict=True))
            ruling["sources"] = json.loads(ruling["sources"])
            ruling["also"] = json.loads(ruling["also"])
            ruling["cards"] = []
            rulings.append(ruling)
        by_id = {r["id"]: r for r in rulings}
        ids = list(by_id)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for ruling_id, *card in self.q(
                "SELECT rc.ruling_id, c.slug, c.name, c.kind, c.id FROM ruling_cards rc JOIN cards c "
                f"ON c.id = rc.card_id WHERE rc.ruling_id IN ({marks}) ORDER BY rc.ruling_id, c.kind DESC, c.name",
                *chunk,
            ):
                by_id[ruling_id]["cards"].append(dict(zip(("slug", "name", "kind", "id"), card, strict=True)))
        return rulings

    def rulings(self, game: Game) -> list[dict]:
        return self._rulings(self.q(self._RULING + "WHERE r.game_id = ? ORDER BY r.id", game.id))

    def ruling(self, game: Game, slug: str) -> dict | None:
        found = self._rulings(self.q(self._RULING + "WHERE r.game_id = ? AND r.slug = ?", game.id, slug))
        return found[0] if found else None

    def ruling_slug_formerly(self, game: Game, former: str) -> str | None:
        """The slug of the ruling a former slug (the scheme before 2026-11-27) named, if one did."""
        row = self.one("SELECT slug FROM rulings WHERE game_id = ? AND former_slug = ?", game.id, former)
        return row[0] if row else None

    def former_ruling_slugs(self, game: Game) -> list[str]:
        """Former slugs that differ from their ruling's slug: each URL the site answers with a redirect."""
        return [r[0] for r in self.q("SELECT former_slug FROM rulings WHERE game_id = ? AND former_slug != slug "
                                     "ORDER BY id", game.id)]  # fmt: skip

    def rulings_about(self, term: TermRow) -> list[dict]:
        return self._rulings(
            self.q(
                self._RULING + "JOIN ruling_terms rt ON rt.ruling_id = r.id WHERE rt.term_id = ? ORDER BY r.id", term.id
            )
        )

    def terms_of_ruling(self, ruling_id: int) -> list[TermRow]:
        """The glossary terms a ruling mentions."""
        return [self.term(r[0]) for r in self.q("SELECT term_id FROM ruling_terms WHERE ruling_id = ?", ruling_id)]

    # A hero's, villain's or environment's deck: what the rulings grouped under it call it.
    _GROUP_KIND = (
        "(SELECT r.group_kind FROM rulings r JOIN ruling_cards g ON g.ruling_id = r.id "
        "WHERE g.card_id = c.id AND c.kind = 'deck' AND r.group_name = c.name LIMIT 1)"
    )

    def cards(self, game: Game) -> list[dict]:
        return [
            dict(slug=r[0], name=r[1], kind=r[2], card_set=r[3], number=r[4], ruling_count=r[5], group_kind=r[6])
            for r in self.q(
                "SELECT c.slug, c.name, c.kind, c.card_set, c.number, COUNT(rc.ruling_id), "
                f"{self._GROUP_KIND} FROM cards c LEFT JOIN ruling_cards rc ON rc.card_id = c.id "
                "WHERE c.game_id = ? GROUP BY c.id ORDER BY c.name COLLATE NOCASE",
                game.id,
            )
        ]

    def card(self, game: Game, slug: str) -> dict | None:
        row = self.one(
            f"SELECT c.id, c.slug, c.name, c.kind, c.card_set, c.number, {self._GROUP_KIND} FROM cards c "
            "WHERE c.game_id = ? AND c.slug = ?",
            game.id,
            slug,
        )
        if not row:
            return None
        card = dict(zip(("id", "slug", "name", "kind", "card_set", "number", "group_kind"), row, strict=True))
        rows = self.q(
            self._RULING + "JOIN ruling_cards rc ON rc.ruling_id = r.id WHERE rc.card_id = ? ORDER BY r.id", row[0]
        )
        card["rulings"] = self._rulings(rows)
        return card

    # -- build facts -------------------------------------------------------------
    def diagnostics(self) -> list[dict]:
        return [
            dict(game=r[0], level=r[1], path=r[2], line=r[3], message=r[4])
            for r in self.q("SELECT game, level, path, line, message FROM diagnostics")
        ]

    def counts(self) -> dict:
        out = {}
        tables = (
            "games",
            "documents",
            "versions",
            "terms",
            "revisions",
            "blocks",
            "subdefs",
            "rulings",
            "cards",
            "edges",
        )
        for table in tables:
            out[table] = self.one(f"SELECT COUNT(*) FROM {table}")[0]
        return out

    def indexing_sizes(self) -> dict[str, int]:
        """How much indexing each game (slug) costs: its texts' characters, and 300 for each revision (the
        work of a document whatever its text). Two runs of 1,678 rulebooks cut by revisions alone took
        71.6 and 76.2 s; cut by this, 74.6 and 75.0 s."""
        rows = self.conn.execute(
            "SELECT g.slug, SUM(length(r.text)) + 300 * COUNT(r.id) FROM games g JOIN terms t ON t.game_id = g.id "
            "JOIN revisions r ON r.term_id = t.id GROUP BY g.slug"
        )
        return dict(rows.fetchall())

    def furniture_count(self, game: Game) -> int:
        return self.one(
            "SELECT COUNT(*) FROM furniture f JOIN documents d ON d.id = f.document_id WHERE d.game_id = ?", game.id
        )[0]


def _named(row: tuple | None, sub: tuple | None) -> tuple[int, str | None] | None:
    """Which a name key means, (term id, anchor): a term's first name (rank 0) wins over a sub-definition
    of that name, which wins over the term's other names (aliases, spellings). ``row`` is (term id, rank, ...)
    of the first term name, ``sub`` (term id, anchor, ...) of the latest sub-definition."""
    if row is not None and (row[1] == 0 or sub is None):
        return row[0], None
    if sub is not None:
        return sub[0], sub[1]
    return None
