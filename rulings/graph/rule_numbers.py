"""Rule numbers at a version: which numbered rule, section or subrule a number names then, and which numbers
a version has. Numbers move between editions and a term is the rule, not the number (``rules.py``); the rule
pages (``rules.py``, ``web/rulepages.py``) read them here."""

from __future__ import annotations

from .rows import IN_FORCE, SELECT_TERM, Game, TermRow, term_row
from .store import Store


def numbers_at(store: Store, game: Game, ordinal: int) -> frozenset[str]:
    """Every rule number (rules and their subrules) in force at the version with this ordinal."""
    rows = store.q(
        "SELECT r.number, r.id FROM terms t JOIN revisions r ON r.term_id = t.id "
        f"WHERE t.game_id = ? AND t.number IS NOT NULL AND {IN_FORCE} AND r.number IS NOT NULL",
        game.id,
        ordinal,
    )
    numbers = {number for number, _ in rows}
    for blocks in store.blocks_of([rid for _, rid in rows]).values():
        numbers.update(b.number for b in blocks if b.number)
    return frozenset(numbers)


def term_by_number(store: Store, game: Game, number: str, ordinal: int) -> TermRow | None:
    """The numbered rule or section ("702.19", "702") printed under ``number`` at the version with
    this ordinal: numbers move between editions, and a term is the rule, not the number."""
    row = store.one(
        SELECT_TERM + f"JOIN revisions r ON r.term_id = t.id WHERE t.game_id = ? AND r.number = ? AND {IN_FORCE}",
        game.id,
        number,
        ordinal,
    )
    return term_row(row) if row else None


def numbered_in(store: Store, game: Game, number: str, ordinal: int) -> TermRow | None:
    """The term whose text at the version with this ordinal holds the numbered block ``number`` ("702.19b")."""
    row = store.one(
        "SELECT r.term_id FROM blocks b JOIN revisions r ON r.id = b.revision_id JOIN terms t ON t.id = r.term_id "
        f"WHERE t.game_id = ? AND b.number = ? AND {IN_FORCE} LIMIT 1",
        game.id,
        number,
        ordinal,
    )
    return store.term(row[0]) if row else None


def numbers_of(store: Store, game: Game, slugs: list[str], ordinal: int) -> dict[str, str]:
    """slug -> the number the version with this ordinal prints it under, for those of ``slugs`` that are
    numbered rules or sections in force then (a page links them by that number)."""
    out: dict[str, str] = {}
    for start in range(0, len(slugs), 500):
        chunk = slugs[start : start + 500]
        rows = store.q(
            "SELECT t.slug, r.number FROM terms t JOIN revisions r ON r.term_id = t.id WHERE t.game_id = ? "
            f"AND t.number IS NOT NULL AND t.slug IN ({','.join('?' * len(chunk))}) AND {IN_FORCE} "
            "AND r.number IS NOT NULL",
            game.id,
            *chunk,
            ordinal,
        )
        out.update(dict(rows))
    return out


def number_ordinals(store: Store, game: Game, number: str) -> list[int]:
    """The ordinals of the versions where some revision printed ``number`` (a rule, section or subrule)
    first came into force, to say where a number lives when the version asked has none."""
    rows = store.q(
        "SELECT r.ordinal FROM revisions r JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? AND r.number = ? "
        "UNION SELECT r.ordinal FROM blocks b JOIN revisions r ON r.id = b.revision_id "
        "JOIN terms t ON t.id = r.term_id WHERE t.game_id = ? AND b.number = ? ORDER BY 1",
        game.id,
        number,
        game.id,
        number,
    )
    return [ordinal for (ordinal,) in rows]
