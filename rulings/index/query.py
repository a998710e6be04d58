"""From typed text to a bounded Whoosh query: the words that matter, what they may also mean, and a cost budget.

A query plan is built in two steps. *Understanding*: the typed words are analysed like the
documents, question words kept aside with little weight, a compound typed as one word ("alterego")
split where the index knows the pair, and each word given its alternatives: the play lexicon's and
the game's vocabulary ("dies" -> "defeated"), and words of its family ("alteration" for "alter"),
all weighted below the word itself. *Costing*: every clause costs the postings Whoosh would walk
for it (its document frequency); clauses are taken most telling first (exact words before
alternatives, rare before common) until the budget is spent, so no query within the length limit
can cost more than a few ordinary ones, however many words or digits it has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from whoosh import query as Q

from .lexicon import Synonyms
from .schema import FILLER_WORDS, IS_RULE_NUMBER, QUESTION_WORDS, TOKENS, family_stem, light_stem, normal_word

# The cost model's limits (see module docstring). Postings are what a clause costs Whoosh to walk.
MAX_WORDS = 10  # distinct words searched (the most telling ones when a query has more)
MAX_PAIRS = 8  # adjacent word pairs
MAX_PHRASES = 3  # "quoted phrases"
MAX_PHRASE_WORDS = 6
MAX_ALTERNATIVES = 12  # synonym and word-family alternatives, all words together
MAX_FAMILY = 3  # family words per word
FAMILY_SCAN = 40  # lexicon entries looked at to find a word's family
MIN_SPLIT_PAIRS = 2  # texts that must say two words side by side for a word typed as one to be split into them
BUDGET = 40_000  # postings per query, all clauses together
COMMON = 0.15  # a word in more than this share of texts is searched in names only (if rarer words are typed)
COMMON_FLOOR = 200  # ... and in more texts than this (below it, walking them costs nothing)


def common_limit(doc_count: int) -> float:
    """Documents a word may be in and still tell answers apart (and be cheap to walk)."""
    return max(COMMON * doc_count, COMMON_FLOOR)


def fields_of(form: str, words: tuple[str, ...] = ("title", "names", "body")) -> tuple[str, ...]:
    """Where a form is indexed: a word in ``words``, a pair of words ("hit_point") in the pairs field."""
    return ("pairs",) if "_" in form else words


QUESTION_WEIGHT = 0.2  # a question word kept as a glossary name ("may") counts for little
FILLER_WEIGHT = 0.5  # a word that narrows down nothing on its own ("other", "same", "each")
FILLER_STEMS = frozenset(light_stem(w) for w in FILLER_WORDS)
QUESTION_STEMS = QUESTION_WORDS | {light_stem(w) for w in QUESTION_WORDS}  # "have" analyses to "hav"
NEGATIONS = frozenset(light_stem(w) for w in ("not", "no", "nobody", "never", "without"))  # "not defend": "undefended"
SYNONYM_WEIGHT = 0.45
FAMILY_WEIGHT = 0.35
STAND_IN_WEIGHT = 0.9  # an alternative of a word the index does not have ("sac", "sick"): it stands in for it
IDIOM_WEIGHT = 0.8  # what a phrase of the lexicon stands for ("same time": "simultaneous")
PAIR_WEIGHT = 1.5
REVERSED_WEIGHT = 0.5
PHRASE_WEIGHT = 2.0
NUMBER_WEIGHT = 4.0  # a rule's number typed ("509.1a"): the rule or subrule it is, as strong as its name


# British and American spellings of one word: "colour" / "color", "cancelled" / "canceled", "defence" /
# "defense", "centre" / "center", "organise" / "organize", "analyse" / "analyze", "catalogue" / "catalog".
SPELLINGS = (("our", "or"), ("or", "our"), ("ll", "l"), ("l", "ll"), ("ence", "ense"), ("ense", "ence"),
             ("tre", "ter"), ("ter", "tre"), ("is", "iz"), ("iz", "is"), ("ys", "yz"), ("yz", "ys"), ("ogue", "og"),
             ("og", "ogue"))  # fmt: skip


def spelling_variants(word: str) -> list[str]:
    """The word as the other side of the Atlantic spells it (each way one change could make it)."""
    out = []
    for old, new in SPELLINGS:
        start = word.find(old, 1)
        while start != -1:
            out.append(word[:start] + new + word[start + len(old) :])
            start = word.find(old, start + 1)
    return list(dict.fromkeys(out))


@dataclass
class Word:
    """A query word as indexed (a stem), with what else it may be written as."""

    stem: str
    weight: float = 1.0
    alternatives: dict[str, float] = field(default_factory=dict)  # stem -> weight

    @property
    def forms(self) -> dict[str, float]:
        """Each form that counts for the word, with its credit: 1 for the word, less for an alternative."""
        return {self.stem: 1.0, **{s: w / self.weight for s, w in self.alternatives.items()}}


@dataclass
class Plan:
    words: list[Word]
    pairs: list[str]
    phrases: list[list[str]]
    clauses: list[Q.Query] = field(default_factory=list)
    cost: int = 0  # estimated postings walked
    dropped: int = 0  # clauses left out by the budget

    @property
    def numbers(self) -> list[str]:
        """The rule numbers typed ("509.1a"): each goes straight to its rule."""
        return [w.stem for w in self.words if IS_RULE_NUMBER.match(w.stem)]

    @property
    def telling(self) -> list[Word]:
        """The words an answer should contain (question words excepted; filler words count for less)."""
        return [w for w in self.words if w.weight >= FILLER_WEIGHT] or self.words

    def query(self) -> Q.Query | None:
        if not self.clauses:
            return None
        return Q.Or(self.clauses) if len(self.clauses) > 1 else self.clauses[0]


class Planner:
    """Builds query plans against one index reader (see module docstring)."""

    FIELDS = ("title", "names", "context", "body")
    ALTERNATIVE_FIELDS = ("title", "body")

    def __init__(self, reader, tokens, words, synonyms: Synonyms, frequency=None, present=None):
        """``tokens``: the index analyzer (question words dropped); ``words``: every word, analysed;
        ``frequency(field, term)``: the reader's document frequencies, remembered (the searcher's);
        ``present(term)``: the texts searched (a game's) have the word (default: any text has it)."""
        self.reader = reader
        self.tokens = tokens
        self.words = words
        self.synonyms = synonyms
        self.df = frequency or reader.doc_frequency
        self.present = present or self.known

    def known(self, term: str) -> bool:
        return any(self.df(f, term) for f in fields_of(term))

    # -- understanding --------------------------------------------------
    def understand(self, text: str) -> tuple[list[Word], list[str], list[list[str]]]:
        text = self.as_spelled_here(text)
        quoted = [self.tokens(p)[:MAX_PHRASE_WORDS] for p in re.findall(r'"([^"]+)"', text)]
        phrases = [p for p in quoted if len(p) > 1][:MAX_PHRASES]
        plain = text.replace('"', " ")
        stems = self.join_compounds(self.split_compounds(self.tokens(plain)), plain)
        every = self.words(plain)  # with question words: "not defend" is a lexicon key
        words: dict[str, Word] = {}
        for stem in stems:
            if stem not in words:
                words[stem] = Word(stem, self.weight(stem))
        words = dict(list(words.items())[: MAX_WORDS * 3])
        if len(words) > MAX_WORDS:  # the most telling words, kept in the order typed
            keep = set(sorted(words, key=lambda s: (words[s].weight < 1.0, self.df("body", s)))[:MAX_WORDS])
            words = {s: w for s, w in words.items() if s in keep}
        self.add_alternatives(words, every)
        pairs = list(dict.fromkeys(f"{a}_{b}" for a, b in pairwise(stems) if self.as_typed(words, a, b)))
        return list(words.values()), pairs[:MAX_PAIRS], phrases

    def as_spelled_here(self, text: str) -> str:
        """Words no text has, spelled as the texts spell them ("cancelled": "canceled") when one change of
        British or American spelling makes a word they have."""

        def written(word: str) -> bool:  # the texts searched have it (in any inflection)
            return self.present(light_stem(normal_word(word)))

        def respell(match: re.Match) -> str:
            word = match.group(0)
            lower = word.lower()
            if len(lower) < 4 or written(lower):
                return word
            return next((v for v in spelling_variants(lower) if written(v)), word)

        return re.sub(r"[A-Za-z]+", respell, text)

    @staticmethod
    def as_typed(words: dict[str, Word], *stems: str) -> bool:
        """The stems are query words searched as typed (not a negated word searched as its opposite)."""
        return all(s in words and words[s].stem == s for s in stems)

    @staticmethod
    def weight(stem: str) -> float:
        """What a typed word counts for: a question word little, a filler word less than a word that tells."""
        return QUESTION_WEIGHT if stem in QUESTION_WORDS else FILLER_WEIGHT if stem in FILLER_STEMS else 1.0

    def split_compounds(self, stems: list[str]) -> list[str]:
        """A word the index does not know, typed as two it knows side by side ("alterego"), is split."""
        out = []
        for stem in stems:
            if len(stem) >= 6 and stem.isalpha() and not self.known(stem):
                best = max(
                    ((self.df("pairs", f"{stem[:i]}_{stem[i:]}"), i) for i in range(2, len(stem) - 1)),
                    default=(0, 0),
                )
                if best[0] >= MIN_SPLIT_PAIRS:
                    out += [stem[: best[1]], stem[best[1] :]]
                    continue
            out.append(stem)
        return out

    def join_compounds(self, stems: list[str], plain: str) -> list[str]:
        """Two words no text has side by side, typed apart, that the index knows as one ("planes walker")
        are that one word."""
        typed = [normal_word(w.lower()) for w in re.findall(TOKENS, plain)]
        for a, b in pairwise(typed):
            first, second = light_stem(a), light_stem(b)
            joined = light_stem(a + b)
            if not (a + b).isalpha() or len(a + b) < 6 or first == second:
                continue
            for i in range(len(stems) - 1):
                if stems[i] == first and stems[i + 1] == second:
                    if self.present(joined) and not self.known(f"{first}_{second}"):
                        stems[i : i + 2] = [joined]
                    break
        return stems

    def add_alternatives(self, words: dict[str, Word], every: list[str]) -> None:
        budget = MAX_ALTERNATIVES
        idioms: dict[tuple[str, ...], list[str]] = {}
        for key, phrase in self.synonyms.expand(every):
            if len(key) > 1:
                idioms.setdefault(key, []).append(phrase)
                continue
            targets = [words[k] for k in key if k in words] or [w for w in words.values() if w.weight >= 1.0][:1]
            for stem in self.phrase_forms(phrase):
                if budget and targets and stem not in words and self.known(stem):
                    target = targets[-1]
                    if stem not in target.alternatives:
                        target.alternatives[stem] = SYNONYM_WEIGHT * target.weight
                        budget -= 1
        for key, phrases in idioms.items():
            forms = [s for p in phrases for s in self.phrase_forms(p) if self.known(s)]
            budget = self.add_idiom(words, key, list(dict.fromkeys(forms))[:budget], budget)
        for word in words.values():
            for stem in self.family(word.stem):
                if budget and stem not in words and stem not in word.alternatives:
                    word.alternatives[stem] = FAMILY_WEIGHT * word.weight
                    budget -= 1
        for word in words.values():
            # No text has the word itself, so its alternatives cannot outrank it: they stand in for it.
            if word.alternatives and not self.known(word.stem):
                word.alternatives = {s: STAND_IN_WEIGHT * word.weight for s in word.alternatives}

    def add_idiom(self, words: dict[str, Word], key: tuple[str, ...], forms: list[str], budget: int) -> int:
        """A phrase of the lexicon ("arch enemy", "not defend", "have to", "same time") and what it stands for.

        ``forms``: what it stands for, as indexed. A negated phrase ("didn't defend") means its
        alternative ("undefended") more than its own word. A phrase of question words only
        ("have to") is a word of its own that counts for little, and never for coverage. A phrase
        no text says ("arch enemy") is one idea: its words are searched as its last one, what it
        stands for nearly as much (the stand-in rule, for a phrase). A phrase the texts do say
        ("same time") is searched as typed, what it stands for below it, like any synonym.
        """
        typed = [k for k in key if k in words and words[k].weight >= 1.0 and k not in NEGATIONS]
        forms = [f for f in forms if f not in words]
        if not forms:
            return budget
        if not typed:
            if any(k not in words and k not in QUESTION_STEMS for k in key):
                return budget  # its words were read as another (joined: "arch enemy" as "archenemy")
            alternatives = dict.fromkeys(forms[1:], SYNONYM_WEIGHT)
            words.setdefault(f"({' '.join(key)})", Word(forms[0], SYNONYM_WEIGHT, alternatives))
            return budget - len(forms)
        holder = words[typed[-1]]
        weight = SYNONYM_WEIGHT
        if holder.stem == typed[-1] and any(k in NEGATIONS for k in key):  # "not defend" means "undefended"
            for stem in key:
                if stem != typed[-1]:
                    words.pop(stem, None)  # the rest of the phrase: "no one", "nobody"
            own = holder.stem
            holder.stem, forms = forms[0], forms[1:]
            holder.alternatives = {own: SYNONYM_WEIGHT * holder.weight, **holder.alternatives}
        elif not self.known("_".join(typed[-2:])):
            for stem in typed[:-1]:
                words.pop(stem, None)  # part of a phrase no text says: searched as the phrase
            weight = IDIOM_WEIGHT
        for stem in forms:
            if stem != holder.stem and stem not in holder.alternatives:
                holder.alternatives[stem] = weight * holder.weight
        return budget - len(forms)

    def phrase_forms(self, phrase: str) -> list[str]:
        """How a rules phrase is searched: a word as itself, words side by side as their pairs ("hit_point").

        "put into play" is not "put", "into" and "play" apart: each would match texts about
        something else.
        """
        stems = self.tokens(phrase)
        return stems if len(stems) < 2 else [f"{a}_{b}" for a, b in pairwise(stems)]

    def family(self, stem: str) -> list[str]:
        """Indexed words sharing ``stem``'s Porter2 stem ("alteration" for "alter"), most frequent first."""
        root = family_stem(stem)
        if len(root) < 4 or not stem.isalpha():
            return []
        prefix = root.rstrip("i")  # Porter2 writes a final y as i ("readi")
        found = []
        for n, term in enumerate(self.reader.expand_prefix("body", prefix)):
            if n >= FAMILY_SCAN:
                break
            word = term.decode() if isinstance(term, bytes) else term
            if word != stem and family_stem(word) == root:
                found.append((self.df("body", word), word))
        return [w for _, w in sorted(found, reverse=True)[:MAX_FAMILY]]

    # -- costing ----------------------------------------------------------
    def plan(self, text: str, broad: bool = False, name_key: str | None = None) -> Plan:
        """The clauses of ``text`` within the budget. ``broad`` (no game chosen): body text only for rare words.

        Across thousands of games the answer is an entry *named* by the query, and walking every
        body that says "card" would cost seconds.
        """
        words, pairs, phrases = self.understand(text)
        plan = Plan(words, pairs, phrases)
        rare_limit = max(50, int(0.005 * self.reader.doc_count())) if broad else None
        candidates: list[tuple[int, int, Q.Query]] = []  # (tier, postings, clause)

        def offer(tier: int, fieldname: str, term: str, boost: float) -> None:
            postings = self.df(fieldname, term)
            # across every game only telling words are searched (in names too: "card" names thousands of entries)
            if postings and (rare_limit is None or fieldname == "pairs" or postings <= rare_limit):
                candidates.append((tier, postings, Q.Term(fieldname, term, boost=boost)))

        if broad and name_key:
            candidates.append((0, 1, Q.Term("name_keys", name_key, boost=3.0)))
        # A word in a large share of all texts ("card") adds little to the ranking but makes every search
        # walk most of the index: when rarer words are there to find the answer, only names are searched for it.
        limit = common_limit(self.reader.doc_count())
        common = {w.stem for w in words if self.df("body", w.stem) > limit}
        if len(common) == len(words):
            common = set()
        for word in words:
            for fieldname in fields_of(word.stem, self.FIELDS if word.stem not in common else ("title", "names")):
                offer(0 if fieldname in ("title", "names") else 1, fieldname, word.stem, word.weight)
            for stem, weight in word.alternatives.items():
                for fieldname in fields_of(stem, self.ALTERNATIVE_FIELDS):
                    offer(2, fieldname, stem, weight)
        for word in words:  # a rule's number typed: the rule (or subrule) of that number
            if IS_RULE_NUMBER.match(word.stem):
                offer(0, "numbers", word.stem, NUMBER_WEIGHT)
        weights = {w.stem: w.weight for w in words}
        for pair in pairs:  # a pair tells as much as its weaker word ("the other players": little)
            weight = PAIR_WEIGHT * min(weights.get(s, 1.0) for s in pair.split("_"))
            offer(1, "pairs", pair, weight)
            first, second = pair.split("_")
            if first.isdigit() != second.isdigit():  # "0 toughness" is "toughness 0"
                offer(1, "pairs", f"{second}_{first}", weight)
        for phrase in phrases:  # its words side by side: each of its word pairs in one text (no positions are kept)
            terms = [Q.Term("pairs", f"{a}_{b}", boost=PHRASE_WEIGHT) for a, b in pairwise(phrase)]
            postings = min(self.df("pairs", t.text) for t in terms)
            if postings:
                candidates.append((1, postings, terms[0] if len(terms) == 1 else Q.And(terms)))
        if broad and not any(t < 2 for t, _, _ in candidates) and words:
            # every word is common: titles with the rarest one
            rarest = min(words, key=lambda w: self.df("title", w.stem) or 1 << 30)
            for fieldname in ("title", "names"):
                candidates.append((0, self.df(fieldname, rarest.stem), Q.Term(fieldname, rarest.stem)))
        for _tier, postings, clause in sorted(candidates, key=lambda c: (c[0], c[1])):
            if plan.cost + postings > BUDGET and plan.clauses:
                plan.dropped += 1
                continue
            plan.clauses.append(clause)
            plan.cost += postings
        return plan
