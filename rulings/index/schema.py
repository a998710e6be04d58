"""The Whoosh schema and the text analysis shared by indexing and querying.

Words are split at hyphens and slashes ("alter-ego" is "alter" "ego", as a typed "alter ego" is; the
pair field joins them again), contractions and clitics are normalised ("didnt", "didn't" and "did" meet;
"KO'd" is "ko"), number words become digits, and stemming is inflectional only ("defends",
"defended", "defending" meet; "alter" and "alteration" do not: search relates such words itself, with
less weight).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import lru_cache

from whoosh import fields, formats
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, ShingleFilter
from whoosh.analysis.filters import STOP_WORDS
from whoosh.lang import porter2
from whoosh.system import pack_uint

from .lexicon import LEXICON

# Words natural questions are full of but that never decide an answer.
QUESTION_WORDS = frozenset(STOP_WORDS) | {
    "i",
    "me",
    "my",
    "does",
    "do",
    "did",
    "what",
    "how",
    "when",
    "why",
    "which",
    "who",
    "whom",
    "happen",
    "happens",
    "happened",
    "is",
    "are",
    "was",
    "were",
    "am",
    "been",
    "being",
    "has",
    "had",
    "there",
    "their",
    "them",
    "they",
    "its",
    "vs",
    "versus",
    "get",
    "gets",
    "got",
    "allowed",
    "able",
    "still",
    "ever",
    "anyone",
    "someone",
    "anything",
    "something",
    "also",
    "just",
    "really",
    "should",
    "could",
    "would",
    "so",
    "then",
    "many",
    "much",
    "he",
    "she",
    "his",
    "her",
    "our",
}
# Words a question is full of that narrow down nothing on their own ("the *other* players", "*each* turn"):
# indexed like any word (rules text uses them in phrases: "same name", "each player") but weighed little
# in a query, and never what an answer must contain.
FILLER_WORDS = frozenset(
    {"other", "another", "some", "any", "all", "each", "every", "both", "same", "such", "own", "but"}
    | {"thing", "things", "way", "ways", "whole", "lot", "lots", "kind", "sort", "actually", "exactly", "mean", "about"}
)
# A rule's number ("702.19b", "100.1") is one word: its parts are not counts ("mull to 7" is not rule 615.7).
RULE_NUMBER = r"\d+(?:\.\d+)+[a-zA-Z]?(?![\w+])"
TOKENS = rf"{RULE_NUMBER}|[\w+]+(?:['\u2019][\w+]+)*"  # hyphens and slashes separate words
WORD = re.compile(TOKENS)
IS_RULE_NUMBER = re.compile(RULE_NUMBER + "$")
CLITICS = ("s", "d", "ll", "re", "ve", "m")
# Inflections Porter2 leaves apart from their word: "goes" keeps its "e" ("goe"), which "go" has not.
INFLECTIONS = {"goes": "go"}
VOWEL_GROUPS = re.compile(r"[aeiouy]+")


def normal_word(text: str) -> str:
    """One typed or printed word in the form both sides index: contractions, clitics, numbers."""
    text = text.replace("\u2019", "'")
    if text.endswith("n't"):
        text = text[:-3] + "nt"
    elif "'" in text:
        head, _, tail = text.rpartition("'")
        if tail in CLITICS and head:
            text = head
    text = LEXICON.contractions.get(text, text)
    return LEXICON.numbers.get(text, text)


@lru_cache(maxsize=100_000)
def light_stem(word: str) -> str:
    """Inflections only: Porter2's plural and -ed/-ing steps (1a-1c), then a final "e" folded.

    "defeated" and "defeat", "heroes" and "hero", "trampled" and "trample" meet; derivations
    ("alteration", "activation", "attacker") keep their own word. A final "l" doubled before "-ed" or
    "-ing" after "e" or "o" in a word of two syllables or more is one ("controlled", "cancelled":
    "control", "cancel"; Porter2 undoubles other consonants only); "spelled" and "rolled" keep theirs.
    """
    if word in LEXICON.irregular:  # "ran": "run", "chosen": "choos" (as "choose" is indexed)
        return light_stem(LEXICON.irregular[word])
    if len(word) <= 3 or not word.isalpha():
        return word
    if word in porter2.exceptional_forms:
        return porter2.exceptional_forms[word]
    if word in INFLECTIONS:
        return INFLECTIONS[word]
    doubled = word.endswith(("lled", "lling"))
    word = porter2.capitalize_consonant_ys(word)
    r1 = porter2.get_r1(word)
    word = porter2.step_1a(porter2.step_0(word))
    if word not in porter2.exceptional_early_exit_post_1a:
        word = porter2.step_1c(porter2.step_1b(word, r1))
    word = word.replace("Y", "y")
    if doubled and word.endswith(("ell", "oll")) and len(VOWEL_GROUPS.findall(word)) >= 2:
        word = word[:-1]  # "controlled", "cancelling": "control", "cancel" (but "spelled", "rolled" keep theirs)
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=100_000)
def family_stem(word: str) -> str:
    """Porter2's full stem of an indexed word: words of one family ("alter", "alteration"), related but not the same.

    An indexed word has lost its final "e" (``light_stem``), which Porter2 needs to strip a suffix
    ("regenerat" stems to itself, "regenerate" to "regener", as "regeneration" does): the shorter of
    the stems with and without it.
    """
    return min(porter2.stem(word), porter2.stem(word + "e"), key=len) if word.isalpha() else porter2.stem(word)


@lru_cache(maxsize=200_000)
def index_form(word: str, stop: frozenset[str]) -> tuple[str, bool]:
    """A printed word's indexed form, and whether it is a question word (dropped): worked out once per word."""
    normal = normal_word(word.lower())
    return light_stem(normal), not normal or normal in stop


class IndexFormFilter(Filter):
    """Lower-case, normalise, drop question words (positions closed up over them), stem: in one pass.

    The same tokens as a chain of one filter per step, at a fraction of the cost: a corpus's words
    repeat, and each distinct one is worked out once (``index_form``) instead of in every filter.
    """

    def __init__(self, stop: frozenset[str]):
        self.stop = frozenset(stop)

    def __call__(self, tokens):
        stop = self.stop
        pos = None
        for token in tokens:
            token.text, stopped = index_form(token.text, stop)
            if not stopped:
                if token.positions:
                    pos = token.pos if pos is None else pos + 1
                    token.pos = pos
                token.stopped = False
                yield token
            elif not token.removestops:
                token.stopped = True
                yield token


class NormalFilter(Filter):
    """Kept so that indexes written before ``IndexFormFilter`` still open (their schema names it)."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = normal_word(token.text)
            yield token


class NegationFilter(Filter):
    """``didn't`` / ``didnt`` -> ``did not``: for reading a question's phrasing ("not defend"), not for indexing."""

    def __call__(self, tokens):
        for token in tokens:
            typed = token.text.replace("\u2019", "'")
            negative = typed.endswith("n't") or (typed.endswith("nt") and typed in LEXICON.contractions)
            token.text = normal_word(typed)
            yield token
            if negative and token.text != "cannot":
                token.text = "not"
                yield token


class LightStemFilter(Filter):
    """Kept so that indexes written before ``IndexFormFilter`` still open (their schema names it)."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = light_stem(token.text)
            yield token


def word_analyzer():
    """Every word, normalised and stemmed, question words included (to read a query's phrasing)."""
    return RegexTokenizer(TOKENS) | LowercaseFilter() | NegationFilter() | LightStemFilter()


def analyzer(keep: frozenset[str] = frozenset()):
    """Tokenise, lower-case, normalise, drop question words (except ``keep``: glossary names), stem.

    ALL CAPS sources index the same as mixed case because of the lower-casing.
    """
    return RegexTokenizer(TOKENS) | IndexFormFilter(QUESTION_WORDS - keep)


SPELLING_WORD = r"[a-zA-Z][a-zA-Z']+"


def spelling_analyzer():
    """Unstemmed words, for "did you mean" corrections people can read."""
    return RegexTokenizer(SPELLING_WORD) | LowercaseFilter()


class Spelling(fields.FieldType):
    """The words of ``spelling_analyzer``, each posted once per document (its document counts are what is
    read), found with one ``findall`` rather than Whoosh's chain of a token object per word."""

    WORDS = re.compile(SPELLING_WORD)

    def __init__(self):
        super().__init__(formats.Existence(), spelling_analyzer())

    def index(self, value, **kwargs):
        if kwargs or not isinstance(value, str):
            return super().index(value, **kwargs)
        boost = self.format.field_boost
        return [(word, 1, boost, b"") for word in self.term_counts(value)]

    def term_counts(self, value) -> dict[bytes, int]:
        if not isinstance(value, str):
            return counts_of(super().index(value))
        return dict.fromkeys([word.encode() for word in {word.lower() for word in self.WORDS.findall(value)}], 1)


def index_forms(text: str, stop: frozenset[str], known: dict[str, bytes]) -> list[bytes]:
    """The indexed forms of a text's words (encoded), question words dropped: ``analyzer(keep)``'s tokens, without them.

    ``known`` holds ``index_form``'s answers for the caller's stop words (empty: dropped): a look-up by the word
    alone, where ``index_form``'s cache makes a key of the word and the stop words, and words seen before are
    looked up by ``map`` rather than one at a time (most of a text's words, past its first documents).
    """
    words = WORD.findall(text)
    forms = list(map(known.get, words))
    if None in forms:  # words this field has not met before
        if len(known) >= FORMS_KEPT:
            known.clear()
        for word in words:
            if word not in known:
                form, stopped = index_form(word, stop)
                known[word] = b"" if stopped else form.encode()
        forms = list(map(known.__getitem__, words))
    return list(filter(None, forms))  # an indexed form is never empty (``light_stem``)


FORMS_KEPT = 100_000  # distinct words a field remembers the indexed forms of


class Words(fields.TEXT):
    """A text field of ``analyzer``'s words (with ``pairs``, of each two adjacent ones, as ``ShingleFilter``
    makes them), indexed in one pass over the text.

    Whoosh analyses a text to index it through a chain of generators and a token object per word,
    a third of the time spent writing an index; the terms, counts and weights here are the same
    (tests). Queries still read the field's analyzer.
    """

    def __init__(self, keep: frozenset[str], pairs: bool = False, **kwargs):
        words = analyzer(keep)
        shingles = words | ShingleFilter(size=2, sep="_") if pairs else words
        super().__init__(analyzer=shingles, phrase=False, **kwargs)  # no positions: ``pairs`` answers phrases
        self.dropped = QUESTION_WORDS - keep
        self.pairs = pairs

    def index(self, value, **kwargs):
        if kwargs or not isinstance(value, str):
            return super().index(value, **kwargs)
        boost = self.format.field_boost
        return [(word, count, count * boost, pack_uint(count)) for word, count in self.term_counts(value).items()]

    def term_counts(self, value) -> dict[bytes, int]:
        """Each term of the text and how many times it is there (the weights and values ``index`` gives follow)."""
        if not isinstance(value, str):
            return counts_of(super().index(value))
        words = index_forms(value, self.dropped, self.__dict__.setdefault("_forms", {}))
        if self.pairs:  # a text of one word is its own "pair", as ShingleFilter has it
            words = list(map(b"_".join, itertools.pairwise(words))) or words
        return Counter(words)

    def __getstate__(self):  # the schema is pickled into the index: without the words one writer met
        state = self.__dict__.copy()
        state.pop("_forms", None)
        return state


RECURRING_KEPT = 4096  # distinct values a field remembers the terms of


class Recurring:
    """A field whose values recur from document to document (a game, a kind, the versions in force, an
    entry's id on each of its passages): each value analysed once, its terms reused, where Whoosh
    analyses it again in every document."""

    def index(self, value, **kwargs):
        if kwargs or not isinstance(value, str):
            return super().index(value, **kwargs)
        return self._analysed(value)[0]

    def term_counts(self, value) -> dict[bytes, int]:
        if not isinstance(value, str):
            return counts_of(super().index(value))
        return self._analysed(value)[1]

    def _analysed(self, value: str) -> tuple[list, dict[bytes, int]]:
        """Whoosh's items for ``value`` and its term counts, worked out the first time it is met."""
        known = self.__dict__.setdefault("_known", {})
        found = known.get(value)
        if found is None:
            if len(known) >= RECURRING_KEPT:
                known.clear()
            items = list(super().index(value))
            found = known[value] = (items, counts_of(items))
        return found

    def __getstate__(self):  # the schema is pickled into the index: without what one writer remembered
        state = self.__dict__.copy()
        state.pop("_known", None)
        return state


def counts_of(items) -> dict[bytes, int]:
    """A field's terms and their counts in a document, from ``index``'s (term, count, weight, value) items."""
    return {text: count for text, count, _, _ in items}


class Identifier(Recurring, fields.ID):
    pass


class Keywords(Recurring, fields.KEYWORD):
    pass


def schema(keep: frozenset[str] = frozenset()) -> fields.Schema:
    return fields.Schema(
        id=fields.STORED,  # never searched: an index of a term per document only cost writing time
        game=Identifier(stored=True),
        kind=Identifier(stored=True),  # term | subdefinition | section | ruling | passage
        subkind=Identifier(stored=True),  # entry | keyword | rule | faq | clarification | errata | note
        category=Identifier(stored=True),  # what people call it (the hit's kind): rule | glossary | section | ruling
        versions=Keywords(commas=True),  # searched (a version's texts), never shown
        # Words without positions: a quoted phrase is searched as its word pairs (``pairs``); positions were a
        # fifth of the index.
        title=Words(keep, field_boost=4.0),  # shown as the label
        names=Words(keep, field_boost=3.0),
        name_keys=Keywords(stored=True, commas=True, lowercase=True),
        context=Words(keep, field_boost=1.5),
        body=Words(keep, stored=True),
        # Only its words and their document counts are read ("did you mean"): no weights, no lengths.
        spell=Spelling(),
        # Adjacent word pairs ("first_damag"): phrase proximity as a cheap term lookup.
        pairs=Words(keep, pairs=True),
        label=fields.STORED,  # the title shown
        slug=fields.STORED,
        url=fields.STORED,  # a ruling's (search makes a term's, pinned to the version searched)
        aliases=fields.STORED,
        version=fields.STORED,
        # A passage (a block of an entry's text) names its entry; anchor and number point inside it.
        parent=Identifier(stored=True),  # indexed: an entry's passages are found by it
        # An entry with passages: what a passage found without its entry finds it by (its id); a numbered rule's
        # revisions also by their ``unit``, what a glossary entry pointing to the rule finds it by.
        entry=Keywords(commas=True),
        anchor=fields.STORED,
        number=fields.STORED,
        numbers=Keywords(commas=True),  # the rule numbers a document is (an entry's and, alone, its subrule's)
        span=fields.STORED,  # (start, length) of a passage's text in its entry's, instead of a copy
        scope=fields.STORED,  # the headings of the variant an entry belongs to (scope.py), if any
        # How answers relate: a glossary entry that points to one numbered rule is one answer with it (``unit``:
        # the rule's id); a ruling outranks the terms it is about (``concerns``: their ``term`` ids) unless
        # its document (``date``) is older than their text.
        unit=fields.STORED,
        names_rule=fields.STORED,  # a glossary entry of a ``unit`` whose name the rule goes by (it has none of its own)
        term=fields.STORED,
        concerns=fields.STORED,
        date=fields.STORED,
    )
