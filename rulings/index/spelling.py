"""The index's words as people spell them, in memory, for "did you mean".

Whoosh finds the words within an edit distance by walking a Levenshtein automaton over the term
dictionary, one seek in the on-disk table per step of the walk; over a sorted list in memory each
step is a bisection, and a look-up costs about half as much (the automaton's construction is the
rest). The list is read once per build, on the first correction.
"""

from __future__ import annotations

from bisect import bisect_left

from whoosh.automata import fsa, lev


class SpellingWords:
    def __init__(self, reader, fieldname: str = "spell"):
        words = (w.decode() if isinstance(w, bytes) else w for w in reader.lexicon(fieldname))
        self.words = sorted(words)

    def _at_or_after(self, text: str) -> str | None:
        i = bisect_left(self.words, text)
        return self.words[i] if i < len(self.words) else None

    def within(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words at most ``maxdist`` insertions, deletions or substitutions away, sharing ``prefix`` first letters."""
        dfa = lev.levenshtein_automaton(word, maxdist, prefix).to_dfa()
        return list(fsa.find_all_matches(dfa, self._at_or_after))
