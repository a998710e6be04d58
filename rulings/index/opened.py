"""A build's two indexes opened for searching, and what every step of a search reads from them.

The index of the texts in force now (``MAIN``) and the index of superseded texts (``HISTORY``, searched
only at a past version), each read through a set of Whoosh searchers lent to one thread at a time
(``pool.py``), with the postings, scores and filter sets decoded once and kept (``topdocs.py``).
Query planning, spelling correction, ranking and hits (``search.py`` and the modules it names) all
read the index through this one object.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .pool import SearcherPool
from .schema import word_analyzer
from .storage import index_storage
from .topdocs import FilterSets, TermScores


def holding_searchers(method):
    """The method runs holding a set of Whoosh searchers (``OpenedIndex.lend``) of ``self.index``."""

    @functools.wraps(method)
    def holding(self, *args, **kwargs):
        with self.index.lend():
            return method(self, *args, **kwargs)

    return holding


class OpenedIndex:
    """One build's index, opened read-only; safe to share between threads."""

    def __init__(self, build: Path):
        from .writer import HISTORY, MAIN

        storage = index_storage(build / "index")  # private copies: a file truncated on disk cannot SIGBUS us
        self.ix = storage.open_index(MAIN)
        self.history = storage.open_index(HISTORY)
        self.analyzer = self.ix.schema["body"].analyzer
        self.word_analyzer = word_analyzer()
        self.pool = SearcherPool({MAIN: self.ix, HISTORY: self.history})
        self.filter_sets = FilterSets()  # the documents of each game, kind, version searched
        self.term_scores = TermScores()  # each word's documents and scores, once decoded

    def lend(self):
        """Hold a set of opened Whoosh searchers for the block (``pool.py``)."""
        return self.pool.lend()

    def _held(self, name: str):
        searchers = self.pool.held()
        if searchers is None:
            raise RuntimeError("a Whoosh searcher is used outside OpenedIndex.lend() (searchers are not thread-safe)")
        return searchers[name]

    @property
    def current_searcher(self):
        """The held searcher over the texts in force now."""
        return self._held(self.ix.indexname)

    @property
    def history_searcher(self):
        """The held searcher over superseded texts (only used to search a past version)."""
        return self._held(self.history.indexname)

    def searchers(self) -> list[tuple]:
        """The held searchers and their index's names: texts in force now, then earlier texts."""
        return [(self.current_searcher, self.ix.indexname), (self.history_searcher, self.history.indexname)]

    def tokens(self, text: str) -> list[str]:
        """``text`` as the index's body field analyses it (stemmed)."""
        return [t.text for t in self.analyzer(text)]

    def words(self, text: str) -> list[str]:
        """``text`` as words, unstemmed."""
        return [t.text for t in self.word_analyzer(text)]

    def df(self, reader, fieldname: str, text: str, index: str | None = None) -> int:
        """Documents with the term in the field (of the current index unless ``index`` names another), remembered."""
        return self.term_scores.doc_frequency(reader, index or self.ix.indexname, fieldname, text)
