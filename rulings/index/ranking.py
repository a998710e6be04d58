"""Ranking: a query's candidates (BM25F, ``topdocs.py``) grouped into answers and re-ranked.

An answer is an entry with its passages (and the glossary entries pointing to it alone); it scores
by its best passage or its whole text, by how much of the question its texts cover, and first of
all by whether the query says its *name*. The answers a page shows are then pointed at the passage
(or the numbered subrule) that answers (``point_at_passage``, ``point_at_number``).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

from whoosh import query as Q

from ..text import name_key
from .opened import OpenedIndex
from .query import BUDGET, STAND_IN_WEIGHT, Plan, common_limit, fields_of
from .schema import QUESTION_WORDS
from .scope import VARIANT_PRIOR, names_variant
from .snippets import highlighter
from .topdocs import TopDocuments, top_documents

CANDIDATES = 100  # documents re-ranked, whatever the page size: a page size cuts the list, never re-ranks it
PRESENCE_FIELDS = ("title", "names", "body")  # where a query word counts as present
COVERAGE_FLOOR = 0.1  # what a text covering none of the telling words keeps of its score
COVERAGE_POWER = 2  # how steeply a text loses score for the share of the question it misses
# A subrule's number as typed ("702.19b", "4.2", "7a"); a bare number ("2 cards") is a count.
SUBRULE_NUMBER = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b|\b\d+[a-z]\b")
KIND_PRIOR = {"term": 1.0, "subdefinition": 0.85, "section": 0.85, "ruling": 0.8}
PASSAGE_PRIOR = 0.9  # a passage's own score, against its entry's whole text
POSITION_SCALE = 2000  # characters into an entry's text at which a passage keeps half its score
PHRASE_GAIN = 2.0  # a passage saying two of the query's words side by side, as typed ("power play"), points first
AMENDED_SHARE = 0.5  # a ruling scoring this share of a text it is about ranks above it (it amends it)


def phrase_places(body: str, phrases: tuple[str, ...]) -> list[int]:
    """Where an entry's text says one of the query's word pairs (``Ranker.phrases``) as whole words, by
    character (a plain search: a regular expression per query would cost more to compile than to run)."""
    text = body.lower() if phrases else ""
    places = []
    for phrase in phrases:
        at = text.find(phrase)
        while at != -1:
            end = at + len(phrase)
            if not (at and _word_char(text[at - 1])) and not (end < len(text) and _word_char(text[end])):
                places.append(at)
            at = text.find(phrase, at + 1)
    return places


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_'"


def says_phrase(places: list[int], fields: dict) -> bool:
    """Whether a passage (its span of its entry's text) holds one of those places."""
    start, length = fields.get("span") or (0, 0)
    return any(start <= place < start + length for place in places)


def position_prior(fields: dict) -> float:
    """A passage further into its entry answers a question less often: a rule states its general case first
    and its exceptions and edge cases after (subrule 509.1a before 509.1d)."""
    start = (fields.get("span") or (0, 0))[0]
    return 1.0 / (1.0 + max(start, 0) / POSITION_SCALE)


@dataclass
class Answer:
    """An answer: one entry's candidate documents (the entry itself and/or its passages), and how it scores."""

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
    answers: list[Answer]
    coverage: float  # how much of the query the best answers cover (0..1)
    pattern: re.Pattern | None  # the query's words, to mark in snippets
    pointing: dict  # the words that tell which passage of an entry answers
    phrases: tuple[str, ...] = ()  # pairs of the query's words side by side, as typed ("power play")


class Ranker:
    """Ranks the answers to a planned query in one build's index."""

    def __init__(self, index: OpenedIndex):
        self.index = index

    def rank(self, text: str, plan: Plan, filters: Q.Query | None, version: str | None = None) -> Ranking:
        """Every answer to ``text`` (planned as ``plan``) among the candidates, best first; no hit is made
        yet (``page``)."""
        if not plan.clauses:
            return Ranking(text, [], 0.0, None, {})
        wanted, unseen, common = self.required_words(plan)
        pointing = {**common, **wanted}  # which of an entry's passages answers: its common words tell too
        found = self._candidates(self.index.current_searcher, self.index.ix.indexname, plan, filters, CANDIDATES)
        if version:  # a past version's texts live in the history index too
            found += self._candidates(
                self.index.history_searcher, self.index.history.indexname, plan, filters, CANDIDATES
            )

        def in_force(searcher, name: str):  # the documents the search's filters allow (None: all)
            return None if filters is None else self.index.filter_sets.get(searcher, name, filters)[1]

        groups = self._answers(found, wanted, pointing, text, set(plan.numbers), in_force)
        ranked = sorted(groups.values(), key=lambda g: (-g.best, g.rank))
        seen = sum(weight for _, weight in wanted.values())
        best = max((self.coverage(g.present, wanted) for g in ranked[:3]), default=0.0)
        # No telling word at all ("what happens" where every word is common): the coverage is the best's.
        best_coverage = best * seen / (seen + unseen) if seen + unseen else best
        return Ranking(text, ranked, best_coverage, highlighter(text, plan), pointing, self.phrases(text))

    @staticmethod
    def phrases(text: str) -> tuple[str, ...]:
        """Each two words of the query that stand side by side, common words left out ("power play" of "power
        play who takes the first turn"): a passage that says them so tells which passage answers."""
        words = [w if w not in QUESTION_WORDS else "" for w in re.findall(r"[\w']+", text.lower())]
        return tuple(sorted({f"{a} {b}" for a, b in zip(words, words[1:], strict=False) if a and b}))

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
        reader = self.index.current_searcher.reader()
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
        return max(self.index.df(reader, f, form) for form in word.forms for f in fields_of(form, ("title", "body")))

    @staticmethod
    def coverage(present: dict[str, float], wanted: dict[str, tuple[dict[str, float], float]]) -> float:
        """The share of the query's telling words (by weight) a text contains; an alternative earns its credit."""
        total = sum(weight for _, weight in wanted.values())
        return sum(wanted[w][1] * credit for w, credit in present.items() if w in wanted) / total if total else 1.0

    @staticmethod
    def coverage_factor(coverage: float) -> float:
        """What a text keeps of its score for covering this share of the question (little when it covers little)."""
        return COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER

    def _answers(
        self, found: list[tuple], wanted: dict, pointing: dict, text: str, numbers: set[str], in_force
    ) -> dict[str, Answer]:
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
        groups: dict[str, Answer] = {}
        for searcher, hit, top, walked in found:
            fields = hit.fields
            key = fields.get("unit") or fields.get("parent") or fields["id"]
            group = groups.setdefault(key, Answer(key=key))
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
        asked = set(self.index.tokens(text))
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

    def _amended_below_rulings(self, groups: dict[str, Answer]) -> None:
        """A ruling that answers as much of the question as a text it is about, and nearly as well, ranks just
        above it: an erratum or clarification amends that text (unless its document is older than the text)."""
        terms: dict[int, Answer] = {}
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

    def point_at_passages(self, ranked: list[Answer], pointing: dict, phrases: tuple[str, ...] = ()) -> None:
        """Each hit at the passage of its entry that answers best, also one that was not among the candidates.

        A long entry (a numbered rule and its subrules) is often found by its whole text while
        the subrule that answers scores below the candidates cut: its passages are looked at
        here, scored as in ``_answers``, so the hit lands on the sentence that answers.
        """
        for group in ranked:
            if group.named or group.source is None:
                continue
            searcher, walked, passage_top = group.source
            reader = searcher.reader()
            key = group.entry["id"]
            if not self.index.df(reader, "parent", key, walked.name):
                continue
            docnums = [
                d for d in self.index.term_scores.ids(searcher, walked.name, "parent", key) if d in walked.scores
            ]
            if not docnums:
                continue
            present = self._presence(searcher, docnums, pointing, walked)
            subkind = group.entry["kind"]
            prior = KIND_PRIOR.get(subkind, 0.5) * PASSAGE_PRIOR
            stored = {d: self.index.term_scores.stored_fields(searcher, walked.name, d) for d in docnums}
            places = phrase_places(group.entry.get("body") or "", phrases)
            answers, docnum = max(
                (
                    walked.scores[d]
                    / passage_top
                    * prior
                    * self.coverage_factor(self.coverage(present.get(d, {}), pointing))
                    * position_prior(stored[d])
                    * (PHRASE_GAIN if places and says_phrase(places, stored[d]) else 1.0),
                    -d,
                )
                for d in docnums
            )
            if answers > group.passage_score:
                group.passage_score, group.best_fields = (
                    answers,
                    self.index.term_scores.stored_fields(searcher, walked.name, -docnum),
                )

    def point_at_numbers(self, ranked: list[Answer], text: str) -> None:
        """A subrule's number typed ("702.19b", "rule 704.5f") points a hit whose entry has it at it."""
        typed = set(SUBRULE_NUMBER.findall(text.lower()))
        if not typed:
            return
        for group in ranked:
            searcher, walked = (group.source or group.found_in)[:2]
            reader = searcher.reader()
            if not self.index.df(reader, "parent", group.entry["id"], walked.name):
                continue
            for docnum in self.index.term_scores.ids(searcher, walked.name, "parent", group.entry["id"]):
                fields = self.index.term_scores.stored_fields(searcher, walked.name, docnum)
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
            searchers += [(s, n) for s, n in self.index.searchers() if n != walked.name]
        for found, name in searchers:
            reader = found.reader()
            if "entry" not in found.schema or not self.index.df(reader, "entry", key, name):
                continue
            allowed = in_force(found, name) if in_force else None
            for docnum in self.index.term_scores.ids(found, name, "entry", key):
                if allowed is None or docnum in allowed:
                    return self.index.term_scores.stored_fields(found, name, docnum)
        return None

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
        return frozenset(self.index.tokens(key))

    def _candidates(self, searcher, name: str, plan: Plan, filters: Q.Query | None, size: int) -> list[tuple]:
        """Top documents by BM25F (topdocs.py) for the re-ranking, each as (searcher, hit, the best score
        of its kind: passage or entry, the ``TopDocuments`` the search walked)."""
        allowed = None if filters is None else self.index.filter_sets.get(searcher, name, filters)
        top = top_documents(searcher, name, self.index.term_scores, plan.clauses, size, allowed)
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
                    elif self.index.df(reader, fieldname, form, walked.name):
                        found = self.index.term_scores.contains(searcher, walked.name, fieldname, form, docs)
                    else:
                        continue
                    for docnum in found:
                        words = present.setdefault(docnum, {})
                        words[word] = max(credit, words.get(word, 0.0))
        return present
