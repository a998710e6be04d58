"""Spelling: a word no text has corrected to the closest one the index knows (``correct``), and the last
word of a query still being typed completed from the index's words (``complete_last_word``)."""

from __future__ import annotations

import functools

from .opened import OpenedIndex, holding_searchers
from .spelling import SpellingWords

MAX_CORRECTED = 4  # unknown words per query given a fuzzy look-up
TWO_EDITS_FROM = 6  # letters from which a typo may be two edits from the word meant ("menence": "menace")
CORRECTIONS_KEPT = 4096  # unknown words whose closest known word is remembered
COMPLETION_SCAN = 200  # words looked at to complete the last one being typed


def edits(a: str, b: str) -> int:
    """Edits between two words, a swap of neighbouring letters counting as one (optimal string alignment)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        previous2, previous = previous, row
    return previous[-1]


class Corrector:
    """Corrects and completes words from one build's index (its spellings and word frequencies)."""

    def __init__(self, index: OpenedIndex):
        self.index = index
        self._spelling: SpellingWords | None = None
        # an unknown word's closest known word (``correct``), kept with this build's index, not beyond it
        self.closest_word = functools.lru_cache(maxsize=CORRECTIONS_KEPT)(self._closest_word)

    @holding_searchers
    def correct(self, words: list[str]) -> tuple[list[str], bool]:
        """Replace words the index has never seen by a close word it has.

        Close means one edit (a swap of two letters counts as one) for words of five letters, two
        from six letters on (the closest word the index knows, the most frequent of equals);
        shorter words are never corrected (too many real words are one edit apart: "plugh" is
        not "plus"). At most ``MAX_CORRECTED`` distinct words are
        looked up: a query of random words must not cost a fuzzy scan of the vocabulary per word.
        """
        reader = self.index.current_searcher.reader()
        unknown = [
            w
            for w in dict.fromkeys(word.lower() for word in words)
            if len(w) >= 5
            and w.isalpha()
            and self.index.df(reader, "spell", w) == 0
            and not self.inflection_known(reader, w)
        ]
        fixes = {lower: fix for lower in unknown[:MAX_CORRECTED] if (fix := self.closest_word(lower))}
        return [fixes.get(word.lower(), word) for word in words], bool(fixes)

    def _closest_word(self, lower: str) -> str | None:
        """The known word closest to ``lower`` within its allowed edits (``correct``), if any. Kept: walking
        the Levenshtein automaton is most of what a query with a typo costs, and the same typos come back."""
        reader = self.index.current_searcher.reader()
        allowed = 2 if len(lower) >= TWO_EDITS_FROM else 1
        candidates = [
            (edits(lower, c), -self.index.df(reader, "spell", c), c) for c in self.spelling().within(lower, 2, prefix=1)
        ]
        close = [c for c in candidates if c[0] <= allowed]
        return min(close)[2] if close else None

    def inflection_known(self, reader, word: str) -> bool:
        """The index has the word as another inflection ("tries": "try", "tried"): a word, not a typo."""
        return any(self.index.df(reader, f, stem) for stem in self.index.tokens(word) for f in ("title", "body"))

    def spelling(self) -> SpellingWords:
        """The index's spellings in memory (read on the first correction; builds never change)."""
        if self._spelling is None:
            self._spelling = SpellingWords(self.index.current_searcher.reader())
        return self._spelling

    @holding_searchers
    def complete_last_word(self, text: str) -> str:
        """Search as you type: earlier words spelled right, the last one completed from the index's words."""
        words = text.split()
        if not words:
            return text
        *done, last = words
        if done:
            done, _ = self.correct(done)
        reader = self.index.current_searcher.reader()
        typed = last.lower()
        if typed.isalpha() and len(typed) >= 2 and self.index.df(reader, "spell", typed) == 0:
            found = []
            for n, term in enumerate(reader.expand_prefix("spell", typed)):
                if n >= COMPLETION_SCAN:
                    break
                word = term.decode() if isinstance(term, bytes) else term
                found.append((self.index.df(reader, "spell", word), word))
            if found:
                last = max(found)[1]
        return " ".join([*done, last])
