"""Finding glossary terms mentioned in running text (for cross-links and "referenced by").

One matcher per game: every name and alias (and simple plurals), longest first,
whole words, case-insensitive, so ALL CAPS sources link the same as mixed case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ingest.parsers.common import FUNCTION_WORDS
from ..ingest.text import QUOTES, fold

# Single words too common in rules prose to link every time they appear.
COMMON = FUNCTION_WORDS | {"you", "then", "after", "cannot", "gets", "gains", "choose", "both", "once",
                           "before", "while", "during", "only", "other", "must"}


@dataclass(frozen=True)
class Target:
    slug: str
    anchor: str | None
    name: str


def _variants(name: str) -> list[str]:
    name = re.sub(r"\s+", " ", fold(name)).strip()
    out = [name]
    if re.search(r"[a-z]$", name, re.I) and len(name) > 3:
        if name.endswith("y") and not name.endswith(("ay", "ey", "oy", "uy")):
            out.append(name[:-1] + "ies")
        elif not name.endswith("s"):
            out.append(name + ("es" if name.endswith(("ch", "sh", "x")) else "s"))
        elif not name.endswith(("ss", "us", "is")) and len(name) > 4:
            out.append(name[:-1])  # "Keywords" is mentioned as "keyword"
    return out


class Linker:
    """Longest-first, whole-word matcher from names to targets."""

    def __init__(self, names: list[tuple[str, Target]]):
        self.targets: dict[str, Target] = {}
        for name, target in names:
            if not name or name.lower() in COMMON or len(name) < 2:
                continue
            if not re.search(r"[A-Za-z]", name):
                continue
            for variant in _variants(name):
                self.targets.setdefault(variant.lower(), target)
        ordered = sorted(self.targets, key=len, reverse=True)
        pattern = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in ordered)
        self.regex = re.compile(rf"(?<![\w/-])(?:{pattern})(?![\w/-])", re.I) if ordered else None

    def find(self, text: str) -> list[tuple[int, int, Target]]:
        """Non-overlapping mentions in ``text``, as positions in ``text`` itself."""
        if self.regex is None or not text:
            return []
        out = []
        for match in self.regex.finditer(text.translate(QUOTES)):  # same length as text
            key = re.sub(r"\s+", " ", match.group(0)).lower()
            target = self.targets.get(key)
            if target is not None:
                out.append((match.start(), match.end(), target))
        return out

    def targets_in(self, text: str) -> set[Target]:
        return {t for _, _, t in self.find(text)}
