"""The Whoosh schema and the text analysis shared by indexing and querying."""

from __future__ import annotations

from whoosh import fields
from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.analysis.filters import STOP_WORDS

# Words natural questions are full of but that never decide an answer.
QUESTION_WORDS = frozenset(STOP_WORDS) | {"i", "me", "my", "does", "do", "did", "what", "how", "when", "why",
                                          "which", "who", "whom", "happens", "is", "are", "was", "were",
                                          "there", "their", "them", "its", "it's", "vs", "versus"}
TOKENS = r"[\w+][\w'+/\-]*\w|\w"


def analyzer(keep: frozenset[str] = frozenset()):
    """Tokenise, lower-case, drop question words (except ``keep``: glossary names), stem.

    ALL CAPS sources index the same as mixed case because of the lower-casing.
    """
    stop = QUESTION_WORDS - keep
    return (RegexTokenizer(TOKENS) | LowercaseFilter() | StopFilter(stoplist=stop, minsize=1)
            | StemFilter(lang="en", cachesize=50000))


def schema(keep: frozenset[str] = frozenset()) -> fields.Schema:
    text = analyzer(keep)
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        game=fields.ID(stored=True),
        kind=fields.ID(stored=True),           # term | subdefinition | section | ruling
        subkind=fields.ID(stored=True),        # entry | keyword | faq | clarification | errata | note
        versions=fields.KEYWORD(stored=True, commas=True),
        latest=fields.BOOLEAN(stored=True),
        title=fields.TEXT(analyzer=text, stored=True, field_boost=4.0),
        names=fields.TEXT(analyzer=text, field_boost=3.0),
        name_keys=fields.KEYWORD(stored=True, commas=True, lowercase=True),
        context=fields.TEXT(analyzer=text, field_boost=1.5),
        body=fields.TEXT(analyzer=text, stored=True, phrase=True),
        slug=fields.STORED,
        url=fields.STORED,
        aliases=fields.STORED,
        version=fields.STORED,
    )
