"""The top documents for a query plan's clauses, scored term at a time.

Whoosh's ``Or`` walks a tree of union matchers document at a time: several Python calls per
document per level of the tree, for the twenty to fifty clauses a typed question becomes, and
that was most of a search's time. Here each clause's postings are walked once and their BM25F
scores (Whoosh's own scorers, boosts included) summed per document, then the best taken with a
heap: the same scores, a fraction of the calls. The cost model (query.py) already counts a
clause's postings as what it costs. A filter (game, kind, version) is the set of documents it
matches, worked out once per index (builds never change); a clause with more postings than the
filter has documents is walked by skipping to each of them instead.
"""

from __future__ import annotations

import heapq
import threading
from array import array
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass

from whoosh import query as Q
from whoosh.searching import TimeLimit

from .. import deadline

CHECK_EVERY = 512  # postings walked between two looks at the request's time limit
FILTERS_KEPT = 256  # filters' document sets remembered per index
POSTINGS_KEPT = 2_000_000  # postings whose scores are kept, all terms together (about 24 MB)
FREQUENCIES_KEPT = 100_000  # (field, word) document frequencies remembered (forgotten all at once past it; ~20 MB)
STORED_KEPT = 5_000  # documents' stored fields remembered, the most recently used (~10 MB)


@dataclass
class Found:
    """One scored document: its number in the index, its score, its rank among those found, its stored fields."""

    docnum: int
    score: float
    rank: int
    fields: dict


class FilterSets:
    """The documents each filter matches, per index, remembered (the most recently used ``FILTERS_KEPT``)."""

    def __init__(self):
        self._sets: OrderedDict[tuple[str, str], tuple[list[int], frozenset[int]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, searcher, name: str, filters: Q.Query) -> tuple[list[int], frozenset[int]]:
        key = (name, repr(filters))
        with self._lock:
            found = self._sets.get(key)
            if found is not None:
                self._sets.move_to_end(key)
                return found
        docs = sorted(searcher.docs_for_query(filters))
        found = (docs, frozenset(docs))
        with self._lock:
            self._sets[key] = found
            while len(self._sets) > FILTERS_KEPT:
                self._sets.popitem(last=False)
        return found


@dataclass
class TopDocuments:
    name: str  # the index's
    found: list[Found]
    scores: dict[int, float]  # every document any clause matched
    # (field, word) -> the documents its clause matched: which query words a candidate contains, known
    # without walking those postings again
    matched: dict[tuple[str, str], set[int]]


class TermScores:
    """Each (field, word)'s documents and BM25F scores, decoded and scored once per index (builds never change).

    Walking a term's postings through Whoosh costs several microseconds a posting (block decoding,
    a scorer call, the field length); the words players type repeat, so each term's documents and
    scores are kept, as compact arrays, up to ``POSTINGS_KEPT`` postings in all (least recently used
    dropped). A search then adds up kept arrays.
    """

    def __init__(self, capacity: int = POSTINGS_KEPT):
        self.capacity = capacity
        self._kept: OrderedDict[tuple[str, str, str], tuple[array, array]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._ids: OrderedDict[tuple[str, str, str], array] = OrderedDict()  # document ids alone (``contains``)
        self._ids_size = 0
        self._frequencies: dict[tuple[str, str, str], int] = {}
        self._stored: OrderedDict[tuple[str, int], dict] = OrderedDict()

    def doc_frequency(self, reader, name: str, fieldname: str, text: str) -> int:
        """The term's document frequency, remembered: Whoosh hashes its way through the term table for each."""
        key = (name, fieldname, text)
        found = self._frequencies.get(key)
        if found is None:
            found = reader.doc_frequency(fieldname, text)
            if len(self._frequencies) >= FREQUENCIES_KEPT:
                self._frequencies.clear()
            self._frequencies[key] = found
        return found

    def stored_fields(self, searcher, name: str, docnum: int) -> dict:
        """A document's stored fields (decompressed and unpickled once; callers must not change them)."""
        key = (name, docnum)
        with self._lock:
            found = self._stored.get(key)
            if found is not None:
                self._stored.move_to_end(key)
                return found
        found = searcher.stored_fields(docnum)
        with self._lock:
            self._stored[key] = found
            while len(self._stored) > STORED_KEPT:
                self._stored.popitem(last=False)
        return found

    def contains(self, searcher, name: str, fieldname: str, text: str, docnums: list[int]) -> list[int]:
        """Those of ``docnums`` (sorted) that contain the term (``ids``)."""
        ids = self.ids(searcher, name, fieldname, text)
        out, start = [], 0
        for docnum in docnums:
            start = bisect_left(ids, docnum, start)
            if start == len(ids):
                break
            if ids[start] == docnum:
                out.append(docnum)
        return out

    def ids(self, searcher, name: str, fieldname: str, text: str) -> array:
        """The documents that contain the term, in order: from its kept postings, else read and kept without a
        score (scoring every posting of a common word only to learn which candidates have it was most of a
        first search across all games at 1,678 rulebooks; an entry's passages, by their ``parent``, are read
        for every hit shown)."""
        key = (name, fieldname, text)
        with self._lock:
            kept = self._kept.get(key)
            ids = kept[0] if kept is not None else self._ids.get(key)
            if kept is None and ids is not None:
                self._ids.move_to_end(key)
        if ids is None:
            ids = array("i", searcher.reader().postings(fieldname, text).all_ids())
            with self._lock:
                self._ids[key] = ids
                self._ids_size += len(ids)
                while self._ids_size > self.capacity:
                    _, dropped = self._ids.popitem(last=False)
                    self._ids_size -= len(dropped)
        return ids

    def get(self, searcher, name: str, fieldname: str, text: str) -> tuple[array, array]:
        key = (name, fieldname, text)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        matcher = Q.Term(fieldname, text).matcher(searcher, searcher.context())
        ids, scores = array("i"), array("d")
        while matcher.is_active():
            ids.append(matcher.id())
            scores.append(matcher.score())
            matcher.next()
        found = (ids, scores)
        if len(ids) <= self.capacity // 4:
            with self._lock:
                if key not in self._kept:
                    self._kept[key] = found
                    self._size += len(ids)
                while self._size > self.capacity:
                    _, (dropped, _) = self._kept.popitem(last=False)
                    self._size -= len(dropped)
        return found


def top_documents(searcher, name: str, terms: TermScores, clauses: list[Q.Query], size: int, allowed=None):
    """The ``size`` best documents for the sum of ``clauses``' scores (only ``allowed``: sorted list and set).

    ``name``: the index's (the kept term scores are per index).
    """
    context = searcher.context()
    scores: dict[int, float] = {}
    matched: dict[tuple[str, str], set[int]] = {}
    keep = allowed[1] if allowed is not None else None
    walked = 0
    for clause in clauses:
        if deadline.expired():
            raise TimeLimit
        docs: list[int] = []
        if allowed is not None and _skipping_pays(clause, searcher, allowed[0], terms, name):
            walked = _walk_allowed(clause.matcher(searcher, context), allowed[0], scores, docs, walked)
        elif isinstance(clause, Q.Term):
            ids, term_scores = terms.get(searcher, name, clause.fieldname, clause.text)
            boost = clause.boost
            for docnum, score in zip(ids, term_scores, strict=True):
                if keep is None or docnum in keep:
                    scores[docnum] = scores.get(docnum, 0.0) + (score * boost if boost != 1.0 else score)
                    docs.append(docnum)
        else:
            matcher = clause.matcher(searcher, context)
            while matcher.is_active():
                docnum = matcher.id()
                if keep is None or docnum in keep:
                    scores[docnum] = scores.get(docnum, 0.0) + matcher.score()
                    docs.append(docnum)
                walked += 1
                if walked % CHECK_EVERY == 0 and deadline.expired():
                    raise TimeLimit
                matcher.next()
        if isinstance(clause, Q.Term):
            matched.setdefault((clause.fieldname, clause.text), set()).update(docs)
    best = heapq.nsmallest(size, scores.items(), key=lambda item: (-item[1], item[0]))
    found = [
        Found(docnum, score, rank, terms.stored_fields(searcher, name, docnum))
        for rank, (docnum, score) in enumerate(best)
    ]
    return TopDocuments(name, found, scores, matched)


def _skipping_pays(clause: Q.Query, searcher, allowed: list[int], terms: TermScores, name: str) -> bool:
    """Skip from allowed document to allowed document when there are far fewer of them than postings."""
    if isinstance(clause, Q.Term):
        size = terms.doc_frequency(searcher.reader(), name, clause.fieldname, clause.text)
    else:
        size = clause.estimate_size(searcher.reader())
    return len(allowed) * 4 < size


def _walk_allowed(matcher, allowed: list[int], scores: dict[int, float], docs: list[int], walked: int) -> int:
    for docnum in allowed:
        if not matcher.is_active():
            break
        if matcher.id() < docnum:
            matcher.skip_to(docnum)
            if not matcher.is_active():
                break
        if matcher.id() == docnum:
            scores[docnum] = scores.get(docnum, 0.0) + matcher.score()
            docs.append(docnum)
        walked += 1
        if walked % CHECK_EVERY == 0 and deadline.expired():
            raise TimeLimit
    return walked
