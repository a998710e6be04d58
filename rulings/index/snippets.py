"""A hit's snippet: the sentence that answers and what follows it, as the pages show the text.

Pages show a text without its emphasis markup and an ALL CAPS source in sentence case with the
game's card names kept (``casing.sentence_case``). Making a text readable (one pattern of every
card name of the game, run over it) costs far more than choosing its sentence, and the same texts
are shown again and again: each text's readable opening and where its sentences start are worked
out once and kept (``Readable``, the most recently used ``READABLE_KEPT``); a search then only
finds its words in them.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable

from ..casing import sentence_case
from ..text import is_all_caps
from .query import Plan
from .schema import QUESTION_WORDS

OPEN, CLOSE = "\u27e6", "\u27e7"  # highlight markers, replaced by the caller (HTML <mark> or **)
WIDTH = 220  # characters of a snippet
SCANNED = 1500  # characters of a text looked at for the sentence that answers (the rest: the opening)
CAPS_SAMPLE = 400  # characters of a text that tell whether it is written in ALL CAPS
READABLE_KEPT = 2048  # texts' readable openings remembered (about 7 MB)
ELLIPSIS = "\u2026"
# A sentence: up to a full stop, question or exclamation mark not followed by a letter or digit ("702.19b" is
# no end), or a line's end.
SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+(?=[\w\"\u201d)])[^.!?\n]*)*(?:[.!?]+|\n|$)")
EMPHASIS = re.compile(r"(?<![\w*_])(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1(?![\w*_])", re.S)
STRAY_MARKUP = re.compile(r"(?<![\w*_])[*_]+(?=\w)|(?<=\w)[*_]+(?![\w*_])")  # emphasis cut by a text's ends


def readable(text: str, names: tuple[str, ...] = (), caps: bool | None = None) -> str:
    """A text as pages show it: emphasis markup dropped, an ALL CAPS text (``caps``: its whole, when this is a
    piece of it) in sentence case, its names kept."""
    if "*" in text or "_" in text:
        text = STRAY_MARKUP.sub("", EMPHASIS.sub(r"\2", text))
    return sentence_case(text, names) if (is_all_caps(text) if caps is None else caps) else text


def sentence_starts(text: str) -> tuple[int, ...]:
    """Where each sentence of ``text`` starts, its leading space skipped."""
    starts = []
    for sentence in SENTENCE.finditer(text):
        found = sentence.group(0)
        if found:
            starts.append(sentence.start() + len(found) - len(found.lstrip()))
    return tuple(starts)


def answering_sentence(text: str, starts: tuple[int, ...], pattern: re.Pattern) -> int:
    """Where the sentence (of those starting at ``starts``) with the most distinct query words starts, the first
    of equals; 0 if none has one."""
    words: dict[int, set[str]] = {}  # sentence start -> the query words it holds
    for match in pattern.finditer(text, 0, SCANNED):
        at = starts[max(bisect_right(starts, match.start()) - 1, 0)] if starts else 0
        words.setdefault(at, set()).add(match.group(0).lower())
    return max(words, key=lambda at: (len(words[at]), -at)) if words else 0


class Readable:
    """Texts' readable openings and their sentences, each worked out once (``names_of(game)``: the names an ALL
    CAPS text of the game keeps capitalised)."""

    def __init__(self, names_of: Callable[[str], tuple[str, ...]], kept: int = READABLE_KEPT):
        self.names_of = names_of
        self.opening = functools.lru_cache(maxsize=kept)(self._opening)

    def snippet(self, text: str, game: str, pattern: re.Pattern | None) -> str:
        """The sentence of ``text`` that holds the most query words, and what follows it, as pages show it
        (``readable``), query words marked."""
        shown, starts, more = self.opening(text[: SCANNED + WIDTH + 1], game)
        start = answering_sentence(shown, starts, pattern) if pattern else 0
        piece = shown[start : start + WIDTH]
        cut = more or start + WIDTH < len(shown)
        if cut:
            piece = piece.rsplit(" ", 1)[0]
        piece = (ELLIPSIS if start else "") + piece + (ELLIPSIS if cut else "")
        return pattern.sub(lambda m: f"{OPEN}{m.group(0)}{CLOSE}", piece) if pattern else piece

    def _opening(self, opening: str, game: str) -> tuple[str, tuple[int, ...], bool]:
        """The text's opening as shown, where its sentences start, and whether the text goes on past it."""
        more = len(opening) > SCANNED + WIDTH
        shown = readable(opening[: SCANNED + WIDTH], self.names_of(game), caps=is_all_caps(opening[:CAPS_SAMPLE]))
        return shown, sentence_starts(shown), more


def marks(marked: str) -> list[list[int]]:
    """[start, end] of each highlighted stretch in the snippet as shown (markers removed)."""
    out, shift = [], 0
    for match in re.finditer(f"{OPEN}(.*?){CLOSE}", marked, re.S):
        start = match.start() - shift
        out.append([start, start + len(match.group(1))])
        shift += 2
    return out


def highlighter(text: str, plan: Plan) -> re.Pattern | None:
    """Query words, their stems and the alternatives searched (as prefixes) to mark in snippets."""
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9]{2,}", text)}
    stems = {form for word in plan.words for form in word.forms}
    parts = sorted(
        {re.escape(w) for w in words if w not in QUESTION_WORDS and len(w) > 1}
        | {re.escape(s) for s in stems if len(s) > 2 and s not in QUESTION_WORDS},
        key=len,
        reverse=True,
    )
    return re.compile(r"\b(?:" + "|".join(parts) + r")\w*", re.I) if parts else None
