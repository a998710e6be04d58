"""Ranked search over the index: the entry that answers first, pointed at the passage that answers.

Queries are never handed to a query-language parser: words and "quoted phrases" become a bounded
query plan (query.py: question words, compounds, synonyms, word families, a cost budget), so
there is no syntax to get wrong and no query costs more than a few ordinary ones.
Whoosh's BM25F (names and titles boosted over body text) finds candidates among entries and
their passages (paragraphs, bullets, numbered rules); candidates are grouped by entry and
re-ranked: an entry scores by its best passage or its whole text, by how much of the question
its text covers, and first of all by whether the query says its *name*. A hit whose best
evidence is a passage points at it (URL anchor, passage as snippet).

``Searcher`` is what the site, the API, the CLI and the MCP server call (``search``, ``complete``,
``prepare``); it puts together the steps, each a module of its own: the opened index (opened.py),
what a search is limited to (filters.py), query plans (query.py), spelling (correction.py), ranking
(ranking.py), hits (hits.py) and what a search answers (results.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from whoosh import query as Q

from ..errors import Unanswerable
from ..graph import answers, index_feed
from ..graph.store import Store
from ..text import name_key
from .completion import Completions
from .correction import Corrector
from .filters import KINDS, filter_query
from .hits import HitMaker
from .lexicon import LEXICON, Synonyms
from .opened import OpenedIndex, holding_searchers
from .query import Plan, Planner, fields_of
from .ranking import Ranker, Ranking
from .results import Hit, Results, clean_query

WARM_QUERIES = ("rules", "rules of play")  # what a new set of searchers answers before it serves
TYPO_GAIN = 0.05  # how much more of a query with an unknown word its correction must cover (``_taken``)


class Searcher:
    """Searches one build's index; cheap to call, safe to share between threads."""

    FIELDS = Planner.FIELDS

    def __init__(self, build: Path):
        self.build = build
        self.index = OpenedIndex(build)
        store = self.store = Store(build)
        self.completions = Completions(store)
        self.corrector = Corrector(self.index)
        self.ranker = Ranker(self.index)
        self.hits = HitMaker(store)
        general = Synonyms(LEXICON.synonyms, self.index.words)
        vocabularies = index_feed.vocabularies(store)
        self.synonyms = {game: general.merged(v) for game, v in vocabularies.items()}
        self.synonyms[None] = general
        for v in vocabularies.values():  # across games, every game's words may be meant
            self.synonyms[None] = self.synonyms[None].merged(v)
        self.general_synonyms = general

    def lend(self):
        """Hold a set of opened Whoosh searchers for the block (``pool.py``); the public methods hold one
        themselves, so this is for calling a step (``planner``) directly."""
        return self.index.lend()

    def prepare(self, count: int) -> None:
        """Open ``count`` sets of searchers and warm each (a server: one per thread, before it serves)."""
        self.index.pool.prepare(count, self._warm_one)

    def _warm_one(self) -> None:
        for query in WARM_QUERIES:  # the term dictionaries' pages and the field lengths BM25 reads
            self.search(query)
        # the history index's too, searched at a version the store has ("1" may be none: Magic's are dates)
        versions = [v for game in self.store.games() for v in self.store.versions(game)[:1]]
        if versions:
            self.search(WARM_QUERIES[0], version=versions[0].label)

    # -- planning ---------------------------------------------------------

    def planner(self, game: str | None = None) -> Planner:
        """A query planner over the held searcher's reader (call it within ``lend``)."""
        synonyms = self.synonyms.get(game, self.general_synonyms) if game else self.synonyms[None]
        reader = self.index.current_searcher.reader()
        present = None
        if game:
            searcher, name = self.index.current_searcher, self.index.ix.indexname
            docs = self.index.filter_sets.get(searcher, name, Q.Term("game", game))[1]

            def present(term: str) -> bool:  # the game's own texts have the word
                return any(
                    d in docs
                    for f in fields_of(term, ("title", "body"))
                    if self.index.df(reader, f, term)
                    for d in self.index.term_scores.get(searcher, name, f, term)[0]
                )

        return Planner(
            reader, self.index.tokens, self.index.words, synonyms, lambda f, t: self.index.df(reader, f, t), present
        )

    @holding_searchers
    def build_query(self, text: str, broad: bool = False, game: str | None = None) -> Q.Query | None:
        """The Whoosh query for ``text`` (see query.py)."""
        return self.plan(text, broad, game).query()

    @holding_searchers
    def plan(self, text: str, broad: bool = False, game: str | None = None) -> Plan:
        return self.planner(game).plan(text, broad=broad, name_key=name_key(text.replace('"', " ")) or None)

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
        filters = filter_query(game, kind, version)
        if partial:
            cleaned = self.corrector.complete_last_word(cleaned)
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
        wanted, unseen, _ = self.ranker.required_words(plan)
        if unseen:
            seen = sum(weight for _, weight in wanted.values())
            better = self._corrected(text, filters, version, game)
            if self._taken(better, seen / (seen + unseen)):
                results.did_you_mean, results.corrected = better.text, True
                return better
        ranking = self.rank(text, filters, version, game, plan)
        if ranking.coverage < 1.0:
            better = better if unseen else self._corrected(text, filters, version, game)
            if self._taken(better, ranking.coverage, typo=bool(unseen)):
                results.did_you_mean, results.corrected = better.text, True
                return better
        return ranking

    @staticmethod
    def _taken(corrected: Ranking | None, coverage: float, typo: bool = False) -> bool:
        """A corrected query's ranking is taken over one covering ``coverage`` when its best cover clearly more.
        ``typo``: the query as typed has a word no text has, so its ranking was made without that word; a
        correction whose best answers cover more of the query is taken."""
        if corrected is None or not corrected.answers:
            return False
        return corrected.coverage >= (coverage + TYPO_GAIN if typo else max(0.5, coverage + 0.25))

    def _corrected(self, text: str, filters, version, game) -> Ranking | None:
        """The ranking of ``text`` with its unknown words spelling-corrected (None: nothing to correct)."""
        corrected, changed = self.corrector.correct(re.findall(r"[\w'\-]+", text))
        return self.rank(" ".join(corrected), filters, version, game) if changed else None

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
        return self.ranker.rank(text, plan or self.plan(text, broad=filters is None, game=game), filters, version)

    def page(self, ranking: Ranking, limit: int, version: str | None = None) -> list[Hit]:
        """The first ``limit`` hits of a ranking, one per place shown: an entry pointing at its sub-definition is
        that sub-definition. Only the answers shown are pointed at their passage and given a snippet."""
        hits: list[Hit] = []
        shown: set[str] = set()  # the URLs of the hits
        for answer in ranking.answers:
            self.ranker.point_at_passages([answer], ranking.pointing, ranking.phrases)
            self.ranker.point_at_numbers([answer], ranking.text)
            hit = self.hits.hit(answer, ranking.pattern, version)
            if hit.url in shown:
                continue
            shown.add(hit.url)
            hits.append(hit)
            if len(hits) == limit:
                break
        return hits

    # -- completion ---------------------------------------------------------

    def complete(self, text: str, game: str | None = None, limit: int = 8) -> list[dict]:
        """Names completing what is typed; if none, the same with the finished words spelling-corrected.

        "villian ph" completes to "Villain Phase": every word but the last is finished, so it may
        be corrected; the last is a prefix still being typed.
        """
        found = self.completions.complete(text, game, limit)
        words = text.split()
        if found or len(words) < 2:
            return found
        corrected, changed = self.corrector.correct(words[:-1])
        return self.completions.complete(" ".join([*corrected, words[-1]]), game, limit) if changed else []

    def closest_names(self, text: str, game: str | None, limit: int = 5) -> list[dict]:
        """When nothing matches: term names nearest to what was typed (by spelling), to choose from."""
        names = self.completions.closest(text, game, limit)
        return [{"name": c["name"], "url": c["url"], "game": c["game"]} for c in names]
