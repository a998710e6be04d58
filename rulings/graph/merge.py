"""How a changelog entry changes a term's text: the one rule, applied everywhere.

The changelog lists passages "added or changed" without saying whether they
replace the entry or amend it. The rule:

* **Replace** when the entry restates the term: it is nearly as long as the old
  text (at least 80% of its words) *and* either its first paragraph revises the
  old first paragraph (or opens with a definition of the term, "An ability is
  ..."), or it opens as an entry does (a plain paragraph, not a bullet or a
  sub-definition), revises more than half of the old paragraphs and leaves no old
  opening statement standing (the old first paragraph is revised, or only leads
  in to a list: "There are a few different ways this can occur:"). A restatement
  is the new entry: its text is printed, in its order.
* Otherwise **amend**, paragraph by paragraph: each new paragraph takes the place
  of the old paragraph it revises (same opening words, or >= 50% word overlap
  either way); an old paragraph whose words all reappear inside a new one is
  folded into it; new paragraphs that revise nothing are inserted where they
  stand relative to the revised ones (at the end if none were revised). No
  document prints the result: an amended text is never ``complete``.
* Sub-definitions ("Overkill \u2014 ...", ``units.py``) go unit by unit: a new unit
  takes the place of the old unit of its name, opener and continuation together.

Patch lines (``deltas.py``) use the quote helpers at the end: a patch is applied exactly when it
determines the new text (``undetermined``).
"""

from __future__ import annotations

import re
from copy import copy
from typing import NamedTuple

from ..ingest.model import Block
from ..text import QUOTES, containment, fold, name_key, similarity, words
from .units import units

MATCH = 0.5
ABSORB = 0.8
RESTATEMENT = 0.8


def _core(text: str) -> str:
    return re.sub(r"^\d+\.\s*", "", text)


def revises(old: str, new: str) -> float:
    """How strongly paragraph ``new`` reads as a revision of ``old`` (0..1)."""
    a, b = _core(old), _core(new)
    wa, wb = words(a), words(b)
    if len(wa) >= 5 and wa[:5] == wb[:5]:
        return 1.0
    return max(similarity(a, b), containment(a, b) if len(wa) >= 6 else 0.0, containment(b, a) if len(wb) >= 6 else 0.0)


def defines(block: Block, names: list[str]) -> bool:
    """Does the paragraph open by defining the term ("An ability is ...", "Ally is a ...")?"""
    head = " ".join(words(_core(block.text))[:8])
    for name in names:
        key = name_key(name)
        if not key:
            continue
        pattern = rf"^(?:\w+ ){{0,3}}{re.escape(key)}s? (?:is|are|refers|represents|denotes)\b"
        if re.match(pattern, " ".join(name_key(w) for w in head.split())):
            return True
    return False


def is_restatement(old: list[Block], new: list[Block], names: list[str]) -> bool:
    """Does the changelog entry ``new`` restate the term (module docstring: the one rule)?"""
    if not old or not new:
        return False
    old_words = sum(len(words(b.text)) for b in old)
    new_words = sum(len(words(b.text)) for b in new)
    if new_words < RESTATEMENT * old_words:
        return False
    if revises(old[0].text, new[0].text) >= MATCH or defines(new[0], names):
        return True
    opening_kept = not _revised(old[0], new) and not leads_in(old[0])
    return opens_plainly(new[0]) and not opening_kept and 2 * sum(_revised(block, new) for block in old) > len(old)


def leads_in(block: Block) -> bool:
    """Does a paragraph only lead in to what follows ("There are a few different ways this can occur:")?"""
    return block.text.rstrip().endswith(":")


def opens_plainly(block: Block) -> bool:
    """Does an entry open as an entry does: a plain paragraph, not a bullet, a step or a sub-definition?"""
    return block.kind == "para" and not block.opens


def _revised(old: Block, new: list[Block]) -> bool:
    return any(revises(old.text, block.text) >= MATCH for block in new)


def amend(old: list[Block], new: list[Block]) -> list[Block]:
    """Old blocks with the new ones merged in (see module docstring).

    Sub-definitions go unit by unit (``units.py``): a new block that opens a sub-definition replaces
    the old unit of that name (its opener and continuation paragraphs) with its own unit, so an
    entry never ends up with two Overkill definitions; a sub-definition the old text lacks is
    inserted among the others in the changelog's order. The other new paragraphs amend the old
    text paragraph by paragraph (never taking the place of a sub-definition's opener).
    """
    found = units(new)
    loose = new[: found[0].start] if found else list(new)
    merged, after_loose = _amend_paragraphs(old, loose)
    return _merge_units(merged, [new[u.start : u.end] for u in found], after_loose)


def _amend_paragraphs(old: list[Block], new: list[Block]) -> tuple[list[Block], int | None]:
    """Each new paragraph in place of the old one it revises; the rest next to them or at the end.

    Returns the merged blocks and the position right after the last new paragraph in them.
    """
    used: set[int] = set()
    matched: dict[int, int] = {}  # new index -> old index
    for j, block in enumerate(new):
        scores = [(revises(o.text, block.text), i) for i, o in enumerate(old) if i not in used and not o.opens]
        if scores:
            score, i = max(scores)
            if score >= MATCH:
                matched[j] = i
                used.add(i)
    absorbed = {
        i
        for i, o in enumerate(old)
        if i not in used and not o.opens and any(containment(_core(o.text), _core(b.text)) >= ABSORB for b in new)
    }
    leading: dict[int, list[Block]] = {}
    pending: list[Block] = []
    for j, block in enumerate(new):
        if j in matched:
            leading[matched[j]] = pending
            pending = []
        else:
            pending.append(block)
    by_old = {i: new[j] for j, i in matched.items()}
    # New paragraphs after the last revised one follow it; with none revised, they go at the end.
    last = matched[max(matched)] if matched else None
    out: list[Block] = []
    end = None
    for i, block in enumerate(old):
        if i in by_old:
            out.extend(leading[i])
            out.append(_in_place_of(block, by_old[i]))
            if i == last:
                out.extend(pending)
            end = len(out)
        elif i not in absorbed:
            out.append(block)
    if last is None:
        out.extend(pending)
        end = len(out) if pending else None
    return out, end


def _merge_units(blocks: list[Block], new_units: list[list[Block]], after_loose: int | None) -> list[Block]:
    """Each new sub-definition unit in place of the old unit of its name, or inserted in order.

    A unit the old text lacks goes after the new unit before it, else before the next new unit the
    old text has, else right after the new paragraphs that precede it in the changelog, else after
    the last old unit (or at the end).
    """
    out = list(blocks)
    after: int | None = None  # where the previous new unit ended in ``out``
    for k, unit in enumerate(new_units):
        key = name_key(unit[0].opens or "")
        existing = {u.key: u for u in units(out)}
        if key in existing:
            old = existing[key]
            out[old.start : old.end] = unit
            after = old.start + len(unit)
            continue
        if after is None:
            keys = [name_key(u[0].opens or "") for u in new_units[k + 1 :]]
            later = [existing[key] for key in keys if key in existing]
            present = units(out)
            if later:
                after = later[0].start
            elif after_loose is not None:
                after = after_loose
            else:
                after = present[-1].end if present else len(out)
        out[after:after] = unit
        after += len(unit)
    return out


def _in_place_of(old: Block, new: Block) -> Block:
    """A revised paragraph keeps its place in a numbered list."""
    block = copy(new)
    number = re.match(r"^(\d+)\.\s", old.text)
    if old.kind == "step" and number and not re.match(r"^\d+\.\s", block.text):
        block.text = f"{number.group(1)}. {block.text}"
        block.kind = "step"
    elif new.kind == "para" and old.kind == "bullet":
        block.kind, block.depth = "bullet", old.depth
    return block


# -- patch lines ------------------------------------------------------------
def _norm(text: str) -> str:
    """Same-length normalisation, so positions found in it are positions in the original."""
    return "".join(c if len(low := c.lower()) != 1 else low for c in text.translate(QUOTES))


class Quote(NamedTuple):
    """A patch line's quote: its words, and whether an ellipsis cuts it at the start or the end."""

    text: str
    cut_start: bool
    cut_end: bool

    @property
    def words(self) -> list[str]:
        return words(self.text)


def quote(text: str) -> Quote:
    """A quote as a patch line prints it ("…any amount of damage is that dealt to…"), its ellipses noted."""
    text = fold(text).strip().strip('"').strip()
    cut_start, cut_end = text.startswith("..."), text.endswith("...")
    core = text.strip(". ").strip() if cut_start or cut_end else text.rstrip()
    return Quote(core, cut_start, cut_end)


def _occurrences(blocks: list[Block], needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` (already ``_norm``-ed) stands in the blocks as whole words: (block, offset)."""
    found = []
    for i, block in enumerate(blocks):
        text = _norm(block.text)
        at = text.find(needle)
        while at >= 0:
            end = at + len(needle)
            if not (at and text[at - 1].isalnum()) and not (end < len(text) and text[end].isalnum()):
                found.append((i, at))
            at = text.find(needle, at + 1)
    return found


def undetermined(blocks: list[Block], old: str, new: str) -> str | None:
    """Why a patch ``"old" -> "new"`` does not determine the new text; None when it does.

    It does when the old quote's words are found exactly once in the known text and the two quotes end
    on the same words: a quote cut with an ellipsis ("…is that dealt to…") leaves out what follows its
    last word, and only when both end on the same word is what they leave out the same before and after
    (likewise their first word, for quotes cut at the start). A quote not cut ends where the change ends.
    Whatever the patch leaves unquoted then reads as it did, so applying it is not splicing.
    Otherwise: ``"missing"``, ``"repeated"`` (found more than once), ``"ends"`` or ``"starts"``.
    """
    before, after = quote(old), quote(new)
    needle = _norm(before.text).rstrip(".")
    count = len(_occurrences(blocks, needle)) if before.words else 0
    if count != 1:
        return "missing" if count == 0 else "repeated"
    if not after.words:
        return "ends"
    if (before.cut_end or after.cut_end) and before.words[-1] != after.words[-1]:
        return "ends"
    if (before.cut_start or after.cut_start) and before.words[0] != after.words[0]:
        return "starts"
    return None


def replace_quote(blocks: list[Block], old: str, new: str) -> bool:
    """Apply the patch ``"old" -> "new"`` where it determines the new text (``undetermined``); else change nothing.

    Splicing the words of a quote that does not determine its sentence into the old sentence would show
    words no document printed (``deltas.py`` keeps the last known text instead).
    """
    if undetermined(blocks, old, new) is not None:
        return False
    needle = _norm(quote(old).text).rstrip(".")
    (i, at), *_ = _occurrences(blocks, needle)
    block = blocks[i]
    # The needle stops before a final period, which stays in the text: the new words bring none.
    block.text = block.text[:at] + quote(new).text.rstrip(".") + block.text[at + len(needle) :]
    return True


def find_sentence(blocks: list[Block], sentence: str, threshold: float = 0.75) -> tuple[int, str] | None:
    """The block and sentence most like ``sentence`` (for "X added to '...'" patches)."""
    best = None
    for i, block in enumerate(blocks):
        for candidate in re.split(r"(?<=[.!?])\s+", block.text):
            score = similarity(candidate, sentence)
            if score >= threshold and (best is None or score > best[0]):
                best = (score, i, candidate)
    return (best[1], best[2]) if best else None
