"""One parser per document family, behind one interface, chosen by the manifest's ``kind``.

Every parser has ``parse(source) -> ParsedDocument``. Where one kind covers
several layouts, ``parser_for`` sniffs the text to pick the right family and
falls back to the generic parser rather than refusing a document.
"""

from __future__ import annotations

import re
from typing import Protocol

from ...text import is_all_caps, strip_markup
from ..lexer import HEADING, markdown_headings
from ..model import ParsedDocument
from ..source import Source
from .changelog import ChangelogParser
from .comprehensive import ComprehensiveRulesParser, looks_comprehensive
from .faq import FaqParser
from .generic import GenericParser
from .reference import ReferenceParser
from .rulebook import RulebookParser


class Parser(Protocol):
    name: str

    def parse(self, source: Source) -> ParsedDocument: ...


GLOSSARY_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\**\s*GLOSSARY\b", re.I)
DEFINITION_OPENER = re.compile(r"^(?:\*\*|__)[^*_]{1,60}(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*(?::|\s[\u2014\u2013-]\s))")


def looks_ocr_reference(lines: list[str]) -> bool:
    """A rules reference OCR'd from print (the Marvel Champions RR): a GLOSSARY heading whose entries are
    headings, and headings that are body sentences, so heading levels cannot be trusted. Any other
    reference is read from its outline."""
    start = next((i for i, line in enumerate(lines) if GLOSSARY_HEADING.match(line)), None)
    if start is None:
        return False
    for line in lines[start + 1 :]:
        if HEADING.match(line):
            break  # its entries are headings
        if DEFINITION_OPENER.match(line.strip()):
            return False  # its entries are "**Term:** text" paragraphs
    titles = (strip_markup(match.group(2)) for line in lines if (match := HEADING.match(line)))
    return any(len(title.split()) > 6 and title.endswith((".", "?")) for title in titles)  # sentences as headings


def parser_for(source: Source) -> Parser:
    """The parser for a document: its kind first, then what its text looks like."""
    kind, lines = source.spec.kind, source.lines
    text_lines = [line for line in lines if line.strip()]
    if kind == "changelog":
        return ChangelogParser()
    if kind == "player-aid":
        return GenericParser(glossaries=False)
    if kind == "reference":
        if looks_comprehensive(lines):  # mostly numbered rules ("702.19b …"): comprehensive rules
            return ComprehensiveRulesParser()
        return ReferenceParser() if looks_ocr_reference(lines) else GenericParser()
    if kind == "faq":
        caps = sum(1 for line in text_lines if is_all_caps(line))
        return FaqParser() if text_lines and caps / len(text_lines) > 0.6 else GenericParser()
    if kind == "rulebook":
        return GenericParser() if markdown_headings(lines) >= 1 else RulebookParser()
    return GenericParser()


def parse(source: Source) -> ParsedDocument:
    parser = parser_for(source)
    parsed = parser.parse(source)
    parsed.parser = parser.name
    for diagnostic in source.diagnostics:
        if diagnostic not in parsed.diagnostics:
            parsed.diagnostics.append(diagnostic)
    return parsed
