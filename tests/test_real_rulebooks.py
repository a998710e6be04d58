"""Rulebooks nobody here wrote, read by the outline parser: glossary entries counted by hand (issue 15).

Each test says how the count was made by reading the document; the parser must make exactly those
entries, with those names, and nothing else (no phantom terms).
"""

from __future__ import annotations

import re

import pytest

from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.parsers import parse
from rulings.ingest.report import document_report
from rulings.ingest.source import read_source

from .shared import SHARED

pytestmark = pytest.mark.needs_shared


def parsed(path, kind="rulebook"):
    source = read_source(DocumentSpec("g", path.name, path, kind, path.stem))
    doc = parse(source)
    assert doc.uncovered(source.lines) == []
    return source, doc


def glossary(doc) -> list[list[str]]:
    return [e.names for e in doc.entries if e.kind == "entry"]


def rulebook(name: str):
    return SHARED / "scale-corpus" / "rulebooks" / name


def test_keyforge_call_of_the_archons():
    """By hand: the "## Glossary" section (lines 284-539) holds 65 paragraphs that open with a bold
    name and a colon inside the bold (``**Æmber:**``; ``grep -cE '^\\*\\*[^*]+:\\*\\*'`` on those lines
    says 65). Not entries: the four "**Chains 1-6**: draw one fewer card." lines, rows of a table set
    line under line inside "Chain, Chains", and two "**Note**:" paragraphs. Nothing else in the book
    is a glossary (the seven houses are chapters of lore; the credits are credits)."""
    source, doc = parsed(rulebook("keyforge-call-of-the-archons-rulebook.md"))
    names = glossary(doc)
    assert len(names) == 65
    assert names[:6] == [
        ["Ability", "Card Ability"], ["Action Ability"], ["Active House"], ["Active Player"], ["\u00c6mber"],
        ["Archives"],
    ]  # fmt: skip
    assert ["Attack", "Attacker", "Attacking"] in names and ["If You Do", "In Order To"] in names
    assert ["Fight With"] in names and ["This Way"] in names and ["Power Counter +1", "Power Status Card"] in names
    assert names[-3:] == [["Traits"], ["Unforge"], ["Use"]]
    start = source.lines.index("## Glossary")
    end = next(n for n, line in enumerate(source.lines) if n > start and line.startswith("## "))
    openers = [m[1] for line in source.lines[start:end] if (m := re.match(r"^\*\*([^*]+):\*\*", line))]
    printed = [e.spellings[0] if e.spellings else e.name for e in doc.entries if e.kind == "entry"]
    assert printed == openers  # every entry by name, in the book's order: the heading as printed
    assert not any(n[0].startswith(("Chains ", "Note", "Game Design", "Producer")) for n in names)
    entries = {e.name: e for e in doc.entries if e.kind == "entry"}
    assert entries["Attack"].redirect == ["Fight"] and entries["Use"].redirect == ["Using Cards"]
    assert entries["\u00c6mber"].see_also == ["Capture", "Keys", "Reap", "Steal"]
    assert "Chains 19-24: draw four fewer cards." in entries["Chain"].text
    report = document_report(source, doc)
    assert report.unresolved == [] and report.list_terms == 0
    faq = [r for r in doc.rulings if r.kind == "faq"]
    assert len(faq) == 8 and faq[0].question.startswith("My opponent has 14 \u00c6mber")


def test_legend_of_the_five_rings():
    """By hand: two parts of the book define terms. "### Other Terminology" (Appendix I) defines
    Friendly, Sacrifice and Trait (``**Term** – text``), and "### Keywords" (Quick Reference) the eight
    keywords Ancestral ... Sincerity (``**Term:** text``): 11. Not a glossary: the numbered "Card
    Anatomy Key" (a list), the bold phase names of "Action Opportunities" (sub-headings) and the
    credits. The FAQ appendix asks 4 bold questions.

    Since issue 33 a definition list inside an ordinary section is a glossary's entries too (the brief
    of the blind counts in tests/data/rulebook-counts/): the four elements of a triggered ability
    (``* **Cost** — …``, under "Triggered Abilities") and the seven of "Symbols and Icons" (a reference
    of icons, ``**Air:** …``; "Ring Symbols (with Ring Effects)" is a bold line alone): 22."""
    source, doc = parsed(rulebook("legend-of-the-five-rings-the-card-game-rulebook.md"))
    assert glossary(doc) == [
        ["Triggering condition"], ["Cost"], ["Targeting requirements"], ["Effect"],
        ["Friendly"], ["Sacrifice"], ["Trait"], ["Ancestral"], ["Courtesy"], ["Covert"], ["Limited"],
        ["No Attachments"], ["Pride"], ["Restricted"], ["Sincerity"],
        ["Conflict Types"], ["Clan Symbols"], ["Air"], ["Earth"], ["Fire"], ["Water"], ["Void"],
    ]  # fmt: skip
    assert [r.question[:30] for r in doc.rulings] == [
        "Why does the ring effect occur",
        "If I use the card Contingency ",
        "Can I use the effect of the Wa",
        "If I break my own province by ",
    ]
    assert document_report(source, doc).unresolved == []


def test_star_wars_destiny():
    """By hand: "## Part 8. Terms" ("definitions ... of important terms ..., listed in alphabetical
    order") has 27 "###" entries, Character Die ... X as a Variable; "### Keywords" (Part 7) has 7
    "####" keywords, Ambush ... Team Up: 34. Every other heading is a section of the rules. The card
    clarifications are rulings under their pack, the errata rulings on their card, the FAQ bold
    questions answered by a bullet. Since issue 33 a definition list inside an ordinary section counts
    too: the five rarities (``- **Fixed (Gray):** …``, under "Rarity"): 39."""
    source, doc = parsed(rulebook("star-wars-destiny-rulebook.md"))
    names = [n[0] for n in glossary(doc)]
    assert names[:5] == ["Fixed (Gray)", "Common (Blue)", "Uncommon (Yellow)", "Rare (Green)", "Legendary (Purple)"]
    assert names[5:12] == ["Ambush", "Guardian", "Modify", "Parallel Die", "Piloting", "Redeploy", "Team Up"]
    assert names[12:] == [
        "Character Die", "Cheapest", "Choose \u2014 Either", "Choose \u2014 Target", "Combined Value", "Controller",
        "Copy (of a Card)", "Decreases", "Diceless Card", "Free", "Heal", "Increases", "Look At", "Move", "Owner",
        "Play Restrictions", "Remaining Health", "Removing Dice", "Replace", "Rolling", "Search", "Showing",
        "Spotting", "Taking Damage", "Turn (Die)", "Unblockable Damage", "X as a Variable",
    ]  # fmt: skip
    by_kind = {}
    for ruling in doc.rulings:
        by_kind.setdefault(ruling.kind, []).append(ruling)
    errata = {r.card: r for r in by_kind["errata"]}
    assert errata["Award Ceremony"].card_number == "r138" and "Should read" in errata["Award Ceremony"].text
    clarified = {r.card: r for r in by_kind["clarification"]}
    assert (
        clarified["Abandon All Hope"].expansion == "Awakenings (r)"
        and clarified["Abandon All Hope"].card_number == "79"
    )
    assert clarified["Captain Phasma"].cards == ["Captain Phasma", "Megablaster Troopers"]
    faq = by_kind["faq"]
    assert faq[0].question.startswith("Can I play with my friend") and faq[0].answer.startswith("Yes.")
    # the "## FAQ" section's 47 bold paragraphs (grep -cE '^\*\*.*\*\*$' after its heading), each a question
    # (one goes on after its question mark: "… stall the round? Like a Backup Muscle (r99) …")
    assert len(faq) == 47


MAGIC = "comprehensive-rules-2021-02-02.txt"


def test_magic_glossary():
    """By hand: the 2021-02-02 edition's glossary runs from the line "Glossary" to the line "Credits";
    each entry is a group of lines between blank lines, the first line its name as printed. Counting
    those groups in the file (as below, on the raw lines) gives 585, from "Abandon" to
    "Zone-Change Triggers"."""
    path = SHARED / "corpora" / "magic-the-gathering" / MAGIC
    source, doc = parsed(path, "reference")
    lines = source.lines
    start = next(i for i, line in enumerate(lines) if line.strip() == "Glossary" and i > 1000)
    end = next(i for i, line in enumerate(lines) if line.strip() == "Credits" and i > start)
    groups = [m.group(0) for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", "\n".join(lines[start + 1 : end]))]
    names = [n[0] for n in glossary(doc)]
    assert len(groups) == len(names) == 585
    assert names == [g.split("\n", 1)[0].strip() for g in groups]
    assert names[0] == "Abandon" and names[-1] == "Zone-Change Triggers"
    assert not any(n.endswith(".") or n[:1].isdigit() for n in names)  # no definition line taken for a name
    entries = {e.name: e for e in doc.entries if e.kind == "entry"}
    assert entries["APNAP Order"].redirect == ["Active Player, Nonactive Player Order"]
    assert entries["If"].redirect == ["Intervening \u201cIf\u201d Clause"]
    assert entries["Tapped"].see_also == ["Untapped"] and "See rule 110.5" in entries["Tapped"].text
    assert document_report(source, doc).unresolved == []
