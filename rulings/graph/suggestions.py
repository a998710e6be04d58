"""What a maintainer may want to declare in game.toml: possible renames and misspellings.

Renames are never guessed silently into merges (two terms stay two until ``[[renames]]`` says
otherwise); the build reports the pairs that look like one, and curated spellings are given to
their terms so every name a document printed finds its term.
"""

from __future__ import annotations

from ..text import name_key, similarity, words
from .identity import Term
from .state import VERSIONED, State

LIKE_RENAME = 0.6  # texts this similar, with names sharing a word: perhaps the same term renamed
CONTINUES = 0.3  # a new name containing an old one, with texts this similar
CONTINUATION_WORDS = ("additionally", "also", "however")


def _text(term: Term, index: int) -> str:
    return " ".join(b.text for b in term.revisions[index].blocks)


def suggest_renames(state: State, first: str) -> None:
    """New glossary names in later versions whose text reads like an older term's: possible renames."""
    versioned = [t for t in state.terms if t.revisions and t.lineage == VERSIONED and t.number is None]
    older = [t for t in versioned if t.revisions[0].version == first]
    declared = {name_key(r.new) for r in state.manifest.renames}
    for term in versioned:
        if term.revisions[0].version == first or term.kind == "section" or name_key(term.names[0]) in declared:
            continue
        text = _text(term, 0)
        mine = set(words(term.names[0]))
        best = None
        for other in older:
            if other is term or not other.revisions[-1].blocks or not mine & set(words(other.names[0])):
                continue
            score = similarity(text, _text(other, 0))
            if score >= LIKE_RENAME and (best is None or score > best[0]):
                best = (score, other)
        opener = " ".join(words(text)[:1])
        for other in older:
            if best or other is term or not set(words(other.names[0])) <= mine:
                continue
            score = similarity(text, _text(other, 0))
            if score >= CONTINUES or opener in CONTINUATION_WORDS:
                best = (score, other)
        if best:
            state.suggestions.append(
                f"{term.revisions[0].version}: \u201c{term.names[0]}\u201d is new but may continue "
                f"\u201c{best[1].names[0]}\u201d (names overlap, texts {best[0]:.0%} similar); if it is a "
                "rename, declare it in game.toml [[renames]]"
            )
            continue
        near = state.index.near(term, VERSIONED)
        if near is not None:
            state.suggestions.append(
                f"\u201c{term.names[0]}\u201d looks like a misspelling of \u201c{near.names[0]}\u201d; map it in "
                "game.toml [spellings]"
            )


def adopt_spellings(state: State) -> None:
    """Curated misspellings (``[spellings]``) find their term even where no document printed them."""
    for wrong, right in state.manifest.spellings.items():
        term = state.index.get(right)
        if term is not None and wrong not in term.spellings:
            term.spellings.append(wrong)
            state.index.add(term, wrong, "spelling")
