"""Any rulebook read from its outline: one small document per layout publishers use (issue 15).

Each fixture is written here; every one also checks that no line is lost (``uncovered``).
"""

from __future__ import annotations

import pytest

from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.parsers import parse, parser_for
from rulings.ingest.report import document_report
from rulings.ingest.source import read_source

from .conftest import text_source


def read(text: str, kind: str = "rulebook"):
    source = text_source(text, kind, file="doc.md")
    doc = parse(source)
    assert doc.uncovered(source.lines) == [], "every line is in an entry, a ruling or the furniture"
    return doc


def terms(doc) -> dict:
    return {e.name: e for e in doc.entries if e.kind == "entry"}


def sections(doc) -> dict:
    return {e.name: e for e in doc.entries if e.kind == "section"}


# -- glossaries found by their shape -------------------------------------------------------------

REFERENCE_OF_BOLD_TERMS = """# Moon Base Rules Reference

## Overview

This reference lists every rule.

## Glossary

**Airlock:** A door between two domes.

It opens one side at a time.

**Crater**: A space you cannot build on.

**Dome** \u2014 A building that holds air.

*Ridge:* A line of rocks.

**Solar Panel**

Makes one energy each round.

## Credits

Game Design: Ada Lovelace

Art: Grace Hopper and Alan Turing
"""


def test_a_reference_of_bold_term_paragraphs_parses_as_a_reference():
    """kind = "reference" is a hint: a glossary of **Term:** paragraphs is read, not left as one section."""
    source = text_source(REFERENCE_OF_BOLD_TERMS, "reference", file="doc.md")
    assert parser_for(source).name == "generic"  # the outline parser, not the OCR reference parser
    doc = read(REFERENCE_OF_BOLD_TERMS, "reference")
    found = terms(doc)
    assert list(found) == ["Airlock", "Crater", "Dome", "Ridge", "Solar Panel"]
    assert found["Airlock"].text == "A door between two domes.\n\nIt opens one side at a time."
    assert found["Solar Panel"].text == "Makes one energy each round."
    assert all("says it is a glossary" in e.why for e in found.values())
    assert found["Dome"].path == ["Moon Base Rules Reference", "Glossary"]
    # credit lines are never terms, and the section before the glossary is a section
    assert "Game Design" not in found and "Art" not in found
    assert "Game Design: Ada Lovelace" in sections(doc)["Credits"].text
    assert sections(doc)["Overview"].text == "This reference lists every rule."


ALPHABETICAL_RUN = """# Rules

## Cards in play

**Archer:** Shoots two spaces away.

**Builder:** Builds one wall.

**Cook:** Feeds two workers.

**Druid:** Heals one worker.

**Farmer:** Grows one food.

## Turn

**Draw:** Take two cards.

**Play:** Play one card.

**Attack:** Fight a neighbour.

**Clean up:** Discard down to five.

**Score:** Count your points.
"""


def test_an_alphabetical_run_of_definitions_is_a_glossary_and_a_turn_sequence_is_not():
    doc = read(ALPHABETICAL_RUN)
    found = terms(doc)
    assert list(found) == ["Archer", "Builder", "Cook", "Druid", "Farmer"]
    assert found["Cook"].why == "one of 5 definition paragraphs in alphabetical order"
    turn = sections(doc)["Turn"]
    assert turn.text.startswith("Draw: Take two cards.")  # steps of a turn stay the section's text
    assert "Score: Count your points." in turn.text


HEADINGS_GLOSSARY = """# Star Pilots

## Setup

Place the board.

## Glossary

### Boost

Move one extra space.

#### Boost Token

A token that shows a boost was used.

### Evade / Evasion

Roll one die more.

### Hit Points (HP)

How much damage a ship takes.

### The word "may"

What follows is optional.

A plain paragraph that ends the entry.

## Appendix: Variants

Play with three players.
"""


def test_heading_glossary_nests_sub_headings_and_ends_at_the_next_section():
    doc = read(HEADINGS_GLOSSARY)
    found = terms(doc)
    assert list(found) == ["Boost", "Evade", "Hit Points", "May"]
    assert "Boost Token" not in found  # a #### under a term is part of it
    assert [s.name for s in found["Boost"].subdefs] == ["Boost Token"]
    assert "A token that shows a boost was used." in found["Boost"].text
    assert found["Evade"].names == ["Evade", "Evasion"] and found["Evade"].spellings == ["Evade / Evasion"]
    assert found["Hit Points"].names == ["Hit Points", "HP"]
    assert found["May"].text.endswith("A plain paragraph that ends the entry.")
    # the level-2 heading after the glossary ends it: its text is not swallowed by the last entry
    assert sections(doc)["Appendix: Variants"].text == "Play with three players."
    assert "Play with three players" not in found["May"].text


LETTER_DIVIDERS = """# Glossary

## A

**Action:** Something you do.

**Ally:** A friendly card.

## B

**Boost:** An extra push.
"""


def test_a_document_titled_glossary_has_no_entries_for_its_contents_components_or_credits():
    doc = read(
        "# Moon Base Glossary\n\n## Table of Contents\n\n*Components, icons, credits.*\n\n"
        "## Component Overview\n\n**Shared components:**\n\n- 1 Board\n- 20 Domes\n\n"
        "## Airlock\n\nA door between two domes.\n\n## Crater\n\nA space nothing is built on.\n\n"
        "## Credits\n\nGame Design: Ada Lovelace\n"
    )
    assert sorted(terms(doc)) == ["Airlock", "Crater"]
    assert {"Table of Contents", "Component Overview", "Credits"} <= set(sections(doc))


def test_letter_dividers_of_a_glossary_are_furniture():
    doc = read(LETTER_DIVIDERS)
    assert list(terms(doc)) == ["Action", "Ally", "Boost"]
    assert "A" not in sections(doc) and "B" not in sections(doc)
    assert set(doc.furniture.values()) == {"letter divider of a glossary"}


ALPHABETICAL_HEADINGS = """# Rules

## Keyword reference

### Ambush

Attack first.

### Burrow

Hide under the board.

### Charge

Move two spaces, then attack.

### Dodge

Ignore one hit.

### Flying

Ignore terrain.

## Turn sequence

### Ready

Ready your cards.

### Draw

Draw two cards.

### Act

Take three actions.
"""


def test_alphabetical_sub_headings_are_a_glossary_without_being_called_one():
    doc = read(ALPHABETICAL_HEADINGS)
    assert list(terms(doc)) == ["Ambush", "Burrow", "Charge", "Dodge", "Flying"]
    assert {"Ready", "Draw", "Act"} <= set(sections(doc))


LISTS_ARE_NOT_TERMS = """# Rules

## Setup

1. **Board:** Place it in the middle.
2. **Decks:** Shuffle each deck.
3. **Hands:** Deal five cards.
4. **Markers:** Put them on zero.
5. **Tokens:** Make a pile.

## Round

- **Action:** Take one action.
- **Bonus:** Collect a bonus.
- **Cleanup:** Discard.
- **Draw:** Draw one card.
- **End:** Pass the first player marker.

## Chains

**Chain:** A penalty to drawing.

**Chains 1-6**: draw one fewer card.
**Chains 7-12**: draw two fewer cards.

**Mulligan:** Redraw your hand.

**Note**: Only once per game.

**Purge:** Remove from the game.

**Rarity:** How rare a card is.

**Shuffle:** Mix a deck.
"""


def test_list_items_steps_labels_set_as_lines_and_notes_are_never_terms():
    doc = read(LISTS_ARE_NOT_TERMS)
    found = terms(doc)
    assert list(found) == ["Chain", "Mulligan", "Purge", "Rarity", "Shuffle"]
    assert "Chains 7-12: draw two fewer cards." in found["Chain"].text  # a table set as lines stays in its entry
    assert "Only once per game." in found["Mulligan"].text
    assert "Board: Place it in the middle." in sections(doc)["Setup"].text


LIST_GLOSSARY = """# Glossary

- **Army**: your units on the board.
- **Bravery**: points on your cards.
  - counted at the end of each age
- **Coin**: what you bid with.
"""


def test_a_glossary_written_as_a_list_is_a_glossary():
    doc = read(LIST_GLOSSARY)
    found = terms(doc)
    assert list(found) == ["Army", "Bravery", "Coin"]
    assert "counted at the end of each age" in found["Bravery"].text
    report = document_report(text_source(LIST_GLOSSARY, "rulebook", file="doc.md"), doc)
    assert report.list_terms == 3 and report.stray_list_terms == 0  # counted, not a warning


LINE_GLOSSARY = """# Rules

## Glossary of Terms

**Action:** Placing a worker.
**Build:** Taking a building.
**Chain:** A penalty to drawing.

**Chains 1-6**: draw one fewer card.
**Chains 7-12**: draw two fewer cards.

**Dock:** Where ships wait.
**Launch:** Moving a ship out.
**Mulligan:** Redraw your hand.
"""


def test_a_glossary_set_line_under_line_is_read_entry_by_entry():
    """No blank line between entries: each line whose name keeps the alphabetical order is an entry;
    a numbered series of labels set the same way stays a table in the entry above it."""
    doc = read(LINE_GLOSSARY)
    found = terms(doc)
    assert list(found) == ["Action", "Build", "Chain", "Dock", "Launch", "Mulligan"]
    assert (found["Build"].line, found["Build"].text) == (6, "Taking a building.")
    assert "Chains 7-12: draw two fewer cards." in found["Chain"].text
    assert found["Launch"].text == "Moving a ship out."


# -- cross-references as publishers write them -------------------------------------------------------

REFERENCES = """# Rules

## Glossary

**Attack, Attacker:** See "Fight" on page 10.

**Battleline:** The line of creatures. See "Creatures" on page 6.

**Boost:** Move faster.

*See also:* Fight, Flank

**Capture:** Take a token.

See also Reap.

**Damage:** Harm. See [Form](#form-change-form).

**Exhaust:** See Ready.

**Fight:** Both creatures deal damage.

**Flank:** An end of the line.

**Forge:** For details on forging keys, see page 4.

**Guard:** See: Keywords, Status Cards

**Keywords:** Words with rules.

**Reap:** Gain one token.

**Ready:** Turn a card upright.

**Status Cards:** Cards on cards.

## Form, Change Form

A hero's side.

## Creatures

Creatures fight.
"""


def test_cross_references_in_every_spelling():
    doc = read(REFERENCES)
    found = terms(doc)
    assert found["Attack"].redirect == ["Fight"] and found["Attack"].blocks == []
    assert found["Battleline"].see_also == ["Creatures"]
    assert found["Battleline"].text == 'The line of creatures. See "Creatures" on page 6.'  # the sentence stays
    assert found["Boost"].see_also == ["Fight", "Flank"] and found["Boost"].text == "Move faster."
    assert found["Capture"].see_also == ["Reap"]
    assert found["Damage"].see_also == ["Form, Change Form"]  # the heading the anchor names
    assert found["Damage"].text == "Harm. See Form."  # the link becomes its label
    assert found["Exhaust"].redirect == ["Ready"]
    assert found["Forge"].see_also == [] and found["Forge"].text.endswith("see page 4.")  # a page is no name
    assert found["Guard"].redirect == ["Keywords", "Status Cards"]  # several targets
    report = document_report(text_source(REFERENCES, "rulebook", file="doc.md"), doc)
    assert report.unresolved == [] and report.resolved == 9  # 1 + 1 + 2 + 1 + 1 + 1 + 2


# -- FAQ layouts and cards ---------------------------------------------------------------------------

FAQ = """# Moon Base FAQ

## General

Q: Can a dome sit in a crater?
A: No. Craters cannot hold buildings.

**Q: Do airlocks count as domes?**

No.

**Can I build on a ridge?**
- Yes, if it is flat.

**Is the moon real?** Yes, it is.

### What happens when the deck runs out?

Shuffle the discard pile.

## Card Clarifications

### Core Set

#### SPIDER-MAN (#1A)

Q: Can Spider-Man defend twice?
A: No.

#### WEBBED UP (CORE SET, 9)

- It stays on the villain.

#### Black Cat

- Discard the top card first.

### Expansion Two

**Abandon All Hope (79)**
- Either option can be chosen.

**Captain Phasma (18), Megablaster Troopers (31)**
- Count them together.

## Errata

**Award Ceremony (r138)** \u2014 Should read: "Draw two cards."
"""


def test_faq_layouts_and_card_headings():
    doc = read(FAQ)
    faqs = [r for r in doc.rulings if r.kind == "faq"]
    assert [(r.question, r.answer) for r in faqs[:5]] == [
        ("Can a dome sit in a crater?", "No. Craters cannot hold buildings."),
        ("Do airlocks count as domes?", "No."),
        ("Can I build on a ridge?", "Yes, if it is flat."),
        ("Is the moon real?", "Yes, it is."),
        ("What happens when the deck runs out?", "Shuffle the discard pile."),
    ]
    by_card = {r.card: r for r in doc.rulings if r.card}
    spidey = by_card["Spider-Man"]
    assert (spidey.kind, spidey.card_number, spidey.expansion) == ("faq", "1A", "Core Set")
    assert spidey.question == "Can Spider-Man defend twice?" and spidey.answer == "No."
    webbed = by_card["Webbed Up"]
    assert (webbed.card_set, webbed.card_number, webbed.expansion) == ("Core Set", "9", "Core Set")
    assert webbed.text == "- It stays on the villain."  # the answer does not swallow the next card's heading
    assert by_card["Black Cat"].expansion == "Core Set"  # a plain heading under a pack heading is a card
    assert by_card["Abandon All Hope"].expansion == "Expansion Two" and by_card["Abandon All Hope"].card_number == "79"
    assert by_card["Captain Phasma"].cards == ["Captain Phasma", "Megablaster Troopers"]
    errata = by_card["Award Ceremony"]
    assert errata.kind == "errata" and errata.card_number == "r138" and "Draw two cards." in errata.text
    assert not terms(doc)  # nothing here is a glossary


def test_a_labelled_line_under_a_card_heading_stays_the_cards_clarification():
    doc = read(
        "# FAQ\n\n## Card Clarifications\n\n### Core Set\n\n#### Black Cat (12)\n\n"
        "**Timing:** Use it after drawing.\n\n- Discard the top card first.\n",
        "faq",
    )
    (ruling,) = doc.rulings
    assert (ruling.kind, ruling.cards) == ("clarification", ["Black Cat"])
    assert ruling.text == "Timing: Use it after drawing.\n\n- Discard the top card first."
    assert "Black Cat (12)" not in sections(doc)


def test_numbered_questions_in_a_faq():
    doc = read("# FAQ\n\n1. Can I pass? Yes, any time.\n\n2. Can I trade?\n\nOnly with neighbours.\n", "faq")
    assert [(r.question, r.answer) for r in doc.rulings] == [
        ("Can I pass?", "Yes, any time."),
        ("Can I trade?", "Only with neighbours."),
    ]


# -- names and the report -------------------------------------------------------------------------------


def test_names_publishers_print_and_why_each_entry_was_made():
    doc = read(
        '# Glossary\n\n**Victory Points (VP):** What wins.\n\n**"If You Do" and "In Order To":** Conditions.\n\n'
        "**\u00c6mber:** A resource.\n\n**PLAYER\u2019S TURN:** Yours.\n"
    )
    found = terms(doc)
    assert found["Victory Points"].names == ["Victory Points", "VP"]
    assert found["If You Do"].names == ["If You Do", "In Order To"]
    assert found["If You Do"].spellings == ['"If You Do" and "In Order To"']  # the heading as printed answers too
    assert "\u00c6mber" in found and "Player\u2019s Turn" in found


def test_a_document_that_parses_badly_still_parses_and_the_report_says_what_is_wrong():
    text = "# Glossary\n\n**Alpha:** First.\n\n**Alpha:** Again.\n\n**Beta:** See Gamma.\n\n**Omega:**\n"
    source = text_source(text, "rulebook", file="doc.md")
    doc = parse(source)
    report = document_report(source, doc)
    messages = [w.message for w in report.warnings]
    assert "term 'Alpha' has the name of the term at line 3" in messages
    assert "'Beta' refers to 'Gamma', which no entry of the game is named" in messages
    assert "term 'Omega' has no text" in messages
    assert "the glossary ends abruptly at 'Omega'" in messages
    assert report.summary().startswith("corpus/g/doc.md (generic): 4 entries, 1 section")
    assert not any("no term was read" in m for m in messages)  # its glossary was read, if badly


def test_a_glossary_heading_with_no_term_read_under_it_is_reported():
    """A glossary in a layout no parser reads (two OCR'd columns in a code block), beside one that is read:
    the report names the heading and its line, and nothing about the glossary that gave terms."""
    text = (
        "# Rules\n\n## Setup\n\nDeal five cards.\n\n## Glossary\n\n```\nArmy - Units grouped   Leader - A card\n```\n\n"
        "## Keywords\n\n### Ambush\n\nPlay it first.\n\n### Guard\n\nProtect.\n\n## Credits\n\nDesign: A. Person\n"
    )
    source = text_source(text, "rulebook", file="doc.md")
    report = document_report(source, parse(source))
    assert [(w.line, w.message) for w in report.warnings] == [
        (7, "no term was read under 'Glossary', a heading that says Glossary")
    ]


@pytest.mark.parametrize("layout", [REFERENCE_OF_BOLD_TERMS, ALPHABETICAL_RUN, HEADINGS_GLOSSARY, REFERENCES, FAQ])
def test_every_layout_with_a_bom_and_crlf_line_ends(layout, tmp_path):
    """The same documents as a Windows editor saves them read the same, and lose no line."""
    path = tmp_path / "doc.md"
    path.write_bytes(b"\xef\xbb\xbf" + layout.replace("\n", "\r\n").encode())
    source = read_source(DocumentSpec("g", "doc.md", path, "rulebook", "Doc"))
    doc = parse(source)
    assert doc.uncovered(source.lines) == []
    assert [e.names for e in doc.entries] == [e.names for e in read(layout).entries]
