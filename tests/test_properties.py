"""Property tests: every parser survives arbitrary text and accounts for every non-blank line.

A line must end up in some entry, ruling, note or version, or in the document's
list of dropped furniture; so no parser change can silently swallow rules text.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulings.ingest.parsers.changelog import ChangelogParser
from rulings.ingest.parsers.comprehensive import ComprehensiveRulesParser
from rulings.ingest.parsers.faq import FaqParser
from rulings.ingest.parsers.generic import GenericParser
from rulings.ingest.parsers.reference import ReferenceParser
from rulings.ingest.parsers.rulebook import RulebookParser

from .conftest import text_source

# Lines shaped like the documents: headings, bullets, steps, see-also, Q/A, ALL CAPS, patch lines, URLs...
FRAGMENTS = [
    "",
    "",
    "",
    "# GLOSSARY",
    "## GLOSSARY",
    "#### ABILITY, CARD ABILITY",
    "# **STARICON**",
    "#### INDEX",
    "# APPENDIX I: EXTRA",
    "# APPENDIX III: FAQ",
    "#### SPIDER-MAN (CORE SET, 1A)",
    "# Q: Does it work?",
    "A: Yes.",
    "**VERSION 1.1**",
    '- Page 3: Added the definition for "Zeta".',
    "See also: Alpha, Beta",
    "See: Keywords",
    "**Guard** \u2014 Text of a keyword.",
    "- 1. A step.",
    "- A bullet",
    "  continued line",
    "\u2022 A bullet",
    "1.0 Release (August 1, 2019)",
    "Changed from 1.0 -> 1.1 (November 1, 2019)",
    "Changed from 1.1 -> 1.2",
    "p. 13, Excess Damage \u2014 \u201cold\u2026\u201d \u2014> \u201cnew\u2026\u201d",
    "p. 17, Thing \u2014> Whole section reworked",
    "Alpha",
    "ALPHA BETA",
    "Contents\t3",
    "Term: a definition.",
    "Note: a note.",
    "GENERAL RULES",
    "CHARACTERS",
    "[ROOK",
    "CITY]",
    "(PROMO)",
    '"FLAME BARRIER"',
    "THIS IS A RULING.",
    "[HTTPS://EXAMPLE.COM](https://example.com)",
    "ERRATA, CLARIFICATIONS AND RULES CHANGES",
    "OFFICIAL RULEBOOK",
    "GLOSSARY",
    "ACTIVE: AN ACTIVE HERO.",
    "- LIMITED:** A KEYWORD.",
    "12",
    "Q: Why?",
    "A question?",
    "Some ordinary sentence that ends with a period.",
    "A line cut mid sentence and",
    "1. Game Concepts",
    "100. General",
    "100.1. A numbered rule.",
    "100.1a A subrule.",
    "100.2. Trample",
    "101.1b. A subrule with a period.",
    "Example: An example.",
    "     An indented continuation.",
    "Contents",
    "Glossary",
    "Credits",
    "These rules are effective as of April 14, 2023.",
]

lines_strategy = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60)), max_size=60)

PARSERS = [
    ("reference", ReferenceParser),
    ("changelog", ChangelogParser),
    ("rulebook", RulebookParser),
    ("faq", FaqParser),
    ("rulebook", GenericParser),
    ("reference", ComprehensiveRulesParser),
]


@pytest.mark.parametrize("kind,parser_class", PARSERS, ids=[cls.__name__ for _, cls in PARSERS])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy)
@example(lines=["GLOSSARY", "", "Changed from 1.0 -> 1.1 (November 1, 2019)", "", "# GLOSSARY"])  # once lost a line
def test_parser_never_crashes_nor_loses_lines(kind, parser_class, lines):
    source = text_source("\n".join(lines), kind, furniture=("ERRATA, CLARIFICATIONS AND RULES CHANGES",))
    doc = parser_class().parse(source)
    assert doc.uncovered(source.lines) == []
