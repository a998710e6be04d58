"""Any rulebook in Markdown or plain text: sections from headings, glossaries, Q&A.

The fallback for documents no family parser claims (and the parser behind
``rulings import``). Headings are Markdown ``#`` lines, or short isolated
title-like lines in plain text. Inside a section, a run of ``Term: text`` (or
``**Term** - text``) paragraphs is a glossary and becomes entries; ``Q:``/``A:``
pairs become FAQ rulings; everything else stays the section's text.
"""

from __future__ import annotations

import re

from ...text import NOT_TERMS, name_key, strip_markup, title_case
from ..lexer import HEADING, RawBlock, lex, markdown_headings, wrap_width
from ..model import Entry, ParsedDocument, Ruling
from ..source import Source
from .common import GLOSSARY_TITLES, clean_name, mend_broken_blocks, number_steps, plain_heading, to_block

DEFINITION = re.compile(
    r"^\s*(?:[-*\u2022]\s+)?(?:\*\*|__)?([A-Z0-9+][^:*\n]{0,48}?)(?:\*\*|__)?\s*"
    r"(?::|\s[\u2014\u2013]\s|\s-\s)\s*(?:\*\*|__)?\s*(\S.*)$"
)
QUESTION = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?(?:Q|Question)\s*[:.)](?:\*\*)?\s*(.+)$", re.I)
ANSWER = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?(?:A|Answer)\s*[:.)](?:\*\*)?\s*(.+)$", re.I)


class GenericParser:
    """Sections, glossaries and Q&A from any Markdown or plain-text rulebook."""

    name = "generic"

    def __init__(self, glossaries: bool = True):
        self.glossaries = glossaries  # a player aid's "ATK : Basic Attack" bullets are not a glossary

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        lines = source.lines
        headings = self.headings(lines)
        width = wrap_width(lines)
        stack: list[tuple[int, str]] = []  # (level, title) of enclosing sections
        bounds = [h[0] for h in headings] + [len(lines) + 1]
        if headings and bounds[0] > 1:
            self.section(doc, source, [], None, 1, bounds[0], width)
        elif not headings:
            self.section(doc, source, [], None, 1, len(lines) + 1, width)
        for i, (line, level, title) in enumerate(headings):
            while stack and stack[-1][0] >= level:
                stack.pop()
            path = [t for _, t in stack]
            self.section(doc, source, path, (line, title), line + 1, bounds[i + 1], width)
            stack.append((level, title))
        return doc

    @staticmethod
    def headings(lines: list[str]) -> list[tuple[int, int, str]]:
        """(line, level, title) of every heading; plain-text headings count as level 2."""
        found = []
        has_markdown = markdown_headings(lines) >= 2
        for number, line in enumerate(lines, 1):
            match = HEADING.match(line)
            if match and strip_markup(match.group(2)):
                found.append((number, len(match.group(1)), clean_name(strip_markup(match.group(2)))))
                continue
            if has_markdown:
                continue
            before = lines[number - 2] if number >= 2 else ""
            after = lines[number] if number < len(lines) else ""
            if plain_heading(strip_markup(line), before, after):
                title = re.sub(r"\s*:\s*$", "", strip_markup(line)).strip()
                found.append((number, 2, title))
        return found

    def section(
        self,
        doc: ParsedDocument,
        source: Source,
        path: list[str],
        heading: tuple[int, str] | None,
        start: int,
        end: int,
        width: int | None,
    ) -> None:
        lines = source.lines
        raws = lex(lines[start - 1 : end - 1], start=start, width=width)
        title = title_case(heading[1]) if heading else source.spec.title
        entry = Entry(
            "section", [title], heading[0] if heading else start, path=list(path), lines=[heading[0]] if heading else []
        )
        definitions = self.definition_blocks(raws, title) if self.glossaries else set()
        first_inside = len(doc.entries)  # the section goes before the entries found inside it
        current: Entry | Ruling | None = None
        body = []
        for raw in raws:
            question = QUESTION.match(raw.raw) if raw.kind != "heading" else None
            answer = ANSWER.match(raw.raw) if raw.kind != "heading" else None
            if question:
                current = Ruling(
                    "faq",
                    strip_markup(question.group(1)),
                    raw.line,
                    question=strip_markup(raw.text),
                    section=title,
                    group=title,
                    group_kind="general",
                    lines=list(raw.lines),
                )
                current.question = re.sub(r"^(?:Q|Question)\s*[:.)]\s*", "", current.question, flags=re.I)
                doc.rulings.append(current)
            elif answer and isinstance(current, Ruling) and current.answer is None:
                current.answer = re.sub(r"^(?:A|Answer)\s*[:.)]\s*", "", strip_markup(raw.text), flags=re.I)
                current.text = f"**Q:** {current.question}\n\n**A:** {current.answer}"
                current.lines.extend(raw.lines)
            elif id(raw) in definitions:
                match = DEFINITION.match(raw.text if raw.kind == "para" else raw.raw)
                term = clean_name(strip_markup(match.group(1)))
                current = Entry("entry", [title_case(term)], raw.line, path=[*path, title], lines=list(raw.lines))
                current.blocks.append(to_block(raw))
                current.blocks[-1].text = strip_markup(match.group(2))
                current.blocks[-1].kind = "para"
                doc.entries.append(current)
            elif isinstance(current, Entry) and raw.kind != "heading" and not self.starts_new(raw):
                current.blocks.append(to_block(raw))
                current.lines.extend(raw.lines)
            elif isinstance(current, Ruling) and current.answer is not None and raw.kind != "heading":
                current.answer += f"\n\n{raw.text}"
                current.text += f"\n\n{raw.text}"
                current.lines.extend(raw.lines)
            else:
                current = None
                body.append(raw)
                entry.lines.extend(raw.lines)
        entry.blocks = mend_broken_blocks([to_block(r) for r in body if r.kind != "heading"])
        number_steps(entry.blocks)
        if heading or entry.blocks:
            doc.entries.insert(first_inside, entry)

    @staticmethod
    def starts_new(raw: RawBlock) -> bool:
        return bool(QUESTION.match(raw.raw))

    @staticmethod
    def definition_blocks(raws: list[RawBlock], title: str) -> set[int]:
        """Blocks that open a glossary entry: several ``Term: text`` in a row, or any in a glossary."""
        candidates = []
        for raw in raws:
            if raw.kind == "heading":
                continue
            match = DEFINITION.match(raw.text if raw.kind == "para" else raw.raw)
            if not match:
                continue
            term = strip_markup(match.group(1)).strip()
            if term.lower() in NOT_TERMS or len(term.split()) > 6 or name_key(term) == "":
                continue
            if not (term[0].isupper() or term[0].isdigit()) or term.endswith((".", ",")):
                continue
            candidates.append(raw)
        in_glossary = bool(GLOSSARY_TITLES.search(title))
        if in_glossary and candidates:
            return {id(r) for r in candidates}
        return {id(r) for r in candidates} if len(candidates) >= 3 else set()
