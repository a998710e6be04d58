"""Ranked search over the index: the entry that answers first, pointed at the passage that answers.

Queries are never handed to a query-language parser: words and "quoted phrases" become a bounded
query plan (query.py: question words, compounds, synonyms, word families, a cost budget), so
there is no syntax to get wrong and no query costs more than a few ordinary ones.
Whoosh's BM25F (names and titles boosted over body text) finds candidates among entries and
their passages (paragraphs, bullets, numbered rules); candidates are grouped by entry and
re-ranked: an entry scores by its best passage or its whole text, by how much of the question
its text covers, and first of all by whether the query says its *name*. A hit whose best
evidence is a passage points at it (URL anchor, passage as snippet).
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from whoosh import query as Q

from ..errors import Unanswerable
from ..graph import answers, index_feed, ruling_rows
from ..graph.store import Store
from ..text import name_key
from ..urls import urls
from .completion import Completions
from .lexicon import LEXICON, Synonyms
from .pool import SearcherPool
from .query import BUDGET, STAND_IN_WEIGHT, Plan, Planner, common_limit, fields_of
from .schema import QUESTION_WORDS, word_analyzer
from .scope import VARIANT_PRIOR, names_variant
from .snippets import CLOSE, OPEN, Readable, marks
from .spelling import SpellingWords
from .storage import index_storage
from .topdocs import FilterSets, TermScores, TopDocuments, top_documents

MAX_QUERY_CHARS = 200
MAX_CORRECTED = 4  # unknown words per query given a fuzzy look-up
TWO_EDITS_FROM = 6  # letters from which a typo may be two edits from the word meant ("menence": "menace")
CORRECTIONS_KEPT = 4096  # unknown words whose closest known word is remembered
COMPLETION_SCAN = 200  # words looked at to complete the last one being typed
CANDIDATES = 100  # documents re-ranked, whatever the page size: a page size cuts the list, never re-ranks it
PRESENCE_FIELDS = ("title", "names", "body")  # where a query word counts as present
COVERAGE_FLOOR = 0.1  # what a text covering none of the telling words keeps of its score
COVERAGE_POWER = 2  # how steeply a text loses score for the share of the question it misses
KINDS = {
    "term": "term",
    "terms": "term",
    "entry": "term",
    "definition": "subdefinition",
    "subdefinition": "subdefinition",
    "keyword": "subdefinition",
    "section": "section",
    "sections": "section",
    "ruling": "ruling",
    "rulings": "ruling",
    "faq": "ruling",
    "errata": "ruling",
    "clarification": "ruling",
    "rule": "rule",
    "rules": "rule",
    "glossary": "glossary",
}
CATEGORIES = ("rule", "glossary")  # kinds searched by what people call them (the index's ``category``)
# A subrule's number as typed ("702.19b", "4.2", "7a"); a bare number ("2 cards") is a count.
SUBRULE_NUMBER = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b|\b\d+[a-z]\b")
LEGACY_CATEGORY = {"term": "glossary", "subdefinition": "glossary"}  # an index written before ``category``
KIND_PRIOR = {"term": 1.0, "subdefinition": 0.85, "section": 0.85, "ruling": 0.8}
PASSAGE_PRIOR = 0.9  # a passage's own score, against its entry's whole text
POSITION_SCALE = 2000  # characters into an entry's text at which a passage keeps half its score


def position_prior(fields: dict) -> float:
    """A passage further into its entry answers a question less often: a rule states its general case first
    and its exceptions and edge cases after (subrule 509.1a before 509.1d)."""
    start = (fields.get("span") or (0, 0))[0]
    return 1.0 / (1.0 + max(start, 0) / POSITION_SCALE)


AMENDED_SHARE = 0.5  # a ruling scoring this share of a text it is about ranks above it (it amends it)
WARM_QUERIES = ("rules", "rules of play")  # what a new set of searchers answers before it serves


@dataclass
class Hit:
    title: str
    aliases: list[str]
    game: str
    kind: str
    slug: str
    url: str
    score: float
    snippet: str
    subkind: str = ""
    version: str | None = None
    number: str | None = None  # the numbered rule the hit points at ("702.19b"), if any

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "aliases": self.aliases,
            "game": self.game,
            "kind": self.kind,
            "slug": self.slug,
            "url": self.url,
            "score": round(self.score, 4),
            "snippet": self.snippet.replace(OPEN, "").replace(CLOSE, ""),
            "marks": marks(self.snippet),
            "subkind": self.subkind,
            "version": self.version,
            "number": self.number,
        }


@dataclass
class Results:
    query: str
    hits: list[Hit] = field(default_factory=list)
    did_you_mean: str | None = None
    corrected: bool = False
    truncated: bool = False
    message: str | None = None
    suggestions: list[dict] = field(default_factory=list)  # closest names when nothing matched

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "did_you_mean": self.did_you_mean,
            "corrected": self.corrected,
            "truncated": self.truncated,
            "message": self.message,
            "suggestions": self.suggestions,
            "hits": [h.as_dict() for h in self.hits],
        }


def clean_query(text: str) -> tuple[str, bool]:
    """Drop control characters, collapse space, cap the length."""
    text = "".join(" " if unicodedata.category(c).startswith("C") else c for c in (text or ""))
    text = re.sub(r"\s+", " ", text).strip()
    return (
        text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] if len(text) > MAX_QUERY_CHARS else text,
        len(text) > MAX_QUERY_CHARS,
    )


def edits(a: str, b: str) -> int:
    """Edits between two words, a swap of neighbouring letters counting as one (optimal string alignment)."""
    previous2, previous = [], list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        previous2, previous = previous, row
    return previous[-1]


@dataclass
class _Group:
    """One entry's candidate documents: the entry itself and/or its passages."""

    best: float = 0.0
    best_fields: dict | None = None  # what the hit shows and points at: the best passage, if any
    entry_fields: dict | None = None  # the entry's own document, when it is among the candidates
    entry_read: dict | None = None  # else the entry's stored fields, read for what the hit shows
    passage_score: float = 0.0
    present: dict = field(default_factory=dict)  # query word -> credit (1: the word itself, less: an alternative)
    rank: int = 1 << 30
    named: bool = False  # the query names the entry: the hit shows its top
    numbered: dict | None = None  # the document (entry or passage) whose rule number the query says
    companions: list = field(default_factory=list)  # glossary entries pointing to this one (its ``unit``)
    coverage: float = 0.0  # the share of the question its texts cover
    source: tuple | None = None  # (searcher, its top documents, its best passage's score) the entry came from
    found_in: tuple | None = None  # (searcher, its top documents) a passage came from
    key: str = ""  # the answer's: its entry's id, or a numbered rule's ``unit``

    @property
    def entry(self) -> dict:
        """What the hit shows of its entry: its document's stored fields (a passage's, from an index
        whose passages stored them all)."""
        return self.entry_fields or self.entry_read or self.best_fields


@dataclass
class Ranking:
    """A query's answers, best first, before any hit is made: a spelling correction is weighed on its ranking,
    and only the hits of the page asked for are made (their passage, their snippet)."""

    text: str  # the query ranked (as corrected, when it was)
    groups: list[_Group]
    coverage: float  # how much of the query the best answers cover (0..1)
    pattern: re.Pattern | None  # the query's words, to mark in snippets
    pointing: dict  # the words that tell which passage of an entry answers


def holding_searchers(method):
    """The method runs holding a set of Whoosh searchers (``Searcher.lend``)."""

    @functools.wraps(method)
    def holding(self, *args, **kwargs):
        with self.pool.lend():
            return method(self, *args, **kwargs)

    return holding


class Searcher:
    """Searches one build's index; cheap to call, safe to share between threads."""

    FIELDS = Planner.FIELDS

    def __init__(self, build: Path):
        from .writer import HISTORY, MAIN

        self.build = build
        storage = index_storage(build / "index")  # private copies: a file truncated on disk cannot SIGBUS us
        self.ix = storage.open_index(MAIN)
        self.history = storage.open_index(HISTORY)
        self.analyzer = self.ix.schema["body"].analyzer
        self.word_analyzer = word_analyzer()
        self.pool = SearcherPool({MAIN: self.ix, HISTORY: self.history})
        self.filter_sets = FilterSets()  # the documents of each game, kind, version searched
        self.term_scores = TermScores()  # each word's documents and scores, once decoded
        self._spelling: SpellingWords | None = None
        store = self.store = Store(build)
        self._names: dict[str, tuple[str, ...]] = {}  # a game's display names (``_display_names``)
        self.completions = Completions(store)
        self.readable = Readable(self._display_names)  # snippets as the pages show texts
        # an unknown word's closest known word (``correct``), kept with this searcher (a build's), not beyond it
        self.closest_word = functools.lru_cache(maxsize=CORRECTIONS_KEPT)(self._closest_word)
        general = Synonyms(LEXICON.synonyms, self.words)
        vocabularies = index_feed.vocabularies(
            store,
        )
        self.synonyms = {game: general.merged(v) for game, v in vocabularies.items()}
        self.synonyms[None] = general
        for v in vocabularies.values():  # across games, every game's words may be meant
            self.synonyms[None] = self.synonyms[None].merged(v)
        self.general_synonyms = general

    def lend(self):
        """Hold a set of opened Whoosh searchers for the block (``pool.py``); the public methods hold one
        themselves, so this is for calling a step (``planner``) directly."""
        return self.pool.lend()

    def prepare(self, count: int) -> None:
        """Open ``count`` sets of searchers and warm each (a server: one per thread, before it serves)."""
        self.pool.prepare(count, self._warm_one)

    def _warm_one(self) -> None:
        for query in WARM_QUERIES:  # the term dictionaries' pages and the field lengths BM25 reads
            self.search(query)
        # the history index's too, searched at a version the store has ("1" may be none: Magic's are dates)
        versions = [v for game in self.store.games() for v in self.store.versions(game)[:1]]
        if versions:
            self.search(WARM_QUERIES[0], version=versions[0].label)

    def _held(self, name: str):
        searchers = self.pool.held()
        if searchers is None:
            raise RuntimeError("a Whoosh searcher is used outside Searcher.lend() (searchers are not thread-safe)")
        return searchers[name]

    @property
    def current_searcher(self):
        """The held searcher over the texts in force now."""
        return self._held(self.ix.indexname)

    @property
    def history_searcher(self):
        """The held searcher over superseded texts (only used to search a past version)."""
        return self._held(self.history.indexname)

    # -- analysis -------------------------------------------------------
    def tokens(self, text: str) -> list[str]:
        return [t.text for t in self.analyzer(text)]

    def words(self, text: str) -> list[str]:
        return [t.text for t in self.word_analyzer(text)]

    def planner(self, game: str | None = None) -> Planner:
        """A query planner over the held searcher's reader (call it within ``lend``)."""
        synonyms = self.synonyms.get(game, self.general_synonyms) if game else self.synonyms[None]
        reader = self.current_searcher.reader()
        present = None
        if game:
            searcher, name = self.current_searcher, self.ix.indexname
            docs = self.filter_sets.get(searcher, name, Q.Term("game", game))[1]

            def present(term: str) -> bool:  # the game's own texts have the word
                return any(
                    d in docs
                    for f in fields_of(term, ("title", "body"))
                    if self.df(reader, f, term)
                    for d in self.term_scores.get(searcher, name, f, term)[0]
                )

        return Planner(reader, self.tokens, self.words, synonyms, lambda f, t: self.df(reader, f, t), present)

    def df(self, reader, fieldname: str, text: str, index: str | None = None) -> int:
        """Documents with the term in the field (of the current index unless ``index`` names another), remembered."""
        return self.term_scores.doc_frequency(reader, index or self.ix.indexname, fieldname, text)

    @holding_searchers
    def build_query(self, text: str, broad: bool = False, game: str | None = None) -> Q.Query | None:
        """The Whoosh query for ``text`` (see query.py)."""
        return self.plan(text, broad, game).query()

    @holding_searchers
    def plan(self, text: str, broad: bool = False, game: str | None = None) -> Plan:
        return self.planner(game).plan(text, broad=broad, name_key=name_key(text.replace('"', " ")) or None)

    @holding_searchers
    def correct(self, words: list[str]) -> tuple[list[str], bool]:
        """Replace words the index has never seen by a close word it has.

        Close means one edit (a swap of two letters counts as one) for words of five letters, two
        from six letters on (the closest word the index knows, the most frequent of equals);
        shorter words are never corrected (too many real words are one edit apart: "plugh" is
        not "plus"). At most ``MAX_CORRECTED`` distinct words are
        looked up: a query of random words must not cost a fuzzy scan of the vocabulary per word.
        """
        reader = self.current_searcher.reader()
        unknown = [
            w
            for w in dict.fromkeys(word.lower() for word in words)
            if len(w) >= 5 and w.isalpha() and self.df(reader, "spell", w) == 0 and not self.inflection_known(reader, w)
        ]
        fixes = {lower: fix for lower in unknown[:MAX_CORRECTED] if (fix := self.closest_word(lower))}
        return [fixes.get(word.lower(), word) for word in words], bool(fixes)

    def _closest_word(self, lower: str) -> str | None:
        """The known word closest to ``lower`` within its allowed edits (``correct``), if any. Kept: walking
        the Levenshtein automaton is most of what a query with a typo costs, and the same typos come back."""
        reader = self.current_searcher.reader()
        allowed = 2 if len(lower) >= TWO_EDITS_FROM else 1
        candidates = [
            (edits(lower, c), -self.df(reader, "spell", c), c) for c in self.spelling().within(lower, 2, prefix=1)
        ]
        close = [c for c in candidates if c[0] <= allowed]
        return min(close)[2] if close else None

    def inflection_known(self, reader, word: str) -> bool:
        """The index has the word as another inflection ("tries": "try", "tried"): a word, not a typo."""
        return any(self.df(reader, f, stem) for stem in self.tokens(word) for f in ("title", "body"))

    def spelling(self) -> SpellingWords:
        """The index's spellings in memory (read on the first correction; builds never change)."""
        if self._spelling is None:
            self._spelling = SpellingWords(self.current_searcher.reader())
        return self._spelling

    # -- search -----------------------------------------------------------
    @holding_searchers
    def search(
        self,
        text: str,
        game: str | None = None,
        kind: str | None = None,
        version: str | None = None,
        limit: int = 10,
        partial: bool = False,
    ) -> Results:
        """Ranked hits for ``text``. ``partial``: the last word is still being typed (search as you type)."""
        cleaned, truncated = clean_query(text)
        results = Results(cleaned, truncated=truncated)
        if not cleaned:
            results.message = "empty query"
            return results
        limit = max(1, min(int(limit or 10), 100))
        if kind and kind.lower() not in KINDS:
            results.message = f"unknown kind {kind!r}"
            return results
        version = self.version_label(version, game) if version else None
        filters = self.filters(game, kind, version)
        if partial:
            cleaned = self.complete_last_word(cleaned)
        ranking = self.rank_or_correct(results, cleaned, filters, version, game)
        results.hits = self.page(ranking, limit, version)
        if not results.hits:
            results.message = "no matches"
            results.suggestions = self.closest_names(cleaned, game)
        return results

    def version_label(self, asked: str, game: str | None) -> str | None:
        """The label of the version searched ("v1.4", "1.4.0": "1.4"; "latest" across games: every text in
        force, no filter); a version the game (or, across games, every game) lacks is ``unknown-version``."""
        if game is None:
            if asked.strip().lower() in ("latest", "current"):
                return None
            for found in self.store.games():
                try:
                    return answers.version_by_label(self.store, found, asked).label
                except Unanswerable:
                    continue
            raise Unanswerable("unknown-version", f"No game has a version {asked!r}.")
        found = self.store.game(game)
        if found is None:
            raise Unanswerable("unknown-game", f"No game {game!r}.")
        return answers.version_by_label(self.store, found, asked).label

    def rank_or_correct(self, results, text: str, filters, version, game) -> Ranking:
        """The ranking of ``text``, or of it spelling-corrected when the correction's best answers cover clearly
        more of it (``results`` says so: ``did_you_mean``).

        A query with words no text has covers at most the share of its telling words that texts have
        (``required_words``): a correction covering clearly more than that is taken without ranking the
        query as typed, which would cost a second ranking and change nothing."""
        plan = self.plan(text, broad=filters is None, game=game)
        better: Ranking | None = None
        wanted, unseen, _ = self.required_words(plan)
        if unseen:
            seen = sum(weight for _, weight in wanted.values())
            better = self._corrected(text, filters, version, game)
            if self._taken(better, seen / (seen + unseen)):
                results.did_you_mean, results.corrected = better.text, True
                return better
        ranking = self.rank(text, filters, version, game, plan)
        if ranking.coverage < 1.0:
            better = better if unseen else self._corrected(text, filters, version, game)
            if self._taken(better, ranking.coverage):
                results.did_you_mean, results.corrected = better.text, True
                return better
        return ranking

    @staticmethod
    def _taken(corrected: Ranking | None, coverage: float) -> bool:
        """A corrected query's ranking is taken over one covering ``coverage`` when its best cover clearly more."""
        return corrected is not None and bool(corrected.groups) and corrected.coverage >= max(0.5, coverage + 0.25)

    def _corrected(self, text: str, filters, version, game) -> Ranking | None:
        """The ranking of ``text`` with its unknown words spelling-corrected (None: nothing to correct)."""
        corrected, changed = self.correct(re.findall(r"[\w'\-]+", text))
        return self.rank(" ".join(corrected), filters, version, game) if changed else None

    @holding_searchers
    def complete_last_word(self, text: str) -> str:
        """Search as you type: earlier words spelled right, the last one completed from the index's words."""
        words = text.split()
        if not words:
            return text
        *done, last = words
        if done:
            done, _ = self.correct(done)
        reader = self.current_searcher.reader()
        typed = last.lower()
        if typed.isalpha() and len(typed) >= 2 and self.df(reader, "spell", typed) == 0:
            found = []
            for n, term in enumerate(reader.expand_prefix("spell", typed)):
                if n >= COMPLETION_SCAN:
                    break
                word = term.decode() if isinstance(term, bytes) else term
                found.append((self.df(reader, "spell", word), word))
            if found:
                last = max(found)[1]
        return " ".join([*done, last])

    def complete(self, text: str, game: str | None = None, limit: int = 8) -> list[dict]:
        """Names completing what is typed; if none, the same with the finished words spelling-corrected.

        "villian ph" completes to "Villain Phase": every word but the last is finished, so it may
        be corrected; the last is a prefix still being typed.
        """
        found = self.completions.complete(text, game, limit)
        words = text.split()
        if found or len(words) < 2:
            return found
        corrected, changed = self.correct(words[:-1])
        return self.completions.complete(" ".join([*corrected, words[-1]]), game, limit) if changed else []

    def closest_names(self, text: str, game: str | None, limit: int = 5) -> list[dict]:
        """When nothing matches: term names nearest to what was typed (by spelling), to choose from."""
        names = self.completions.closest(text, game, limit)
        return [{"name": c["name"], "url": c["url"], "game": c["game"]} for c in names]

    def filters(self, game, kind, version) -> Q.Query | None:
        parts: list[Q.Query] = []
        if game:
            parts.append(Q.Term("game", game))
        if kind:
            kind = kind.lower()
            # an entry of that kind, or a passage of one (a passage's subkind is its entry's kind)
            if KINDS[kind] in CATEGORIES:
                parts.append(Q.Term("category", KINDS[kind]))
            else:
                parts.append(Q.Or([Q.Term("kind", KINDS[kind]), Q.Term("subkind", KINDS[kind])]))
            if kind in ("errata", "faq", "clarification"):
                parts.append(Q.Term("subkind", kind))
        if version:
            parts.append(Q.Term("versions", version))
        if not parts:
            return None
        return Q.And(parts) if len(parts) > 1 else parts[0]

    def rank(
        self,
        text: str,
        filters: Q.Query | None,
        version: str | None = None,
        game: str | None = None,
        plan: Plan | None = None,
    ) -> Ranking:
        """Every answer to ``text`` (planned as ``plan``, if given) among the candidates, best first; no hit is made
        yet (``page``)."""
        plan = plan or self.plan(text, broad=filters is None, game=game)
        if not plan.clauses:
            return Ranking(text, [], 0.0, None, {})
        wanted, unseen, common = self.required_words(plan)
        pointing = {**common, **wanted}  # which of an entry's passages answers: its common words tell too
        found = self._candidates(self.current_searcher, self.ix.indexname, plan, filters, CANDIDATES)
        if version:  # a past version's texts live in the history index too
            found += self._candidates(self.history_searcher, self.history.indexname, plan, filters, CANDIDATES)

        def in_force(searcher, name: str):  # the documents the search's filters allow (None: all)
            return None if filters is None else self.filter_sets.get(searcher, name, filters)[1]

        groups = self._groups(found, wanted, pointing, text, set(plan.numbers), in_force)
        ranked = sorted(groups.values(), key=lambda g: (-g.best, g.rank))
        seen = sum(weight for _, weight in wanted.values())
        best = max((self.coverage(g.present, wanted) for g in ranked[:3]), default=0.0)
        # No telling word at all ("what happens" where every word is common): the coverage is the best's.
        best_coverage = best * seen / (seen + unseen) if seen + unseen else best
        return Ranking(text, ranked, best_coverage, self._highlighter(text, plan), pointing)

    def page(self, ranking: Ranking, limit: int, version: str | None = None) -> list[Hit]:
        """The first ``limit`` hits of a ranking, one per place shown: an entry pointing at its sub-definition is
        that sub-definition. Only the answers shown are pointed at their passage and given a snippet."""
        hits: list[Hit] = []
        shown: set[str] = set()  # the URLs of the hits
        for group in ranking.groups:
            self._point_at_answers([group], ranking.pointing)
            self._point_at_numbers([group], ranking.text)
            hit = self._hit(group, ranking.pattern, version)
            if hit.url in shown:
                continue
            shown.add(hit.url)
            hits.append(hit)
            if len(hits) == limit:
                break
        return hits

    def required_words(self, plan: Plan) -> tuple[dict[str, tuple[set[str], float]], float, dict]:
        """The query's telling words: the forms that count for each, and its weight (rarer words weigh more).

        Very common words tell answers apart no more than words the index has never seen: both are
        left out of coverage. The second value is the weight of the unseen ones (typos, mostly), so
        a spelling correction can be judged by how much more of the query it lets results cover.
        The third value holds the very common words, weighed alike: they cannot tell entries apart,
        but they can tell apart the passages of one entry ("the *player* who plays first" against
        "the team who plays first"). Telling which passages hold them reads their documents in
        full, so only as many of them are kept, rarest first, as a query's budget of postings
        allows (in a large index a common word alone is past it).
        """
        reader = self.current_searcher.reader()
        total = max(reader.doc_count(), 1)
        wanted, unseen, common, postings = {}, 0.0, {}, 0
        counted = [(self._word_df(reader, word), word) for word in plan.telling]
        for df, word in sorted(counted, key=lambda found: found[0]):
            if df == 0:
                unseen += math.log(1 + total)
            elif df <= common_limit(total):
                wanted[word.stem] = (word.forms, math.log(1 + total / df) * min(word.weight, 1.0))
            elif postings + df <= BUDGET:
                postings += df
                common[word.stem] = (word.forms, math.log(1 + total / df) * min(word.weight, 1.0))
        wanted = {w.stem: wanted[w.stem] for w in plan.telling if w.stem in wanted}  # in the query's order
        return wanted or {w.stem: (w.forms, 1.0) for w in plan.telling if w.stem}, unseen, common

    def _word_df(self, reader, word) -> int:
        """The most documents any form of ``word`` is in (title or running text)."""
        return max(self.df(reader, f, form) for form in word.forms for f in fields_of(form, ("title", "body")))

    @staticmethod
    def coverage(present: dict[str, float], wanted: dict[str, tuple[dict[str, float], float]]) -> float:
        """The share of the query's telling words (by weight) a text contains; an alternative earns its credit."""
        total = sum(weight for _, weight in wanted.values())
        return sum(wanted[w][1] * credit for w, credit in present.items() if w in wanted) / total if total else 1.0

    @staticmethod
    def coverage_factor(coverage: float) -> float:
        """What a text keeps of its score for covering this share of the question (little when it covers little)."""
        return COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER

    def _groups(
        self, found: list[tuple], wanted: dict, pointing: dict, text: str, numbers: set[str], in_force
    ) -> dict[str, _Group]:
        """Candidates by answer, each scored by ``wanted`` words; its best passage chosen by ``pointing`` words.

        An answer is an entry with its passages, and the glossary entries that point to it alone (a
        glossary's "See rule 702.19": ``unit``), whose words and names count for it. A rule's number
        typed (``numbers``) names the rule or subrule of that number.
        """
        presence = {}
        for searcher, walked in {id(f[0]): (f[0], f[3]) for f in found}.values():
            docnums = [hit.docnum for s, hit, _, _ in found if s is searcher]
            presence[id(searcher)] = self._presence(searcher, docnums, pointing, walked)
        passage_tops = {id(f[0]): f[2] for f in found if f[1].fields["kind"] == "passage"}
        groups: dict[str, _Group] = {}
        for searcher, hit, top, walked in found:
            fields = hit.fields
            key = fields.get("unit") or fields.get("parent") or fields["id"]
            group = groups.setdefault(key, _Group(key=key))
            group.rank = min(group.rank, hit.rank)
            found = presence[id(searcher)].get(hit.docnum, {})
            for word, credit in found.items():
                group.present[word] = max(credit, group.present.get(word, 0.0))
            passage = fields["kind"] == "passage"
            prior = KIND_PRIOR.get(fields["subkind"] if passage else fields["kind"], 0.5)
            score = (hit.score / top) * prior * (PASSAGE_PRIOR if passage else 1.0)
            if numbers and (fields.get("number") or "") in numbers:
                group.numbered = fields
            if passage:
                answers = score * self.coverage_factor(self.coverage(found, pointing)) * position_prior(fields)
                if group.best_fields is None or answers > group.passage_score:  # the best passage
                    group.passage_score, group.best_fields = answers, fields
                    group.found_in = (searcher, walked)
            elif fields.get("unit") and fields.get("category") == "glossary":  # a glossary entry pointing to a rule
                group.companions.append(fields)
                group.found_in = group.found_in or (searcher, walked)
                if group.source is None:
                    group.source = (searcher, walked, passage_tops.get(id(searcher), 1.0))
            else:
                group.entry_fields = fields
                group.source = (searcher, walked, passage_tops.get(id(searcher), 1.0))
            group.best = max(group.best, score)
        asked = set(self.tokens(text))
        whole, telling = name_key(text), set(wanted)
        standing = self.stand_ins(wanted)
        for key, group in groups.items():
            if group.entry_fields is None:
                group.entry_read = self._entry_of(*group.found_in[:2], key, in_force)
                if group.entry_read is None and group.companions:  # its rule is not in this index: the glossary shows
                    group.entry_fields, group.companions, group.source = group.companions[0], [], None
            group.coverage = self.coverage(group.present, wanted)
            fields = group.entry
            # A name inside the query counts as much as the rest of the query agrees with the entry.
            names = {id(f): self._name_bonus(f, whole, telling, standing) for f in [fields, *group.companions]}
            group.companions.sort(key=lambda f: -names[id(f)])  # the one the query names first, else the best found
            named = max(names.values())
            bonus = (2.0 if group.numbered else named) * group.coverage
            group.best = group.best * self.coverage_factor(group.coverage) + bonus
            if fields.get("scope") and not names_variant(fields["scope"], asked):
                group.best *= VARIANT_PRIOR  # a variant's rule, the variant unnamed: the base rule answers first
            group.named = bool(group.numbered) or bonus >= 2.0 and (group.entry_fields or group.entry_read) is not None
            if group.numbered:
                group.best_fields = group.numbered
            elif group.best_fields is None or bonus >= 2.0:
                group.best_fields = fields  # no passage, or the entry named: its top
        self._amended_below_rulings(groups)
        return groups

    def _amended_below_rulings(self, groups: dict[str, _Group]) -> None:
        """A ruling that answers as much of the question as a text it is about, and nearly as well, ranks just
        above it: an erratum or clarification amends that text (unless its document is older than the text)."""
        terms: dict[int, _Group] = {}
        for group in groups.values():
            term = group.entry.get("term")
            if term is not None and group.entry.get("kind") != "ruling":
                terms[term] = group
        moved: set[int] = set()
        rulings = [g for g in groups.values() if g.entry.get("kind") == "ruling" and g.entry.get("concerns")]
        for ruling in sorted(rulings, key=lambda g: -g.best):
            date = ruling.entry.get("date")
            for term in ruling.entry["concerns"]:
                amended = terms.get(term)
                if (
                    amended is None
                    or term in moved
                    or amended.best <= ruling.best
                    or ruling.best < AMENDED_SHARE * amended.best
                    or ruling.coverage < amended.coverage
                    or (date and amended.entry.get("date") and date < amended.entry["date"])
                ):
                    continue
                ruling.best = amended.best * (1 + 1e-6)
                moved.add(term)

    def _point_at_answers(self, ranked: list[_Group], pointing: dict) -> None:
        """Each hit at the passage of its entry that answers best, also one that was not among the candidates.

        A long entry (a numbered rule and its subrules) is often found by its whole text while
        the subrule that answers scores below the candidates cut: its passages are looked at
        here, scored as in ``_groups``, so the hit lands on the sentence that answers.
        """
        for group in ranked:
            if group.named or group.source is None:
                continue
            searcher, walked, passage_top = group.source
            reader = searcher.reader()
            key = group.entry["id"]
            if not self.df(reader, "parent", key, walked.name):
                continue
            docnums = [d for d in self.term_scores.ids(searcher, walked.name, "parent", key) if d in walked.scores]
            if not docnums:
                continue
            present = self._presence(searcher, docnums, pointing, walked)
            subkind = group.entry["kind"]
            prior = KIND_PRIOR.get(subkind, 0.5) * PASSAGE_PRIOR
            answers, docnum = max(
                (
                    walked.scores[d]
                    / passage_top
                    * prior
                    * self.coverage_factor(self.coverage(present.get(d, {}), pointing))
                    * position_prior(self.term_scores.stored_fields(searcher, walked.name, d)),
                    -d,
                )
                for d in docnums
            )
            if answers > group.passage_score:
                group.passage_score, group.best_fields = (
                    answers,
                    self.term_scores.stored_fields(searcher, walked.name, -docnum),
                )

    def _point_at_numbers(self, ranked: list[_Group], text: str) -> None:
        """A subrule's number typed ("702.19b", "rule 704.5f") points a hit whose entry has it at it."""
        typed = set(SUBRULE_NUMBER.findall(text.lower()))
        if not typed:
            return
        for group in ranked:
            searcher, walked = (group.source or group.found_in)[:2]
            reader = searcher.reader()
            if not self.df(reader, "parent", group.entry["id"], walked.name):
                continue
            for docnum in self.term_scores.ids(searcher, walked.name, "parent", group.entry["id"]):
                fields = self.term_scores.stored_fields(searcher, walked.name, docnum)
                if (fields.get("number") or "").lower() in typed:
                    group.best_fields = fields
                    break

    def _entry_of(self, searcher, walked: TopDocuments, key: str, in_force=None) -> dict | None:
        """The stored fields of the entry whose id (or a rule's ``unit``) is ``key`` (by its ``entry`` field) and
        that the search's filters allow (``in_force(searcher, name)``: their documents), if it has one.

        An index written before passages stored only their own fields has no such field: its
        passages hold their entry's, and show those."""
        searchers = [(searcher, walked.name)]
        if key.startswith("n:"):  # a rule's revisions: the one in force at the version searched, in either index
            searchers += [(s, n) for s, n in self._searchers() if n != walked.name]
        for found, name in searchers:
            reader = found.reader()
            if "entry" not in found.schema or not self.df(reader, "entry", key, name):
                continue
            allowed = in_force(found, name) if in_force else None
            for docnum in self.term_scores.ids(found, name, "entry", key):
                if allowed is None or docnum in allowed:
                    return self.term_scores.stored_fields(found, name, docnum)
        return None

    def _searchers(self) -> list[tuple]:
        """The held searchers and their index's names: texts in force now, then earlier texts."""
        return [(self.current_searcher, self.ix.indexname), (self.history_searcher, self.history.indexname)]

    def _hit(self, group: _Group, pattern, version: str | None) -> Hit:
        shown = group.best_fields
        entry = group.entry
        passage = shown["kind"] == "passage"
        kind = entry.get("category") or LEGACY_CATEGORY.get(entry["kind"], entry["kind"])
        number = shown.get("number") or entry.get("number")
        if kind == "ruling":
            url = entry["url"]
        elif kind == "rule" and number:  # a numbered rule lives at its number (the subrule that answers)
            url = urls.rule(entry["game"], number, version, None if shown.get("number") else shown.get("anchor"))
        else:  # pinned to the version searched; at the passage that answers (or the sub-definition)
            slug, _, own_anchor = entry["slug"].partition("#")
            anchor = shown.get("anchor") if passage else own_anchor or entry.get("anchor")
            url = urls.term(entry["game"], slug, version, anchor or None)
        title = entry["label"]
        names = json.loads(entry.get("aliases") or "[]")
        if passage and shown.get("label"):  # the passage is a sub-definition: the hit goes by its name
            title, names = shown["label"], [title, *names]
        for companion in group.companions:  # the glossary entries pointing here (the best first): their names too
            if title == f"Rule {entry.get('number')}" and (companion.get("names_rule") or group.named):
                title = companion["label"]  # a rule without a title of its own goes by the glossary's name
            names += [companion["label"], *json.loads(companion.get("aliases") or "[]")]
        text = self._text_of(shown, entry)
        return Hit(
            title,
            [n for n in dict.fromkeys(names) if n != title],
            entry["game"],
            kind,
            entry["slug"],
            url,
            group.best,
            self.readable.snippet(text, entry["game"], pattern),
            entry.get("subkind", "") if entry["kind"] != "passage" else "",
            entry.get("version"),
            number,
        )

    def _display_names(self, game: str) -> tuple[str, ...]:
        """The names to keep capitalised when an ALL CAPS text is shown in sentence case: the game's cards."""
        names = self._names.get(game)
        if names is None:
            found = self.store.game(game)
            names = self._names[game] = tuple(c["name"] for c in ruling_rows.cards(self.store, found)) if found else ()
        return names

    @staticmethod
    def _text_of(shown: dict, entry: dict) -> str:
        """What a hit shows the text of: its own, or (a passage) where it is in its entry's text."""
        if "body" in shown or "span" not in shown:
            return shown.get("body") or ""
        start, length = shown["span"]
        return entry.get("body", "")[start : start + length]

    @staticmethod
    def stand_ins(wanted: dict) -> dict[str, list[frozenset[str]]]:
        """The words of each query word no text has that its alternatives stand in for ("sac": sacrifice;
        "etb": enter, battlefield), as each alternative's words: a name they make up is named by the word."""
        return {
            stem: [frozenset(form.split("_")) for form, credit in forms.items() if form != stem]
            for stem, (forms, _) in wanted.items()
            if any(credit >= STAND_IN_WEIGHT for form, credit in forms.items() if form != stem)
        }

    def _name_bonus(self, fields: dict, whole: str, tokens: set[str], standing: dict | None = None) -> float:
        """How much of the query (``whole``: its ``name_key``; ``tokens``: its telling words) is this entry's
        name: all of it (2.0) or a share of its words. A word's stand-in ("sac" for "sacrifice") names as the
        word does when the name holds all of the stand-in's words."""
        bonus = 0.0
        for key in (k for k in (fields.get("name_keys") or "").split(",") if k):
            if key == whole:
                return 2.0
            name_tokens = self._name_tokens(key)
            if not name_tokens:
                continue
            words, rest = set(name_tokens & tokens), name_tokens - tokens
            for stem, forms in (standing or {}).items() if rest else ():
                used = [form for form in forms if form <= name_tokens and form & rest]
                if used:
                    words.add(stem)
                    rest = rest.difference(*used)
            if not rest:
                bonus = max(bonus, (len(words) / max(len(tokens), 1)) ** 2)
        return bonus

    @functools.lru_cache(maxsize=50_000)  # noqa: B019 (one searcher per build, kept for its lifetime)
    def _name_tokens(self, key: str) -> frozenset[str]:
        return frozenset(self.tokens(key))

    def _candidates(self, searcher, name: str, plan: Plan, filters: Q.Query | None, size: int) -> list[tuple]:
        """Top documents by BM25F (topdocs.py) for the re-ranking, each as (searcher, hit, the best score
        of its kind: passage or entry, the ``TopDocuments`` the search walked)."""
        allowed = None if filters is None else self.filter_sets.get(searcher, name, filters)
        top = top_documents(searcher, name, self.term_scores, plan.clauses, size, allowed)
        hits = top.found
        # Passages are scored against the best passage, entries against the best entry: a name
        # matched in a title must not make the sentence that answers look weak.
        passage = {h.docnum: h.fields["kind"] == "passage" for h in hits}
        tops = {
            kind: max((h.score for h in hits if passage[h.docnum] == kind), default=1.0) or 1.0
            for kind in (True, False)
        }
        return [(searcher, hit, tops[passage[hit.docnum]], top) for hit in hits]

    def _presence(self, searcher, docnums: list[int], wanted: dict, walked: TopDocuments) -> dict[int, dict]:
        """Which query words each candidate contains (any form, any searched field).

        The documents of each (field, word) the search walked are known already (``walked``); the
        others come from the kept term postings (topdocs.TermScores).
        """
        reader = searcher.reader()
        docs = sorted(set(docnums))
        present: dict[int, dict[str, float]] = {}
        for word, (forms, _) in wanted.items():
            for form, credit in forms.items():
                for fieldname in fields_of(form, PRESENCE_FIELDS):
                    matched = walked.matched.get((fieldname, form))
                    if matched is not None:
                        found = matched.intersection(docs)
                    elif self.df(reader, fieldname, form, walked.name):
                        found = self.term_scores.contains(searcher, walked.name, fieldname, form, docs)
                    else:
                        continue
                    for docnum in found:
                        words = present.setdefault(docnum, {})
                        words[word] = max(credit, words.get(word, 0.0))
        return present

    def _highlighter(self, text: str, plan: Plan) -> re.Pattern | None:
        """Query words, their stems and the alternatives searched (as prefixes) to mark in snippets."""
        words = {w.lower() for w in re.findall(r"[A-Za-z0-9]{2,}", text)}
        stems = {form for word in plan.words for form in word.forms}
        parts = sorted(
            {re.escape(w) for w in words if w not in QUESTION_WORDS and len(w) > 1}
            | {re.escape(s) for s in stems if len(s) > 2 and s not in QUESTION_WORDS},
            key=len,
            reverse=True,
        )
        return re.compile(r"\b(?:" + "|".join(parts) + r")\w*", re.I) if parts else None
