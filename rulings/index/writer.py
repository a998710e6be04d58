"""Fill the Whoosh index from a finished graph database."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from whoosh import index as whoosh_index

from ..markup import plain_text
from ..text import name_key
from ..urls import urls
from .schema import schema

OPENING_WORDS = 80
PARALLEL_ABOVE = 5000  # documents; below this one process writes one optimised segment faster


def writer_procs(conn: sqlite3.Connection) -> int:
    count = conn.execute("SELECT COUNT(*) FROM revisions").fetchone()[0]
    return max(1, min(4, os.cpu_count() or 1)) if count > PARALLEL_ABOVE else 1


def _versions_in_force(labels: list[str], start: int, end: int | None) -> str:
    return ",".join(labels[start:end])


def documents(conn: sqlite3.Connection, only: list[str] | None = None):
    """One index document per term revision, sub-definition revision and ruling (of ``only`` games)."""
    games = conn.execute("SELECT id, slug FROM games ORDER BY id").fetchall()
    if only is not None:
        wanted = set(only)
        games = [(gid, slug) for gid, slug in games if slug in wanted]
    for game_id, game in games:
        labels = [
            row[0] for row in conn.execute("SELECT label FROM versions WHERE game_id = ? ORDER BY ordinal", (game_id,))
        ]
        terms = conn.execute("SELECT id, slug, kind, path FROM terms WHERE game_id = ?", (game_id,)).fetchall()
        for term_id, slug, kind, path in terms:
            names = [
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT name FROM term_names WHERE term_id = ? ORDER BY rank", (term_id,)
                )
            ]
            revisions = conn.execute(
                "SELECT r.id, r.ordinal, r.name, r.text, r.redirect, v.label FROM revisions r "
                "JOIN versions v ON v.id = r.version_id WHERE r.term_id = ? ORDER BY r.ordinal",
                (term_id,),
            ).fetchall()
            context = " ".join(json.loads(path))
            for i, (rev_id, ordinal, rev_name, text, redirect, label) in enumerate(revisions):
                end = revisions[i + 1][1] if i + 1 < len(revisions) else None
                latest = end is None
                body = plain_text(text)
                if not body and json.loads(redirect):
                    body = _redirect_text(conn, game_id, rev_name, json.loads(redirect), ordinal)
                url = urls.term(game, slug, None if latest else label)
                yield dict(
                    id=f"t:{rev_id}",
                    game=game,
                    kind="section" if kind == "section" else "term",
                    subkind=kind,
                    versions=_versions_in_force(labels, ordinal, end),
                    latest=latest,
                    title=rev_name,
                    names=" ; ".join(names),
                    name_keys=",".join(name_key(n) for n in names),
                    context=context,
                    body=body,
                    slug=slug,
                    url=url,
                    aliases=json.dumps([n for n in names if n != rev_name]),
                    version=label,
                )
                for sub_id, sub_name, anchor, sub_text in conn.execute(
                    "SELECT id, name, anchor, text FROM subdefs WHERE revision_id = ?", (rev_id,)
                ):
                    yield dict(
                        id=f"s:{sub_id}",
                        game=game,
                        kind="subdefinition",
                        subkind="subdefinition",
                        versions=_versions_in_force(labels, ordinal, end),
                        latest=latest,
                        title=sub_name,
                        names=sub_name,
                        name_keys=name_key(sub_name),
                        context=f"{rev_name} {context}",
                        body=plain_text(sub_text),
                        slug=f"{slug}#{anchor}",
                        url=f"{url}#{anchor}",
                        aliases="[]",
                        version=label,
                    )
        for rid, slug, kind, title, text, group, section, card_names in conn.execute(
            "SELECT r.id, r.slug, r.kind, r.title, r.text, r.group_name, r.section, "
            "(SELECT group_concat(c.name, ' ; ') FROM ruling_cards rc JOIN cards c ON c.id = rc.card_id "
            " WHERE rc.ruling_id = r.id) FROM rulings r WHERE r.game_id = ?",
            (game_id,),
        ):
            cards = [c for c in (card_names or "").split(" ; ") if c]
            yield dict(
                id=f"r:{rid}",
                game=game,
                kind="ruling",
                subkind=kind,
                versions=",".join(labels),
                latest=True,
                title=title,
                names=card_names or "",
                name_keys=",".join([name_key(title), *(name_key(c) for c in cards)]),
                context=" ".join(x for x in (group, section) if x),
                body=plain_text(text),
                slug=slug,
                url=urls.ruling(game, slug),
                aliases="[]",
                version=None,
            )


def _redirect_text(conn, game_id: int, name: str, targets: list[str], ordinal: int) -> str:
    """A "See: Keywords" entry is found by the definition it points to."""
    rows = conn.execute(
        "SELECT s.text FROM subdefs s JOIN revisions r ON r.id = s.revision_id JOIN terms t ON t.id = s.term_id "
        "WHERE t.game_id = ? AND s.key = ? AND r.ordinal <= ? ORDER BY r.ordinal DESC LIMIT 1",
        (game_id, name_key(name), ordinal),
    ).fetchall()
    return plain_text(rows[0][0]) if rows else "See " + ", ".join(targets)


def keep_words(conn: sqlite3.Connection) -> frozenset[str]:
    """One-word glossary names ("May", "You") must stay searchable even though they are stop words."""
    words = set()
    for (name,) in conn.execute("SELECT name FROM term_names WHERE how IN ('name', 'alias')"):
        parts = name.lower().split()
        if len(parts) == 1:
            words.add(parts[0])
    return frozenset(words)


MAIN, HISTORY = "MAIN", "HISTORY"  # texts in force now / texts of earlier versions (version searches)


def _add(main, history, conn: sqlite3.Connection, only: list[str] | None = None) -> int:
    count = 0
    for doc in documents(conn, only):
        # Spelling and word pairs come from titles and the opening of the text, where definitions
        # are; indexing them over whole texts doubled the index for little gain in ranking.
        opening = " ".join(doc["body"].split()[:OPENING_WORDS])
        doc["spell"] = f"{doc['title']} {doc['names']} {doc['context']} {opening}"
        doc["pairs"] = f"{doc['title']}\n{opening}"
        (main if doc["latest"] else history).add_document(**doc)
        count += 1
    return count


def keep_words_key(graph_path: Path) -> str:
    """Identifies the analyzer an index was written with (it keeps glossary names as words)."""
    import hashlib

    conn = sqlite3.connect(graph_path)
    try:
        return hashlib.sha256(" ".join(sorted(keep_words(conn))).encode()).hexdigest()[:16]
    finally:
        conn.close()


def write_index(graph_path: Path, index_dir: Path) -> int:
    """Two indexes in one folder: MAIN (every text in force now) and HISTORY (superseded texts)."""
    conn = sqlite3.connect(graph_path)
    index_dir.mkdir(parents=True, exist_ok=True)
    fields = schema(keep_words(conn))
    main = whoosh_index.create_in(str(index_dir), fields, indexname=MAIN)
    history = whoosh_index.create_in(str(index_dir), fields, indexname=HISTORY)
    procs = writer_procs(conn)
    main_writer = main.writer(limitmb=256, procs=procs, multisegment=procs > 1)
    history_writer = history.writer(limitmb=64)
    count = _add(main_writer, history_writer, conn)
    main_writer.commit(optimize=procs == 1)
    history_writer.commit(optimize=True)
    conn.close()
    return count


def update_index(graph_path: Path, index_dir: Path, drop: list[str], add: list[str]) -> int:
    """Incremental: remove the documents of ``drop`` games, index ``add`` games again."""
    conn = sqlite3.connect(graph_path)
    writers = [whoosh_index.open_dir(str(index_dir), indexname=name).writer(limitmb=128) for name in (MAIN, HISTORY)]
    for writer in writers:
        for slug in drop:
            writer.delete_by_term("game", slug)
    count = _add(*writers, conn, add)
    # A small index is merged into one segment so scores equal a full build's; a big one keeps its
    # segments (Whoosh merges small ones) because rewriting it would cost what we came to save.
    small = writer_procs(conn) == 1
    for writer in writers:
        writer.commit(optimize=small)
    conn.close()
    return count
