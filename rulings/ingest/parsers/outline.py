"""A document's outline: its headings nested by level, each with the blocks written under it.

Parsers read meaning from this shape (heading levels, list structure, emphasis) rather than from
what a heading says. Markdown headings nest by their number of ``#``; a document with fewer than
two of them has its bare title lines (short, isolated, title-cased) as headings, all at one level.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...text import clean_name, strip_markup
from ..lexer import HEADING, RawBlock, lex, markdown_headings, wrap_width
from .common import plain_heading

PLAIN_LEVEL = 2  # the level of a bare title line in a plain-text document


@dataclass
class Section:
    """A heading and what is under it: its own blocks, then its sub-sections."""

    title: str  # as printed, markup stripped
    level: int  # 0 for the document itself
    line: int | None  # the heading's line (None for the document)
    blocks: list[RawBlock] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    raw: str = ""  # the heading line as printed

    def walk(self) -> Iterator[Section]:
        """This section and every section under it, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def lines(self) -> list[int]:
        """Every source line of this section and the sections under it."""
        out = [self.line] if self.line else []
        for section in self.walk():
            if section is not self and section.line:
                out.append(section.line)
            for block in section.blocks:
                out.extend(block.lines)
        return sorted(out)


def headings(lines: list[str], has_markdown: bool) -> list[tuple[int, int, str]]:
    """(line, level, title) of every heading; bare title lines count when Markdown has fewer than two."""
    found = []
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
            found.append((number, PLAIN_LEVEL, title))
    return found


def outline(lines: list[str], title: str) -> Section:
    """The outline of a document (``lines[i]`` is line ``i + 1``), rooted at a section named ``title``."""
    width = wrap_width(lines)
    markdown = markdown_headings(lines) >= 2
    found = headings(lines, markdown)
    root = Section(title, 0, None)
    bounds = [line for line, _, _ in found] + [len(lines) + 1]
    root.blocks = lex(lines[: bounds[0] - 1], start=1, width=width, markdown=markdown)
    stack = [root]
    for i, (line, level, heading) in enumerate(found):
        while len(stack) > 1 and stack[-1].level >= level:
            stack.pop()
        section = Section(heading, level, line, raw=lines[line - 1])
        section.blocks = lex(lines[line : bounds[i + 1] - 1], start=line + 1, width=width, markdown=markdown)
        stack[-1].children.append(section)
        stack.append(section)
    return root
