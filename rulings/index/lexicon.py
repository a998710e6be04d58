"""The play lexicon (lexicon.toml) and a game's own ``[vocabulary]``: the words players type, the words rules use.

Synonyms are expansions, not rewrites: search adds the rules words as weighted alternatives beside
what was typed, so an exact match always counts for more than a synonym's.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources

MAX_KEY_WORDS = 3


@dataclass
class Lexicon:
    contractions: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, str] = field(default_factory=dict)
    synonyms: dict[str, list[str]] = field(default_factory=dict)  # as written; keys analysed by Synonyms
    variant: list[str] = field(default_factory=list)  # heading words marking the rules of a variant
    irregular: dict[str, str] = field(default_factory=dict)  # "ran": "run"

    @classmethod
    def load(cls) -> Lexicon:
        data = tomllib.loads(resources.files(__package__).joinpath("lexicon.toml").read_text(encoding="utf-8"))
        synonyms = {k: _as_list(v) for k, v in data["synonyms"].items()}
        return cls(data["contractions"], data["numbers"], synonyms, data["headings"]["variant"], data["irregular"])


def _as_list(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


class Synonyms:
    """Everyday words and phrases -> rules words, matched on a query's analysed words (stems, in order)."""

    def __init__(self, table: dict[str, list[str]], words):
        """``words`` turns text into analysed words, question words included ("not defend" is a key)."""
        self.words = words
        self.table: dict[tuple[str, ...], list[str]] = {}
        for key, values in table.items():
            stems = tuple(words(key))
            if 0 < len(stems) <= MAX_KEY_WORDS:
                self.table.setdefault(stems, []).extend(v for v in values if v not in self.table.get(stems, []))

    def merged(self, other: dict[str, list[str]]) -> Synonyms:
        """This table plus ``other`` (a game's vocabulary, as written in its game.toml)."""
        both = Synonyms({}, self.words)
        both.table = {k: list(v) for k, v in self.table.items()}
        for key, values in Synonyms(other, self.words).table.items():
            both.table.setdefault(key, []).extend(values)
        return both

    def expand(self, stems: list[str]) -> list[tuple[tuple[str, ...], str]]:
        """(the words of the query a key matched, one rules phrase it stands for), longest keys first."""
        out = []
        for size in range(MAX_KEY_WORDS, 0, -1):
            for start in range(len(stems) - size + 1):
                key = tuple(stems[start : start + size])
                for value in self.table.get(key, ()):
                    out.append((key, value))
        return out


LEXICON = Lexicon.load()
