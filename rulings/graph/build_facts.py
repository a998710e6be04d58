"""What a build holds, counted, and what it said while building (diagnostics): for ``rulings stats``, the
build report and the index writer's progress."""

from __future__ import annotations

from .rows import Game
from .store import Store


def diagnostics(store: Store) -> list[dict]:
    return [
        dict(game=r[0], level=r[1], path=r[2], line=r[3], message=r[4])
        for r in store.q("SELECT game, level, path, line, message FROM diagnostics")
    ]


def counts(store: Store) -> dict:
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
        out[table] = store.one(f"SELECT COUNT(*) FROM {table}")[0]
    return out


def furniture_count(store: Store, game: Game) -> int:
    return store.one(
        "SELECT COUNT(*) FROM furniture f JOIN documents d ON d.id = f.document_id WHERE d.game_id = ?", game.id
    )[0]
