"""Readable display of ALL CAPS sources: sentence case, with names and acronyms kept.

The stored text never changes; pages show this form and keep the original one
click away.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import ACRONYMS, is_all_caps, title_case

_VOWELS = set("aeiouy")
DOTTED = re.compile(r"(?<![\w.])(?:[a-z]\.){3,}(?![\w])", re.I)  # K.N.Y.F.E., F.I.L.T.E.R. (i.e. and e.g. are words)
# A short span printed as a name or as emphasis: "FLAME BARRIER", **NON-HERO** (longer quotes are sentences).
QUOTED = re.compile(r'"([^"\n]*)"|\*\*([^*\n]+)\*\*')
SHORT_SPAN = 60
QUOTED_SENTENCE = re.compile(r"[.!?,;:]\s*$")  # "NO WAY." is said, not named
# Where a sentence starts: the text or a line (after a list marker: "- ", "A) ", "2. "), after . ! ? (and a
# closing quote). A quotation inside a sentence keeps its first word as it is (says, "the first time...":
# the golden URLs hold pages' text as first shown).
SENTENCE_START = re.compile(
    r"(^|\n)([ \t]*(?:[-*][ \t]+)?(?:[a-z0-9]{1,2}[.)][ \t]+)?[\"(]?)([a-z])|([.!?][\"'\u201d)]?[ \t]+[\"(]?)([a-z])"
)
NO_SENTENCE_END = re.compile(r"(?:\b[a-z]\.[a-z]|\b(?:mr|mrs|ms|dr|st|vs|etc))\.$", re.I)  # i.e. / Dr. / K.N.Y.F.E.


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, str]]:
    """One pattern for all of a game's names, longest first (compiled once per list of names).

    A dotted acronym is also found as written without its dots, in capitals (K.N.Y.F.E.: KNYFE).
    """
    display = {n.lower(): n for n in names if n and len(n) > 1}
    for name in list(display.values()):
        if DOTTED.fullmatch(name):
            bare = name.replace(".", "").upper()
            display.setdefault(bare.lower(), bare)
    if not display:
        return None, {}
    alternatives = "|".join(re.escape(n) for n in sorted(display, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])({alternatives})(?![\w])"), display


def _title_span(match: re.Match) -> str:
    """A short quoted or bold span in title case (a card's name, a stressed word); a sentence as it is."""
    inner = match.group(1) if match.group(1) is not None else match.group(2)
    if len(inner.strip()) > SHORT_SPAN or not inner.strip() or QUOTED_SENTENCE.search(inner):
        return match.group(0)
    spaced = re.match(r"(\s*)(.*?)(\s*)$", inner, re.S)
    assert spaced is not None  # every part may be empty: any text matches
    lead, core, trail = spaced.groups()
    mark = '"' if match.group(1) is not None else "**"
    return f"{mark}{lead}{title_case(core.upper())}{trail}{mark}"


def _capitalise(match: re.Match) -> str:
    lead, letter = next((match.group(i), match.group(i + 1)) for i in (2, 4) if match.group(i + 1))
    before = match.string[: match.start()]
    if match.group(4) is not None and NO_SENTENCE_END.search(before + lead.split()[0]):
        return lead + letter
    if match.group(2) is not None:  # a line's start: its list marker as printed ("A) ", "2. ")
        return match.group(1) + lead.upper() + letter.upper()
    return lead + letter.upper()


def sentence_case(text: str, names: list[str] | tuple[str, ...] = ()) -> str:
    """``THE "FLAME BARRIER" CARD DEALS RA 2 DAMAGE.`` -> ``The "Flame Barrier" card deals Ra 2 damage.``

    Kept as printed: acronyms (known ones, words without vowels, dotted ones: K.N.Y.F.E.) and the
    game's names; short quoted or bold spans read as names (title case), emphasis kept.
    """
    if not text or not is_all_caps(text):
        return text
    keep = {w for w in re.findall(r"\b[A-Z]{2,}\b", text) if w in ACRONYMS or not (set(w.lower()) & _VOWELS)}
    dotted = {m.group(0) for m in DOTTED.finditer(text)}
    out = QUOTED.sub(_title_span, text.lower())
    pattern, display = _names_pattern(tuple(names))
    if pattern is not None:
        out = pattern.sub(lambda m: display[m.group(1)], out)
    for word in keep:
        out = re.sub(rf"\b{word.lower()}\b", word, out)
    for word in dotted:
        out = re.sub(rf"(?<![\w.]){re.escape(word.lower())}", word, out)
    out = re.sub(r"\bi\b(?!\.)", "I", out)
    return SENTENCE_START.sub(_capitalise, out)
