"""Rulebooks read blind (issue 33): one small fixture per way a rulebook's look-up material was missed or
invented. Each fixture is written here, and every one checks that no line is lost."""

from __future__ import annotations

from rulings.ingest.parsers import parse
from rulings.ingest.report import document_report

from .conftest import text_source
from .test_outline_parser import read, sections, terms  # a fixture read whole, its terms and sections


def warnings(text: str, kind: str = "rulebook") -> list[str]:
    source = text_source(text, kind, file="doc.md")
    return [w.message for w in document_report(source, parse(source)).warnings]


# -- glossaries of headings ------------------------------------------------------------------------

HEADINGS_WITH_A_SUB_HEADING = """# Star Raid Rules Reference

## Activation

A figure's turn: it performs two actions.

## Attack

A figure rolls its attack dice against a target.

### Attack Range

The number of spaces an attack may reach.

## Blast

Damage dealt to each figure next to the target.

## Cover

Terrain between two figures.

## Damage

Each point removes one health.

## Elite

A stronger figure, shown in red.
"""


def test_a_sub_heading_is_a_sub_definition_not_a_reason_to_reject_the_glossary():
    doc = read(HEADINGS_WITH_A_SUB_HEADING)
    found = terms(doc)
    assert list(found) == ["Activation", "Attack", "Blast", "Cover", "Damage", "Elite"]
    assert [s.name for s in found["Attack"].subdefs] == ["Attack Range"]
    assert "Attack Range" not in sections(doc)


INTRODUCTION_ONLY_GLOSSARY = """# Lantern Rules

## Setup

Give each player a lantern.

## Glossary

The terms below are in alphabetical order.

## Ambush

An enemy that attacks first.

## Blight

A token that spreads each round.

## Cinder

A spent lantern.

## Dusk

The last round of the game.

## Credits

Design: Jane Roe
"""


def test_a_glossary_heading_with_only_an_introduction_covers_the_sections_after_it():
    doc = read(INTRODUCTION_ONLY_GLOSSARY)
    assert list(terms(doc)) == ["Ambush", "Blight", "Cinder", "Dusk"]
    assert "Setup" in sections(doc) and "Credits" in sections(doc)
    assert terms(doc)["Blight"].path[-1] == "Glossary"


ENTRY_ONE_LEVEL_TOO_HIGH = """# Crypt Rules Reference

## Glossary

### Action

Something a hero does on their turn.

### Boost

Add one die to a test.

## Charge

Move and attack as one action.

### Defend

Roll the defence dice.

### Evade

Leave an enemy's space without being attacked.

## Credits

Design: Jane Roe
"""


def test_an_entry_printed_one_level_too_high_does_not_end_the_glossary():
    doc = read(ENTRY_ONE_LEVEL_TOO_HIGH)
    found = terms(doc)
    assert list(found) == ["Action", "Boost", "Charge", "Defend", "Evade"]
    assert found["Charge"].subdefs == [] and found["Charge"].text == "Move and attack as one action."
    assert "Credits" in sections(doc)


GLOSSARY_THEN_A_CHAPTER = """# Destiny Rules

## Keywords

### Ambush

Act again after playing this.

### Guardian

Take damage for another character.

## Triggered Abilities

Abilities that wait for a moment.

### Trigger Condition

What starts the ability.

### Before Abilities

Resolve before the trigger.

## Zones

Where cards are.
"""


def test_a_chapter_after_a_glossary_is_not_an_entry_printed_a_level_too_high():
    """ "## Triggered Abilities" after "## Keywords" keeps the order, but its own sub-headings do not go on
    with the glossary: a chapter, and what it holds its sections."""
    doc = read(GLOSSARY_THEN_A_CHAPTER)
    assert list(terms(doc)) == ["Ambush", "Guardian"]
    assert {"Triggered Abilities", "Trigger Condition", "Before Abilities", "Zones"} <= set(sections(doc))


# -- see-also families ----------------------------------------------------------------------------

RELATED_TOPICS = """# Star Raid Rules Reference

## Glossary

### Attack

A figure rolls its attack dice.

Related Topics: Defense, Line of Sight

### Defense

Dice rolled against an attack.

**Related:** Attack

### Line of Sight

Whether a figure can see another.

*See also:* Attack, Defense
"""


def test_related_topics_and_related_are_see_also_lines():
    doc = read(RELATED_TOPICS)
    found = terms(doc)
    assert list(found) == ["Attack", "Defense", "Line of Sight"]
    assert found["Attack"].see_also == ["Defense", "Line of Sight"]
    assert found["Defense"].see_also == ["Attack"]
    assert found["Line of Sight"].see_also == ["Attack", "Defense"]
    assert all("Related" not in e.text for e in found.values())


# -- phantoms --------------------------------------------------------------------------------------

OTHER_TERMS_AND_CONCEPTS = """# Network Rules

## Other Terms and Concepts

### Timing Priority

The active player acts first.

### Simultaneous Effect Example

Two abilities trigger at once: the active player orders them.
"""


def test_a_title_that_only_contains_terms_is_not_a_glossary():
    doc = read(OTHER_TERMS_AND_CONCEPTS)
    assert terms(doc) == {}
    assert {"Timing Priority", "Simultaneous Effect Example"} <= set(sections(doc))


def test_a_title_that_is_a_glossary_name_as_a_whole_still_is_one():
    """ "Key Terms" names a glossary; its worked example stays a section, never a term."""
    doc = read(OTHER_TERMS_AND_CONCEPTS.replace("Other Terms and Concepts", "Key Terms"))
    assert list(terms(doc)) == ["Timing Priority"]
    assert "Simultaneous Effect Example" in sections(doc)


SETUP_LABELS_AND_EXAMPLES = """# Desert Rules

## Setup

**A.** Place the board in the middle of the table.

**B.** Shuffle the deck of conflicts.

**C.** Each player takes a leader.

**D.** Deal five cards to each player.

**E.** Place the water tokens.

## Town Market

**Advance:** Move one step up a track.

**Block:** Stop one attack.

**Example 1:** Anna advances twice.

**Example 2:** Ben blocks Anna.

**Flank:** Attack from the side.

**Guard:** Protect a neighbour.
"""


def test_one_letter_labels_and_numbered_examples_are_never_terms():
    doc = read(SETUP_LABELS_AND_EXAMPLES)
    assert list(terms(doc)) == ["Advance", "Block", "Flank", "Guard"]


TURN_ACTIONS_OUT_OF_ORDER = """# Dungeon Rules

## Heroes' Phase

Each hero takes three actions.

### Combat Actions

Attack an enemy in your zone.

### Do Nothing

Pass your action.

### Get Up

Stand up after being knocked down.

### Movement

Move one zone.

### Reorganize

Swap items with a hero in your zone.

### Signature

Use your class ability.

### Transmute

Turn two items into one.

### Counter-Attack

Strike back when attacked.
"""


def test_a_run_out_of_alphabetical_order_is_not_a_glossary_without_a_heading_saying_so():
    """C, D, G, M, R, S, T, C: one step back in eight. The old test (two letters, one back in six) took it."""
    doc = read(TURN_ACTIONS_OUT_OF_ORDER)
    assert terms(doc) == {}
    assert {"Combat Actions", "Counter-Attack"} <= set(sections(doc))


SUMMARY_READ_TWICE = """# Great War Rules

## Glossary

**Entrenchment:** Digging in to gain a trench.

**Flank Attack:** An attack from two sides.

**Morale:** Whether a unit will fight on.

**Reserve Box:** Where spare units wait.

**Trench:** A line a unit holds.

## Rules Summary

**Entrenchment:** Digging in to gain a trench.

**Flank Attack:** An attack from two sides.

**Morale:** Whether a unit will fight on.

**Reserve Box:** Where spare units wait.

**Trench:** A line a unit holds.
"""


def test_a_summary_that_repeats_the_glossary_does_not_double_its_terms():
    doc = read(SUMMARY_READ_TWICE)
    names = [e.name for e in doc.entries if e.kind == "entry"]
    assert names == ["Entrenchment", "Flank Attack", "Morale", "Reserve Box", "Trench"]
    assert sections(doc)["Morale"].path[-1] == "Rules Summary"  # the repeat is still read, as sections


# -- real entries that were dropped ----------------------------------------------------------------

CONNECTIVE_WORDS_AS_ENTRIES = """# Quest Rules

## Glossary

**Surge:** Reveal one more encounter card.

**Then:** The effect before "then" must resolve fully before the effect after it.

**Travel:** Move to the active location.

**When:** An effect that resolves in response to a timing point.
"""


def test_then_and_when_are_entries_inside_a_glossary():
    doc = read(CONNECTIVE_WORDS_AS_ENTRIES)
    assert list(terms(doc)) == ["Surge", "Then", "Travel", "When"]


def test_then_and_when_stay_lead_ins_outside_a_glossary():
    text = CONNECTIVE_WORDS_AS_ENTRIES.replace("## Glossary", "## Playing").replace("**Then:**", "**Then**:")
    doc = read(text.replace("**Surge:**", "Surge:").replace("**Travel:**", "Travel:"))
    assert "Then" not in terms(doc) and "When" not in terms(doc)


NAMES_WITH_LINKS_AND_PUNCTUATION = """# Kart Rules

## Glossary

**[Active player](#active-player):** The player taking a turn.

**max. X:** At most X of something.

**Shell:** A thrown item.

**THWOMP! (PLAY):** Every other player loses a turn.

**\\* (asterisk):** The rule marked with it has an exception.
"""


def test_names_with_links_and_punctuation_are_entries():
    doc = read(NAMES_WITH_LINKS_AND_PUNCTUATION)
    names = list(terms(doc))
    assert names == ["Active player", "max. X", "Shell", "Thwomp! (Play)", "* (asterisk)"]


# -- documents without an alphabetical glossary ------------------------------------------------------

LEARN_TO_PLAY = """# Hearth Rules

## Components

- 40 cards

## Setup

Shuffle the cards.

## Playing a Round

Each player takes one turn.

### Gather

Take two wood.

### Build

Spend wood to build a hut.

## Winning

The first to five huts wins.
"""


def test_a_learn_to_play_books_sections_are_topics():
    doc = read(LEARN_TO_PLAY)
    assert terms(doc) == {}
    assert {"Setup", "Playing a Round", "Gather", "Build", "Winning"} <= set(sections(doc))


INDEX_OF_SECTIONS = """# Hunt Rules

## Movement

Move up to four spaces.

## Line of Sight

Trace a line between two figures.

## Noise Tokens

Placed where a hunter heard something.

## Index

Line of Sight ..... 3
Movement ..... 2
Noise Tokens ..... 4
"""


def test_an_index_that_names_sections_links_to_them():
    doc = read(INDEX_OF_SECTIONS)
    index = sections(doc)["Index"]
    assert index.see_also == ["Line of Sight", "Movement", "Noise Tokens"]
    assert terms(doc) == {}


QUICK_REFERENCE_OF_ABILITIES = """# Duel Rules

## Playing

Each player draws a card.

## Quick Reference

### Abilities

**Backstab:** Deal one damage to a hero from behind.

**Charge:** Move two spaces and attack.

**Parry:** Cancel one attack.
"""


def test_a_quick_reference_list_of_abilities_is_read():
    doc = read(QUICK_REFERENCE_OF_ABILITIES)
    assert list(terms(doc)) == ["Backstab", "Charge", "Parry"]


DEFINITION_LIST_IN_A_SECTION = """# Hive Rules

## Tile Types

Here are the types of tiles that are placed in hives:

**Farm Tile:** Farms give storage for resource tokens.

**Recruit:** Recruits provide ongoing abilities.

**Development:** Developments give one-time benefits.

## Playing

**Note:** Workers never leave the board.
"""


def test_a_definition_list_in_an_ordinary_section_is_read():
    doc = read(DEFINITION_LIST_IN_A_SECTION)
    assert list(terms(doc)) == ["Farm Tile", "Recruit", "Development"]
    assert "Tile Types" in sections(doc)


DEFINITION_SHAPES = """# Night Rules

## Board Spaces

**CHEST: Take a bonus token** if any are left.

Some spaces say more than one thing.

**LEAK, QUAKE, POWER FAILURE:** Each player loses the people shown.

**SHIP** You can't hunt on a ship.

**Attention:** Spaces never move.
"""


def test_the_shapes_a_definition_list_is_printed_in():
    """A name and its text in one bold run, several names for one definition, a name in capitals with no
    separator; paragraphs between two definitions of a section do not break the list, a label is no term."""
    doc = read(DEFINITION_SHAPES)
    found = terms(doc)
    assert list(found) == ["Chest", "Leak", "Ship"]
    assert found["Leak"].names == ["Leak", "Quake", "Power Failure"]
    assert found["Chest"].text.startswith("Take a bonus token if any are left.")


# -- card notes and keyword variants ---------------------------------------------------------------

CARD_NOTES = """# Kingdom Rules

## Playing

Each player has a deck.

## Kingdom Card Notes

**Cellar** \u2013 You can't discard Cellar to itself.

**Chapel** \u2013 You can't trash the Chapel itself.

**Moat** \u2013 Reveal it when someone plays an Attack.
"""


def test_card_notes_are_rulings_on_their_card():
    doc = read(CARD_NOTES)
    assert terms(doc) == {}
    notes = [(r.kind, r.card, r.text) for r in doc.rulings]
    assert notes == [
        ("clarification", "Cellar", "You can't discard Cellar to itself."),
        ("clarification", "Chapel", "You can't trash the Chapel itself."),
        ("clarification", "Moat", "Reveal it when someone plays an Attack."),
    ]


KEYWORD_VARIANTS = """# Blades Rules

## Keywords

**Clash:** Each player reveals a card.

**Clash PLUS:** As Clash, and the winner draws a card.

**Flip:** Turn a card face down.

**Store:** Put a card in your vault.

**Store PLUS:** As Store, and gain one star.
"""


def test_keyword_variants_are_sub_definitions_of_their_keyword():
    doc = read(KEYWORD_VARIANTS)
    found = terms(doc)
    assert list(found) == ["Clash", "Flip", "Store"]
    assert [s.name for s in found["Clash"].subdefs] == ["Clash PLUS"]
    assert [s.name for s in found["Store"].subdefs] == ["Store PLUS"]
    assert "winner draws a card" in found["Clash"].text


# -- the build report ------------------------------------------------------------------------------


def test_the_report_warns_of_an_index_and_card_notes_that_were_not_read():
    text = """# Odd Rules

## Index

Everything is on one page.

## Card Notes

Cards are explained on their own sheet.
"""
    messages = warnings(text)
    assert any("index" in m.lower() and "not read" in m for m in messages)
    assert any("card notes" in m.lower() and "not read" in m for m in messages)


def test_card_notes_read_under_a_part_are_not_said_unread_for_a_heading_inside_it():
    """ "## Card Clarifications" holds card notes under its sub-headings; a run-in "**5.0 Card Clarifications
    and Examples**" paragraph at its top, a section of its own, is inside that part: no warning."""
    text = """# War Rules

## Card Clarifications

**5.0 Card Clarifications and Examples** - Cards are played by the active player.

### American Cards

**War Hawks #09** — Move up to double the armies this turn.

**Forced March #12** — An army may move one more area.
"""
    assert not [m for m in warnings(text) if "not read" in m]


def test_a_learn_to_play_books_sections_are_in_the_games_a_to_z_marked_as_sections(tmp_path):
    from rulings.web import create_app

    from .conftest import built_game

    toml = '[game]\nname = "Hearth"\n\n[[documents]]\nfile = "rules.md"\nkind = "rulebook"\ntitle = "Rules"\n'
    settings = built_game(tmp_path / "corpus", tmp_path / "store", "hearth", toml, {"rules.md": LEARN_TO_PLAY})
    page = create_app(settings).test_client().get("/hearth/").get_data(as_text=True)
    glossary = page.split('id="glossary"', 1)[1].split("</section>", 1)[0]
    assert 'id="letter-G"' in glossary and 'id="letter-W"' in glossary
    assert '>Gather</a> <small class="muted">section</small>' in glossary


def test_an_item_of_a_definition_list_is_not_reported_as_a_list_line_taken_for_a_term():
    text = "# Moon Rules\n\n## Resources\n\n* **Money** - Pays for buildings.\n* **Food** - Feeds people.\n"
    assert list(terms(read(text))) == ["Money", "Food"]
    assert not any("one line of a list" in m for m in warnings(text))


TEMPLATE_UNDER_EACH_HEADING = """# Hive Rules

## Actions

**Explore:** Move the ship and gain the planet's benefit.

**Grow:** Gain new workers.

**Carve:** Add a carving tile.

### Explore

**Core Action:** Move the ship one space per strength.

**Strong Worker Bonus:** Gain the benefit twice.

### Grow

**Core Action:** Gain one worker per strength.

**Strong Worker Bonus:** Gain a frame as well.

### Carve

**Core Action:** Pay honey to add a carving.

**Strong Worker Bonus:** Score 3 points.
"""


def test_the_fields_of_a_template_under_each_heading_are_not_terms():
    doc = read(TEMPLATE_UNDER_EACH_HEADING)
    assert list(terms(doc)) == ["Explore", "Grow", "Carve"]
    assert not [e for e in doc.entries if e.name in ("Core Action", "Strong Worker Bonus")]
    sections = {e.name: " ".join(b.text for b in e.blocks) for e in doc.entries if e.kind == "section"}
    assert all("Core Action:" in sections[name] for name in ("Explore", "Grow", "Carve"))  # each heading's text
