"""Pieces several document families share: names from headings, see-also lines, sub-definitions, bare titles."""

from __future__ import annotations

import re

from ...text import (
    FUNCTION_WORDS,
    clean_name,
    fold,
    is_all_caps,
    repair_run_together,
    split_names,
    strip_markup,
    title_case,
)
from ..lexer import TERMINAL, RawBlock
from ..model import Block, Entry, SubDefinition

SEE_ALSO = re.compile(r"^see\s+also\s*[:.]?\s*(.+)$", re.I)
SEE = re.compile(r"^see\s*:\s*(.+)$", re.I)
GLOSSARY_TITLES = re.compile(r"glossary|definitions|terms|keywords|rules reference|index of rules|terminology", re.I)
# Titles that say what follows is a glossary whatever its shape ("Rules Reference" sections are as often
# chapters of rules as they are glossaries: those are known by their shape).
GLOSSARY_NAMES = re.compile(r"glossary|definitions|\bterms\b|keywords|terminology|index of terms", re.I)
SUBDEF_BOLD = re.compile(r"^\s*[-•]?\s*\*\*([^*]{1,50}?)\*\*\s*[\u2014\u2013]\s*(.*)$")


def split_targets(text: str) -> list[str]:
    """Targets of a "See also: A, B (C), D." line."""
    text = strip_markup(text).strip().rstrip(".")
    return [t.strip() for t in re.split(r",\s*", text) if t.strip()]


def heading_names(heading: str, vocab: set[str] | None = None, split: bool = True) -> list[str]:
    """Display names of a heading: OCR run-togethers split, ALL CAPS title-cased."""
    heading = clean_name(strip_markup(heading))
    if vocab:
        heading = " ".join(repair_run_together(w, vocab) for w in heading.split())
    names = split_names(heading) if split else [heading]
    out: list[str] = []
    for name in names:
        display = title_case(name)
        if display and display not in out:
            out.append(display)
    return out


def ends_mid_sentence(text: str) -> bool:
    """A line that stops on a function word ("...trigger when a") was cut, it is not a title."""
    if fold(text).count('"') % 2 == 1:
        return True
    if fold(text).rstrip().endswith('"'):
        return False  # a quoted title ("CAN'T" TRUMPS "CAN") may end on any word
    words = re.findall(r"[A-Za-z']+", text)
    return bool(words) and words[-1].lower() in FUNCTION_WORDS


def ends_sentence(text: str) -> bool:
    return bool(TERMINAL.search(text.rstrip()))


def sentence_like(text: str) -> bool:
    """A heading that OCR made out of a body sentence ("## If the villain completes...")."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return True
    lower = sum(c.islower() for c in letters) / len(letters)
    return (lower > 0.5 and len(text.split()) > 6) or (lower > 0.5 and text.rstrip().endswith("."))


def number_steps(blocks: list[Block]) -> None:
    """Fill in step numbers OCR lost inside a numbered list (1, 2, _, 4 -> 3).

    A run of top-level list items whose known numbers all equal position + k
    is a numbered list; the unnumbered items get position + k too.
    """
    run: list[Block] = []

    def flush() -> None:
        numbered = [(i, _step_number(b)) for i, b in enumerate(run)]
        offsets = {n - i for i, n in numbered if n is not None}
        known = sum(n is not None for _, n in numbered)
        if len(offsets) == 1 and len(run) >= 2 and (known >= 2 or offsets == {1}):
            k = offsets.pop()
            for i, block in enumerate(run):
                if _step_number(block) is None:
                    block.kind = "step"
                    block.text = f"{i + k}. {block.text}"
        run.clear()

    for block in blocks:
        if block.kind in ("bullet", "step") and block.depth == 0:
            run.append(block)
        elif block.kind in ("bullet", "step"):
            continue  # nested items do not break the numbering of their parent list
        else:
            flush()
    flush()


def _step_number(block: Block) -> int | None:
    match = re.match(r"^(\d+)\.\s", block.text) if block.kind == "step" else None
    return int(match.group(1)) if match else None


def to_block(raw: RawBlock, emphasis: bool = False) -> Block:
    """A lexed block as a text block; ``emphasis``: its inline **strong** words kept (a text shown as written)."""
    text = raw.marked if emphasis and raw.marked and not raw.bold else raw.text
    if raw.kind == "bullet":
        if raw.number:
            return Block(f"{raw.number}. {text}", raw.line, "step", raw.depth)
        return Block(text, raw.line, "bullet", raw.depth)
    return Block(text, raw.line, "para")


def mend_broken_blocks(blocks: list[Block]) -> list[Block]:
    """Join a block cut mid-sentence (by a page break or figure) with its lower-case continuation.

    Linear in the text: whether a joined block ends a sentence is asked of its last piece (a continuation
    starts with a letter, so the ending is all its own), and the pieces are joined once. Asking it of the
    growing text made a long run of unpunctuated lower-case lines (a word list) quadratic: 114 s for 1.2 MB.
    """
    out: list[Block] = []
    pieces: list[str] = []  # the texts of out[-1], joined once its run of continuations ends
    open_ended = False  # out[-1] stops mid-sentence
    for block in blocks:
        if open_ended and block.text[:1].islower():
            pieces.append(block.text)
        else:
            if len(pieces) > 1:
                out[-1].text = " ".join(pieces)
            out.append(block)
            pieces = [block.text]
        open_ended = not ends_sentence(block.text)
    if len(pieces) > 1:
        out[-1].text = " ".join(pieces)
    return out


def extract_subdefinitions(entry: Entry, raws: list[RawBlock]) -> None:
    """Named sub-definitions inside an entry: ``**Guard** \u2014 While ...``.

    Paragraphs after a sub-definition belong to it until the next one starts.
    """
    current: SubDefinition | None = None
    for raw in raws:
        match = SUBDEF_BOLD.match(raw.raw)
        if match:
            name = clean_name(match.group(1))
            current = SubDefinition(name, strip_markup(match.group(2)), raw.line)
            if raw.text != strip_markup(raw.raw.lstrip(" -•")):
                # the block continued on following lines: keep the joined text
                current.text = strip_markup(raw.text.split("\u2014", 1)[-1].split("\u2013", 1)[-1]).strip()
            entry.subdefs.append(current)
        elif current is not None and raw.kind in ("para", "bullet") and not SEE_ALSO.match(raw.text):
            current.text = f"{current.text}\n\n{raw.text}"


def plain_heading(text: str, before: str, after: str) -> bool:
    """A bare line that reads as a title: isolated, short, no sentence punctuation."""
    text = text.strip()
    if before.strip() or after.strip() or not text or len(text) > 70 or len(text.split()) > 10:
        return False
    if re.search(r"[.,;]$", text) and not text.endswith("...") or text.startswith(("-", "*", "\u2022", "|", ">")):
        return False
    if ends_mid_sentence(text) or re.match(r"^\d+\s*$", text):
        return False
    if text.endswith(":"):
        return bool(re.match(r"^[IVX]+\s*[:.]", text))  # "II: Playing a card :"
    words = [w for w in re.findall(r"[A-Za-z][\w'\-]*", text)]
    if not words:
        return False
    capitalised = sum(
        1
        for w in words
        if w[0].isupper() or w.lower() in {"a", "an", "the", "of", "and", "or", "to", "in", "on", "for", "with"}
    )
    return is_all_caps(text) or capitalised == len(words)
