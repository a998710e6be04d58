"""Ranked search over the index: the defining entry first, typos forgiven, hostile input harmless.

Queries are never handed to a query-language parser: words and "quoted phrases"
are turned into Whoosh queries directly, so there is no syntax to get wrong.
Whoosh's BM25F (names and titles boosted over body text) finds candidates; a
small re-ranking then puts the term whose *name* the query says first.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from whoosh import collectors
from whoosh import index as whoosh_index
from whoosh import query as Q

from ..graph.store import Store
from ..text import name_key
from ..urls import urls
from .completion import Completions
from .schema import QUESTION_WORDS

MAX_QUERY_CHARS = 200
MAX_CORRECTED = 4  # unknown words per query given a fuzzy look-up
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
}
KIND_PRIOR = {"term": 1.0, "subdefinition": 0.85, "section": 0.8, "ruling": 0.8}
OPEN, CLOSE = "\u27e6", "\u27e7"  # highlight markers, replaced by the caller (HTML <mark> or **)


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
            "subkind": self.subkind,
            "version": self.version,
        }


@dataclass
class Results:
    query: str
    hits: list[Hit] = field(default_factory=list)
    did_you_mean: str | None = None
    corrected: bool = False
    truncated: bool = False
    message: str | None = None

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "did_you_mean": self.did_you_mean,
            "corrected": self.corrected,
            "truncated": self.truncated,
            "message": self.message,
            "hits": [h.as_dict() for h in self.hits],
        }


def snippet(text: str, pattern: re.Pattern | None, width: int = 220) -> str:
    """The part of ``text`` around the first query word, query words marked; cheap on long texts."""
    match = pattern.search(text) if pattern else None
    start = max(0, match.start() - width // 3) if match else 0
    if start:
        start = text.find(" ", start) + 1 or start
    piece = text[start : start + width]
    if start + width < len(text):
        piece = piece.rsplit(" ", 1)[0] + "\u2026"
    if start:
        piece = "\u2026" + piece
    return pattern.sub(lambda m: f"{OPEN}{m.group(0)}{CLOSE}", piece) if pattern else piece


def clean_query(text: str) -> tuple[str, bool]:
    """Drop control characters, collapse space, cap the length."""
    text = "".join(" " if unicodedata.category(c).startswith("C") else c for c in (text or ""))
    text = re.sub(r"\s+", " ", text).strip()
    return (
        text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] if len(text) > MAX_QUERY_CHARS else text,
        len(text) > MAX_QUERY_CHARS,
    )


class Searcher:
    """Searches one build's index; cheap to call, safe to share between threads."""

    FIELDS = ("title", "names", "context", "body")

    def __init__(self, build: Path):
        from .writer import HISTORY, MAIN

        self.build = build
        self.ix = whoosh_index.open_dir(str(build / "index"), indexname=MAIN)
        self.history = whoosh_index.open_dir(str(build / "index"), indexname=HISTORY)
        self.analyzer = self.ix.schema["body"].analyzer
        self._local = threading.local()
        self.completions = Completions(Store(build))

    def _thread_searcher(self, index):
        """One Whoosh searcher per thread and index, opened on first use (searchers are not thread-safe)."""
        opened = self._local.__dict__.setdefault("searchers", {})
        if index.indexname not in opened:
            opened[index.indexname] = index.searcher()
        return opened[index.indexname]

    @property
    def current_searcher(self):
        """This thread's searcher over the texts in force now."""
        return self._thread_searcher(self.ix)

    @property
    def history_searcher(self):
        """This thread's searcher over superseded texts (only used to search a past version)."""
        return self._thread_searcher(self.history)

    # -- analysis -------------------------------------------------------
    def tokens(self, text: str) -> list[str]:
        return [t.text for t in self.analyzer(text)]

    def correct(self, words: list[str]) -> tuple[list[str], bool]:
        """Replace words the index has never seen by the closest word it has (edit distance 1-2).

        At most ``MAX_CORRECTED`` distinct words are looked up: a query of random words
        must not cost a fuzzy scan of the vocabulary per word.
        """
        reader = self.current_searcher.reader()
        unknown = [
            w
            for w in dict.fromkeys(word.lower() for word in words)
            if len(w) >= 4 and w.isalpha() and reader.doc_frequency("spell", w) == 0
        ]
        fixes: dict[str, str] = {}
        for lower in unknown[:MAX_CORRECTED]:
            for distance in (1, 2):
                candidates = [
                    (reader.doc_frequency("spell", c), c)
                    for c in reader.terms_within("spell", lower, distance, prefix=1)
                ]
                if candidates:
                    fixes[lower] = max(candidates)[1]
                    break
        return [fixes.get(word.lower(), word) for word in words], bool(fixes)

    # -- queries ----------------------------------------------------------
    def build_query(self, text: str, broad: bool = False) -> Q.Query | None:
        """The Whoosh query for ``text``.

        ``broad`` (no game chosen): body text is only searched for words rare enough to
        be telling; across thousands of games the answer is an entry *named* by the query,
        and walking every body that says "card" would cost seconds.
        """
        quoted = [self.tokens(phrase) for phrase in re.findall(r'"([^"]+)"', text)]
        phrases = [words for words in quoted if len(words) > 1]
        tokens = self.tokens(re.sub(r'"[^"]*"', " ", text)) + [words[0] for words in quoted if len(words) == 1]
        unquoted = text.replace('"', " ")
        reader = self.current_searcher.reader()
        clauses: list[Q.Query] = []
        if broad:
            # Across every game: an entry named exactly so, word pairs, and only telling single words.
            limit = max(50, int(0.005 * reader.doc_count()))

            def rare(field: str, token: str) -> bool:
                return 0 < reader.doc_frequency(field, token) <= limit

            if name_key(unquoted):
                clauses.append(Q.Term("name_keys", name_key(unquoted), boost=3.0))
            telling = [
                Q.Term(f, token)
                for token in self.selective(tokens)
                for f in ("title", "names", "body")
                if rare(f, token)
            ]
            clauses += telling
            if not telling and tokens:  # every word is common: titles with the rarest one
                rarest = min(tokens, key=lambda t: reader.doc_frequency("title", t))
                clauses += [Q.Term("title", rarest), Q.Term("names", rarest)]
        else:
            for token in self.selective(tokens):  # one flat disjunction: nested ones cost Whoosh dearly
                clauses += [Q.Term(f, token) for f in self.FIELDS]
        for words in phrases:  # "quoted words" must stand together (in body text only if a word is telling)
            fields = ("title", "body") if not broad or any(rare("body", w) for w in words) else ("title",)
            clauses += [Q.Phrase(f, words, slop=1, boost=2.0) for f in fields]
        # Words that stand together in the question and in the text: one indexed pair each.
        paired = self.tokens(unquoted)
        for a, b in pairwise(paired):
            clauses.append(Q.Term("pairs", f"{a}_{b}", boost=1.5))
        if not clauses:
            return None
        return Q.Or(clauses) if len(clauses) > 1 else clauses[0]

    def selective(self, tokens: list[str]) -> list[str]:
        """Query words minus the very common ones when rarer words are there to find the answer.

        A word in a quarter of all texts ("card") adds little to the ranking but
        makes every search walk most of the index.
        """
        unique = list(dict.fromkeys(tokens))
        reader = self.current_searcher.reader()
        total = max(reader.doc_count(), 1)
        common = {t for t in unique if reader.doc_frequency("body", t) > 0.15 * total}
        return [t for t in unique if t not in common] or unique

    def search(
        self, text: str, game: str | None = None, kind: str | None = None, version: str | None = None, limit: int = 10
    ) -> Results:
        cleaned, truncated = clean_query(text)
        results = Results(cleaned, truncated=truncated)
        if not cleaned:
            results.message = "empty query"
            return results
        limit = max(1, min(int(limit or 10), 100))
        if kind and kind.lower() not in KINDS:
            results.message = f"unknown kind {kind!r}"
            return results
        filters = self.filters(game, kind, version)
        hits = self.run(cleaned, filters, limit, version)
        if len(hits) < 3 or (hits and hits[0].score < 1.0):
            words = re.findall(r"[\w'\-]+", cleaned)
            corrected, changed = self.correct(words)
            if changed:
                fixed = " ".join(corrected)
                better = self.run(fixed, filters, limit, version)
                if better and (not hits or better[0].score > hits[0].score):
                    results.did_you_mean, results.corrected = fixed, True
                    hits = better
                elif better:
                    results.did_you_mean = fixed
        results.hits = hits
        if not hits:
            results.message = "no matches"
        return results

    def filters(self, game, kind, version) -> Q.Query | None:
        parts: list[Q.Query] = []
        if game:
            parts.append(Q.Term("game", game))
        if kind:
            parts.append(Q.Term("kind", KINDS[kind.lower()]))
            if kind.lower() in ("errata", "faq", "clarification"):
                parts.append(Q.Term("subkind", kind.lower()))
        if version:
            parts.append(Q.Term("versions", version))
        if not parts:
            return None
        return Q.And(parts) if len(parts) > 1 else parts[0]

    def run(self, text: str, filters: Q.Query | None, limit: int, version: str | None = None) -> list[Hit]:
        query = self.build_query(text, broad=filters is None)
        if query is None:
            return []
        tokens = set(self.selective(self.tokens(text.replace('"', " "))))
        found = self._candidates(self.current_searcher, query, filters, limit)
        if version:  # a past version's texts live in the history index too
            found += self._candidates(self.history_searcher, query, filters, limit)
        presence = {}
        for searcher in {id(f[0]): f[0] for f in found}.values():
            docnums = [hit.docnum for s, hit, _ in found if s is searcher]
            presence[id(searcher)] = self._presence(searcher, docnums, tokens)
        scored = []
        for searcher, hit, top in found:
            fields = hit.fields()
            present = presence[id(searcher)].get(hit.docnum, ())
            coverage = len(present) / len(tokens) if tokens else 1.0
            # A name inside the query counts as much as the rest of the query agrees with the entry.
            bonus = self._name_bonus(fields, text, tokens) * (coverage if coverage < 1 else 1.0)
            score = (hit.score / top) * KIND_PRIOR.get(fields["kind"], 0.5) * (0.4 + 0.6 * coverage) + bonus
            scored.append((score, hit.rank, hit, fields))
        scored.sort(key=lambda item: (-item[0], item[1]))
        hits = []
        pattern = self._highlighter(text)
        for score, _, _hit, fields in scored[:limit]:
            url = fields["url"]
            if version and fields["kind"] != "ruling":  # pinned to the version searched
                url = urls.term(fields["game"], fields["slug"], version)
            hits.append(
                Hit(
                    fields["title"],
                    json.loads(fields.get("aliases") or "[]"),
                    fields["game"],
                    fields["kind"],
                    fields["slug"],
                    url,
                    score,
                    snippet(fields.get("body") or "", pattern),
                    fields.get("subkind", ""),
                    fields.get("version"),
                )
            )
        return hits

    def _name_bonus(self, fields: dict, text: str, tokens: set[str]) -> float:
        """How much of the query is this entry's name: all of it (2.0) or a share of its words."""
        whole = name_key(text)
        bonus = 0.0
        for key in (k for k in (fields.get("name_keys") or "").split(",") if k):
            if key == whole:
                return 2.0
            name_tokens = set(self.tokens(key))
            if name_tokens and name_tokens <= tokens:
                bonus = max(bonus, len(name_tokens) / max(len(tokens), 1))
        return bonus

    @staticmethod
    def _candidates(searcher, query: Q.Query, filters: Q.Query | None, limit: int) -> list[tuple]:
        """Top documents by BM25F, as (searcher, hit, top score) for the re-ranking.

        A filter (game, kind, version) is intersected with the query so only that part of
        the index is scored; with no filter, block-max skipping prunes the big postings.
        """
        size = max(limit * 4, 40)
        if filters is None:
            collector = collectors.TopCollector(size, usequality=True)
            searcher.search_with_collector(query, collector)
        else:
            collector = collectors.TopCollector(size, usequality=False, replace=0)
            searcher.search_with_collector(Q.Require(query, filters), collector)
        results = collector.results()
        # Not list(results): its len() would run the whole query again just to count matches.
        hits = [results[i] for i in range(results.scored_length())]
        top = max((h.score for h in hits), default=1.0) or 1.0
        return [(searcher, hit, top) for hit in hits]

    def _presence(self, searcher, docnums: list[int], tokens: set[str]) -> dict[int, set[str]]:
        """Which query words each candidate contains (in any searched field), by skipping along postings."""
        reader = searcher.reader()
        wanted = sorted(set(docnums))
        present: dict[int, set[str]] = {}
        for token in tokens:
            for fieldname in self.FIELDS:
                if reader.doc_frequency(fieldname, token) == 0:
                    continue
                postings = reader.postings(fieldname, token)
                for docnum in wanted:
                    if not postings.is_active():
                        break
                    if postings.id() < docnum:
                        postings.skip_to(docnum)
                    if postings.is_active() and postings.id() == docnum:
                        present.setdefault(docnum, set()).add(token)
        return present

    def _highlighter(self, text: str) -> re.Pattern | None:
        """Query words (and their stems, as prefixes) to mark in snippets."""
        words = {w.lower() for w in re.findall(r"[A-Za-z0-9]{2,}", text)}
        stems = set(self.tokens(text))
        parts = sorted(
            {re.escape(w) for w in words if w not in QUESTION_WORDS} | {re.escape(s) for s in stems if len(s) > 2},
            key=len,
            reverse=True,
        )
        return re.compile(r"\b(?:" + "|".join(parts) + r")\w*", re.I) if parts else None
