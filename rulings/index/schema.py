"""The Whoosh schema and the text analysis shared by indexing and querying."""

from __future__ import annotations

from whoosh import fields
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, ShingleFilter, StemFilter, StopFilter
from whoosh.analysis.filters import STOP_WORDS

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
    "happens",
    "is",
    "are",
    "was",
    "were",
    "there",
    "their",
    "them",
    "its",
    "it's",
    "vs",
    "versus",
}
TOKENS = r"[\w+]+(?:['\u2019/\-][\w+]+)*"


class ClitFilter(Filter):
    """``KO'd`` -> ``ko``, ``player's`` -> ``player``: the stem is what people type."""

    def __call__(self, tokens):
        for token in tokens:
            text = token.text.replace("\u2019", "'")
            if "'" in text:
                head, _, tail = text.rpartition("'")
                if tail in ("s", "d", "ll", "re", "ve", "t") and head:
                    text = head
            token.text = text
            yield token


def analyzer(keep: frozenset[str] = frozenset()):
    """Tokenise, lower-case, drop question words (except ``keep``: glossary names), stem.

    ALL CAPS sources index the same as mixed case because of the lower-casing.
    """
    stop = QUESTION_WORDS - keep
    return (
        RegexTokenizer(TOKENS)
        | LowercaseFilter()
        | ClitFilter()
        | StopFilter(stoplist=stop, minsize=1)
        | StemFilter(lang="en", cachesize=50000)
    )


def spelling_analyzer():
    """Unstemmed words, for "did you mean" corrections people can read."""
    return RegexTokenizer(r"[a-zA-Z][a-zA-Z'\-]+") | LowercaseFilter()


def schema(keep: frozenset[str] = frozenset()) -> fields.Schema:
    text = analyzer(keep)
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        game=fields.ID(stored=True),
        kind=fields.ID(stored=True),  # term | subdefinition | section | ruling
        subkind=fields.ID(stored=True),  # entry | keyword | faq | clarification | errata | note
        versions=fields.KEYWORD(stored=True, commas=True),
        latest=fields.BOOLEAN(stored=True),
        title=fields.TEXT(analyzer=text, stored=True, field_boost=4.0),
        names=fields.TEXT(analyzer=text, field_boost=3.0),
        name_keys=fields.KEYWORD(stored=True, commas=True, lowercase=True),
        context=fields.TEXT(analyzer=text, field_boost=1.5),
        body=fields.TEXT(analyzer=text, stored=True, phrase=True),
        spell=fields.TEXT(analyzer=spelling_analyzer(), phrase=False),
        # Adjacent word pairs ("first_damag"): phrase proximity as a cheap term lookup.
        pairs=fields.TEXT(analyzer=text | ShingleFilter(size=2, sep="_"), phrase=False),
        slug=fields.STORED,
        url=fields.STORED,
        aliases=fields.STORED,
        version=fields.STORED,
    )
