"""Rulings (FAQ answers, errata, clarifications) and the cards they are about, as plain dicts: for the ruling
and card pages, the game's home, the API, the export and the index."""

from __future__ import annotations

import json

from .rows import Game, TermRow
from .store import Store

DECK_KINDS = ("hero", "villain", "environment")  # rulings grouped under one of these are about a deck of the game
SELECT_RULING = (
    "SELECT r.id, r.slug, r.kind, r.title, r.question, r.answer, r.text, r.group_name, r.group_kind, "
    "r.section, r.expansion, r.sources, d.slug, d.title, r.line, r.caps, d.file, r.also, r.former_slug "
    "FROM rulings r "
    "JOIN documents d ON d.id = r.document_id "
)
RULING_COLUMNS = (
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

# A hero's, villain's or environment's deck: what the rulings grouped under it call it.
GROUP_KIND = (
    "(SELECT r.group_kind FROM rulings r JOIN ruling_cards g ON g.ruling_id = r.id "
    "WHERE g.card_id = c.id AND c.kind = 'deck' AND r.group_name = c.name LIMIT 1)"
)


def _with_cards(store: Store, rows: list) -> list[dict]:
    """Rulings with their cards, the cards of all of them read in one query (not one per ruling)."""
    rulings = []
    for row in rows:
        ruling = dict(zip(RULING_COLUMNS, row, strict=True))
        ruling["sources"] = json.loads(ruling["sources"])
        ruling["also"] = json.loads(ruling["also"])
        ruling["cards"] = []
        rulings.append(ruling)
    by_id = {r["id"]: r for r in rulings}
    ids = list(by_id)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for ruling_id, *card in store.q(
            "SELECT rc.ruling_id, c.slug, c.name, c.kind, c.id FROM ruling_cards rc JOIN cards c "
            f"ON c.id = rc.card_id WHERE rc.ruling_id IN ({marks}) ORDER BY rc.ruling_id, c.kind DESC, c.name",
            *chunk,
        ):
            by_id[ruling_id]["cards"].append(dict(zip(("slug", "name", "kind", "id"), card, strict=True)))
    return rulings


def rulings(store: Store, game: Game) -> list[dict]:
    return _with_cards(store, store.q(SELECT_RULING + "WHERE r.game_id = ? ORDER BY r.id", game.id))


def ruling(store: Store, game: Game, slug: str) -> dict | None:
    found = _with_cards(store, store.q(SELECT_RULING + "WHERE r.game_id = ? AND r.slug = ?", game.id, slug))
    return found[0] if found else None


def ruling_slug_formerly(store: Store, game: Game, former: str) -> str | None:
    """The slug of the ruling a former slug (the scheme before 2026-11-27) named, if one did."""
    row = store.one("SELECT slug FROM rulings WHERE game_id = ? AND former_slug = ?", game.id, former)
    return row[0] if row else None


def former_ruling_slugs(store: Store, game: Game) -> list[str]:
    """Former slugs that differ from their ruling's slug: each URL the site answers with a redirect."""
    return [r[0] for r in store.q("SELECT former_slug FROM rulings WHERE game_id = ? AND former_slug != slug "
                                  "ORDER BY id", game.id)]  # fmt: skip


def rulings_about(store: Store, term: TermRow) -> list[dict]:
    return _with_cards(
        store,
        store.q(
            SELECT_RULING + "JOIN ruling_terms rt ON rt.ruling_id = r.id WHERE rt.term_id = ? ORDER BY r.id", term.id
        ),
    )


def terms_of_ruling(store: Store, ruling_id: int) -> list[TermRow]:
    """The glossary terms a ruling mentions."""
    return [store.term(r[0]) for r in store.q("SELECT term_id FROM ruling_terms WHERE ruling_id = ?", ruling_id)]


# A hero's, villain's or environment's deck: what the rulings grouped under it call it.


def cards(store: Store, game: Game) -> list[dict]:
    return [
        dict(slug=r[0], name=r[1], kind=r[2], card_set=r[3], number=r[4], ruling_count=r[5], group_kind=r[6])
        for r in store.q(
            "SELECT c.slug, c.name, c.kind, c.card_set, c.number, COUNT(rc.ruling_id), "
            f"{GROUP_KIND} FROM cards c LEFT JOIN ruling_cards rc ON rc.card_id = c.id "
            "WHERE c.game_id = ? GROUP BY c.id ORDER BY c.name COLLATE NOCASE",
            game.id,
        )
    ]


def card(store: Store, game: Game, slug: str) -> dict | None:
    row = store.one(
        f"SELECT c.id, c.slug, c.name, c.kind, c.card_set, c.number, {GROUP_KIND} FROM cards c "
        "WHERE c.game_id = ? AND c.slug = ?",
        game.id,
        slug,
    )
    if not row:
        return None
    card = dict(zip(("id", "slug", "name", "kind", "card_set", "number", "group_kind"), row, strict=True))
    rows = store.q(
        SELECT_RULING + "JOIN ruling_cards rc ON rc.ruling_id = r.id WHERE rc.card_id = ? ORDER BY r.id", row[0]
    )
    card["rulings"] = _with_cards(store, rows)
    return card
