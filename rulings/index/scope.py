"""Where an entry sits in its rulebook: inside the rules of a variant, which answer questions about that variant.

Rulebooks keep variant and optional rules (a solo mode, a team game) in sections of their own, headed
with a word such as "Variant" (the play lexicon's ``[headings]``, and a game's own words in its
game.toml ``[search] variants``). Such a section restates base rules for its variant ("each player on
a team may play a land during each of that team's turns"), so it matches a question as well as the
base rule does, yet answers it only when the question is about the variant: one that says the words
of the variant's heading.

An entry's *scope* is written into the index with it: the analysed words of its headings from the
first one that names a variant down, one heading per line, the variant words themselves left out
unless a heading has no other ("Variants"). No scope (nothing stored): the entry is base rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

VARIANT_PRIOR = 0.6  # what an entry of a variant the question does not name keeps of its score
NUMBERING = re.compile(r"^\s*(?:[\dIVXivx]+[.:)]?)+\s+")  # "805. ", "9. ", "IV. ", "2.3 "

Words = Callable[[str], Sequence[str]]


def variant_scope(path: Iterable[str], name: str, markers: frozenset[str], words: Words) -> str | None:
    """The scope of an entry named ``name`` under the headings ``path`` (None, stored as nothing: base rules).

    ``markers`` and ``words`` analyse alike (the index analyzer): "Variants" is "variant".
    """
    headings = [*path, name]
    analysed = [words(NUMBERING.sub("", heading)) for heading in headings]
    first = next((i for i, found in enumerate(analysed) if markers.intersection(found)), None)
    if first is None:
        return None
    below = analysed[first : len(headings) - 1] if first < len(headings) - 1 else analysed[first:]
    lines = []
    for found in below:
        own = [w for w in found if w not in markers]
        lines.append(" ".join(dict.fromkeys(own or found)))
    return "\n".join(line for line in lines if line) or None


def names_variant(scope: str, query: set[str]) -> bool:
    """The question (its analysed words) names a heading of the scope: at least half of that heading's words."""
    for line in scope.splitlines():
        heading = set(line.split())
        if heading and 2 * len(heading & query) >= len(heading):
            return True
    return False
