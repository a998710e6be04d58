"""Read access to a built graph: its games and versions, its terms (by id, slug, name or alias), their names,
revisions, blocks and sub-definitions. What every page, answer, report and the index read, as plain rows
(``rows.py``); the reads only one consumer needs live beside it (``term_sheet``, ``rule_numbers``,
``ruling_rows``, ``name_tables``, ``index_feed``, ``build_facts``: docs/architecture.md)."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from .. import deadline
from ..text import heading_key, name_key, slugify
from .rows import (
    SELECT_BLOCK,
    SELECT_REVISION,
    SELECT_TERM,
    SUBDEF_COLUMNS,
    UNSTATED,
    BlockRow,
    Game,
    RevisionRow,
    TermRow,
    VersionRow,
    aliases_among,
    revision_row,
    subdef_row,
    term_row,
)

PROGRESS_EVERY = 20_000  # SQLite virtual-machine steps between checks of the request's time limit


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
    def terms(self, game: Game, kinds: tuple[str, ...] = ("entry", "keyword", "section")) -> list[TermRow]:
        marks = ",".join("?" * len(kinds))
        return [
            term_row(r)
            for r in self.q(
                SELECT_TERM + f"WHERE t.game_id = ? AND t.kind IN ({marks}) ORDER BY t.name COLLATE NOCASE",
                game.id,
                *kinds,
            )
        ]

    def term(self, term_id: int) -> TermRow:
        return term_row(self.one(SELECT_TERM + "WHERE t.id = ?", term_id))

    def term_by_slug(self, game: Game, slug: str) -> tuple[TermRow | None, bool]:
        """(term, exact): exact is False when the slug is an alias slug that should redirect."""
        row = self.one(SELECT_TERM + "WHERE t.game_id = ? AND t.slug = ?", game.id, slug)
        if row:
            return term_row(row), True
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
        chosen = name_meaning(rows[0] if rows else None, subs[0] if subs else None)
        if chosen is not None:
            return self.term(chosen[0]), chosen[1]
        found, _ = self.term_by_slug(game, slugify(name))
        return found, None

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

    def removed_terms(self, game: Game) -> dict[int, tuple[str, str | None]]:
        """The terms of a game the latest version has removed, by id: the version that removed each and the one
        whose text it last had (where a link to it still finds a page)."""
        rows = self.q(
            "SELECT r.term_id, v.label, (SELECT v2.label FROM revisions r2 JOIN versions v2 ON v2.id = r2.version_id "
            "WHERE r2.term_id = r.term_id AND r2.ordinal < r.ordinal AND r2.change != 'removed' "
            "ORDER BY r2.ordinal DESC LIMIT 1) "
            "FROM revisions r JOIN versions v ON v.id = r.version_id JOIN terms t ON t.id = r.term_id "
            "WHERE t.game_id = ? AND r.change = 'removed' "
            "AND r.ordinal = (SELECT MAX(r3.ordinal) FROM revisions r3 WHERE r3.term_id = r.term_id)",
            game.id,
        )
        return {term_id: (removed, last) for term_id, removed, last in rows}

    def names(self, term: TermRow) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self.q("SELECT name, how FROM term_names WHERE term_id = ? ORDER BY rank, rowid", term.id)
        ]

    def name_keys(self, game: Game) -> list[tuple[str, int]]:
        """(key, term id) of every name of a game's terms, for finding the name a typo misses."""
        return self.q(
            "SELECT DISTINCT n.key, n.term_id FROM term_names n JOIN terms t ON t.id = n.term_id WHERE t.game_id = ?",
            game.id,
        )

    def aliases(self, term: TermRow) -> list[str]:
        return aliases_among(term, self.names(term))

    # -- revisions -----------------------------------------------------------
    def revisions(self, term: TermRow) -> list[RevisionRow]:
        return [revision_row(r) for r in self.q(SELECT_REVISION + "WHERE r.term_id = ? ORDER BY r.ordinal", term.id)]

    def revisions_in(self, game: Game) -> dict[int, list[RevisionRow]]:
        """Every term's revisions in a game (``revisions``), by term id: one statement for the game."""
        out: dict[int, list[RevisionRow]] = {}
        sql = SELECT_REVISION + "JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? ORDER BY r.term_id, r.ordinal"
        for row in self.q(sql, game.id):
            revision = revision_row(row)
            out.setdefault(revision.term_id, []).append(revision)
        return out

    def blocks(self, revision_id: int) -> list[BlockRow]:
        """A revision's text as blocks, in order, each with its lasting anchor."""
        return [BlockRow(*r) for r in self.q(SELECT_BLOCK + "WHERE b.revision_id = ? ORDER BY b.position", revision_id)]

    def blocks_of(self, revision_ids: list[int]) -> dict[int, list[BlockRow]]:
        """The blocks of many revisions at once (a whole document as it stood), by revision id."""
        out: dict[int, list[BlockRow]] = {i: [] for i in revision_ids}
        for start in range(0, len(revision_ids), 500):
            chunk = revision_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.q(
                SELECT_BLOCK + f"WHERE b.revision_id IN ({marks}) ORDER BY b.revision_id, b.position", *chunk
            ):
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
            out += [
                revision_row(r)
                for r in self.q(SELECT_REVISION + f"WHERE r.id IN ({','.join('?' * len(chunk))})", *chunk)
            ]
        return out

    def _terms_by_id(self, ids: list[int]) -> list[TermRow]:
        out = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            out += [term_row(r) for r in self.q(SELECT_TERM + f"WHERE t.id IN ({','.join('?' * len(chunk))})", *chunk)]
        return out

    def subdefs(self, revision_id: int) -> list[dict]:
        sql = f"SELECT {SUBDEF_COLUMNS} FROM subdefs s WHERE s.revision_id = ? ORDER BY s.id"
        return [subdef_row(r) for r in self.q(sql, revision_id)]

    def subdef_text(self, term_id: int, anchor: str, ordinal: int) -> dict | None:
        """A sub-definition of the term's text in force at the version with this ordinal."""
        revision_id = self.revision_at(term_id, ordinal)
        row = self.one(
            "SELECT name, anchor, text FROM subdefs WHERE revision_id = ? AND anchor = ?", revision_id, anchor
        )
        return dict(name=row[0], anchor=row[1], text=row[2]) if row else None


def name_meaning(row: tuple | None, sub: tuple | None) -> tuple[int, str | None] | None:
    """Which a name key means, (term id, anchor): a term's first name (rank 0) wins over a sub-definition
    of that name, which wins over the term's other names (aliases, spellings). ``row`` is (term id, rank, ...)
    of the first term name, ``sub`` (term id, anchor, ...) of the latest sub-definition."""
    if row is not None and (row[1] == 0 or sub is None):
        return row[0], None
    if sub is not None:
        return sub[0], sub[1]
    return None
