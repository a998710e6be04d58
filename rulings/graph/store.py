"""Read access to a built graph. Every query the CLI and the site need, as plain rows."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from ..text import name_key, slugify


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


_REVISION = (
    "SELECT r.id, r.term_id, v.label, v.date, r.ordinal, r.name, r.text, r.change, r.complete, "
    "r.source, r.see_also, r.redirect, r.notes FROM revisions r JOIN versions v ON v.id = r.version_id "
)


def _revision(row) -> RevisionRow:
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
        json.loads(row[9]),
        json.loads(row[10]),
        json.loads(row[11]),
        json.loads(row[12]),
    )


class Store:
    """One built graph, opened read-only; safe to share between threads."""

    def __init__(self, build: Path):
        self.build = build
        self.path = build / "graph.sqlite"
        self._local = threading.local()

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
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

    def game(self, slug_or_alias: str) -> Game | None:
        wanted = slugify(slug_or_alias or "")
        row = self.one("SELECT id, slug, name, aliases FROM games WHERE slug = ?", wanted)
        if row:
            return Game(row[0], row[1], row[2], json.loads(row[3]))
        for row in self.q("SELECT id, slug, name, aliases FROM games WHERE aliases != '[]'"):
            if wanted in {slugify(a) for a in json.loads(row[3])}:
                return Game(row[0], row[1], row[2], json.loads(row[3]))
        return None

    def versions(self, game: Game) -> list[VersionRow]:
        return [
            VersionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]))
            for r in self.q(
                "SELECT id, label, date, parent, ordinal, notes FROM versions WHERE game_id = ? ORDER BY ordinal",
                game.id,
            )
        ]

    def documents(self, game: Game) -> list[dict]:
        cols = ("slug", "file", "kind", "title", "version", "date", "official", "sha256", "parser", "lines")
        rows = self.q(f"SELECT {', '.join(cols)} FROM documents WHERE game_id = ? ORDER BY id", game.id)
        return [dict(zip(cols, r, strict=True)) for r in rows]

    # -- terms -------------------------------------------------------------------
    def _term(self, row) -> TermRow:
        return TermRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])

    _TERM = (
        "SELECT t.id, t.slug, t.name, t.kind, t.path, d.slug, t.line, t.lineage FROM terms t "
        "JOIN documents d ON d.id = t.document_id "
    )

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

    def find_term(self, game: Game, name: str) -> tuple[TermRow | None, str | None]:
        """A term by any name, alias, spelling, former name or slug (case-insensitive).

        Returns (term, anchor): a sub-definition name ("Stunned") leads to its parent with an anchor.
        """
        key = name_key(name)
        if not key:
            return None, None
        rows = self.q(
            "SELECT n.term_id, n.rank, n.how FROM term_names n JOIN terms t ON t.id = n.term_id "
            "WHERE t.game_id = ? AND n.key = ? ORDER BY n.rank, t.id",
            game.id,
            key,
        )
        sub = self.one(
            "SELECT s.term_id, s.anchor FROM subdefs s JOIN terms t ON t.id = s.term_id "
            "JOIN revisions r ON r.id = s.revision_id WHERE t.game_id = ? AND s.key = ? "
            "ORDER BY r.ordinal DESC LIMIT 1",
            game.id,
            key,
        )
        if rows and (rows[0][1] == 0 or not sub):
            return self.term(rows[0][0]), None
        if sub:
            return self.term(sub[0]), sub[1]
        found, _ = self.term_by_slug(game, slugify(name))
        return found, None

    def names(self, term: TermRow) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self.q("SELECT name, how FROM term_names WHERE term_id = ? ORDER BY rank, rowid", term.id)
        ]

    def names_with_role(self, roles: tuple[str, ...]) -> list[str]:
        """Every name of every game's terms that has one of these roles (``name``, ``alias``, ``former``...)."""
        marks = ",".join("?" * len(roles))
        return [r[0] for r in self.q(f"SELECT name FROM term_names WHERE how IN ({marks})", *roles)]

    def completion_names(self) -> list[tuple[str, str, str, str, str, str]]:
        """(name, term name, term slug, game slug, term kind, game name) of every name worth completing:
        glossary names and aliases and titles of versioned sections, best-ranked names first."""
        return self.q(
            "SELECT n.name, t.name, t.slug, g.slug, t.kind, g.name FROM term_names n "
            "JOIN terms t ON t.id = n.term_id JOIN games g ON g.id = t.game_id WHERE n.how IN ('name', 'alias') "
            "AND (t.kind != 'section' OR t.lineage = 'versioned') ORDER BY n.rank"
        )

    def aliases(self, term: TermRow) -> list[str]:
        out = []
        for name, how in self.names(term):
            if how in ("alias", "former") and name != term.name and name not in out:
                out.append(name)
        return out

    # -- revisions -----------------------------------------------------------
    def revisions(self, term: TermRow) -> list[RevisionRow]:
        return [_revision(r) for r in self.q(_REVISION + "WHERE r.term_id = ? ORDER BY r.ordinal", term.id)]

    def subdefs(self, revision_id: int) -> list[dict]:
        return [
            dict(id=r[0], name=r[1], anchor=r[2], text=r[3])
            for r in self.q("SELECT id, name, anchor, text FROM subdefs WHERE revision_id = ? ORDER BY id", revision_id)
        ]

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
        row = self.one(
            "SELECT s.name, s.anchor, s.text FROM subdefs s JOIN revisions r ON r.id = s.revision_id "
            "WHERE s.term_id = ? AND s.anchor = ? AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1",
            term_id,
            anchor,
            ordinal,
        )
        return dict(name=row[0], anchor=row[1], text=row[2]) if row else None

    # -- graph edges -----------------------------------------------------------
    def edges_to(self, term: TermRow, kinds: tuple[str, ...]) -> list[TermRow]:
        marks = ",".join("?" * len(kinds))
        return [
            self.term(r[0])
            for r in self.q(
                f"SELECT DISTINCT e.src_id FROM edges e JOIN terms t ON t.id = e.src_id "
                f"WHERE e.dst_id = ? AND e.kind IN ({marks}) ORDER BY t.name",
                term.id,
                *kinds,
            )
        ]

    # -- rulings and cards -------------------------------------------------------
    _RULING = (
        "SELECT r.id, r.slug, r.kind, r.title, r.question, r.answer, r.text, r.group_name, r.group_kind, "
        "r.section, r.expansion, r.sources, d.slug, d.title, r.line, r.caps, d.file FROM rulings r "
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
    )

    def _ruling(self, row) -> dict:
        ruling = dict(zip(self._RULING_COLS, row, strict=True))
        ruling["sources"] = json.loads(ruling["sources"])
        ruling["cards"] = [
            dict(slug=r[0], name=r[1], kind=r[2], id=r[3])
            for r in self.q(
                "SELECT c.slug, c.name, c.kind, c.id FROM ruling_cards rc JOIN cards c ON c.id = rc.card_id "
                "WHERE rc.ruling_id = ? ORDER BY c.kind DESC, c.name",
                ruling["id"],
            )
        ]
        return ruling

    def rulings(self, game: Game) -> list[dict]:
        return [self._ruling(r) for r in self.q(self._RULING + "WHERE r.game_id = ? ORDER BY r.id", game.id)]

    def ruling(self, game: Game, slug: str) -> dict | None:
        row = self.one(self._RULING + "WHERE r.game_id = ? AND r.slug = ?", game.id, slug)
        return self._ruling(row) if row else None

    def rulings_about(self, term: TermRow) -> list[dict]:
        return [
            self._ruling(r)
            for r in self.q(
                self._RULING + "JOIN ruling_terms rt ON rt.ruling_id = r.id WHERE rt.term_id = ? ORDER BY r.id", term.id
            )
        ]

    def terms_of_ruling(self, ruling_id: int) -> list[TermRow]:
        """The glossary terms a ruling mentions."""
        return [self.term(r[0]) for r in self.q("SELECT term_id FROM ruling_terms WHERE ruling_id = ?", ruling_id)]

    def cards(self, game: Game) -> list[dict]:
        return [
            dict(slug=r[0], name=r[1], kind=r[2], card_set=r[3], number=r[4], ruling_count=r[5])
            for r in self.q(
                "SELECT c.slug, c.name, c.kind, c.card_set, c.number, COUNT(rc.ruling_id) FROM cards c "
                "LEFT JOIN ruling_cards rc ON rc.card_id = c.id WHERE c.game_id = ? GROUP BY c.id "
                "ORDER BY c.name COLLATE NOCASE",
                game.id,
            )
        ]

    def card(self, game: Game, slug: str) -> dict | None:
        row = self.one(
            "SELECT id, slug, name, kind, card_set, number FROM cards WHERE game_id = ? AND slug = ?", game.id, slug
        )
        if not row:
            return None
        card = dict(zip(("id", "slug", "name", "kind", "card_set", "number"), row, strict=True))
        card["rulings"] = [
            self._ruling(r)
            for r in self.q(
                self._RULING + "JOIN ruling_cards rc ON rc.ruling_id = r.id WHERE rc.card_id = ? ORDER BY r.id", row[0]
            )
        ]
        return card

    # -- build facts -------------------------------------------------------------
    def diagnostics(self) -> list[dict]:
        return [
            dict(game=r[0], level=r[1], path=r[2], line=r[3], message=r[4])
            for r in self.q("SELECT game, level, path, line, message FROM diagnostics")
        ]

    def counts(self) -> dict:
        out = {}
        for table in ("games", "documents", "versions", "terms", "revisions", "subdefs", "rulings", "cards", "edges"):
            out[table] = self.one(f"SELECT COUNT(*) FROM {table}")[0]
        return out

    def furniture_count(self, game: Game) -> int:
        return self.one(
            "SELECT COUNT(*) FROM furniture f JOIN documents d ON d.id = f.document_id WHERE d.game_id = ?", game.id
        )[0]
