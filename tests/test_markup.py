"""Markdown as plain text: the shortcut for texts without markup answers as the full rewrite does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulings.markup import _plain, plain_text

# Every character some rewrite of plain_text looks at, and a few it does not.
MARKUP_ALPHABET = " \t\n\u00a0-*_`<>[]()\\.#:/ahtps"


@given(st.text(alphabet=MARKUP_ALPHABET, max_size=30))
def test_the_shortcut_answers_as_the_full_rewrite(text):
    assert plain_text(text) == _plain(text)


def test_every_name_and_text_of_the_bundled_corpus_alike(store):
    texts = [t.name for g in store.games() for t in store.terms(g, ("entry", "keyword", "section", "rule"))]
    texts += [r[0] for r in store.q("SELECT text FROM blocks")] + [r[0] for r in store.q("SELECT title FROM rulings")]
    assert texts
    assert [plain_text(t) for t in texts] == [_plain(t) for t in texts]


def test_names_without_markup_are_only_stripped():
    assert plain_text("  Hit Points ") == "Hit Points"
    assert plain_text("**Swarm**") == "Swarm"
    assert plain_text("Keywords\tand  Icons") == "Keywords and Icons"
    assert plain_text(None) == ""
