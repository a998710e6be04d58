"""Write one game's assembled graph into the SQLite store, one writer function per table group."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from importlib import resources

from ..casing import sentence_case
from ..ingest.manifest import DocumentSpec, GameManifest
from ..ingest.model import ParsedDocument, Ruling, blocks_markdown
from ..ingest.source import Source
from ..markup import excerpt
from ..text import comparable, fold, is_all_caps, name_key, slugify, split_qualifier
from . import inline
from .citations import rule_references
from .history import Assembly
from .identity import Revision, Term, name_rank
from .mentions import Linker, game_linker
from .ruling_rows import DECK_KINDS
from .state import VERSIONED
from .timeline import Version
from .units import subdefinitions


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(resources.files("rulings.graph").joinpath("schema.sql").read_text())


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


class SlugBook:
    """Hands out slugs for one namespace; the same inputs in the same order give the same slugs.

    ``reserved`` slugs are never handed out but to their ``own`` claimant (a ruling's former slug, which
    must keep leading to that ruling and no other)."""

    def __init__(self, reserved: set[str] | None = None) -> None:
        self.taken: set[str] = set()
        self.reserved = reserved or set()

    def claim(self, *candidates: str, own: str | None = None) -> str:
        def free(slug: str) -> bool:
            return slug not in self.taken and (slug not in self.reserved or slug == own)

        for candidate in candidates:
            slug = slugify(candidate)[:80].strip("-")
            if slug and free(slug):
                self.taken.add(slug)
                return slug
        base = slugify(candidates[0])[:76].strip("-")
        n = 2
        while not free(f"{base}-{n}"):
            n += 1
        self.taken.add(f"{base}-{n}")
        return f"{base}-{n}"


def term_order(terms: list[Term], ordinals: dict[str, int]) -> list[Term]:
    """The order terms claim slugs, names and row ids in: one a later version cannot disturb.

    First version first (a term a later edition introduces comes after every term an earlier build
    had), then glossary entries before sections and numbered rules, the versioned lineage before
    documents tied to no version, and document order.
    """

    def rank(term: Term) -> tuple:
        return (
            ordinals[term.revisions[0].version],
            term.kind in ("section", "rule"),
            term.lineage != VERSIONED,
        )

    return sorted((t for t in terms if t.revisions), key=rank)  # stable: document order within a group


@dataclass
class Writer:
    """What the table writers of one game share: the cursor and the row ids handed out so far."""

    conn: sqlite3.Connection
    cur: sqlite3.Cursor
    game_id: int
    documents: dict[str, int] = field(default_factory=dict)  # document slug -> row id
    versions: dict[str, int] = field(default_factory=dict)  # label -> row id
    ordinals: dict[str, int] = field(default_factory=dict)  # label -> position on the timeline
    terms: dict[int, int] = field(default_factory=dict)  # id(Term) -> row id

    def term_id(self, term: Term) -> int:
        return self.terms[id(term)]


def write_game(
    conn: sqlite3.Connection,
    manifest: GameManifest,
    sources: list[tuple[DocumentSpec, Source, ParsedDocument]],
    assembly: Assembly,
) -> None:
    """Write one assembled game: documents, versions, terms, revisions, edges, rulings, diagnostics."""
    cur = conn.cursor()
    cur.execute(
        "INSERT INTO games (slug, name, aliases, vocabulary, links, variant_words) VALUES (?, ?, ?, ?, ?, ?)",
        (
            manifest.slug,
            manifest.name,
            _json(manifest.aliases),
            _json(manifest.vocabulary),
            _json({"stop": manifest.link_stop} if manifest.link_stop else {}),
            _json(manifest.variant_words),
        ),
    )
    writer = Writer(conn, cur, cur.lastrowid)
    write_documents(writer, sources)
    write_versions(writer, assembly.versions)
    terms = term_order(assembly.terms, writer.ordinals)
    write_terms(writer, terms)
    write_names(writer, terms)
    write_completions(writer, manifest.slug)
    write_revisions(writer, terms)
    write_contents(writer, assembly.versions)
    linker = game_linker(conn, writer.game_id)
    write_edges(writer, terms, linker)
    write_rulings(writer, assembly.documents.ordered(), {t.slug: writer.term_id(t) for t in terms}, linker)
    write_inline(writer, game_linker(conn, writer.game_id, cards=True))  # card names are known by now
    write_diagnostics(writer, manifest.slug, sources, assembly)


def write_documents(writer: Writer, sources: list[tuple[DocumentSpec, Source, ParsedDocument]]) -> None:
    for spec, source, parsed in sources:
        writer.cur.execute(
            "INSERT INTO documents (game_id, slug, file, kind, title, version, date, official, sha256, "
            "encoding, parser, lines) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                writer.game_id,
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
        writer.documents[spec.slug] = document_id = writer.cur.lastrowid
        writer.cur.executemany(
            "INSERT INTO furniture (document_id, line, reason) VALUES (?,?,?)",
            [(document_id, line, why) for line, why in sorted(parsed.furniture.items())],
        )


def write_versions(writer: Writer, versions: list[Version]) -> None:
    for ordinal, version in enumerate(versions):
        writer.cur.execute(
            "INSERT INTO versions (game_id, label, date, parent, ordinal, document_id, line, notes) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (
                writer.game_id,
                version.label,
                version.date.isoformat() if version.date else None,
                version.parent,
                ordinal,
                writer.documents.get(version.document or ""),
                version.line,
                _json(version.notes),
            ),
        )
        writer.versions[version.label] = writer.cur.lastrowid
        writer.ordinals[version.label] = ordinal


def term_slug_candidates(term: Term) -> list[str]:
    first = term.revisions[0].number if term.revisions else None
    if first or term.number:  # the number it was first printed under (a later one never moves it), then its
        # version: "rule-719-2" would read as rule 719.2
        return [f"rule {first or term.number}", f"rule {first or term.number} {term.revisions[0].version}"]
    path = term.path[-1] if term.path else ""
    candidates = [term.names[0], f"{path} {term.names[0]}"]
    if term.lineage != VERSIONED:  # a player aid's "Player Turn" is not the glossary's
        candidates.insert(1, f"{term.document} {term.names[0]}")
    return candidates


def write_terms(writer: Writer, terms: list[Term]) -> None:
    """Terms with their slugs, claimed in ``term_order`` (row ids follow the same order)."""
    slugs = SlugBook()
    for term in terms:
        term.slug = slugs.claim(*term_slug_candidates(term))
        writer.cur.execute(
            "INSERT INTO terms (game_id, slug, name, kind, number, path, document_id, line, lineage) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            (
                writer.game_id,
                term.slug,
                term.name,
                term.kind,
                term.number,
                _json(term.path),
                writer.documents[term.document],
                term.line,
                term.lineage,
            ),
        )
        writer.terms[id(term)] = writer.cur.lastrowid


NUMBERED_NAME = re.compile(r"^(?:Rule \d+(?:\.\d+[a-z]*)?|\d+(?:\.\d+)?\.\s+(.+))$")


def _title_only(name: str) -> str | None:
    """A numbered rule or section goes by its title alone ("702. Keyword Abilities" -> "Keyword Abilities"),
    an untitled rule ("Rule 100.1") by none: numbers move between editions and are looked up as numbers."""
    match = NUMBERED_NAME.match(name)
    return name if match is None else match.group(1)


def _name_rows(term: Term, ordinals: dict[str, int]) -> list[tuple[int, str, str]]:
    """(ordinal of the version it appeared in, name, how) for every name of a term."""
    rows = _all_name_rows(term, ordinals)
    if term.number is None:
        return rows
    titled = [(ordinal, _title_only(name), how) for ordinal, name, how in rows]
    return [(ordinal, name, how) for ordinal, name, how in titled if name]


def _all_name_rows(term: Term, ordinals: dict[str, int]) -> list[tuple[int, str, str]]:
    first = ordinals[term.revisions[0].version]
    rows = [(first, name, "name" if i == 0 else "alias") for i, name in enumerate(term.names)]
    rows += [(ordinals[version], name, "alias") for name, version in term.later_names]
    for revision in term.revisions:  # every name it was shown under is one of its names, for good
        rows.append((ordinals[revision.version], revision.name, "name"))
    shown: dict[str, int] = {}  # name key -> the first version it was the term's display name
    for revision in term.revisions:
        shown.setdefault(name_key(revision.name), ordinals[revision.version])
    rows += [(shown.get(name_key(name), first), name, "former") for name in term.former]
    rows += [(first, name, "spelling") for name in term.spellings]
    return rows


def write_names(writer: Writer, terms: list[Term]) -> None:
    """Every name a term answers to, and a slug for each that leads to it (claimed in version order)."""
    taken = {term.slug for term in terms}
    alias_claims: list[tuple[int, int, int, str, int]] = []  # (version ordinal, term position, order, slug, term id)
    for position, term in enumerate(terms):
        tid = writer.term_id(term)
        seen = set()
        for ordinal, name, how in sorted(_name_rows(term, writer.ordinals), key=lambda row: row[0]):
            key = name_key(name)
            if not key or (key, how) in seen:
                continue
            seen.add((key, how))
            writer.cur.execute(
                "INSERT INTO term_names (term_id, name, key, how, rank, since) VALUES (?,?,?,?,?,?)",
                (tid, name, key, how, name_rank(term.kind, how), ordinal),
            )
            if term.kind not in ("section", "rule"):
                alias_claims.append((ordinal, position, len(alias_claims), slugify(name), tid))
    for _, _, _, slug, tid in sorted(alias_claims):
        if slug not in taken:
            taken.add(slug)
            writer.cur.execute(
                "INSERT INTO slug_aliases (game_id, slug, term_id) VALUES (?,?,?)", (writer.game_id, slug, tid)
            )


def write_completions(writer: Writer, game_slug: str) -> None:
    """The names search completes as they are typed: glossary names and aliases and the titles of versioned
    sections, each under its folded words and under each later word (``completions``)."""
    rows = writer.cur.execute(
        "SELECT n.name, t.slug, t.id FROM term_names n JOIN terms t ON t.id = n.term_id WHERE t.game_id = ? "
        "AND n.how IN ('name', 'alias') AND (t.kind != 'section' OR t.lineage = ?)",
        (writer.game_id, VERSIONED),
    ).fetchall()
    keys: set[tuple[str, str, str, int]] = set()  # (key, game, slug, term id)
    for name, slug, term_id in rows:
        words = fold(name).lower().split()
        keys.update((" ".join(words[i:]), game_slug, slug, term_id) for i in range(len(words)))
    writer.cur.executemany("INSERT OR IGNORE INTO completions (key, game, slug, term_id) VALUES (?,?,?,?)", keys)


def write_revisions(writer: Writer, terms: list[Term]) -> None:
    """Each revision with its blocks and the sub-definitions its blocks open."""
    for term in terms:
        tid = writer.term_id(term)
        supersedes_id = None
        for revision in term.revisions:
            writer.cur.execute(
                "INSERT INTO revisions (term_id, version_id, ordinal, name, text, summary, change, complete, inferred, "
                "source, see_also, redirect, notes, supersedes_id, number) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    tid,
                    writer.versions[revision.version],
                    writer.ordinals[revision.version],
                    revision.name,
                    text := blocks_markdown(revision.blocks),
                    excerpt(text),
                    revision.change,
                    int(revision.complete),
                    int(revision.inferred),
                    _json(revision.source),
                    _json(revision.see_also),
                    _json(revision.redirect),
                    _json(revision.notes),
                    supersedes_id,
                    revision.number,
                ),
            )
            revision_id = supersedes_id = writer.cur.lastrowid  # the next revision supersedes this one
            writer.cur.executemany(
                "INSERT INTO blocks (revision_id, position, anchor, kind, depth, number, thread, text) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [
                    (revision_id, i, b.anchor, b.kind, b.depth, b.number, b.thread, b.text)
                    for i, b in enumerate(revision.blocks)
                ],
            )
            writer.cur.executemany(
                "INSERT INTO subdefs (revision_id, term_id, name, key, anchor, text) VALUES (?,?,?,?,?,?)",
                [
                    (revision_id, tid, sub.name, name_key(sub.name), anchor, sub.text)
                    for sub, anchor in subdefinitions(revision.blocks)
                ],
            )


def write_contents(writer: Writer, versions: list[Version]) -> None:
    """Which versioned terms are in force at each version, in document order."""
    for version in versions:
        writer.cur.executemany(
            "INSERT INTO contents (version_id, position, term_id) VALUES (?,?,?)",
            [(writer.versions[version.label], i, writer.term_id(t)) for i, t in enumerate(version.contents)],
        )


Span = tuple[int, int | None]  # ordinals [since, until): until None is open (still in force)


def revision_spans(term: Term, ordinals: dict[str, int]) -> list[tuple[Span, Revision]]:
    """Each revision of a term in force (not a removal) with the versions it holds for."""
    out = []
    for revision, after in zip(term.revisions, [*term.revisions[1:], None], strict=True):
        if not revision.removed:
            out.append(((ordinals[revision.version], ordinals[after.version] if after else None), revision))
    return out


def overlap(a: Span, b: Span) -> Span | None:
    since = max(a[0], b[0])
    until = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    return (since, until) if until is None or since < until else None


def write_edges(writer: Writer, terms: list[Term], linker: Linker) -> None:
    """See-also, redirect, part-of, mentions and cites between terms, each over the versions it holds for
    (``since``, ``until``): a text links what is in force beside it, so a page pinned to a version lists
    the terms that referred to it then, and an edition added later never changes that list."""
    conn, game_id = writer.conn, writer.game_id
    by_slug = {term.slug: writer.term_id(term) for term in terms}
    spans = {writer.term_id(t): [span for span, _ in revision_spans(t, writer.ordinals)] for t in terms}
    numbers = rule_numbers(writer, terms)
    found: dict[str, set] = {}  # text -> what it mentions (the same text in many revisions is read once)
    edges: dict[tuple, Span] = {}

    def add(source: Span, src: int, dst: int | None, kind: str, anchor: str | None, name: str) -> None:
        if not dst or dst == src:
            return
        for held in spans.get(dst, []):
            both = overlap(source, held)
            if both is not None:
                edges[(src, dst, kind, anchor, both[0], name)] = both

    for term in terms:
        tid = writer.term_id(term)
        for source, revision in revision_spans(term, writer.ordinals):
            for kind, names in (("see-also", revision.see_also), ("redirect", revision.redirect)):
                for name in names:
                    target, anchor = resolve_reference(conn, game_id, name, term.name)
                    add(source, tid, target, kind, anchor, revision.name)
            text = blocks_markdown(revision.blocks)
            if text not in found:
                found[text] = linker.targets_in(text)
            for target in found[text]:
                add(source, tid, by_slug.get(target.slug), "mentions", target.anchor, revision.name)
            for _, _, number in rule_references(text):
                for held, rule, anchor in numbers.get(number, ()):
                    both = overlap(source, held)
                    if both is not None:
                        add(both, tid, rule, "cites", anchor, revision.name)
        if term.path:
            parent = _find(conn, game_id, term.path[-1])
            first = (writer.ordinals[term.revisions[0].version], None)
            add(first, tid, parent, "part-of", None, term.name)
    writer.cur.executemany(
        "INSERT OR IGNORE INTO edges (game_id, src_id, dst_id, kind, anchor, since, until, src_name) "
        "VALUES (?,?,?,?,?,?,?,?)",
        # A term mentioned both as itself and by a sub-definition keeps one edge a span: the first in full
        # order (the whole term's), never the first a set happened to yield (that changed with the hash seed).
        [
            (game_id, src, dst, kind, anchor, since, until, name)
            for (src, dst, kind, anchor, since, name), (_, until) in sorted(
                edges.items(), key=lambda e: (e[0][0], e[0][1], e[0][2], e[0][4], e[0][3] or "")
            )
        ],
    )


def write_inline(writer: Writer, linker: Linker) -> None:
    """Every block prepared for pages (``graph/inline.py``): its markdown rendered once, with where the
    game's names (of any version) and rule numbers could be linked; the blocks of a revision written in
    ALL CAPS also in sentence case, the game's card names kept as printed."""
    cards = writer.cur.execute("SELECT name FROM cards WHERE game_id = ?", (writer.game_id,)).fetchall()
    names = [name for (name,) in cards]
    rows = writer.cur.execute(
        "SELECT b.revision_id, b.position, b.kind, b.text, substr(r.text, 1, 400) FROM blocks b "
        "JOIN revisions r ON r.id = b.revision_id JOIN terms t ON t.id = r.term_id WHERE t.game_id = ?",
        (writer.game_id,),
    ).fetchall()
    prepared: dict[tuple[str, str], str] = {}  # the same text in many revisions is prepared once

    def prepare(text: str, kind: str) -> str:
        if (text, kind) not in prepared:
            prepared[text, kind] = inline.dumps(inline.prepare_block(text, kind, linker))
        return prepared[text, kind]

    writer.cur.executemany(
        "UPDATE blocks SET inline = ?, inline_cased = ? WHERE revision_id = ? AND position = ?",
        [
            (prepare(text, kind), prepare(sentence_case(text, names), kind) if is_all_caps(opening) else None, rid, pos)
            for rid, pos, kind, text, opening in rows
        ],
    )


def rule_numbers(writer: Writer, terms: list[Term]) -> dict[str, list[tuple[Span, int, str | None]]]:
    """Every rule number a text may cite -> who prints it when: (versions, the term, the anchor inside it
    if a subrule). Numbers move between editions, so a citation means the rule of that number then."""
    out: dict[str, list[tuple[Span, int, str | None]]] = {}
    for term in terms:
        tid = writer.term_id(term)
        for span, revision in revision_spans(term, writer.ordinals):
            if revision.number:
                out.setdefault(revision.number, []).append((span, tid, None))
            for block in revision.blocks:
                if block.number and block.number != revision.number:
                    out.setdefault(block.number, []).append((span, tid, block.anchor))
    return out


def write_rulings(
    writer: Writer,
    documents: list[tuple[DocumentSpec, ParsedDocument]],
    term_ids: dict[str, int],
    linker: Linker,
) -> None:
    """Rulings, the cards they concern and the terms they mention; ids claimed in timeline order.

    A ruling a later edition prints again (same title, same text) stays one ruling that lists the
    later edition too, so a new edition neither duplicates nor re-slugs it.
    """
    cur, game_id = writer.cur, writer.game_id
    cards = CardBook(writer)
    formers = former_slugs(documents)
    ruling_slugs = SlugBook(reserved=set(formers.values()))
    printed: dict[tuple[str, str], int] = {}
    for spec, parsed in documents:
        for ruling in parsed.rulings:
            key = (comparable(ruling.title), comparable(ruling.text))
            if key in printed:
                cur.execute(
                    "UPDATE rulings SET also = json_insert(also, '$[#]', json(?)) WHERE id = ?",
                    (_json({"document": spec.slug, "title": spec.title, "line": ruling.line}), printed[key]),
                )
                continue
            cur.execute(
                "INSERT INTO rulings (game_id, slug, former_slug, kind, title, question, answer, text, group_name, "
                "group_kind, section, expansion, sources, document_id, line, caps) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game_id,
                    ruling_slugs.claim(ruling_slug(ruling), own=formers[key]),
                    formers[key],
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
                    writer.documents[spec.slug],
                    ruling.line,
                    int(is_all_caps(ruling.text[:400])),
                ),
            )
            rid = printed[key] = cur.lastrowid
            if ruling.group and ruling.group_kind in DECK_KINDS:
                cur.execute("INSERT OR IGNORE INTO ruling_cards VALUES (?,?)", (rid, cards.id(ruling.group, "deck")))
            for name in dict.fromkeys(ruling.cards or ([ruling.card] if ruling.card else [])):
                card_id = cards.id(name, "card", ruling.card_set, ruling.card_number)
                cur.execute("INSERT OR IGNORE INTO ruling_cards VALUES (?,?)", (rid, card_id))
            found = linker.targets_in(f"{ruling.title}\n{ruling.text}")  # a set: written in term order, as every build
            for term_id in sorted({term_ids[target.slug] for target in found if target.slug in term_ids}):
                cur.execute("INSERT OR IGNORE INTO ruling_terms VALUES (?,?)", (rid, term_id))


class CardBook:
    """Card rows of one game, one per (name, kind), with stable slugs."""

    def __init__(self, writer: Writer):
        self.writer = writer
        self.slugs = SlugBook()
        self.ids: dict[tuple[str, str], int] = {}

    def id(self, name: str, kind: str, card_set: str | None = None, number: str | None = None) -> int:
        key = (name_key(name), kind)
        if key not in self.ids:
            self.writer.cur.execute(
                "INSERT INTO cards (game_id, slug, name, kind, card_set, number) VALUES (?,?,?,?,?,?)",
                (self.writer.game_id, self.slugs.claim(name, f"{name} {kind}"), name, kind, card_set, number),
            )
            self.ids[key] = self.writer.cur.lastrowid
        return self.ids[key]


def write_diagnostics(
    writer: Writer, game: str, sources: list[tuple[DocumentSpec, Source, ParsedDocument]], assembly: Assembly
) -> None:
    diagnostics = [d for _, _, parsed in sources for d in parsed.diagnostics] + assembly.diagnostics
    writer.cur.executemany(
        "INSERT INTO diagnostics VALUES (?,?,?,?,?)",
        [(game, d.level, d.path, d.line, d.message) for d in diagnostics]
        + [(game, "suggestion", f"corpus/{game}", None, s) for s in assembly.suggestions],
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
        f"DELETE FROM blocks WHERE revision_id IN (SELECT id FROM revisions WHERE term_id IN ({terms}))",
        "DELETE FROM contents WHERE version_id IN (SELECT id FROM versions WHERE game_id = ?)",
        f"DELETE FROM revisions WHERE term_id IN ({terms})",
        f"DELETE FROM term_names WHERE term_id IN ({terms})",
        "DELETE FROM slug_aliases WHERE game_id = ?",
        "DELETE FROM completions WHERE game = (SELECT slug FROM games WHERE id = ?)",
        "DELETE FROM terms WHERE game_id = ?",
        "DELETE FROM versions WHERE game_id = ?",
        "DELETE FROM furniture WHERE document_id IN (SELECT id FROM documents WHERE game_id = ?)",
        "DELETE FROM documents WHERE game_id = ?",
        "DELETE FROM games WHERE id = ?",
    ):
        conn.execute(sql, (gid,))
    conn.execute("DELETE FROM diagnostics WHERE game = ?", (slug,))


# Words a ruling's slug leaves out: they tell no ruling from another ("can", "the", "if"...).
SLUG_FILLER = frozenset(
    "a an the of to in on at by for from with into onto as and or but if then than so is are was were be been "
    "do does did can cannot could would will should may might must i my me we our you your it its they their "
    "them this that these those what when where which who whom how there here".split()
)
RULING_SLUG_WORDS = 4  # telling words of a ruling's title in its slug, after its card or deck


def former_slugs(documents: list[tuple[DocumentSpec, ParsedDocument]]) -> dict[tuple[str, str], str]:
    """Each ruling's former slug (``former_ruling_slug``), claimed as it was: in the same order, one per
    ruling printed (a ruling a later edition prints again is the one ruling), so the same as published."""
    book, out = SlugBook(), {}
    for _, parsed in documents:
        for ruling in parsed.rulings:
            key = (comparable(ruling.title), comparable(ruling.text))
            if key not in out:
                out[key] = book.claim(former_ruling_slug(ruling))
    return out


def ruling_slug(ruling: Ruling) -> str:
    """A short slug: the card or deck a ruling is about, then the first telling words of its question or title
    ("ancestral-knowledge-shuffle-different-versions-wakanda-forever"), the card's own words not repeated."""
    title = ruling.question if ruling.kind == "faq" and ruling.question else ruling.title
    group = ruling.group if ruling.group and ruling.group_kind != "general" else ""
    said = set(slugify(group).split("-")) if group else set()
    every = slugify(title).split("-")
    telling = [w for w in every if w not in SLUG_FILLER and w not in said and len(w) > 1]
    words = telling[:RULING_SLUG_WORDS] or every[:RULING_SLUG_WORDS]
    return slugify(f"{group} {' '.join(words)}")


def former_ruling_slug(ruling: Ruling) -> str:
    """The slug rulings had until 2026-11-27 (group and ten words of the title, up to 80 characters): kept so
    that every URL published with one redirects to the ruling's page for good."""
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
