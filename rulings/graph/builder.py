"""Write one game's assembled graph into the SQLite store."""

from __future__ import annotations

import json
import sqlite3
from importlib import resources

from ..ingest.manifest import DocumentSpec, GameManifest
from ..ingest.model import ParsedDocument, Ruling, blocks_markdown
from ..ingest.source import Source
from ..text import is_all_caps, name_key, slugify, split_qualifier
from .history import Assembly
from .identity import Term, name_rank
from .mentions import game_linker


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(resources.files("rulings.graph").joinpath("schema.sql").read_text())


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


class SlugBook:
    """Hands out slugs for one namespace; the same inputs in the same order give the same slugs."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def claim(self, *candidates: str) -> str:
        for candidate in candidates:
            slug = slugify(candidate)[:80].strip("-")
            if slug and slug not in self.taken:
                self.taken.add(slug)
                return slug
        base = slugify(candidates[0])[:76].strip("-")
        n = 2
        while f"{base}-{n}" in self.taken:
            n += 1
        self.taken.add(f"{base}-{n}")
        return f"{base}-{n}"


def term_order(terms: list[Term]) -> list[Term]:
    """Glossary entries claim slugs before sections, and the versioned lineage before others."""

    def rank(term: Term) -> tuple:
        return (term.kind == "section", term.lineage != "versioned")

    return sorted(terms, key=rank)  # stable: document order within each group


def write_game(
    conn: sqlite3.Connection,
    manifest: GameManifest,
    sources: list[tuple[DocumentSpec, Source, ParsedDocument]],
    assembly: Assembly,
) -> None:
    cur = conn.cursor()
    cur.execute(
        "INSERT INTO games (slug, name, aliases, vocabulary) VALUES (?, ?, ?, ?)",
        (manifest.slug, manifest.name, _json(manifest.aliases), _json(manifest.vocabulary)),
    )
    game_id = cur.lastrowid
    doc_ids: dict[str, int] = {}
    for spec, source, parsed in sources:
        cur.execute(
            "INSERT INTO documents (game_id, slug, file, kind, title, version, date, official, sha256, "
            "encoding, parser, lines) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                game_id,
                spec.slug,
                spec.file,
                spec.kind,
                spec.title,
                spec.version or parsed.version_label,
                spec.date.isoformat() if spec.date else None,
                int(spec.official),
                source.sha256,
                source.encoding,
                parsed.parser,
                len(source.lines),
            ),
        )
        doc_ids[spec.slug] = cur.lastrowid
        cur.executemany(
            "INSERT INTO furniture (document_id, line, reason) VALUES (?,?,?)",
            [(cur.lastrowid, line, why) for line, why in sorted(parsed.furniture.items())],
        )
    version_ids: dict[str, int] = {}
    ordinals: dict[str, int] = {}
    for ordinal, version in enumerate(assembly.versions):
        cur.execute(
            "INSERT INTO versions (game_id, label, date, parent, ordinal, document_id, line, notes) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (
                game_id,
                version.label,
                version.date.isoformat() if version.date else None,
                version.parent,
                ordinal,
                doc_ids.get(version.document or ""),
                version.line,
                _json(version.notes),
            ),
        )
        version_ids[version.label] = cur.lastrowid
        ordinals[version.label] = ordinal

    # Terms, slugs and names.
    slugs = SlugBook()
    term_ids: dict[int, int] = {}
    for term in term_order(assembly.terms):
        if not term.revisions:
            continue
        path = term.path[-1] if term.path else ""
        candidates = [term.names[0], f"{path} {term.names[0]}"]
        if term.lineage != "versioned":  # a player aid's "Player Turn" is not the glossary's
            candidates.insert(1, f"{term.document} {term.names[0]}")
        term.slug = slugs.claim(*candidates)
    for term in assembly.terms:
        if not term.revisions:
            continue
        cur.execute(
            "INSERT INTO terms (game_id, slug, name, kind, path, document_id, line, lineage) VALUES (?,?,?,?,?,?,?,?)",
            (
                game_id,
                term.slug,
                term.name,
                term.kind,
                _json(term.path),
                doc_ids[term.document],
                term.line,
                term.lineage,
            ),
        )
        term_ids[id(term)] = cur.lastrowid
    alias_slugs = set(slugs.taken)
    for term in assembly.terms:
        if id(term) not in term_ids:
            continue
        tid = term_ids[id(term)]
        rows = []
        for i, name in enumerate(term.names):
            rows.append((tid, name, name_key(name), "name" if i == 0 else "alias"))
        for revision in term.revisions:  # the current name counts as a name; earlier ones as aliases
            rows.append(
                (tid, revision.name, name_key(revision.name), "name" if revision is term.revisions[-1] else "alias")
            )
        rows += [(tid, n, name_key(n), "former") for n in term.former]
        rows += [(tid, n, name_key(n), "spelling") for n in term.spellings]
        seen = set()
        for row in rows:
            if (row[2], row[3]) in seen or not row[2]:
                continue
            seen.add((row[2], row[3]))
            cur.execute(
                "INSERT INTO term_names (term_id, name, key, how, rank) VALUES (?,?,?,?,?)",
                (*row, name_rank(term.kind, row[3])),
            )
            slug = slugify(row[1])
            if slug not in alias_slugs and term.kind != "section":
                alias_slugs.add(slug)
                cur.execute("INSERT INTO slug_aliases (game_id, slug, term_id) VALUES (?,?,?)", (game_id, slug, tid))

    # Revisions and their sub-definitions.
    latest_text: dict[int, str] = {}
    for term in assembly.terms:
        if id(term) not in term_ids:
            continue
        tid = term_ids[id(term)]
        supersedes_id = None
        for revision in term.revisions:
            text = blocks_markdown(revision.blocks)
            cur.execute(
                "INSERT INTO revisions (term_id, version_id, ordinal, name, text, change, complete, source, "
                "see_also, redirect, notes, supersedes_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    tid,
                    version_ids[revision.version],
                    ordinals[revision.version],
                    revision.name,
                    text,
                    revision.change,
                    int(revision.complete),
                    _json(revision.source),
                    _json(revision.see_also),
                    _json(revision.redirect),
                    _json(revision.notes),
                    supersedes_id,
                ),
            )
            revision_id = supersedes_id = cur.lastrowid  # the next revision supersedes this one
            anchors = SlugBook()
            for sub in revision.subdefs:
                cur.execute(
                    "INSERT INTO subdefs (revision_id, term_id, name, key, anchor, text) VALUES (?,?,?,?,?,?)",
                    (revision_id, tid, sub.name, name_key(sub.name), anchors.claim(sub.name), sub.text),
                )
            latest_text[tid] = text

    # Edges: see-also, redirect and part-of from the latest revision; mentions from its text.
    linker = game_linker(conn, game_id)
    by_slug = {term.slug: term_ids[id(term)] for term in assembly.terms if id(term) in term_ids}
    edges = set()
    for term in assembly.terms:
        if id(term) not in term_ids:
            continue
        tid = term_ids[id(term)]
        latest = term.revisions[-1]
        for kind, names in (("see-also", latest.see_also), ("redirect", latest.redirect)):
            for name in names:
                target, anchor = resolve_reference(conn, game_id, name, term.name)
                if target and target != tid:
                    edges.add((tid, target, kind, anchor))
        if term.path:
            parent = _find(conn, game_id, term.path[-1])
            if parent and parent != tid:
                edges.add((tid, parent, "part-of", None))
        for found in linker.targets_in(latest_text.get(tid, "")):
            target = by_slug.get(found.slug)
            if target and target != tid:
                edges.add((tid, target, "mentions", found.anchor))
    cur.executemany(
        "INSERT OR IGNORE INTO edges (game_id, src_id, dst_id, kind, anchor) VALUES (?,?,?,?,?)",
        [(game_id, *edge) for edge in sorted(edges, key=lambda e: (e[0], e[1], e[2]))],
    )

    # Rulings, cards, and which terms each ruling is about.
    card_slugs = SlugBook()
    card_ids: dict[tuple[str, str], int] = {}

    def card(name: str, kind: str, card_set=None, number=None) -> int:
        key = (name_key(name), kind)
        if key not in card_ids:
            slug = card_slugs.claim(name, f"{name} {kind}")
            cur.execute(
                "INSERT INTO cards (game_id, slug, name, kind, card_set, number) VALUES (?,?,?,?,?,?)",
                (game_id, slug, name, kind, card_set, number),
            )
            card_ids[key] = cur.lastrowid
        return card_ids[key]

    ruling_slugs = SlugBook()
    count = 0
    for spec, _, parsed in sources:
        for ruling in parsed.rulings:
            count += 1
            slug = ruling_slugs.claim(ruling_slug(ruling))
            caps = is_all_caps(ruling.text[:400])
            cur.execute(
                "INSERT INTO rulings (game_id, slug, kind, title, question, answer, text, group_name, "
                "group_kind, section, expansion, sources, document_id, line, caps) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game_id,
                    slug,
                    ruling.kind,
                    ruling.title,
                    ruling.question,
                    ruling.answer,
                    ruling.text,
                    ruling.group,
                    ruling.group_kind,
                    ruling.section,
                    ruling.expansion,
                    _json(ruling.sources),
                    doc_ids[spec.slug],
                    ruling.line,
                    int(caps),
                ),
            )
            rid = cur.lastrowid
            cards = list(dict.fromkeys(ruling.cards or ([ruling.card] if ruling.card else [])))
            if ruling.group and ruling.group_kind in ("hero", "villain", "environment"):
                cur.execute("INSERT OR IGNORE INTO ruling_cards VALUES (?,?)", (rid, card(ruling.group, "deck")))
            for name in cards:
                cur.execute(
                    "INSERT OR IGNORE INTO ruling_cards VALUES (?,?)",
                    (rid, card(name, "card", ruling.card_set, ruling.card_number)),
                )
            about = linker.targets_in(f"{ruling.title}\n{ruling.text}")
            for found in about:
                if found.slug in by_slug:
                    cur.execute("INSERT OR IGNORE INTO ruling_terms VALUES (?,?)", (rid, by_slug[found.slug]))
    diagnostics = [d for _, _, parsed in sources for d in parsed.diagnostics] + assembly.diagnostics
    cur.executemany(
        "INSERT INTO diagnostics VALUES (?,?,?,?,?)",
        [(manifest.slug, d.level, d.path, d.line, d.message) for d in diagnostics]
        + [(manifest.slug, "suggestion", f"corpus/{manifest.slug}", None, s) for s in assembly.suggestions],
    )


def delete_game(conn: sqlite3.Connection, slug: str) -> None:
    """Remove every row of one game (before writing it again in an incremental build)."""
    row = conn.execute("SELECT id FROM games WHERE slug = ?", (slug,)).fetchone()
    if row is None:
        return
    gid = row[0]
    rulings = "SELECT id FROM rulings WHERE game_id = ?"
    terms = "SELECT id FROM terms WHERE game_id = ?"
    for sql in (
        f"DELETE FROM ruling_cards WHERE ruling_id IN ({rulings})",
        f"DELETE FROM ruling_terms WHERE ruling_id IN ({rulings})",
        "DELETE FROM rulings WHERE game_id = ?",
        "DELETE FROM cards WHERE game_id = ?",
        "DELETE FROM edges WHERE game_id = ?",
        f"DELETE FROM subdefs WHERE term_id IN ({terms})",
        f"DELETE FROM revisions WHERE term_id IN ({terms})",
        f"DELETE FROM term_names WHERE term_id IN ({terms})",
        "DELETE FROM slug_aliases WHERE game_id = ?",
        "DELETE FROM terms WHERE game_id = ?",
        "DELETE FROM versions WHERE game_id = ?",
        "DELETE FROM furniture WHERE document_id IN (SELECT id FROM documents WHERE game_id = ?)",
        "DELETE FROM documents WHERE game_id = ?",
        "DELETE FROM games WHERE id = ?",
    ):
        conn.execute(sql, (gid,))
    conn.execute("DELETE FROM diagnostics WHERE game = ?", (slug,))


def ruling_slug(ruling: Ruling) -> str:
    title = ruling.question if ruling.kind == "faq" and ruling.question else ruling.title
    words = slugify(title).split("-")[:10]
    group = ruling.group if ruling.group and ruling.group_kind != "general" else ""
    if group and slugify(title).startswith(slugify(group)):
        group = ""  # "Black Cat" about Black Cat is just black-cat
    return slugify(f"{group} {' '.join(words)}")


def _find(conn: sqlite3.Connection, game_id: int, name: str) -> int | None:
    row = conn.execute(
        "SELECT n.term_id FROM term_names n JOIN terms t ON t.id = n.term_id "
        "WHERE t.game_id = ? AND n.key = ? ORDER BY n.rank, t.id LIMIT 1",
        (game_id, name_key(name)),
    ).fetchone()
    return row[0] if row else None


def resolve_reference(conn, game_id: int, reference: str, from_name: str) -> tuple[int | None, str | None]:
    """A see-also / see reference ("Keywords (Uses)", "Appendix II: Setup") to (term id, anchor)."""
    base, qualifier = split_qualifier(reference)
    target = _find(conn, game_id, reference)
    anchor_name = from_name
    if target is None and qualifier:
        target = _find(conn, game_id, base)
        anchor_name = qualifier
    if target is None:
        return None, None
    row = conn.execute(
        "SELECT s.anchor FROM subdefs s JOIN revisions r ON r.id = s.revision_id "
        "WHERE s.term_id = ? AND (s.key = ? OR s.key LIKE ?) ORDER BY r.ordinal DESC LIMIT 1",
        (target, name_key(anchor_name), name_key(anchor_name) + " %"),
    ).fetchone()
    return target, row[0] if row else None
