"""Learn-to-play rulebooks in plain text (headings are bare short lines).

Understood layout (the Vs. System 2PCG rulebook and books like it): a title
page and a table of contents whose titles name the top-level sections; prose
sections under short heading lines; a card-clarifications section whose
headings are cards (or keywords, when the heading is set in bold in its own
text); and an alphabetical "Rules Reference" of ``Term: definition`` lines
where further paragraphs (including ``Note:`` lines) belong to the term above.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ...text import NOT_TERMS, fold, name_key, split_qualifier, title_case
from ..lexer import lex_numbered
from ..model import Entry, ParsedDocument, Ruling
from ..source import Source
from .common import clean_name, ends_mid_sentence, mend_broken_blocks, number_steps, to_block

TOC_LINE = re.compile(r"^(.{3,60}?)\t+\s*(\d{1,3}|[xх]{2})?\s*$")
TERM_LINE = re.compile(r"^([+\-]?[A-Z0-9+][\w+\-/'() ]{0,45}?)\s*:\s+(\S.*)$")
EMBEDDED_TERM = re.compile(r"(?<=[.)\"\u201d])\s+([A-Z][A-Za-z'/ ]{1,30}?):\s+(?=[A-Z])")
PAGE_NUMBER = re.compile(r"^\s*\d{1,3}\s*$")


def sort_key(name: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", fold(name).lower().replace("/", " ")).strip()


def _split_off_embedded_term(entry: Entry, upper: str) -> Entry | None:
    """The entry OCR ran into ``entry`` (its name sorting before ``upper``), cut out of it; or None."""
    lower = sort_key(entry.name)
    for b, block in enumerate(entry.blocks):
        match = next(
            (
                m
                for m in EMBEDDED_TERM.finditer(block.text)
                if m.group(1).strip().lower() not in NOT_TERMS and lower < sort_key(m.group(1).strip()) < upper
            ),
            None,
        )
        if match is None:
            continue
        name = match.group(1).strip()
        why = f"a 'Name:' run into {entry.name!r} by OCR, sorting between it and the next entry"
        new = Entry("entry", term_names(name), block.line, path=entry.path, lines=[block.line], why=why)
        new.blocks.append(type(block)(block.text[match.end() :], block.line, "para"))
        block.text = block.text[: match.start()].rstrip()
        # What followed in the entry now belongs to the entry OCR ran in.
        new.blocks.extend(entry.blocks[b + 1 :])
        moved = {x.line for x in entry.blocks[b + 1 :]}
        del entry.blocks[b + 1 :]
        new.lines.extend(n for n in entry.lines if n in moved)
        return new
    return None


def term_names(term: str) -> list[str]:
    """``Hidden/Hide`` -> Hidden/Hide, Hidden, Hide; ``Wound(s)`` -> Wound(s), Wound, Wounds."""
    names = [term]
    plural = re.fullmatch(r"(\w+)\(s\)", term)
    if plural:
        names += [plural.group(1), plural.group(1) + "s"]
    elif "/" in term and not re.search(r"\d", term):
        names += [p.strip() for p in term.split("/") if p.strip()]
    base, qualifier = split_qualifier(term)
    if qualifier and not re.search(r"\d", term):
        names.append(base.strip())
    out: list[str] = []
    for name in names:
        if name and name not in out:
            out.append(name)
    return out


class RulebookParser:
    """Plain-text learn-to-play rulebook (see module docstring)."""

    name = "rulebook"
    MODES = {
        name_key("Specific Card Clarifications"): "cards",
        name_key("Card Clarifications"): "cards",
        name_key("Rules Reference"): "glossary",
        name_key("Glossary"): "glossary",
    }

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        lines = source.lines
        toc, first_content = self.table_of_contents(lines)
        for number in range(1, first_content):
            if lines[number - 1].strip():
                doc.furniture[number] = "title page and contents"
        toc_keys = [name_key(t) for t in toc]
        headings = [n for n in range(first_content, len(lines) + 1) if self.is_heading(lines, n, toc_keys)]
        bounds = headings + [len(lines) + 1]
        lead = [n for n in range(first_content, bounds[0]) if lines[n - 1].strip()]
        if toc:  # after a title page and contents: captions and blurbs, not rules
            for number in lead:
                doc.furniture[number] = "text before the first section"
        elif lead:  # no contents page: the opening text is the book's introduction, under the book's title
            self.section(doc, lines, lead[0], source.spec.title, lead, [])
        mode, top = "prose", None
        for i, start in enumerate(headings):
            title = lines[start - 1].strip()
            body_range = range(start + 1, bounds[i + 1])
            key = name_key(title)
            toc_title = next((t for t in toc if key == name_key(t) or key.startswith(name_key(t) + " ")), None)
            if toc_title:
                top = title_case(toc_title)
                mode = self.MODES.get(name_key(toc_title), "prose")
            elif not toc and key in self.MODES:  # no contents page: the heading itself says what follows
                top, toc_title = title, title
                mode = self.MODES[key]
            for number in body_range:
                if PAGE_NUMBER.match(lines[number - 1]):
                    doc.furniture[number] = "page number"
            body = [n for n in body_range if n not in doc.furniture]
            path = [top] if top and name_key(top) != key else []
            if mode == "glossary" and not toc_title:
                self.glossary_heading(doc, lines, start, body)
            elif mode == "glossary":
                self.glossary(doc, lines, start, title, body, path)
            elif mode == "cards" and not toc_title:
                self.clarification(doc, lines, start, title, body, top)
            else:
                self.section(doc, lines, start, title, body, path)
        return doc

    # -- structure -----------------------------------------------------
    @staticmethod
    def table_of_contents(lines: list[str]) -> tuple[list[str], int]:
        """Titles of a contents list near the top, and the first line after it."""
        titles, last = [], 0
        for number, line in enumerate(lines[:200], 1):
            match = TOC_LINE.match(line)
            if match:
                titles.append(match.group(1).strip())
                last = number
            elif line.strip() and titles and number - last > 3:
                break
        if len(titles) < 4:
            return [], 1
        # Titles without a tab (their page number was lost) sit between tabbed ones.
        start = next(n for n, line in enumerate(lines, 1) if TOC_LINE.match(line))
        titles = [re.sub(r"\t.*$", "", line).strip() for line in lines[start - 1 : last] if line.strip()]
        return titles, last + 1

    @staticmethod
    def is_heading(lines: list[str], number: int, toc_keys: Sequence[str] = ()) -> bool:
        text = lines[number - 1].strip()
        before = lines[number - 2].strip() if number >= 2 else ""
        after = lines[number].strip() if number < len(lines) else ""
        if not text or before or after:
            return False
        key = name_key(text)
        if len(text) <= 80 and any(key == t or key.startswith(t + " ") for t in toc_keys):
            return True
        if len(text) > 60 or len(text.split()) > 9:
            return False
        if PAGE_NUMBER.match(text) or text.startswith(("-", "\u2022", "\u00b7", "(", "+")):
            return False
        if re.search(r"[,;:]$", text) or re.search(r"[^.]\.$", text) or "\t" in text or ends_mid_sentence(text):
            return False
        if re.match(r"^[^:]*[A-Za-z][^:]*:\s", text):  # "Role: Name" credits, "Term: text"
            return False
        if text[0].isdigit() and not re.match(r"^\d+\s*[.:]\s|^\d+ vs\.? \d+$", text):
            return False
        return text[0].isupper() or text[0].isdigit()

    # -- section kinds -------------------------------------------------
    def blocks(self, lines: list[str], body: list[int]):
        return lex_numbered(lines, body)

    def section(self, doc, lines, start, title, body, path, kind="section") -> Entry:
        """An entry titled ``title`` (the heading on line ``start``, unless the body begins there)."""
        why = "a card clarification heading set in bold in its own text" if kind == "keyword" else "a title line"
        entry = Entry(kind, [clean_name(title)], start, path=path, lines=sorted({start, *body}), why=why)
        entry.blocks = mend_broken_blocks([to_block(r) for r in self.blocks(lines, body)])
        number_steps(entry.blocks)
        doc.entries.append(entry)
        return entry

    def clarification(self, doc, lines, start, title, body, top) -> None:
        text = "\n".join(lines[n - 1] for n in body)
        name = clean_name(title)
        if re.search(r"\*\*\s*" + re.escape(name) + r"\s*\*\*", text, re.I):
            self.section(doc, lines, start, title, body, [top] if top else [], kind="keyword")
            return
        blocks = mend_broken_blocks([to_block(r) for r in self.blocks(lines, body)])
        card = re.sub(r"\s*\([^)]*\)\s*$", "", name)
        ruling = Ruling(
            "clarification",
            name,
            start,
            text="\n\n".join(b.markdown() for b in blocks),
            card=card,
            group=card,
            group_kind="card",
            section=top,
            lines=[start, *body],
        )
        doc.rulings.append(ruling)

    def glossary_heading(self, doc, lines, start, body) -> None:
        """A heading inside the Rules Reference is a misplaced line: keep it in the last entry
        (or, before the first term, in the section that opens the reference)."""
        entries = [e for e in doc.entries if e.kind == "entry"] or doc.entries
        if not entries:
            for number in (start, *body):
                doc.furniture[number] = "heading inside rules reference"
            return
        entry = entries[-1]
        entry.lines.extend([start, *body])
        extra = [to_block(r) for r in self.blocks(lines, [start, *body])]
        entry.blocks = mend_broken_blocks(entry.blocks + extra)

    def glossary(self, doc, lines, start, title, body, path) -> None:
        """``Term: definition`` entries; other paragraphs belong to the term above."""
        first = len(doc.entries)
        intro = Entry(
            "section", [clean_name(title)], start, path=path, lines=[start], why="the Rules Reference heading"
        )
        doc.entries.append(intro)
        current: Entry | None = None
        raws = self.blocks(lines, body)
        terms = self.term_lines(raws)
        for raw in raws:
            match = TERM_LINE.match(raw.text) if id(raw) in terms else None
            if match:
                term = re.sub(r"\s+", " ", match.group(1)).strip()
                why = "a 'Term:' line of the Rules Reference, in alphabetical order"
                current = Entry("entry", term_names(term), raw.line, path=[intro.name], lines=list(raw.lines), why=why)
                current.blocks.append(to_block(raw))
                current.blocks[-1].text = match.group(2).strip()
                doc.entries.append(current)
            elif current is not None:
                current.blocks.append(to_block(raw))
                current.lines.extend(raw.lines)
            else:
                intro.blocks.append(to_block(raw))
                intro.lines.extend(raw.lines)
        doc.entries[first:] = self.split_embedded_terms(doc.entries[first:])

    @staticmethod
    def term_lines(raws) -> set[int]:
        """Paragraphs that start an entry: ``Term:`` lines that keep the list in alphabetical order."""
        candidates = [
            r
            for r in raws
            if r.kind == "para" and (m := TERM_LINE.match(r.text)) and m.group(1).strip().lower() not in NOT_TERMS
        ]
        # Compare on the first two letters: publishers' "alphabetical" is rarely strict.
        keys = [sort_key(TERM_LINE.match(r.text).group(1))[:2] for r in candidates]
        keep = set()
        for i, raw in enumerate(candidates):
            prev = keys[i - 1] if i else ""
            nxt = keys[i + 1] if i + 1 < len(keys) else "~"
            out_of_order = keys[i] > nxt and prev <= nxt
            if not out_of_order:
                keep.add(id(raw))
        return keep

    @staticmethod
    def split_embedded_terms(entries: list[Entry]) -> list[Entry]:
        """OCR sometimes runs an entry into the previous one ("...owner.") Power Up: If...").

        A ``Name:`` inside a definition starts a new entry when the name sorts between the entry
        it is in and the next one, as glossary order demands. ``entries`` are one glossary's, in
        order; each is looked at once (the split-off entry too), so a glossary costs linear time.
        """
        terms = [e for e in entries if e.kind == "entry"]
        upper_of = {id(e): sort_key(n.name) for e, n in pairwise(terms)}
        out: list[Entry] = []
        for entry in entries:
            upper = upper_of.get(id(entry), "~")
            while entry is not None:
                out.append(entry)
                entry = _split_off_embedded_term(entry, upper) if entry.kind == "entry" else None
        return out
