"""Property tests: every parser survives arbitrary text and accounts for every non-blank line.

A line must end up in some entry, ruling, note or version, or in the document's
list of dropped furniture; so no parser change can silently swallow rules text.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.parsers.changelog import ChangelogParser
from rulings.ingest.parsers.faq import FaqParser
from rulings.ingest.parsers.generic import GenericParser
from rulings.ingest.parsers.reference import ReferenceParser
from rulings.ingest.parsers.rulebook import RulebookParser
from rulings.ingest.source import Source

# Lines shaped like the documents: headings, bullets, steps, see-also, Q/A, ALL CAPS, patch lines, URLs...
FRAGMENTS = [
    "", "", "", "# GLOSSARY", "## GLOSSARY", "#### ABILITY, CARD ABILITY", "# **STARICON**", "#### INDEX",
    "# APPENDIX I: EXTRA", "# APPENDIX III: FAQ", "#### SPIDER-MAN (CORE SET, 1A)", "# Q: Does it work?",
    "A: Yes.", "**VERSION 1.1**", "- Page 3: Added the definition for \"Zeta\".", "See also: Alpha, Beta",
    "See: Keywords", "**Guard** \u2014 Text of a keyword.", "- 1. A step.", "- A bullet", "  continued line",
    "\u2022 A bullet", "1.0 Release (August 1, 2019)", "Changed from 1.0 -> 1.1 (November 1, 2019)",
    "Changed from 1.1 -> 1.2", "p. 13, Excess Damage \u2014 \u201cold\u2026\u201d \u2014> \u201cnew\u2026\u201d",
    "p. 17, Thing \u2014> Whole section reworked", "Alpha", "ALPHA BETA", "Contents\t3", "Term: a definition.",
    "Note: a note.", "GENERAL RULES", "CHARACTERS", "[ROOK", "CITY]", "(PROMO)", "\"FLAME BARRIER\"",
    "THIS IS A RULING.", "[HTTPS://EXAMPLE.COM](https://example.com)", "ERRATA, CLARIFICATIONS AND RULES CHANGES",
    "OFFICIAL RULEBOOK", "GLOSSARY", "ACTIVE: AN ACTIVE HERO.", "- LIMITED:** A KEYWORD.", "12", "Q: Why?",
    "A question?", "Some ordinary sentence that ends with a period.", "A line cut mid sentence and",
]

lines_strategy = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60)), max_size=60)

PARSERS = [
    ("reference", ReferenceParser), ("changelog", ChangelogParser), ("rulebook", RulebookParser),
    ("faq", FaqParser), ("rulebook", GenericParser),
]


def check(kind: str, parser_class, lines: list[str]) -> None:
    spec = DocumentSpec("prop-game", "doc.txt", None, kind, "Doc",
                        furniture=("ERRATA, CLARIFICATIONS AND RULES CHANGES",))
    text = "\n".join(lines)
    source = Source(spec, text.replace("\r", "\n").split("\n"), "0", "utf-8")
    doc = parser_class().parse(source)
    assert doc.uncovered(source.lines) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
def test_reference_parser_never_crashes_nor_loses_lines(lines):
    check("reference", ReferenceParser, lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
def test_changelog_parser_never_crashes_nor_loses_lines(lines):
    check("changelog", ChangelogParser, lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
@example(lines=["GLOSSARY", "", "Changed from 1.0 -> 1.1 (November 1, 2019)", "", "# GLOSSARY"])  # found by it
def test_rulebook_parser_never_crashes_nor_loses_lines(lines):
    check("rulebook", RulebookParser, lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
def test_faq_parser_never_crashes_nor_loses_lines(lines):
    check("faq", FaqParser, lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
def test_generic_parser_never_crashes_nor_loses_lines(lines):
    check("rulebook", GenericParser, lines)
