"""Readable display of ALL CAPS sources: sentence case, with names and acronyms kept.

The stored text never changes; pages show this form and keep the original one
click away.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import ACRONYMS, is_all_caps, title_case

_VOWELS = set("aeiouy")


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, str]]:
    """One pattern for all of a game's names, longest first (compiled once per list of names)."""
    wanted = sorted({n for n in names if n and len(n) > 1}, key=len, reverse=True)
    if not wanted:
        return None, {}
    alternatives = "|".join(re.escape(n.lower()) for n in wanted)
    return re.compile(rf"(?<![\w'])({alternatives})(?![\w])"), {n.lower(): n for n in wanted}


def sentence_case(text: str, names: list[str] | tuple[str, ...] = ()) -> str:
    """``THE "FLAME BARRIER" CARD DEALS RA 2 DAMAGE.`` -> ``The "Flame Barrier" card deals Ra 2 damage.``"""
    if not text or not is_all_caps(text):
        return text
    keep = {w for w in re.findall(r"\b[A-Z]{2,}\b", text) if w in ACRONYMS or not (set(w.lower()) & _VOWELS)}
    out = text.lower()
    out = re.sub(r'"([^"\n]{1,60})"', lambda m: f'"{title_case(m.group(1).upper())}"', out)
    pattern, display = _names_pattern(tuple(names))
    if pattern is not None:
        out = pattern.sub(lambda m: display[m.group(1)], out)
    for word in keep:
        out = re.sub(rf"\b{word.lower()}\b", word, out)
    out = re.sub(r"\bi\b", "I", out)
    # Capitalise sentence starts: text start, after . ! ? (and list markers / new paragraphs).
    out = re.sub(
        r"(^|(?<![A-Z])[.!?][\"'\u201d]?\s+|\n\s*(?:[-*]\s+)?|^\s*[-*]\s+)([a-z])",
        lambda m: m.group(1) + m.group(2).upper(),
        out,
    )
    return out
