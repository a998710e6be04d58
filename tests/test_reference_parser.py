"""The Marvel Champions Rules Reference v1.1, parsed as it is, and fixtures for its edge cases."""

import pytest

from rulings.ingest.parsers.reference import ReferenceParser

from .conftest import text_source

RR = ("marvel-champions", "rules-reference-v1.1.txt")

GLOSSARY_SAMPLE = [
    "Ability",
    "Acceleration Icon",
    "Acceleration Token",
    "Activation",
    "Action",
    "Active Player",
    "After",
    "All-Purpose Counter",
    "Ally",
    "Ally Limit",
    "Attachment",
    "Attach to",
    "Attack",
    "Base Value",
    "Boost",
    "Cancel",
    "Cannot",
    "Card Types",
    "Character",
    "Choose",
    "Confuse",
    "Consequential Damage",
    "Constant Ability",
    "Control",
    "Cost",
    "Counter",
    "Crisis Icon",
    "Damage",
    "Dash",
    "Deal",
    "Defeat",
    "Defend",
    "Delayed Effects",
    "Drawing Cards",
    "Effect",
    "Empty Encounter Deck",
    "Empty Player Deck",
    "End of Player Phase",
    "Enemy",
    "Enemy Attacks",
    "Enemy Schemes",
    "Engaged",
    "Enters Play",
    "Environment",
    "Event",
    "Exhausted",
    "First Player",
    "Forced",
    "Form",
    "Friendly",
    "Gains",
    "Generate",
    "Gets",
    "Guard",
    "Hand Size",
    "Hazard Icon",
    "Heal",
    "Hit Points",
    "Identity",
    "In Play and Out of Play",
    "In Player Order",
    "Indirect Damage",
    "Initiating Abilities",
    "Interrupt",
    "Keywords",
    "Lasting Effects",
    "Limit",
    "Main Scheme",
    "Max",
    "Maximum Hit Points",
    "May",
    "Minion",
    "Modifiers",
    "Move",
    "Nemesis",
    "Obligation",
    "Overkill",
    "Ownership and Control",
    "Per Player",
    "Peril",
    "Play",
    "Play Restrictions and Permissions",
    "Player Elimination",
    "Player Phase",
    "Player Turn",
    "Prevent",
    "Printed",
    "Qualifiers",
    "Quickstrike",
    "Ready",
    "Recover",
    "Remaining Hit Points",
    "Removed from the Game",
    "Replacement Effects",
    "Resource",
    "Resource Ability",
    "Resource Cards",
    "Response",
    "Restricted",
    "Retaliate",
    "Reveal",
    "Running Out of Cards",
    "Scheme",
    "Search",
    "Self-Referential Abilities",
    "Setup",
    "Side Scheme",
    "Simultaneous Resolution",
    "Special",
    "Star Icon",
    "Status Cards",
    "Stun",
    "Subtitle",
    "Support",
    "Surge",
    "Sustained Damage",
    "Table Talk",
    "Target Threat",
    "Then",
    "Threat",
    "Thwart",
    "Tough",
    "Toughness",
    "Traits",
    "Treachery",
    "Triggered Ability",
    "Triggering Condition",
    "Undefended",
    "Unique",
    "Upgrade",
    "Uses",
    "Villain",
    "Villain Defeat",
    "Villain Phase",
    "When Defeated Abilities",
    "When Revealed Abilities",
    "Wild Resource",
    "Winning the Game",
    "You",
]


@pytest.fixture(scope="module")
def rr(parsed):
    return parsed[RR]


def glossary(doc):
    return [e for e in doc.entries if e.kind == "entry"]


def test_every_glossary_entry_once_with_boundaries(rr):
    source, doc = rr
    names = [e.name for e in glossary(doc)]
    # 138 headings; TOUGH, TOUGHNESS is one heading split into its two redirects.
    assert len(names) == 139
    assert names == GLOSSARY_SAMPLE
    assert len(set(names)) == len(names)


def test_multi_name_headings_become_aliases(rr):
    entries = {e.name: e for e in glossary(rr[1])}
    assert entries["Ability"].names == ["Ability", "Card Ability"]
    assert entries["Form"].names == ["Form", "Change Form"]
    assert entries["Sustained Damage"].names == ["Sustained Damage", "Damage Sustained"]
    assert entries["Initiating Abilities"].names == ["Initiating Abilities", "Playing Cards"]
    assert entries["Per Player"].names == ["Per Player"]  # OCR symbol dropped


def test_ocr_run_together_heading_is_repaired(rr):
    entries = {e.name: e for e in glossary(rr[1])}
    assert "Star Icon" in entries and "Staricon" not in entries and "STARICON" not in entries
    assert entries["Star Icon"].text.startswith("A star icon is used in conjunction")


def test_no_phantom_entries(rr):
    names = {n for e in rr[1].entries for n in e.names}
    assert not any(n.lower().startswith(("if the", "q:", "a:")) for n in names)
    assert not any(len(n) == 1 for n in names)  # index letters
    assert "Index" not in names and "Upgrade" not in {e.name for e in rr[1].entries if e.kind == "section"}


def test_body_sentences_ocr_turned_into_headings_stay_in_their_entry(rr):
    entries = {e.name: e for e in glossary(rr[1])}
    assert "If the villain completes the final stage of the main scheme deck" in entries["Main Scheme"].text
    assert "If the final stage of the villain deck is defeated" in entries["Villain Defeat"].text


def test_figure_captions_dropped_and_broken_paragraph_mended(rr):
    source, doc = rr
    boost = next(e for e in glossary(doc) if e.name == "Boost")
    assert "During the activation (and after any defenders are declared" in boost.text
    assert "BOOST ICONS" not in boost.text
    assert doc.furniture[188] == "figure caption"


def test_see_also_and_redirects(rr):
    entries = {e.name: e for e in glossary(rr[1])}
    assert {"Cancel", "Constant Ability"} <= set(entries["Ability"].see_also)
    assert entries["Guard"].redirect == ["Keywords"]
    assert entries["Control"].redirect == ["Ownership and Control"]
    assert entries["Tough"].redirect == ["Status Cards"]
    assert entries["Toughness"].redirect == ["Keywords"]


def test_sub_definitions_under_keywords_and_status_cards(rr):
    entries = {e.name: e for e in glossary(rr[1])}
    keywords = [s.name for s in entries["Keywords"].subdefs]
    assert keywords == [
        "Guard",
        "Overkill",
        "Peril",
        "Quickstrike",
        "Restricted",
        "Retaliate X",
        "Surge",
        "Toughness",
        'Uses (X "type")',
    ]
    overkill = entries["Keywords"].subdefs[1]
    assert "excess damage from the attack (damage beyond the minion's" in overkill.text  # its 2nd paragraph
    assert [s.name for s in entries["Status Cards"].subdefs] == ["Confused", "Stunned", "Tough"]


def test_front_matter_and_appendices_are_sections(rr):
    sections = {e.name: e for e in rr[1].entries if e.kind == "section"}
    for name in (
        "The Golden Rules",
        "The Grim Rule",
        "Component Limitations",
        "Round Overview",
        "Appendix I: Deck Customization",
        "Player Decks",
        "Appendix II: Setup",
    ):
        assert name in sections
    steps = sections["Round Overview"].text.splitlines()
    assert steps[2] == "1. Player phase begins. See: Player Phase"
    assert "4. Villain phase begins." in sections["Round Overview"].text  # number OCR lost, restored
    assert sections["Player Decks"].path == ["Appendix I: Deck Customization"]


def test_card_faq_questions_attached_to_cards(rr):
    rulings = rr[1].rulings
    cards = [r.card for r in rulings]
    assert list(dict.fromkeys(cards)) == [
        "Spider-Man",
        "Webbed Up",
        "Jennifer Walters",
        "Legal Practice",
        "Pepper Potts",
        "Rocket Boots",
        "Black Panther",
        "Ancestral Knowledge",
        "Vibranium Suit",
    ]
    assert len(rulings) == 13
    vibranium = rulings[-1]
    assert vibranium.question.startswith("Does moving damage discard tough status cards")
    assert vibranium.answer.startswith("Yes.")
    assert (vibranium.card_set, vibranium.card_number) == ("Core Set", "49")


def test_own_change_notes_and_version(rr):
    doc = rr[1]
    assert doc.version_label == "1.1"
    notes = [(n.action, n.target) for n in doc.change_notes]
    assert notes == [("expanded", "Move"), ("expanded", "Star Icon"), ("added", "You"), ("added", "Appendix III: FAQ")]


def test_nothing_lost(rr):
    source, doc = rr
    assert doc.uncovered(source.lines) == []


def parse_text(text: str):
    return ReferenceParser().parse(text_source(text, "reference", "rr.txt"))


FIXTURE = """# TITLE

- Page 3: Added the definition for "Zeta".

**VERSION 2.0**

## GLOSSARY

#### ALPHA, FIRST LETTER

Alpha text starts here and
  continues on an indented line.

## This sentence was read as a heading by OCR, and belongs to Alpha.

**ALPHA PICTURE**

- A bullet that is cut (and after

- the cut) continues here.

See also: Beta, Zeta

# BETAGAMMA

See: Alpha

#### ZETA

Zeta text, with Gamma and Beta; gamma twice.

# APPENDIX I: EXTRA

#### PART ONE

Part one text.

#### INDEX

A 1 B 2
"""


def test_fixture_edge_cases():
    doc = parse_text(FIXTURE)
    entries = {e.name: e for e in doc.entries if e.kind == "entry"}
    assert list(entries) == ["Alpha", "Beta Gamma", "Zeta"]
    alpha = entries["Alpha"]
    assert alpha.names == ["Alpha", "First Letter"]
    assert alpha.blocks[0].text == "Alpha text starts here and continues on an indented line."
    assert "belongs to Alpha" in alpha.text
    assert "ALPHA PICTURE" not in alpha.text
    assert "- A bullet that is cut (and after the cut) continues here." in alpha.text
    assert alpha.see_also == ["Beta", "Zeta"]
    assert entries["Beta Gamma"].redirect == ["Alpha"]  # "BETAGAMMA" split with words from the text
    assert [n.target for n in doc.change_notes] == ["Zeta"]
    assert doc.version_label == "2.0"
    part = next(e for e in doc.entries if e.name == "Part One")
    assert part.path == ["Appendix I: Extra"]
    lines = FIXTURE.split("\n")
    assert doc.uncovered(lines) == []


UNVERSIONED = """# RULES REFERENCE

# GOLDEN RULES

If a card contradicts the rules, the card wins.

## GLOSSARY

#### ALPHA

Alpha text.

# APPENDIX III: FAQ

#### WIDGET (CORE SET, 12)

Q: Can a widget be used
on the first turn of the game?

(This question continues over a second paragraph.)

A: Yes.
"""


def test_reference_without_a_version_line_keeps_front_matter_and_long_questions():
    doc = parse_text(UNVERSIONED)
    sections = {e.name: e for e in doc.entries if e.kind == "section"}
    assert sections["Golden Rules"].text == "If a card contradicts the rules, the card wins."
    assert "Rules Reference" not in sections  # the title itself is title page
    question = doc.rulings[0].question
    assert question.startswith("Can a widget be used on the first turn")
    assert question.endswith("(This question continues over a second paragraph.)")
    assert doc.rulings[0].answer == "Yes." and doc.rulings[0].card == "Widget"
    assert doc.uncovered(UNVERSIONED.split("\n")) == []
