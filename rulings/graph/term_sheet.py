"""A term's page in one read (``term_sheet``) and the terms referring to it at a version (``referrers``):
what ``web/lookup.py``, ``web/views.py`` and ``web/rulepages.py`` show of a term beyond its own text."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .rows import (
    BLOCK_COLUMNS,
    PACKED_REVISION_COLUMNS,
    SUBDEF_COLUMNS,
    TERM_COLUMNS,
    TERMS_FROM,
    BlockRow,
    Game,
    RevisionRow,
    TermRow,
    revision_row,
    subdef_row,
    term_row,
)
from .store import Store


@dataclass(frozen=True)
class TermSheet:
    """A term and what its page reads about it, read in one statement (``term_sheet``)."""

    term: TermRow
    revisions: list[RevisionRow]  # in version order
    names: list[tuple[str, str]]  # (name, how), as ``Store.names``
    blocks: dict[int, list[BlockRow]]  # revision id -> its blocks, in order
    subdefs: dict[int, list[dict]]  # revision id -> its sub-definitions, as ``Store.subdefs``
    referrer_spans: list[tuple[str, str, int, int, int | None]]  # (slug, name then, id, since, until) of each edge
    ruling_ids: list[int]  # the rulings about the term

    def referrers(self, ordinal: int) -> list[tuple[str, str]]:
        """(slug, name) of the terms referring to this one at the version with this ordinal, as
        ``referrers``."""
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


def _referrers_from(term: str, kinds: tuple[str, ...]) -> tuple[str, dict]:
    """The FROM and WHERE of the edges (``x``) of one of ``kinds`` from other terms (``e``) to the term whose
    id is the SQL ``term``, and the kinds' parameters."""
    marks = ", ".join(f":kind{i}" for i in range(len(kinds)))
    rest = (
        "FROM edges x JOIN terms e ON e.id = x.src_id "
        f"WHERE x.dst_id = {term} AND x.kind IN ({marks}) AND x.src_id != {term}"
    )
    return rest, {f"kind{i}": kind for i, kind in enumerate(kinds)}


REFERRER_COLUMNS = "e.slug, x.src_name, e.id, x.since, x.until"


def referrers(store: Store, term: TermRow, kinds: tuple[str, ...], ordinal: int) -> list[tuple[str, str]]:
    """(slug, name then) of the other terms with an edge of one of these kinds to ``term`` at the version
    with this ordinal ("referenced by"), by name: only what a list of links shows, so no row is made a
    ``TermRow`` (tens on a common term)."""
    rest, params = _referrers_from(":term", kinds)
    rows = store.conn.execute(f"SELECT {REFERRER_COLUMNS} {rest}", {"term": term.id, **params}).fetchall()
    return _referrers_at(rows, ordinal)


def term_sheet(store: Store, game: Game, slug: str, referrer_kinds: tuple[str, ...]) -> TermSheet | None:
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
    row = store.conn.execute(
        ", ".join(
            [
                f"SELECT {TERM_COLUMNS}",
                _packed(PACKED_REVISION_COLUMNS, revisions_from),
                _packed("name, how, rank, rowid", "FROM term_names n WHERE n.term_id = t.id"),
                _packed(BLOCK_COLUMNS, f"FROM blocks b JOIN revisions r ON r.id = b.revision_id {by_term}"),
                _packed(f"s.revision_id, {SUBDEF_COLUMNS}", "FROM subdefs s WHERE s.term_id = t.id"),
                _packed(REFERRER_COLUMNS, rest),
                _packed("ruling_id", "FROM ruling_terms rt WHERE rt.term_id = t.id"),
            ]
        )
        + f" {TERMS_FROM} WHERE t.game_id = :game AND t.slug = :slug",
        {"game": game.id, "slug": slug, **params},
    ).fetchone()
    if row is None:
        return None
    term = term_row(row)
    revisions, names, blocks, subdefs, referrers, rulings = json.loads(f"[{','.join(row[-6:])}]")  # one call
    sheet = TermSheet(
        term=term,
        revisions=[revision_row(r, nested=True) for r in sorted(revisions, key=lambda r: r[4])],
        names=[(name, how) for name, how, *_ in sorted(names, key=lambda n: (n[2], n[3]))],
        blocks={r[0]: [] for r in revisions},
        subdefs={r[0]: [] for r in revisions},
        referrer_spans=[tuple(r) for r in referrers],
        ruling_ids=sorted(r[0] for r in rulings),
    )
    for block in sorted(blocks, key=lambda b: (b[0], b[1])):
        sheet.blocks[block[0]].append(BlockRow(*block))
    for revision_id, *subdef in sorted(subdefs, key=lambda s: s[1]):
        sheet.subdefs[revision_id].append(subdef_row(subdef))
    return sheet
