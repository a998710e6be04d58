"""Numbered comprehensive rules: chapters, sections, rules ``702.19.`` and subrules ``702.19b``.

Layout understood (the Magic: The Gathering Comprehensive Rules and documents shaped like
them, one paragraph per line): a title line and a stated effective date; front-matter parts
under bare title lines ("Introduction"); a contents list repeating the body's headings; the
numbered body (chapter ``1. Game Concepts``, section ``100. General``, rule ``100.1. …``,
subrule ``100.1a …``; an unnumbered line such as ``Example: …`` continues the rule it
follows); then unnumbered parts again: a glossary of term lines each followed by its
definition lines, and credits.

A hard-wrapped text (the editions of 2003–2004, exported with their paragraphs broken over
lines that end in a space) is read a paragraph at a time: a line that ends in a space, a
hyphen or a dash runs on into the next unless that one is indented or an ``Example:``
(``unwrap``). Every record keeps the source lines it was read from.

Identity is by number: a chapter or section is named with its number ("100. General", since
"General" opens every chapter), a rule by its title when its line is one ("Trample") or else
by its number ("Rule 100.1"); its text and its subrules are ``rule`` blocks carrying numbers.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from itertools import pairwise

from ...errors import Diagnostic
from ..lexer import TERMINAL
from ..model import Block, Entry, ParsedDocument
from ..source import Source
from .common import GLOSSARY_TITLES, plain_heading
from .references import link_references

SUBRULE = re.compile(r"^(\d+\.\d+[a-z]+)\.?\s+(\S.*)$")  # "702.19b Trample …" (also "119.1d. In …")
RULE = re.compile(r"^(\d+\.\d+)(?:\.\s*|\s+)(\S.*)$")  # "702.19. Trample", "606.5 If …", "901.4.All …"
SPACED_SUBRULE = re.compile(r"^(\d+)\. (\d+[a-z]+)\s+(\S.*)$")  # "606. 8b Players win …": 606.8b misprinted
SECTION_LINE = re.compile(r"^(\d{3})\.\s+(\S.*)$")  # "215. This section is now empty. …"
NUMBER_CUT = re.compile(r"^\d+\.[a-z]+\s")  # "306.b If an effect …"
GLUED_HEADING = re.compile(r"^(.*?[^\W\d_][)\"'\u201d\u2019]?)(\d+\.\s+\S.*)$")  # "Face Down1. A card is …"
SENTENCE_END = re.compile(r"\.[\"'\u201d\u2019)]*$")  # a heading that ends like a sentence
UNSPACED_NAME_CHARS, UNSPACED_NAME_WORDS = 40, 5  # a glossary term printed with no blank line above it
HEADING = re.compile(r"^(\d+)\.\s+(\S.{0,80})$")  # "1. Game Concepts", "100. General"
EFFECTIVE = re.compile(r"\b(?:effective|current) (?:as of|from|on)\s+([A-Z][a-z]+ \d{1,2}, \d{4})\b")
NUMBERED_SHARE = 0.4  # share of non-blank lines that are numbered rules or headings (Magic: 0.63)
BROKEN_WORD = re.compile(r"\S[-\u2013\u2014]$")  # "State-" / "Based Effects", "resolves—" / "even if"
SHORTEST_WRAP = 0.4  # share of the longest line under which a line opening a paragraph was not wrapped
WRAPPED_SHARE = 0.2  # share of non-blank lines that run on into the next (hard-wrapped Magic: 0.55, others 0)


def numbered(line: str) -> re.Match | None:
    """The rule or subrule a line opens, if it opens one."""
    return SUBRULE.match(line) or RULE.match(line)


def looks_comprehensive(lines: list[str]) -> bool:
    """Whether a document is mostly numbered rules and their headings (what picks this parser)."""
    text = [line.strip() for line in unwrap(lines)[0] if line.strip()]
    rules = sum(1 for line in text if numbered(line))
    headings = sum(1 for line in text if heading(line))
    return rules >= 5 and rules + headings >= NUMBERED_SHARE * len(text)


def runs_on(line: str, following: str) -> bool:
    """Whether ``line`` broke mid-paragraph: it ends in a space or a broken word, and ``following``
    neither opens a paragraph of its own (indented, or an "Example:") nor is blank."""
    if not line.strip() or not following.strip() or following[:1].isspace() or following.startswith("Example:"):
        return False
    return line[-1].isspace() or bool(BROKEN_WORD.search(line))


def hard_wrapped(lines: list[str]) -> bool:
    """Whether a text was exported with its paragraphs broken over lines (most lines run on)."""
    text = sum(1 for line in lines if line.strip())
    wraps = sum(1 for line, following in pairwise(lines) if runs_on(line, following) and line[-1].isspace())
    return text > 0 and wraps > WRAPPED_SHARE * text


def unwrap(lines: list[str]) -> tuple[list[str], list[list[int]]]:
    """The text a paragraph a line, and the source lines (1-based) each was read from: the lines as
    they are, unless the text is hard-wrapped (then a line that runs on is joined to the next, a
    broken word without a space: "State-" + "Based Effects" reads "State-Based Effects"). A short line
    that opens a paragraph was never wrapped, whatever it ends with: it is a heading ("Enchant Land ",
    a glossary term followed by its definition)."""
    if not hard_wrapped(lines):
        return [line.rstrip() for line in lines], [[number] for number in range(1, len(lines) + 1)]
    shortest = SHORTEST_WRAP * max(len(line.rstrip()) for line in lines)
    texts: list[str] = []
    spans: list[list[int]] = []
    for number, line in enumerate(lines, 1):
        before = lines[number - 2] if number > 1 else ""
        opens = len(spans[-1]) == 1 and (number < 3 or not lines[number - 3].strip()) if spans else True
        if texts and runs_on(before, line) and not (opens and len(before.rstrip()) < shortest):
            glue = "" if BROKEN_WORD.search(before) else " "
            texts[-1] = f"{texts[-1].rstrip()}{glue}{line.strip()}"
            spans[-1].append(number)
        else:
            texts.append(line.rstrip())
            spans.append([number])
    return texts, spans


def heading(line: str) -> re.Match | None:
    """A numbered chapter or section title ("702. Keyword Abilities"), not a numbered sentence."""
    match = HEADING.match(line)
    return match if match and not TERMINAL.search(match.group(2)) else None


def heading_rank(number: str) -> tuple[int, int]:
    """Where a heading stands in a body's order: chapter 7 before its sections 700 to 799."""
    value = int(number)
    return (value // 100, value) if value >= 100 else (value, -1)


def leads_to(earlier: re.Match, line: str) -> bool:
    """Whether a heading can come right before the heading ``line`` in a body (chapter 1, then section 100)."""
    later = heading(line)
    return later is None or heading_rank(earlier.group(1)) <= heading_rank(later.group(1))


def rule_title(text: str) -> str | None:
    """The title of a rule whose line is only a title ("Trample"), else None."""
    return text if not TERMINAL.search(text) and len(text.split()) <= 8 else None


def is_title(lines: list[str], i: int) -> bool:
    """A bare title line of an unnumbered part ("Introduction", "Glossary", "Credits")."""
    line = lines[i]
    if not line.strip() or heading(line) or numbered(line):
        return False
    return plain_heading(line, lines[i - 1] if i else "", lines[i + 1] if i + 1 < len(lines) else "")


def stated_date(line: str) -> dt.date | None:
    match = EFFECTIVE.search(line)
    if not match:
        return None
    try:
        return dt.datetime.strptime(match.group(1), "%B %d, %Y").date()
    except ValueError:
        return None


class ComprehensiveRulesParser:
    """Numbered comprehensive rules with a glossary (see module docstring)."""

    name = "comprehensive-rules"

    def parse(self, source: Source) -> ParsedDocument:
        return _Reading(source).read()


class _Reading:
    """One document read: its paragraphs a line each (``lines``), and the source lines of each (``spans``)."""

    def __init__(self, source: Source):
        self.source = source
        self.doc = ParsedDocument()
        self.lines, self.spans = unwrap(source.lines)

    def warn(self, line: int, message: str) -> None:
        self.doc.diagnostics.append(Diagnostic("warning", self.source.spec.display_path, line, message))

    def line(self, i: int) -> int:
        """The source line (1-based) where paragraph ``i`` starts."""
        return self.spans[i][0]

    def read(self) -> ParsedDocument:
        lines, title = self.lines, self.source.spec.title
        body, contents = self.outline()
        listed = self.listed_parts(contents) if contents else frozenset()
        back = self.body_end(body, listed)
        self.front_matter(0, contents[0] if contents else body, title)
        if contents:
            for n in range(*contents):
                if lines[n].strip():
                    for number in self.spans[n]:
                        self.doc.furniture[number] = "contents list (the headings it lists are parsed where they stand)"
        _Body(self).walk(body, back)
        self.parts(back, len(lines), title, listed)
        link_references(self.doc.entries, kinds=("entry",))  # the glossary's "See Typecycling.", "See also Untapped."
        return self.doc

    # The outline: where the contents list, the numbered body and the back matter are.

    def outline(self) -> tuple[int, tuple[int, int] | None]:
        """(first line of the numbered body, contents list span or None), as 0-based indexes.

        The body starts with the headings that lead to its first rule ("1. Game Concepts",
        "100. General", then "100.1. …"), going back no further than a heading that cannot come
        before them (a contents list's last "809. Teams Variant" before "1. The Game"). The titles
        before it are its contents list, whether or not they name the body's headings as the body
        does (2009-07-11 lists "1. Game Concepts" and prints "1. The Game"); a bare title just before
        them ("Contents") belongs to it.
        """
        lines = self.lines
        first = next((i for i, line in enumerate(lines) if heading(line)), len(lines))
        rule = next((i for i, line in enumerate(lines) if numbered(line)), None)
        if rule is None or rule < first:
            return first, None
        start = rule
        for i in range(rule - 1, first - 1, -1):
            match = heading(lines[i])
            if lines[i].strip() and (match is None or (start < rule and not leads_to(match, lines[start]))):
                break
            start = i if match else start
        start = next(i for i in range(start, rule + 1) if lines[i].strip())
        listed = [line for line in lines[first:start] if line.strip()]
        if not listed or not all(heading(line) or plain_heading(line, "", "") for line in listed):
            return first, None  # not a list of titles: the body starts at the first heading
        before = [i for i in range(first) if lines[i].strip()]
        contents = before[-1] if before and plain_heading(lines[before[-1]], "", "") else first
        return start, (contents, start)

    def listed_parts(self, contents: tuple[int, int]) -> frozenset[str]:
        """The unnumbered parts a contents list names after its headings ("Glossary", "Credits", "Questions?")."""
        lines = self.lines
        first = next(n for n in range(*contents) if heading(lines[n]))
        return frozenset(
            lines[n].strip() for n in range(first, contents[1]) if lines[n].strip() and not heading(lines[n])
        )

    def opens_part(self, i: int, listed: frozenset[str]) -> bool:
        """Whether line ``i`` is the title of an unnumbered part: one the contents list names, when it
        names any ("Questions?" followed straight by its text; never a title inside the glossary such
        as 2003-03-15's "Expansions and Editions"), else a bare title line."""
        return self.lines[i].strip() in listed if listed else is_title(self.lines, i)

    def body_end(self, start: int, listed: frozenset[str]) -> int:
        """The first title of an unnumbered part after the numbered body begins (the glossary's)."""
        return next((i for i in range(start, len(self.lines)) if self.opens_part(i, listed)), len(self.lines))

    # Unnumbered parts: front matter and back matter.

    def front_matter(self, start: int, end: int, title: str) -> None:
        """Title line, stated effective date, then parts such as "Introduction"."""
        lines, doc = self.lines, self.doc
        text = [i for i in range(start, end) if lines[i].strip()]
        if text and not stated_date(lines[text[0]]) and plain_heading(lines[text[0]], "", ""):
            for number in self.spans[text[0]]:
                doc.furniture[number] = "document title"
            start = text[0] + 1
        for i in range(start, end):
            date = stated_date(lines[i])
            if date and doc.effective_date is None:
                doc.effective_date = date
                for number in self.spans[i]:
                    doc.furniture[number] = "stated effective date (kept as the document's effective_date)"
        self.parts(start, end, title)

    def parts(self, start: int, end: int, title: str, listed: frozenset[str] = frozenset()) -> None:
        """Sections under part titles (``opens_part``); a glossary's title makes its groups glossary entries."""
        lines = self.lines
        kept = [i for i in range(start, end) if lines[i].strip() and self.line(i) not in self.doc.furniture]
        titles = [i for i in kept if self.opens_part(i, listed)]
        prose = [i for i in kept if not titles or i < titles[0]]
        if prose:  # text before any title: a section named after the document
            why = "text before any title line"
            self.paragraphs(Entry("section", [title], self.line(prose[0]), why=why), prose)
        for k, i in enumerate(titles):
            stop = titles[k + 1] if k + 1 < len(titles) else end
            part = Entry(
                "section",
                [lines[i].strip()],
                self.line(i),
                lines=list(self.spans[i]),
                why="a title line of an unnumbered part",
            )
            if GLOSSARY_TITLES.search(part.name):
                self.doc.entries.append(part)
                self.glossary(i + 1, stop, part.name)
            else:
                self.paragraphs(part, [n for n in range(i + 1, stop) if lines[n].strip()])

    def paragraphs(self, entry: Entry, numbers: list[int]) -> None:
        """One paragraph per line (credits are one per line)."""
        entry.blocks.extend(Block(self.lines[n].strip(), self.line(n)) for n in numbers)
        for n in numbers:
            entry.lines.extend(self.spans[n])
        self.doc.entries.append(entry)

    def glossary(self, start: int, end: int, title: str) -> None:
        """Each run of non-blank lines is a term (its first line, exactly as printed) and its definition.

        A run that is indented, or that introduces one (2003-03-15's "Expansions and Editions" over its
        indented list of sets), goes on with the entry above it.
        """
        groups = self.groups(start, end)
        entry: Entry | None = None
        for k, group in enumerate(groups):
            following = groups[k + 1][0] if k + 1 < len(groups) else None
            indented = self.lines[group[0]][:1].isspace()
            introduces = following is not None and self.lines[following][:1].isspace() and len(group) == 1
            if entry is None or not (indented or introduces):
                i, group = group[0], group[1:]
                why = f"the first line of a group of lines under {title!r}"
                name = self.lines[i].strip()
                entry = Entry("entry", [name], self.line(i), path=[title], lines=list(self.spans[i]), why=why)
                self.check_heading(name, self.line(i))
                self.doc.entries.append(entry)
            for i in group:
                line = self.lines[i].strip()
                kind = "step" if re.match(r"^\d+\.\s", line) else "para"  # "1. Text on an object …"
                entry.blocks.append(Block(line, self.line(i), kind))
                entry.lines.extend(self.spans[i])

    def check_heading(self, name: str, line: int) -> None:
        """A glossary heading glued to its first line ("Face Down1. A card is …") is taken as printed, and the
        build says how to name it right: a ``[[corrections]]`` block, which also gives the rest of the line
        back to the definition (``rulings/ingest/corrections.py``)."""
        glued = GLUED_HEADING.match(name)
        if glued is None and not (SENTENCE_END.search(name) and len(name.split()) >= 4):
            return
        fix = {"file": self.source.spec.file, "line": line, "was": name, "name": glued.group(1) if glued else "…"}
        block = ", ".join(f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in fix.items())
        self.warn(
            line,
            f"glossary heading {name!r} reads like a heading glued to its first line; if it is one, "
            f"add a [[corrections]] block to game.toml: {block}",
        )

    def groups(self, start: int, end: int) -> list[list[int]]:
        """The runs of non-blank lines between ``start`` and ``end``; a run also ends before a term printed with
        no blank line above it (``unspaced_term``: 2020-06-01's "Companion" definition, then "Concede")."""
        runs: list[list[int]] = []
        for i in range(start, end):
            if not self.lines[i].strip():
                continue
            if runs and runs[-1][-1] == i - 1 and not self.unspaced_term(i, end):
                runs[-1].append(i)
            else:
                runs.append([i])
        return runs

    def unspaced_term(self, i: int, end: int) -> bool:
        """A glossary term right under the last line of a definition: a short name (five words at most, no
        sentence's end, not a numbered line, not indented) after a line that ends a sentence, and over a line
        of text (its definition)."""
        line, above = self.lines[i], self.lines[i - 1].strip()
        name = line.strip()
        has_definition = i + 1 < end and bool(self.lines[i + 1].strip())
        looks_like_name = (
            not line[:1].isspace()
            and name[:1].isupper()
            and len(name) <= UNSPACED_NAME_CHARS
            and len(name.split()) <= UNSPACED_NAME_WORDS
            and not re.search(r"[.:;,\u201d)]$", name)
            and not re.match(r"\d+\.", name)
        )
        return has_definition and looks_like_name and bool(SENTENCE_END.search(above))


class _Body:
    """Walks the numbered body: headings open chapters and sections, numbers open rules."""

    def __init__(self, reading: _Reading):
        self.reading = reading
        self.doc, self.lines = reading.doc, reading.lines
        self.chapter: Entry | None = None
        self.section: Entry | None = None
        self.rule: Entry | None = None
        self.printed: dict[str, int] = {}  # rule number -> the line its rule was printed at

    def walk(self, start: int, end: int) -> None:
        for i in range(start, end):
            line = self.lines[i].lstrip()  # 2009-07-11 prints " 611.2. A text-changing effect …"
            if not line:
                continue
            at, spans = self.reading.line(i), self.reading.spans[i]
            if sub := SUBRULE.match(line):
                self.subrule(sub.group(1), sub.group(2), at, spans)
            elif spaced := SPACED_SUBRULE.match(line):  # 2005-08-01 prints 606.8b as "606. 8b Players …"
                number = f"{spaced.group(1)}.{spaced.group(2)}"
                self.reading.warn(at, f"{line.split()[0]} {spaced.group(2)!r} is read as subrule {number}")
                self.subrule(number, spaced.group(3), at, spans)
            elif rule := RULE.match(line):
                self.open_rule(rule.group(1), rule.group(2), at, spans)
            elif title := heading(line):
                self.open_heading(title.group(1), title.group(2), at, spans, self.next_number(i + 1, end))
            elif empty := self.empty_section(line):  # "215. This section is now empty. See rule 205.4c …"
                self.open_heading(empty.group(1), empty.group(2), at, spans, None, section=True)
            else:
                if NUMBER_CUT.match(line):  # 2008-10-01 prints 306.3b as "306.b"
                    self.reading.warn(
                        at, f"{line.split()[0]!r} reads like a subrule number missing its rule's: kept as text"
                    )
                self.continuation(line.strip(), at, spans)

    def path(self) -> list[str]:
        return [e.name for e in (self.chapter, self.section) if e is not None]

    def next_number(self, start: int, end: int) -> str | None:
        """The number of the next rule or heading (tells a chapter from a section)."""
        for line in self.lines[start:end]:
            match = numbered(line) or heading(line)
            if match:
                return match.group(1)
        return None

    def empty_section(self, line: str) -> re.Match | None:
        """A section whose title line is a note, a sentence ("211. [This section has been intentionally left
        blank to preserve the ordering of other rules.]"): a section number that comes after the current one
        in the same chapter."""
        match = SECTION_LINE.match(line)
        current = int(self.section.number) if self.section and self.section.number else None
        if match is None or current is None:
            return None
        number = int(match.group(1))
        return match if number > current and number // 100 == current // 100 else None

    def open_heading(
        self, number: str, title: str, line: int, spans: list[int], following: str | None, section: bool = False
    ) -> None:
        """A section when the rules that follow are numbered under it, else a chapter."""
        is_section = section or (following is not None and following.startswith(f"{number}."))
        self.section = None
        if not is_section:
            self.chapter = None
        why = "a numbered section heading" if is_section else "a numbered chapter heading"
        entry = Entry(
            "section", [f"{number}. {title}"], line, path=self.path(), lines=list(spans), number=number, why=why
        )
        self.doc.entries.append(entry)
        if is_section:
            self.section = entry
        else:
            self.chapter = entry
        self.rule = None

    def new_rule(self, number: str, name: str, line: int) -> Entry:
        self.rule = Entry("rule", [name], line, path=self.path(), number=number, why=f"numbered rule {number}")
        self.printed[number] = line
        self.doc.entries.append(self.rule)
        return self.rule

    def open_rule(self, number: str, text: str, line: int, spans: list[int]) -> None:
        if number in self.printed:  # 2006-05-01 prints 510.2-510.4 as "501.2." ... "501.4."
            self.misnumbered(
                number, text, line, spans, f"rule {number} is printed again (first at line {self.printed[number]})"
            )
            return
        section = self.section.number if self.section else None
        if section and not number.startswith(f"{section}."):  # 2006-05-01 prints 510.4 as "501.4."
            self.reading.warn(line, f"rule {number} is printed in section {section}: a misprint? Kept as printed")
        title = rule_title(text)
        rule = self.new_rule(number, title or f"Rule {number}", line)
        rule.lines.extend(spans)
        if title is None:
            rule.blocks.append(Block(text, line, "rule", number=number))

    def subrule(self, number: str, text: str, line: int, spans: list[int]) -> None:
        parent = number.rstrip("abcdefghijklmnopqrstuvwxyz")
        rule = self.rule
        if rule is not None and rule.number != parent:  # 2005-08-01 prints 609.2c as "605.2c"
            self.misnumbered(number, text, line, spans, f"subrule {number} is printed under rule {rule.number}")
            return
        if rule is None:  # a subrule whose rule line is missing
            rule = self.new_rule(parent, f"Rule {parent}", line)
        rule.blocks.append(Block(text, line, "rule", number=number))
        rule.lines.extend(spans)

    def misnumbered(self, number: str, text: str, line: int, spans: list[int], why: str) -> None:
        """A rule or subrule whose number cannot be where it is printed: its text stays where it stands, a
        numbered paragraph of the rule above (as printed, number and all), and the build says so."""
        owner = self.rule or self.section or self.chapter
        assert owner is not None, "the body starts at a heading or a rule (_Reading.outline)"
        owner.blocks.append(Block(text, line, "rule", number=number))
        owner.lines.extend(spans)
        where = f"rule {owner.number}" if owner.kind == "rule" else f"section {owner.name!r}"
        self.reading.warn(line, f"{why}: a misprint? Kept as printed, a paragraph of {where}")

    def continuation(self, text: str, line: int, spans: list[int]) -> None:
        """An unnumbered line ("Example: …") is a further paragraph of the block it follows."""
        owner = self.rule or self.section or self.chapter
        assert owner is not None, "the body starts at a heading (ComprehensiveRulesParser.outline)"
        if owner.blocks:
            owner.blocks[-1].text += f"\n\n{text}"
        else:
            owner.blocks.append(Block(text, line))
        owner.lines.extend(spans)
