"""The quality report: how well each document parsed, for the maintainer who added it.

Per document: entries found (per kind), cross-references resolved and unresolved (against every
name of the game), lines placed in no record, and warnings for what looks wrong: a term that is
one line of a list (not an item of a definition list, whose name is emphasised), a name two
entries share, an entry with no text, a glossary whose last entry is cut off, a Glossary heading
with no term read under it, an index or card notes (a section titled as rulings) of which nothing
was read. ``explain`` lists every entry with the reason its parser gave for making it. Computed
from parsed documents only, so a bench can report on a corpus without building it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..text import name_key, split_qualifier
from .lexer import BULLET
from .model import Entry, ParsedDocument
from .parsers.common import GLOSSARY_NAMES
from .parsers.questions import CARD_NOTES, rulings_title
from .parsers.references import INDEX_TITLE
from .source import Source

GLOSSARY_HEADING = re.compile(r"\bglossary\b", re.I)  # says so in so many words ("Keywords" may be prose)
EMPHASISED_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s+(?:\*\*|__|\*|_)\S")
LIST_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[a-z][.)]|\(\d{1,2}\))\s+\S")
TERM_KINDS = ("entry", "keyword")


def is_list_line(line: str) -> bool:
    """A bullet or numbered item ("- x", "* x", "1. x", "(2) x")."""
    return bool(BULLET.match(line) or LIST_ITEM.match(line))


@dataclass
class Finding:
    line: int | None
    message: str

    def as_dict(self) -> dict:
        return {"line": self.line, "message": self.message}


@dataclass
class DocumentReport:
    """What one document gave, and what looks wrong with it."""

    path: str
    parser: str
    lines: int
    entries: dict[str, int] = field(default_factory=dict)  # per kind
    rulings: int = 0
    resolved: int = 0
    unresolved: list[tuple[int, str, str]] = field(default_factory=list)  # (line, term, target)
    unplaced: list[int] = field(default_factory=list)
    furniture: int = 0
    list_terms: int = 0
    stray_list_terms: int = 0  # ... not in a section that says it is a glossary
    warnings: list[Finding] = field(default_factory=list)
    explain: list[dict] = field(default_factory=list)

    @property
    def terms(self) -> int:
        return sum(self.entries.get(kind, 0) for kind in TERM_KINDS)

    def summary(self) -> str:
        """One line for ``rulings build``."""
        return summary_line(self.as_dict())

    def as_dict(self, explain: bool = False) -> dict:
        data = {
            "path": self.path,
            "parser": self.parser,
            "lines": self.lines,
            "entries": dict(sorted(self.entries.items())),
            "terms": self.terms,
            "rulings": self.rulings,
            "cross_references": {
                "resolved": self.resolved,
                "unresolved": [{"line": n, "term": t, "target": x} for n, t, x in self.unresolved],
            },
            "lines_not_placed": self.unplaced,
            "furniture_lines": self.furniture,
            "list_line_terms": self.list_terms,
            "list_line_terms_outside_glossaries": self.stray_list_terms,
            "warnings": [w.as_dict() for w in self.warnings],
        }
        if explain:
            data["explain"] = self.explain
        return data


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {'entries' if word == 'entry' else word + 's'}"


def summary_line(report: dict) -> str:
    """A document's report in one line: what it gave and what looks wrong."""
    kinds = ", ".join(_plural(n, kind) for kind, n in report["entries"].items())
    parts = [kinds or "no entries"]
    if report["rulings"]:
        parts.append(_plural(report["rulings"], "ruling"))
    references = report["cross_references"]
    if references["resolved"] or references["unresolved"]:
        parts.append(f"cross-references {references['resolved']} resolved, {len(references['unresolved'])} unresolved")
    parts.append(f"{len(report['lines_not_placed'])} lines not placed")
    if report["warnings"]:
        parts.append(_plural(len(report["warnings"]), "warning"))
    return f"{report['path']} ({report['parser']}): " + "; ".join(parts)


def explanation(report: dict) -> list[str]:
    """A document's report in full, for ``rulings build --explain``: every entry and why, every warning."""
    out = [summary_line(report), "", "entries (line, kind, names: why):"]
    for item in report.get("explain", []):
        out.append(f"  {item['line']:>6}  {item['kind']:<8} {', '.join(item['names'])}: {item['why'] or '-'}")
    if report["warnings"]:
        out += ["", "warnings:"]
        out += [f"  {w['line'] or '-':>6}  {w['message']}" for w in report["warnings"]]
    if report["lines_not_placed"]:
        out += ["", "lines not placed: " + ", ".join(str(n) for n in report["lines_not_placed"])]
    return out


def reference_keys(reference: str) -> list[str]:
    """Keys a cross-reference may be found under: as written, then without its qualifier."""
    base, qualifier = split_qualifier(reference)
    keys = [name_key(reference)]
    if qualifier:
        keys.append(name_key(base))
    return [k for k in keys if k]


def game_names(documents: list[ParsedDocument]) -> set[str]:
    """Name keys of every entry and sub-definition of a game's documents."""
    keys: set[str] = set()
    for parsed in documents:
        for entry in parsed.entries:
            keys.update(name_key(n) for n in [*entry.names, *entry.spellings])
            keys.update(name_key(s.name) for s in entry.subdefs)
    keys.discard("")
    return keys


def _opening_line(entry: Entry, lines: list[str]) -> str:
    return lines[entry.line - 1] if 0 < entry.line <= len(lines) else ""


def _glossary_runs(entries: list[Entry]) -> list[list[Entry]]:
    """Consecutive glossary terms of one document, run by run."""
    runs: list[list[Entry]] = [[]]
    for entry in entries:
        if entry.kind == "entry":
            runs[-1].append(entry)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _unread_glossaries(entries: list[Entry]) -> list[Entry]:
    """Sections whose heading says Glossary but under which no term was read: a layout the parsers do
    not know, text that is not what its heading says, or an index (the maintainer checks). A section
    holds what follows it up to the next section no deeper than it (not every parser keeps ``path``,
    so this goes by document order and depth)."""
    unread = []
    for n, section in enumerate(entries):
        if section.kind != "section" or not GLOSSARY_HEADING.search(section.name):
            continue
        for later in entries[n + 1 :]:
            if later.kind in TERM_KINDS:
                break
            if later.kind == "section" and len(later.path) <= len(section.path):
                unread.append(section)
                break
        else:
            unread.append(section)
    return unread


def _span(entries: list[Entry], n: int) -> range:
    """The lines a section holds: up to the next section no deeper than it."""
    section = entries[n]
    end = next((e.line for e in entries[n + 1 :] if e.kind == "section" and len(e.path) <= len(section.path)), 10**9)
    return range(section.line, end)


def _unread_parts(parsed: ParsedDocument) -> list[Finding]:
    """An index none of whose rows was read as a link, and a section titled as rulings (card notes, FAQ,
    clarifications) in which no ruling was read: look-up material the parsers did not recognise."""
    found = []
    ruling_lines = [min(r.lines or [r.line]) for r in parsed.rulings]
    for n, entry in enumerate(parsed.entries):
        if entry.kind != "section" or not entry.line:
            continue
        if INDEX_TITLE.match(entry.name) and not entry.see_also and len(entry.lines) > 1:
            message = f"the index under {entry.name!r} was not read: none of its rows names a topic of the document"
            found.append(Finding(entry.line, message))
        elif (
            rulings_title(entry.name)
            and not any(rulings_title(title) for title in entry.path)  # the part's outermost heading says it
            and not any(line in _span(parsed.entries, n) for line in ruling_lines)
        ):
            what = "card notes" if CARD_NOTES.search(entry.name) else "rulings"
            found.append(
                Finding(entry.line, f"the {what} under {entry.name!r} were not read: no ruling was found there")
            )
    return found


def document_report(source: Source, parsed: ParsedDocument, names: set[str] | None = None) -> DocumentReport:
    """The report of one parsed document; ``names``: the game's name keys (defaults to this document's)."""
    lines = source.lines
    names = game_names([parsed]) if names is None else names
    report = DocumentReport(source.spec.display_path, parsed.parser, len(lines))
    report.entries = dict(Counter(e.kind for e in parsed.entries))
    report.rulings = len(parsed.rulings)
    report.unplaced = parsed.uncovered(lines)
    report.furniture = len(parsed.furniture)
    seen: dict[str, Entry] = {}
    for entry in parsed.entries:
        report.explain.append({"line": entry.line, "kind": entry.kind, "names": entry.names, "why": entry.why})
        for target in [*entry.see_also, *entry.redirect]:
            if any(k in names for k in reference_keys(target)):
                report.resolved += 1
            else:
                report.unresolved.append((entry.line, entry.name, target))
        if entry.kind not in TERM_KINDS:
            continue
        opening = _opening_line(entry, lines)
        if is_list_line(opening):
            report.list_terms += 1
            if EMPHASISED_ITEM.match(opening):
                pass  # "- **Cost** - …": an item of a definition list, its name set apart by its printer
            elif not any(GLOSSARY_NAMES.search(title) for title in entry.path):  # a glossary as a list is fine
                report.stray_list_terms += 1
                report.warnings.append(Finding(entry.line, f"term {entry.name!r} is one line of a list"))
        if not entry.blocks and not entry.redirect and not entry.see_also and not entry.subdefs:
            report.warnings.append(Finding(entry.line, f"term {entry.name!r} has no text"))
        key = name_key(entry.name)
        if key in seen and seen[key].kind == entry.kind:
            report.warnings.append(
                Finding(entry.line, f"term {entry.name!r} has the name of the term at line {seen[key].line}")
            )
        seen.setdefault(key, entry)
    for run in _glossary_runs(parsed.entries):
        last = run[-1]
        if len(run) >= 3 and not last.blocks and not last.redirect and not last.see_also:
            report.warnings.append(Finding(last.line, f"the glossary ends abruptly at {last.name!r}"))
    report.warnings.extend(_unread_parts(parsed))
    for section in _unread_glossaries(parsed.entries):
        message = f"no term was read under {section.name!r}, a heading that says Glossary"
        report.warnings.append(Finding(section.line, message))
    for line, term, target in report.unresolved:
        report.warnings.append(Finding(line, f"{term!r} refers to {target!r}, which no entry of the game is named"))
    if report.unplaced:
        first = report.unplaced[0]
        report.warnings.append(Finding(first, f"{len(report.unplaced)} lines are in no entry (the first at {first})"))
    report.warnings.sort(key=lambda w: w.line or 0)
    return report
