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

Patch lines (``deltas.py``) use the quote helpers at the end.
"""

from __future__ import annotations

import re
from copy import copy

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


def quote_core(quote: str) -> tuple[str, bool]:
    """Strip the ellipses that mark a partial quote; report whether it was partial."""
    text = fold(quote).strip().strip('"').strip()
    partial = text.endswith("...") or text.startswith("...")
    return text.strip(". ").strip() if partial else text.rstrip(), partial


def replace_quote(blocks: list[Block], old: str, new: str) -> bool:
    """Replace the first occurrence of the exact quote ``old`` by ``new`` in the blocks' text.

    Only for whole quotes: a quote cut with an ellipsis leaves the rest of its sentence unknown, and
    splicing its words into the old sentence would show words no document printed (``deltas.py``
    keeps the last known text instead).
    """
    old_core, _ = quote_core(old)
    new_core, _ = quote_core(new)
    needle = _norm(old_core).rstrip(".")
    if not needle:
        return False
    for block in blocks:
        at = _norm(block.text).find(needle)
        if at >= 0:
            end = at + len(needle)
            # The needle stops before a final period, which stays in the text: the new words bring none.
            block.text = block.text[:at] + new_core.rstrip(".") + block.text[end:]
            return True
    return False


def find_sentence(blocks: list[Block], sentence: str, threshold: float = 0.75) -> tuple[int, str] | None:
    """The block and sentence most like ``sentence`` (for "X added to '...'" patches)."""
    best = None
    for i, block in enumerate(blocks):
        for candidate in re.split(r"(?<=[.!?])\s+", block.text):
            score = similarity(candidate, sentence)
            if score >= threshold and (best is None or score > best[0]):
                best = (score, i, candidate)
    return (best[1], best[2]) if best else None
