"""What the search index is written and searched from, beyond the texts themselves: each game's vocabulary
and variant words, every term's names, the rules each term cites, the terms each ruling mentions, the
completion keys and the indexing cost of each game. Read by ``index/writer.py``, ``index/completion.py`` and
``index/search.py``, by no page."""

from __future__ import annotations

import json

from ..text import name_key
from .rows import SUBDEF_COLUMNS, Game, subdef_row
from .store import Store


def vocabularies(store: Store) -> dict[str, dict[str, list[str]]]:
    """Each game's ``[vocabulary]`` (what its players say -> the words its rules use), for search."""
    return {slug: json.loads(v) for slug, v in store.q("SELECT slug, vocabulary FROM games") if v != "{}"}


def variant_words(store: Store) -> dict[str, list[str]]:
    """Each game's own heading words for a variant's rules (``[search] variants``), for the index."""
    return {slug: json.loads(v) for slug, v in store.q("SELECT slug, variant_words FROM games") if v != "[]"}


def names_in(store: Store, game: Game) -> dict[int, list[tuple[str, str]]]:
    """Every term's names in a game (``Store.names``), by term id: one statement for the game."""
    out: dict[int, list[tuple[str, str]]] = {}
    sql = (
        "SELECT n.term_id, n.name, n.how FROM term_names n JOIN terms t ON t.id = n.term_id "
        "WHERE t.game_id = ? ORDER BY n.term_id, n.rank, n.rowid"
    )
    for term_id, name, how in store.q(sql, game.id):
        out.setdefault(term_id, []).append((name, how))
    return out


def cited_rules_in(store: Store, game: Game) -> dict[int, list[int]]:
    """The numbered rules (not sections) each term of a game cites in its text in force ("See rule 702.19"),
    by term id: each rule once, though its edge is recorded once per span of versions."""
    out: dict[int, list[int]] = {}
    sql = (
        "SELECT DISTINCT e.src_id, e.dst_id FROM edges e JOIN terms d ON d.id = e.dst_id "
        "WHERE e.game_id = ? AND e.kind = 'cites' AND d.kind = 'rule' AND e.until IS NULL "
        "ORDER BY e.src_id, e.dst_id"
    )
    for src, dst in store.q(sql, game.id):
        out.setdefault(src, []).append(dst)
    return out


def ruling_terms_in(store: Store, game: Game) -> dict[int, list[int]]:
    """The terms each ruling of a game mentions, by ruling id."""
    out: dict[int, list[int]] = {}
    sql = (
        "SELECT rt.ruling_id, rt.term_id FROM ruling_terms rt JOIN rulings r ON r.id = rt.ruling_id "
        "WHERE r.game_id = ? ORDER BY rt.ruling_id, rt.term_id"
    )
    for ruling, term in store.q(sql, game.id):
        out.setdefault(ruling, []).append(term)
    return out


def names_with_role(store: Store, roles: tuple[str, ...]) -> list[str]:
    """Every name of every game's terms that has one of these roles (``name``, ``alias``, ``former``...)."""
    marks = ",".join("?" * len(roles))
    return [r[0] for r in store.q(f"SELECT name FROM term_names WHERE how IN ({marks})", *roles)]


def subdefs_in(store: Store, game: Game) -> dict[int, list[dict]]:
    """Every revision's sub-definitions in a game (``Store.subdefs``), by revision id: one statement for the game."""
    out: dict[int, list[dict]] = {}
    sql = (
        f"SELECT s.revision_id, {SUBDEF_COLUMNS} FROM subdefs s JOIN terms t ON t.id = s.term_id "
        "WHERE t.game_id = ? ORDER BY s.revision_id, s.id"
    )
    for row in store.q(sql, game.id):
        out.setdefault(row[0], []).append(subdef_row(row[1:]))
    return out


def subdef_named(store: Store, game: Game, name: str, ordinal: int) -> str | None:
    """The text of the latest sub-definition called ``name`` in the game at or before ``ordinal``."""
    row = store.one(
        "SELECT s.text FROM subdefs s JOIN revisions r ON r.id = s.revision_id JOIN terms t ON t.id = s.term_id "
        "WHERE t.game_id = ? AND s.key = ? AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1",
        game.id,
        name_key(name),
        ordinal,
    )
    return row[0] if row else None


def indexing_sizes(store: Store) -> dict[str, int]:
    """How much indexing each game (slug) costs: its texts' characters, and 300 for each revision (the
    work of a document whatever its text). Two runs of 1,678 rulebooks cut by revisions alone took
    71.6 and 76.2 s; cut by this, 74.6 and 75.0 s."""
    rows = store.conn.execute(
        "SELECT g.slug, SUM(length(r.text)) + 300 * COUNT(r.id) FROM games g JOIN terms t ON t.game_id = g.id "
        "JOIN revisions r ON r.term_id = t.id GROUP BY g.slug"
    )
    return dict(rows.fetchall())


def completion_keys(store: Store, start: str, game: str | None, limit: int, before: bool = False) -> list[tuple]:
    """(key, game slug, term slug, term id) of the completion keys from ``start`` on in key order (the
    ones before it, nearest first, with ``before``), in one game or across all, at most ``limit``."""
    where, order = ("key < ?", "DESC") if before else ("key >= ?", "")
    if game is None:
        sql = f"SELECT key, game, slug, term_id FROM completions WHERE {where} ORDER BY key {order}, game {order}"
        return store.q(f"{sql}, slug {order} LIMIT ?", start, limit)
    sql = f"SELECT key, game, slug, term_id FROM completions WHERE game = ? AND {where} ORDER BY key {order}"
    return store.q(f"{sql}, slug {order} LIMIT ?", game, start, limit)


def completion_entries(store: Store, term_ids: list[int]) -> dict[int, tuple[str, str, str]]:
    """term id -> (display name, kind, game name) for completions found."""
    marks = ",".join("?" * len(term_ids))
    rows = store.q(
        f"SELECT t.id, t.name, t.kind, g.name FROM terms t JOIN games g ON g.id = t.game_id WHERE t.id IN ({marks})",
        *term_ids,
    )
    return {r[0]: (r[1], r[2], r[3]) for r in rows}
