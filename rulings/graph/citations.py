"""References to numbered rules in running text: "rule 702.19", "rules 702.19 and 702.20", "section 5".

Found the same way when the graph records which rules a glossary entry cites and when a page links
them to ``/<game>/rules/<number>``; only numbers the game has are ever linked.
"""

from __future__ import annotations

import re

NUMBER = re.compile(r"\d+(?:\.\d+[a-z]?)?")
_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*[-\u2013]\s*)"
REFERENCE = re.compile(rf"\b(?:rules?|sections?)\s+({NUMBER.pattern}(?:{_JOIN}{NUMBER.pattern})*)", re.I)


def rule_references(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of every rule number a reference in ``text`` names."""
    out = []
    for match in REFERENCE.finditer(text or ""):
        offset = match.start(1)
        for number in NUMBER.finditer(match.group(1)):
            out.append((offset + number.start(), offset + number.end(), number.group(0)))
    return out
