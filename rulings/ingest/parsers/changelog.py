"""Changelogs: version headers, per-version entries, and terse patch lines.

Understood layout (the Marvel Champions RR changelog and similar ones):
``1.0 Release (August 1, 2019)`` / ``Changed from 1.1 -> 1.2 (February 25, 2020)``
headers; under each, entries that are a short name line followed by the entry's
text (hard-wrapped, with bullets); or patch lines such as
``p. 13, Excess Damage \u2014 "old\u2026" \u2014> "new\u2026"``. The parser records
what the document says; deciding how a change applies is ``rulings.graph``'s job.
"""

from __future__ import annotations

import datetime as dt
import re
from itertools import pairwise

from ...text import fold, is_all_caps
from ..lexer import lex, wrap_width
from ..model import Block, ChangelogEntry, ChangelogVersion, ParsedDocument, Patch
from ..source import Source
from .common import SEE_ALSO, mend_broken_blocks, number_steps, split_targets, to_block

DATE = r"\(\s*([A-Za-z]+\.?\s+\d{1,2},?\s+\d{4}|\d{4}-\d{2}-\d{2})\s*\)"
VERSION_LABEL = r"v?(\d+(?:\.\d+)*[a-z]?)"
RELEASE = re.compile(rf"^\s*{VERSION_LABEL}\s+(?:release|released|initial release)\b\s*(?:{DATE})?\s*$", re.I)
CHANGED = re.compile(
    rf"^\s*(?:changed|changes)\s+from\s+{VERSION_LABEL}\s*(?:->|\u2192|to|\u2014>|-+>)\s*"
    rf"{VERSION_LABEL}\s*(?:{DATE})?\s*$",
    re.I,
)
PATCH_START = re.compile(r"(?=\bp\.\s*\d+\s*(?:,|\u2014|-))")
ITEM_OPENER = re.compile(r"^([A-Z][\w'\u2019\-/ ()\u201c\u201d\"]{0,40}?):\s+\S")
ITEM_CLOSED = re.compile(r"[.!?)][\"\u201d\u2019]?$")
QUOTED = re.compile(r"[\u201c\"]\s*(.+?)\s*[\u201d\"]")


def parse_date(text: str | None) -> dt.date | None:
    if not text:
        return None
    text = text.replace(".", "").strip()
    for fmt in ("%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b %d %Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def parse_patch(raw: str, line: int) -> Patch:
    """One ``p. N, Target \u2014 ...`` line into a structured patch."""
    text = fold(raw).strip()
    match = re.match(r"^p\.\s*(\d+)\s*(?:,\s*)?(.*)$", text)
    page, rest = (match.group(1), match.group(2)) if match else (None, text)
    target = None
    # Target is what precedes the first separator that is not inside a quote.
    sep = re.search(r"\s*(?:->|\s-\s)\s*", rest) if not rest.startswith(("->", "-")) else None
    if rest.startswith(("->", "-")):
        rest = re.sub(r"^-+>?\s*", "", rest)
    elif sep and '"' not in rest[: sep.start()]:
        target, rest = rest[: sep.start()].strip(" ,"), rest[sep.end() :]
        rest = re.sub(r"^-+>?\s*", "", rest)
    quotes = QUOTED.findall(rest)
    lowered = rest.lower()
    if "reworked" in lowered or "rewritten" in lowered:
        return Patch(target, page, "rework", line, raw=raw)
    if len(quotes) >= 2 and re.search(r'"\s*->\s*"', rest):
        return Patch(target, page, "replace", line, old=quotes[0], new=quotes[1], raw=raw)
    if lowered.startswith("added section") or lowered.startswith("new section"):
        return Patch(quotes[0] if quotes else target, page, "add-section", line, raw=raw)
    if lowered.startswith("added") and quotes:
        return Patch(target, page, "add", line, new=quotes[0], raw=raw)
    if " added to " in f" {lowered}" and quotes:
        what = rest[: lowered.index("added to")].strip()
        return Patch(target, page, "add-to-list", line, old=what, new=quotes[0], raw=raw)
    return Patch(target, page, "unknown", line, raw=raw)


class ChangelogParser:
    """Version-by-version change records (see module docstring)."""

    name = "changelog"

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        lines = source.lines
        width = wrap_width(lines)
        version: ChangelogVersion | None = None
        entry: ChangelogEntry | None = None
        body_start = 0  # first line number of the current entry's body

        def close_entry(end: int) -> None:
            """Close the current entry; its body is lines body_start .. end-1."""
            nonlocal entry
            if entry is not None:
                self.fill_entry(entry, lines[body_start - 1 : end - 1], body_start, width)
                if entry.blocks or entry.see_also:
                    version.entries.append(entry)
                else:
                    doc.furniture[entry.line] = "changelog heading without text"
            entry = None

        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if not stripped:
                continue
            header = self.version_header(stripped)
            if header:
                close_entry(number)
                label, parent, date_text = header
                date = parse_date(date_text)  # none: game.toml may give it (the assembler warns if not)
                version = ChangelogVersion(label, date, parent, number)
                doc.versions.append(version)
                continue
            if version is None:
                doc.furniture[number] = "changelog preamble"
                continue
            if re.match(r"^p\.\s*\d+", stripped):
                close_entry(number)
                for part in PATCH_START.split(stripped):
                    if part.strip():
                        version.patches.append(parse_patch(part.strip(), number))
                continue
            if self.is_entry_heading(lines, number):
                close_entry(number)
                entry = ChangelogEntry(stripped, number, lines=[number])
                body_start = number + 1
                continue
            if entry is None:
                source.warn(number, "changelog text before any entry name; kept as an unnamed entry")
                entry = ChangelogEntry("", number)
                body_start = number
        close_entry(len(lines) + 1)
        doc.diagnostics.extend(source.diagnostics)
        return doc

    @staticmethod
    def version_header(text: str) -> tuple[str, str | None, str | None] | None:
        release = RELEASE.match(text)
        if release:
            return release.group(1), None, release.group(2)
        changed = CHANGED.match(text)
        if changed:
            return changed.group(2), changed.group(1), changed.group(3)
        return None

    @staticmethod
    def is_entry_heading(lines: list[str], number: int) -> bool:
        """A short name on its own line, opening an entry (not a wrapped line of text)."""
        text = lines[number - 1].strip()
        before = lines[number - 2].strip() if number >= 2 else ""
        after = next((line.strip() for line in lines[number:] if line.strip()), "")
        if not after or len(text) > 45 or len(text.split()) > 6:
            return False
        if re.search(r"[.;:,!?]$", text) or not text[0].isupper() or text[0] in "\u2022":
            return False
        if text.count("(") != text.count(")"):
            return False
        if is_all_caps(text) and len(text.split()) <= 5:
            return True
        if before and not re.search(r"[.!?)\u201d\"]$", before):
            return False  # continues a sentence from the line above
        words = re.findall(r"[A-Za-z][\w'\u2019\-]*", text)
        return bool(words) and words[0][0].isupper() and not before.endswith(",")

    @staticmethod
    def fill_entry(entry: ChangelogEntry, body: list[str], start: int, width: int | None) -> None:
        blocks: list[Block] = []
        split: set[int] = set()  # first lines of list items that lost their bullet glyph (``item_runs``)
        for run_start, run in item_runs(body, start):
            for i, raw in enumerate(lex(run, start=run_start, width=width)):
                entry.lines.extend(raw.lines)
                match = SEE_ALSO.match(raw.text)
                if match:
                    entry.see_also.extend(split_targets(match.group(1)))
                    continue
                if i == 0 and run_start != start:
                    split.add(raw.line)
                blocks.append(to_block(raw))
        entry.blocks = mend_broken_blocks(blocks)
        for before, block in pairwise(entry.blocks):
            if block.line in split and block.kind == "para" and before.kind == "bullet":
                block.kind, block.depth = "bullet", before.depth  # an item of the list it was glued to
        number_steps(entry.blocks)


def item_runs(body: list[str], start: int) -> list[tuple[int, list[str]]]:
    """The body cut where a line opens a new list item with no glyph: "Name: text" right after a line
    that closed an item ("...(See: Quickstrike)" / "...form."). Hard wraps would join the two.
    """
    runs: list[tuple[int, list[str]]] = [(start, [])]
    for offset, line in enumerate(body):
        lines = runs[-1][1]
        prior = lines[-1].strip() if lines else ""
        opener = ITEM_OPENER.match(line.strip())
        if prior and opener and len(opener.group(1).split()) <= 4 and ITEM_CLOSED.search(prior):
            runs.append((start + offset, []))
        runs[-1][1].append(line)
    return [run for run in runs if run[1]]
