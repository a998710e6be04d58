"""Every name and slug of a game as a table, resolved as ``Store.find_term`` and ``Store.term_by_slug``
resolve them one at a time: what the static export's linkify (``export.link_names``) looks names up in."""

from __future__ import annotations

from ..text import heading_key
from .rows import Game
from .store import Store, name_meaning


def name_table(store: Store, game: Game) -> dict[str, tuple[int, str | None]]:
    """Every name key of a game (its terms' names and sub-definitions') -> (term id, anchor), as
    ``find_term`` answers it at no version: the static export's linkify resolves names from this."""
    rows = store.q(
        "SELECT n.key, n.term_id, n.rank FROM term_names n JOIN terms t ON t.id = n.term_id "
        "WHERE t.game_id = ? ORDER BY n.key, n.rank, t.id",
        game.id,
    )
    subs = store.q(
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
        chosen = name_meaning(first_row.get(key), first_sub.get(key))
        if chosen is not None:
            table[key] = chosen
    return table


def printed_table(store: Store, game: Game) -> dict[str, tuple[int, str | None]]:
    """Names whose printed form leads elsewhere than their key (``name_table``), as ``find_term`` answers
    them: heading key -> (term id, anchor). "Player Decks" (a section) and "Player Deck" (a glossary entry)
    share a key; each printed name finds its own term."""
    rows = store.q(
        "SELECT n.key, n.name FROM term_names n JOIN terms t ON t.id = n.term_id WHERE t.game_id = ? "
        "AND n.key IN (SELECT n2.key FROM term_names n2 JOIN terms t2 ON t2.id = n2.term_id "
        "WHERE t2.game_id = ? GROUP BY n2.key HAVING COUNT(DISTINCT n2.term_id) > 1) ORDER BY n.key, n.name",
        game.id,
        game.id,
    )
    by_key = name_table(store, game)
    table: dict[str, tuple[int, str | None]] = {}
    for key, name in rows:
        term, anchor = store.find_term(game, name)
        if term is not None and by_key.get(key) != (term.id, anchor):
            table.setdefault(heading_key(name), (term.id, anchor))
    return table


def slug_table(store: Store, game: Game) -> dict[str, int]:
    """Every slug that leads to a term of a game (its own and the alias slugs) -> term id, as ``term_by_slug``."""
    table = dict(store.q("SELECT slug, term_id FROM slug_aliases WHERE game_id = ? ORDER BY slug", game.id))
    table.update(store.q("SELECT slug, id FROM terms WHERE game_id = ? ORDER BY slug", game.id))
    return table
