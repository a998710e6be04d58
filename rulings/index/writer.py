"""Fill the Whoosh index from a finished graph, read through its Store like every other reader."""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.writing import SegmentWriter

from ..graph import build_facts, index_feed, ruling_rows
from ..graph.rows import BlockRow, Game, RevisionRow, TermRow
from ..graph.store import Store
from ..markup import plain_text
from ..parallel import balanced_runs, cores, processes
from ..text import name_key
from ..urls import urls
from .codec import Codec  # indexes written before codec.py name it here
from .lexicon import LEXICON
from .postings import TermPool
from .schema import analyzer, schema
from .scope import variant_scope

OPENING_WORDS = 80
INDEXED_KINDS = ("entry", "keyword", "section", "rule")  # numbered rules too (Magic's 702.19 Trample)
PARALLEL_ABOVE = 5000  # revisions; below this one process writes one optimised segment faster
LEAST_MB, MOST_MB = 256, 1024  # memory for one writer's postings before it spills them to disk


class TermSegmentWriter(SegmentWriter):
    """Whoosh's segment writer, its postings kept per term (``postings.TermPool``) and written a term at a time."""

    def __init__(self, ix, **kwargs):
        super().__init__(ix, **kwargs)
        unsupported = [name for name, field in self.schema.items() if field.separate_spelling() or field.vector]
        if unsupported:
            raise ValueError(f"fields with separate spelling words or term vectors are not written here: {unsupported}")
        uncounted = [name for name, field in self.schema.items() if field.indexed and not hasattr(field, "term_counts")]
        if uncounted:
            raise ValueError(f"indexed fields without term counts (schema.py's) are not written here: {uncounted}")
        self._plans: dict[tuple[str, ...], list[tuple]] = {}  # a shape of document -> ``_plan``

    def add_document(self, **fields):
        """Whoosh's ``add_document`` for the fields of this schema, which have no separate spelling words,
        no term vectors and no boosts given with a document: each field's terms and their counts go to the
        pool in one call (``TermPool.add_field``), where Whoosh makes a call and a tuple of each posting.
        Documents come in a few shapes (the fields a term, a passage, a ruling has): each shape's fields are
        checked and looked up once (``_plan``), where Whoosh does it for every document."""
        self._check_state()
        plan = self._plans.get(shape := tuple(fields))
        if plan is None:
            plan = self._plans[shape] = self._plan(shape)
        docnum, perdoc, pool = self.docnum, self.perdocwriter, self.pool
        perdoc.start_doc(docnum)
        try:
            for name, field, stored_as, indexed, scorable, stored, column_type in plan:
                value = fields[name]
                if value is None:
                    continue
                length = 0
                if indexed:
                    counts = field.term_counts(value)
                    pool.add_field(name, docnum, counts)
                    if scorable:
                        length = sum(counts.values())
                shown = fields.get(stored_as, value)
                perdoc.add_field(name, field, shown if stored else None, length)
                if column_type and shown is not None:
                    perdoc.add_column_value(name, column_type, field.to_column_value(shown))
        except Exception:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1

    def _plan(self, shape: tuple[str, ...]) -> list[tuple]:
        """The fields of documents of this shape (their keys, in order), checked, in the order Whoosh adds them."""
        if any(name.startswith("_") and name.endswith("_boost") for name in shape):
            raise TypeError("no boost is given with a document here: the schema's field boosts weigh the fields")
        names = sorted(name for name in shape if not name.startswith("_"))
        self._check_fields(self.schema, names)
        fields = [self.schema[name] for name in names]
        return [
            (name, field, f"_stored_{name}", field.indexed, field.scorable, field.stored, field.column_type)
            for name, field in zip(names, fields, strict=True)
        ]

    def _flush_segment(self):
        self.perdocwriter.close()
        self.pool.write_terms(self.fieldwriter, self.schema)  # the codec keeps no length statistics to read
        self.fieldwriter.close()


# Where a container's memory limit is read (cgroup v2, then v1); the machine's memory says nothing of it.
MEMORY_LIMITS = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))


def postings_memory() -> int:
    """MiB of postings a writer holds before spilling them to disk: an eighth of the memory this build
    may use (the machine's, or the container's when less) shared by the writing processes, from 256 MiB
    to 1 GiB. Each process has two writers, but the one of superseded texts holds far fewer postings.
    Spilling and merging the runs back cost a writer a quarter of its time at 1,678 rulebooks (840
    games: 156 s, and 112 s unspilled)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # no such figure on this system
        return LEAST_MB
    for limit in MEMORY_LIMITS:
        try:
            total = min(total, int(limit.read_text().strip()))
        except (OSError, ValueError):  # no such file, or "max": no limit
            continue
    return max(LEAST_MB, min(MOST_MB, total // 2**20 // 8 // cores()))


def segment_writer(ix, limitmb: int | None = None, **kwargs) -> SegmentWriter:
    """A writer of a new segment of ``ix`` with this module's codec and pool (Whoosh ignores a ``poolclass``)."""
    limitmb = limitmb or postings_memory()
    writer = TermSegmentWriter(ix, limitmb=limitmb, codec=Codec(), **kwargs)
    writer.pool = TermPool(writer._tempstorage, limitmb, writer.schema)
    return writer


def writer_procs(store: Store) -> int:
    count = build_facts.counts(store)["revisions"]
    return cores() if count > PARALLEL_ABOVE else 1


def _versions_in_force(labels: list[str], start: int, end: int | None) -> str:
    return ",".join(labels[start:end])


def documents(store: Store, only: list[str] | None = None):
    """One index document per term revision, sub-definition revision, ruling and passage (of ``only`` games).

    Passages are the blocks of the texts in force now, for entries of more than one block: a
    search points at the paragraph, bullet or numbered rule that answers.

    Games in the order they were written, terms and rulings in slug order: Whoosh numbers documents
    in this order, and the numbers break ties between equal scores.
    """
    games = sorted(store.games(), key=lambda g: g.id)
    if only is not None:
        wanted = set(only)
        games = [g for g in games if g.slug in wanted]
    variants = index_feed.variant_words(store)
    for game in games:
        labels = [v.label for v in store.versions(game)]
        scope = _scoper(variants.get(game.slug, []))
        terms = sorted(store.terms(game, INDEXED_KINDS), key=lambda t: t.slug)
        rows = GameRows.read(store, game, terms)
        for term in terms:
            yield from _term_documents(store, game, term, labels, scope, rows)
        about = RulingsAbout.read(store, game)
        for ruling in sorted(ruling_rows.rulings(store, game), key=lambda r: r["slug"]):
            yield _ruling_document(game, ruling, labels, scope, about)


def _scoper(game_words: list[str]):
    """``scope(path, name)``: an entry's variant scope (scope.py), with the lexicon's and the game's variant words."""
    analyse = analyzer()

    @functools.lru_cache(maxsize=4096)  # the same headings over every entry and revision below them
    def words(text: str) -> tuple[str, ...]:
        return tuple(t.text for t in analyse(text))

    markers = frozenset(w for word in [*LEXICON.variant, *game_words] for w in words(word))
    return lambda path, name: variant_scope(path, name, markers, words)


@dataclass(frozen=True)
class GameRows:
    """What indexing a game reads of its terms: a statement a table for the whole game, where reading term
    by term asked four or more a term (a third of the time spent reading the graph to index it)."""

    names: dict[int, list[tuple[str, str]]]  # by term id
    revisions: dict[int, list[RevisionRow]]  # by term id
    subdefs: dict[int, list[dict]]  # by revision id
    blocks: dict[int, list[BlockRow]]  # by revision id: the blocks of each term's latest revision
    cited: dict[int, list[int]]  # by glossary entry's term id: the numbered rules it cites
    dates: dict[str, str | None]  # by version label
    pointers: dict[int, int]  # by rule's term id: the glossary entries that cite it alone

    @classmethod
    def read(cls, store: Store, game: Game, terms: list[TermRow]) -> GameRows:
        revisions = store.revisions_in(game)
        latest = [revisions[term.id][-1].id for term in terms if revisions.get(term.id)]
        dates = {v.label: v.date for v in store.versions(game)}
        glossary = {term.id for term in terms if term.kind == "entry" and not term.number}
        cited = {src: rules for src, rules in index_feed.cited_rules_in(store, game).items() if src in glossary}
        pointers = Counter(rules[0] for rules in cited.values() if len(rules) == 1)
        return cls(
            index_feed.names_in(store, game),
            revisions,
            index_feed.subdefs_in(store, game),
            store.blocks_of(latest),
            cited,
            dates,
            pointers,
        )

    def answered_by(self, term: TermRow) -> str | None:
        """The ``unit`` of the one numbered rule a glossary entry points to ("See rule 702.19."), if it points to
        one alone: the two are one answer (search shows the rule, the glossary's words and names counting for it)."""
        cited = self.cited.get(term.id, [])
        return f"n:{cited[0]}" if len(cited) == 1 else None

    def names_rule(self, term: TermRow) -> bool:
        """The glossary entry names the rule it points to: the rule has its name, or no other entry points to it
        alone ("Evasion Ability" does not name rule 509.1, which "Declare Blockers" points to as well)."""
        cited = self.cited.get(term.id, [])
        if len(cited) != 1:
            return False
        same_name = name_key(term.name) in {name_key(name) for name, _ in self.names.get(cited[0], [])}
        return same_name or self.pointers.get(cited[0]) == 1


@dataclass(frozen=True)
class RulingsAbout:
    """What a game's rulings are about: the terms each mentions, and the date of each document."""

    terms: dict[int, list[int]]  # by ruling id
    dates: dict[str, str | None]  # by document slug

    @classmethod
    def read(cls, store: Store, game: Game) -> RulingsAbout:
        return cls(index_feed.ruling_terms_in(store, game), {d["slug"]: d.get("date") for d in store.documents(game)})


def _term_documents(store: Store, game: Game, term: TermRow, labels: list[str], scope, rows: GameRows):
    """A document per revision of the term, per sub-definition of each revision, per passage of the latest."""
    names = list(dict.fromkeys(name for name, _ in rows.names.get(term.id, [])))
    revisions = rows.revisions.get(term.id, [])
    context = " ".join(term.path)
    for i, revision in enumerate(revisions):
        if revision.removed:  # no text to find; the revision before it is history
            continue
        end = revisions[i + 1].ordinal if i + 1 < len(revisions) else None
        latest = end is None
        body = plain_text(revision.text)
        if not body and revision.redirect:  # a "See: Keywords" entry is found by the definition it points to
            pointed = index_feed.subdef_named(store, game, revision.name, revision.ordinal)
            body = plain_text(pointed) if pointed is not None else "See " + ", ".join(revision.redirect)
        url = urls.term(game.slug, term.slug, None if latest else revision.version)
        in_force = _versions_in_force(labels, revision.ordinal, end)
        entry = dict(
            id=f"t:{revision.id}",
            game=game.slug,
            kind="section" if term.kind == "section" else "term",
            subkind=term.kind,
            category=category_of(term),
            term=term.id,
            date=rows.dates.get(revision.version),
            unit=f"n:{term.id}" if term.kind == "rule" else rows.answered_by(term),
            names_rule=rows.names_rule(term) or None,
            versions=in_force,
            latest=latest,
            title=revision.name,
            label=revision.name,
            names=" ; ".join(names),
            name_keys=",".join(name_key(n) for n in names),
            context=context,
            body=body,
            slug=term.slug,
            url=url,
            aliases=_aliases(names, revision.name),
            version=revision.version,
            number=term.number,
            scope=scope(term.path, revision.name),
        )
        blocks = [(block.anchor, block.number, block.text) for block in rows.blocks[revision.id]] if latest else []
        if len(blocks) == 1 and blocks[0][1]:  # a rule whose whole text is one subrule ("701.17a"): it points at it
            entry.update(anchor=blocks[0][0], number=blocks[0][1])
        entry["numbers"] = ",".join(dict.fromkeys(n for n in (term.number, entry["number"]) if n)) or None
        subdefs = {sub["anchor"]: sub["name"] for sub in rows.subdefs.get(revision.id, [])} if latest else {}
        passages = list(_passages(entry, blocks, subdefs))
        own_unit = entry["unit"] if term.kind == "rule" else None
        if passages or own_unit:  # what a passage (or a glossary entry pointing to a rule) finds it by
            entry["entry"] = ",".join(k for k in (entry["id"], own_unit) if k)
        yield entry
        yield from passages
        for sub in rows.subdefs.get(revision.id, []):
            yield dict(
                id=f"s:{sub['id']}",
                game=game.slug,
                kind="subdefinition",
                subkind="subdefinition",
                category="glossary",
                versions=in_force,
                latest=latest,
                title=sub["name"],
                label=sub["name"],
                names=sub["name"],
                name_keys=name_key(sub["name"]),
                context=f"{revision.name} {context}",
                body=plain_text(sub["text"]),
                slug=f"{term.slug}#{sub['anchor']}",
                url=urls.term(game.slug, term.slug, None if latest else revision.version, sub["anchor"]),
                version=revision.version,
                scope=scope([*term.path, revision.name], sub["name"]),
            )


def category_of(term: TermRow) -> str:
    """What people call an entry: a numbered rule, a section of a rulebook, or a glossary entry."""
    if term.kind == "section":
        return "section"
    return "rule" if term.number else "glossary"


def _aliases(names: list[str], shown: str) -> str | None:
    """A term's other names as stored (JSON), or None (nothing stored) when it has none."""
    others = [n for n in names if n != shown]
    return json.dumps(others) if others else None


def _ruling_document(game: Game, ruling: dict, labels: list[str], scope, about: RulingsAbout) -> dict:
    cards = [card["name"] for card in sorted(ruling["cards"], key=lambda card: card["id"])]
    return dict(
        id=f"r:{ruling['id']}",
        game=game.slug,
        kind="ruling",
        subkind=ruling["kind"],
        category="ruling",
        date=about.dates.get(ruling["document"]),
        concerns=None if cards else about.terms.get(ruling["id"]),  # a card's ruling amends the card, not the rules
        versions=",".join(labels),
        latest=True,
        title=ruling["title"],
        label=ruling["title"],
        names=" ; ".join(cards),
        name_keys=",".join([name_key(ruling["title"]), *(name_key(c) for c in cards)]),
        context=" ".join(x for x in (ruling["group"], ruling["section"]) if x),
        body=plain_text(ruling["text"]),
        slug=ruling["slug"],
        url=urls.ruling(game.slug, ruling["slug"]),
        version=None,
        scope=scope([x for x in (ruling["group"], ruling["section"]) if x], ruling["title"]),
    )


def _passages(entry: dict, blocks: list[tuple[str, str | None, str]], subdefs: dict[str, str]):
    """The blocks of an entry's text as documents of their own (none for a text of one block: the entry is it).

    The entry keeps its whole text (a question's words may be spread over its paragraphs); a
    passage is found by its own words and shows as its entry, pointed at the block (its anchor).
    A passage is searched by its entry's game, kind and versions but stores only what is its own
    (anchor and rule number; its text as where it is in the entry's, when it is there): search reads
    the rest from the entry (``entry`` field).
    """
    if len(blocks) < 2:
        return
    for anchor, number, text in blocks:
        body = plain_text(text)
        if not body:
            continue
        start = entry["body"].find(body)
        stored = {"_stored_body": None, "span": (start, len(body))} if start >= 0 else {}
        yield dict(
            parent=entry["id"],
            game=entry["game"],
            kind="passage",
            subkind=entry["kind"],
            category=entry["category"],
            _stored_category=None,
            unit=entry["unit"],
            versions=entry["versions"],
            latest=True,
            body=body,
            anchor=anchor,
            number=number,
            numbers=number,
            _stored_game=None,
            **stored,
            **({"label": subdefs[anchor]} if anchor in subdefs else {}),  # a sub-definition goes by its name
        )


def keep_words(store: Store) -> frozenset[str]:
    """One-word glossary names ("May", "You") must stay searchable even though they are stop words."""
    return frozenset(
        name.lower() for name in index_feed.names_with_role(store, ("name", "alias")) if len(name.split()) == 1
    )


MAIN, HISTORY = "MAIN", "HISTORY"  # texts in force now / texts of earlier versions (version searches)


def _add(main, history, store: Store, only: list[str] | None = None) -> int:
    count = 0
    for doc in documents(store, only):
        # Spelling and word pairs come from titles and the opening of the text, where definitions
        # are (and from each passage, where answers are); over whole texts they doubled the index.
        opening = " ".join(doc["body"].split()[:OPENING_WORDS])
        if doc["kind"] != "passage":
            doc["spell"] = f"{doc['title']} {doc['names']} {doc['context']} {opening}"
        doc["pairs"] = f"{doc.get('title', '')}\n{opening}"
        if doc["kind"] != "ruling":
            doc["_stored_url"] = None  # search makes a term's URL, pinned to the version searched
        (main if doc.pop("latest") else history).add_document(**doc)
        count += 1
    return count


def keep_words_key(store: Store) -> str:
    """Identifies the analyzer an index was written with (it keeps glossary names as words)."""
    return hashlib.sha256(" ".join(sorted(keep_words(store))).encode()).hexdigest()[:16]


def write_index(store: Store, index_dir: Path) -> int:
    """Two indexes in one folder: MAIN (every text in force now) and HISTORY (superseded texts).

    A small corpus is written by one process into one segment per index. A large one is cut into
    runs of whole games, one per core, each written start to finish (documents read from the graph,
    analysed, postings sorted) by a process of its own into segments of its own, which then make up
    the indexes in game order: documents are numbered as one process would number them.
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    fields = schema(keep_words(store))
    indexes = [whoosh_index.create_in(str(index_dir), fields, indexname=name) for name in (MAIN, HISTORY)]
    runs = game_runs(store, writer_procs(store))
    if len(runs) == 1:
        main_writer, history_writer = (segment_writer(ix) for ix in indexes)
        count = _add(main_writer, history_writer, store)
        main_writer.commit(optimize=True)
        history_writer.commit(optimize=True)
        return count
    with processes(len(runs)) as pool:
        written = list(pool.map(_write_run, [store.build] * len(runs), [index_dir] * len(runs), runs))
    for position, ix in enumerate(indexes):
        _publish_segments(ix, [segments[position] for _, segments in written if segments[position] is not None])
    return sum(count for count, _ in written)


def game_runs(store: Store, procs: int) -> list[list[str]]:
    """Games in the order they were written, cut into at most ``procs`` runs of about equal cost to index
    (``index_feed.indexing_sizes``)."""
    games = [g.slug for g in sorted(store.games(), key=lambda g: g.id)]
    sizes = index_feed.indexing_sizes(store) if procs > 1 else {}
    return balanced_runs(games, lambda slug: sizes.get(slug, 0), procs)


def _write_run(build: Path, index_dir: Path, games: list[str]) -> tuple[int, list]:
    """In a process of its own: index ``games`` into a new segment of each index (None: no documents).

    Without the cyclic garbage collector: writing makes next to no cycles (a few hundred objects for 300
    rulebooks), and the collector spent 4% of a run walking what the run holds (2.5 s of 63 s, 806 games).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        store = Store(build)
        writers = [
            segment_writer(whoosh_index.open_dir(str(index_dir), indexname=name), _lk=False) for name in (MAIN, HISTORY)
        ]
        count = _add(*writers, store, games)
        segments = []
        for writer in writers:  # as Whoosh's own parallel writer (multiproc.MpWriter) finishes its sub-writers
            if writer.doc_count():
                segments.append(writer._finalize_segment())
            else:  # not cancel(): it would empty the temporary folder the other processes write in too
                writer._close_segment()
                segments.append(None)
    finally:
        if collecting:
            gc.enable()
    return count, segments


def _publish_segments(ix, segments: list) -> None:
    """Make segments written by other processes the whole content of the index (one new generation)."""
    writer = SegmentWriter(ix)  # takes the index's lock
    writer._close_segment()
    writer._commit_toc(segments)
    writer._finish()


def update_index(store: Store, index_dir: Path, drop: list[str], add: list[str]) -> int:
    """Incremental: remove the documents of ``drop`` games, index ``add`` games again."""
    indexes = [whoosh_index.open_dir(str(index_dir), indexname=name) for name in (MAIN, HISTORY)]
    writers = [segment_writer(ix, limitmb=128) for ix in indexes]
    for writer in writers:
        for slug in drop:
            writer.delete_by_term("game", slug)
    count = _add(*writers, store, add)
    # A small index is merged into one segment so scores equal a full build's; a big one keeps its
    # segments (Whoosh merges small ones) because rewriting it would cost what we came to save.
    small = writer_procs(store) == 1
    for writer in writers:
        writer.commit(optimize=small)
    return count
