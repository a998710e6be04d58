"""One parser per document family, behind one interface, chosen by the manifest's ``kind``.

Every parser has ``parse(source) -> ParsedDocument``. Where one kind covers
several layouts, ``parser_for`` sniffs the text to pick the right family and
falls back to the generic parser rather than refusing a document.
"""

from __future__ import annotations

import re
from typing import Protocol

from ...text import is_all_caps
from ..lexer import markdown_headings
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
        has_glossary = any(re.match(r"^\s{0,3}#{1,6}\s+\**\s*GLOSSARY\b", line, re.I) for line in lines)
        return ReferenceParser() if has_glossary else GenericParser()
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
