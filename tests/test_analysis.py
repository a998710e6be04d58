"""The text analysis search and the index share (rulings/index/schema.py)."""

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh import fields
from whoosh.analysis import LowercaseFilter, RegexTokenizer, StopFilter

from rulings.index.schema import (
    QUESTION_WORDS,
    TOKENS,
    LightStemFilter,
    NormalFilter,
    Recurring,
    Spelling,
    Words,
    analyzer,
    schema,
)

from .conftest import CORPUS

CORPUS_LINES = sorted(line for path in CORPUS.rglob("*.md") for line in path.read_text("utf-8-sig").splitlines())
KEEP = frozenset({"may"})  # a glossary name that is also a question word


def chain_of_filters(stop: frozenset[str]):
    """The analyzer as it was written before IndexFormFilter: one filter per step."""
    lower_normal = RegexTokenizer(TOKENS) | LowercaseFilter() | NormalFilter()
    return lower_normal | StopFilter(stoplist=stop, minsize=1) | LightStemFilter()


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAeiI sS'’tn-/dX2é\n"), max_size=40) | st.sampled_from(CORPUS_LINES))
def test_the_one_pass_analyzer_reads_as_the_chain_of_filters(text):
    """Same words, positions (closed up over dropped question words) and stop marks, for queries and documents."""
    chain, one_pass = chain_of_filters(QUESTION_WORDS - KEEP), analyzer(KEEP)
    for removestops in (True, False):
        expected = [(t.text, t.pos, t.stopped) for t in chain(text, positions=True, removestops=removestops)]
        assert [(t.text, t.pos, t.stopped) for t in one_pass(text, positions=True, removestops=removestops)] == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAeiI sS'’tn-/dX2é\n"), max_size=40) | st.sampled_from(CORPUS_LINES))
def test_a_text_field_indexes_the_terms_counts_and_weights_its_analyzer_gives(text):
    """``Words`` reads a text in one pass: what Whoosh's analysis of the field gives, in its order, for the
    word fields (boosted or not) and the pairs field, a text of one word included."""
    fields_of = schema(KEEP)
    for name in ("title", "context", "body", "pairs"):
        field = fields_of[name]
        assert isinstance(field, Words)
        assert field.index(text) == list(fields.TEXT.index(field, text)), name
        assert field.index(text + " defend") == list(fields.TEXT.index(field, text + " defend")), name


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAeiI sS'’tn-/dX2é\nİK"), max_size=40) | st.sampled_from(CORPUS_LINES))
def test_the_spelling_field_indexes_the_words_whoosh_analysis_gives(text):
    """``Spelling``: each word once, lower-cased, as Whoosh's field of the spelling analyzer posts them (a
    word in two cases once; letters that lower-case into ASCII, as "İ" and the Kelvin sign, no word)."""
    field = schema(KEEP)["spell"]
    assert isinstance(field, Spelling)
    for value in (text, text + " Defend defend"):
        assert sorted(field.index(value)) == sorted(fields.FieldType.index(field, value))


def test_recurring_fields_index_each_value_as_whoosh_does_and_pickle_without_what_they_remember():
    """``Recurring`` fields (a game, a kind, versions, name keys) analyse a value once and give the same terms
    again; word fields remember the forms of their words; the schema written into an index keeps none of it."""
    fields_of = schema(KEEP)
    values = {
        "game": ("marvel-champions", fields.ID),
        "versions": ("1.0,1.1, 2.0", fields.KEYWORD),
        "name_keys": ("Attack,DEFEND", fields.KEYWORD),
        "parent": ("t:12", fields.ID),
    }
    for name, (value, whoosh_field) in values.items():
        field = fields_of[name]
        expected = list(whoosh_field.index(field, value))
        assert field.index(value) == expected and field.index(value) == expected, name
        assert field.index(value + ",x") == list(whoosh_field.index(field, value + ",x")), name
    assert all(isinstance(fields_of[name], Recurring) and fields_of[name].__dict__["_known"] for name in values)
    assert fields_of["body"].index("defend the attack") and fields_of["body"].__dict__["_forms"]  # so do word fields
    written = pickle.loads(pickle.dumps(fields_of))
    assert not any("_known" in written[name].__dict__ for name in values) and written == fields_of
    assert "_forms" not in written["body"].__dict__


def test_question_words_are_dropped_but_kept_names_stay():
    words = [t.text for t in analyzer(KEEP)("What happens if I may NOT defend? The heroes didn't")]
    assert words == ["may", "defend", "hero"]


def test_goes_is_go_as_going_is():
    """Porter2 keeps the "e" of "goes" ("goe"): it would never meet "go", nor the lexicon's "go first"."""
    from rulings.index.lexicon import LEXICON, Synonyms
    from rulings.index.schema import light_stem, word_analyzer

    assert light_stem("goes") == light_stem("go") == light_stem("going") == "go"
    assert light_stem("undergoes") == light_stem("undergo")
    assert [light_stem(w) for w in ("toes", "foes", "heroes", "echoes")] == ["toe", "foe", "hero", "echo"]
    words = lambda text: [t.text for t in word_analyzer()(text)]  # noqa: E731
    assert (("go", "first"), "first player") in Synonyms(LEXICON.synonyms, words).expand(words("who goes first"))
