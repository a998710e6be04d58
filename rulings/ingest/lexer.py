"""Split markdown-ish OCR text into raw blocks: headings, list items and paragraphs.

The lexer knows nothing of glossaries or FAQs; parsers decide what a block means.
Hard wraps are joined here: a line that directly follows another non-blank line
continues it unless it starts a heading or a list item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text import strip_markup

HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_headings(lines: list[str]) -> int:
    """How many lines are Markdown headings with a title (how parsers tell Markdown from plain text)."""
    return sum(1 for line in lines if (match := HEADING.match(line)) and match.group(2).strip())


BULLET = re.compile(r"^(\s*)(?:[-*•·]\s+(?:[•·]\s+)?|[•·](?=\S))(.*)$")
INDENTED_STEP = re.compile(r"^(\s+)(\d{1,2}[.)]\s*\S.*)$")
NEW_BLOCK = re.compile(
    r"^\s*(?:see also\b|[A-Z][\w'\u2019/\-]*(?: [A-Za-z][\w'\u2019/\-]*){0,4} [\u2014\u2013] )", re.I
)
STEP_NUMBER = re.compile(r"^(?:\*\*)?\(?(\d{1,2})[.):](?:\*\*)?\s*(?!\d)(?:\*\*)?")
MARKDOWN_ITEM = re.compile(r"^\d{1,2}[.)]\s+\S")  # "1. Forge a key." at the margin: a Markdown list item
NUMBERED_LINE = re.compile(r"^\s*(?:\*\*)?(\d{1,2})[.)]\s+\S")


@dataclass
class RawBlock:
    kind: str  # heading | bullet | para
    text: str  # markup stripped, wraps joined
    lines: list[int] = field(default_factory=list)
    level: int = 0  # heading level
    depth: int = 0  # list nesting
    number: str | None = None  # step number of a numbered list item
    raw: str = ""  # first source line, untouched
    bold: bool = False  # the whole line was **bold**
    marked: str = ""  # the text with its inline **strong** emphasis kept (for a text shown as written)

    @property
    def line(self) -> int:
        return self.lines[0]


def _marked(line: str, text: str) -> str:
    """A line's text with its **strong** emphasis kept (``text``, the stripped one, when it has none)."""
    return strip_markup(line, keep_strong=True) if "**" in line else text


def _join(a: str, b: str) -> str:
    if a.endswith("-") and not a.endswith(" -") and b[:1].islower():
        return a[:-1] + b
    return f"{a} {b}"


TERMINAL = re.compile(r"[.!?:;]['\"”’)]*$")


def continues_numbering(first_line: str, line: str) -> bool:
    """\"2. …\" under a block that began \"1. …\": the next item of a list numbered at the margin, not a wrap."""
    this, before = NUMBERED_LINE.match(line), NUMBERED_LINE.match(first_line)
    return bool(this and before and int(this.group(1)) == int(before.group(1)) + 1)


def wrap_width(lines: list[str]) -> int | None:
    """The width a document was hard-wrapped at, or None when it was not wrapped."""
    lengths = sorted(len(line.rstrip()) for line in lines if line.strip())
    if len(lengths) < 20:
        return None
    p90 = lengths[int(len(lengths) * 0.9)]
    wrapped = sum(1 for n in lengths if 0.75 * p90 <= n <= p90 * 1.05)
    return p90 if p90 < 100 and wrapped > len(lengths) * 0.4 else None


def lex(lines: list[str], start: int = 1, width: int | None = None, markdown: bool = False) -> list[RawBlock]:
    """Blocks of ``lines`` (numbered from ``start``), in order.

    With ``width`` (a hard-wrap width), an unindented line after a short line
    that ends a sentence starts a new paragraph instead of continuing it. With ``markdown``,
    a numbered line at the margin ("1. Forge a key.") is a list item, as Markdown has it
    (in OCR'd text such a line is as often a wrapped sentence or a contents line).
    """
    blocks: list[RawBlock] = []
    current: RawBlock | None = None
    previous = ""
    for number, line in enumerate(lines, start):
        prior, previous = previous, line.rstrip()
        if not line.strip():
            current = None
            continue
        heading = HEADING.match(line)
        if heading:
            text = strip_markup(heading.group(2))
            blocks.append(
                RawBlock(
                    "heading", text, [number], level=len(heading.group(1)), raw=line, bold="**" in heading.group(2)
                )
            )
            current = None
            continue
        bullet = BULLET.match(line)
        if not bullet:
            step = INDENTED_STEP.match(line) or (markdown and MARKDOWN_ITEM.match(line))
            bullet = re.match(r"^(\s*)(.*)$", line) if step else None
        if bullet:
            indent = len(bullet.group(1).expandtabs(4))
            body = bullet.group(2)
            step = STEP_NUMBER.match(body.strip())
            item = body[step.end() :] if step else body
            text = strip_markup(item)
            depth = 1 if indent >= 2 and not INDENTED_STEP.match(line) else 0
            current = RawBlock("bullet", text, [number], depth=depth, number=step.group(1) if step else None, raw=line)
            current.marked = _marked(item, text)
            blocks.append(current)
            continue
        text = strip_markup(line)
        if width:
            wrapped = len(prior) >= 0.7 * width or not TERMINAL.search(prior)
        else:
            wrapped = current is not None and current.kind == "para"
        if (
            current is not None
            and (line[:1].isspace() or wrapped)
            and not NEW_BLOCK.match(line)
            and not continues_numbering(current.raw, line)
        ):
            current.text = _join(current.text, text)
            current.marked = _join(current.marked, _marked(line, text))
            current.lines.append(number)
            continue
        stripped = line.strip()
        current = RawBlock(
            "para", text, [number], raw=line, bold=stripped.startswith("**") and stripped.rstrip().endswith("**")
        )
        current.marked = _marked(line, text)
        blocks.append(current)
    return blocks


def lex_numbered(lines: list[str], numbers: list[int], width: int | None = None) -> list[RawBlock]:
    """Blocks of the given source lines (1-based numbers), lexed run by run so numbering is kept."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    blocks: list[RawBlock] = []
    for run in runs:
        blocks.extend(lex([lines[n - 1] for n in run], start=run[0], width=width))
    return blocks
