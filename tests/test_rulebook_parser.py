"""The Vs. System 2PCG rulebook, parsed as it is, and a fixture for Term: definition lists."""

import pytest

from rulings.ingest.parsers.rulebook import RulebookParser

from .conftest import text_source

VS = ("vs-system-2pcg", "defenders-of-hells-kitchen-rulebook.txt")
RULES_REFERENCE = [
    "+1/+1 and -1/-1 (Counters)",
    "AKA",
    "Any Turn Symbol",
    "Appears",
    "ATK/DEF",
    "Base ATK and DEF",
    "Cancel",
    "Daze",
    "Discard",
    "Enemy",
    "Enters combat",
    "Golden Rules",
    "Good and Evil",
    "Health (Maximum and Remaining)",
    "Hidden/Hide",
    "Keyword Power",
    "KO",
    "Locations",
    "Melee Combat",
    "On Your Side",
    "Owner",
    "Power Up",
    "Protect",
    "Ranged Combat",
    "Ready/Exhausted",
    "Reaction",
    "Recover",
    "Remove from the Game",
    "Resource Row",
    "Reveal",
    "Running Out of Cards",
    "Searching and Shuffling",
    "Strike",
    "Stun/Stunned",
    "Super Power",
    "Team Affiliation",
    "Timing",
    "Uniqueness",
    "Wound(s)",
]


@pytest.fixture(scope="module")
def vs(parsed):
    return parsed[VS]


def test_rules_reference_entries(vs):
    entries = [e for e in vs[1].entries if e.kind == "entry"]
    assert [e.name for e in entries] == RULES_REFERENCE
    by_name = {e.name: e for e in entries}
    assert by_name["Hidden/Hide"].names == ["Hidden/Hide", "Hidden", "Hide"]
    assert by_name["Wound(s)"].names == ["Wound(s)", "Wound", "Wounds"]


def test_power_up_split_from_owner_and_notes_stay_with_their_entry(vs):
    by_name = {e.name: e for e in vs[1].entries if e.kind == "entry"}
    assert "Power Up" not in by_name["Owner"].text
    assert by_name["Owner"].text.endswith('(This only matters if a card references "owner.")')
    assert by_name["Power Up"].text.startswith("If you have a card in your hand with the same name")
    assert "Note: Only four of the six Basic Location types" in by_name["Locations"].text
    assert "Note: Recovering a character does not heal any wounds" in by_name["Recover"].text
    assert "Characters can sometimes strike at other times" in by_name["Strike"].text
    assert "Alternative Game Modes" not in by_name["Wound(s)"].text


def test_card_clarifications_with_full_text(vs):
    rulings = vs[1].rulings
    assert [r.card for r in rulings] == [
        "Black Cat",
        "Diamondback",
        "Elektra",
        "Evidence",
        "Iron Fist",
        "Make a Plan",
        "Moon Knight",
        "Moon Knight",
        "Nuke",
        "White Tiger",
    ]
    moon = rulings[6]
    assert moon.title == "Moon Knight (Main Character)"
    assert "Put the old card into your Personality pile." in moon.text
    assert moon.text.rstrip().endswith("ignore the transform part.")
    assert rulings[-1].text.startswith("Amulets of Power prevents White Tiger")


def test_keyword_definitions_among_clarifications(vs):
    keywords = [e for e in vs[1].entries if e.kind == "keyword"]
    assert [k.name for k in keywords] == ["One of a Kind", "Starting Main Character Required", "Super Strength"]
    assert "eight +1/+1 counters (1x2x2x2)" in keywords[-1].text


def test_sections_and_nothing_lost(vs):
    source, doc = vs
    sections = {e.name for e in doc.entries if e.kind == "section"}
    assert {"Recruit Step", "Making a Ranged Attack", "Equipment", "Team Attacks"} <= sections
    recruit = next(e for e in doc.entries if e.name == "Recruit Step")
    assert "You lose any leftover recruit points after this step." in recruit.text
    assert doc.furniture[75] == "page number"
    assert doc.uncovered(source.lines) == []


def test_fixture_term_list():
    text = "\n".join(
        [
            "Contents\t1",
            "Basics\t2",
            "Glossary\t3",
            "Cards\t",
            "",
            "Basics",
            "",
            "Some prose about the game.",
            "",
            "Glossary",
            "",
            "Apple: The first term.",
            "",
            "Continuation paragraph of apple.",
            "",
            "Note: a note about apple.",
            "",
            "Banana: Second term. (Ends here.) Cherry: Run into the line above by OCR.",
            "",
            "There are two kinds of Bananas: big and small.",
            "",
            "Date: Last term.",
        ]
    )
    source = text_source(text, "rulebook", "rb.txt")
    doc = RulebookParser().parse(source)
    entries = {e.name: e for e in doc.entries if e.kind == "entry"}
    assert list(entries) == ["Apple", "Banana", "Cherry", "Date"]
    assert "Continuation paragraph of apple." in entries["Apple"].text
    assert "Note: a note about apple." in entries["Apple"].text
    assert "There are two kinds of Bananas" in entries["Cherry"].text
    assert doc.uncovered(source.lines) == []


def test_entries_run_together_split_once_each_and_glossaries_apart():
    """Two entries OCR ran into one are both split off; a second glossary never re-splits the first."""
    glossary = [
        "Glossary",
        "",
        "Apple: A fruit.",
        "",
        "Banana: Yellow. Cherry: Red. Damson: Purple.",
        "",
        "Elder: A tree.",
    ]
    source = text_source([*glossary, "", *glossary], "rulebook", "rb.txt")
    doc = RulebookParser().parse(source)
    names = [e.name for e in doc.entries if e.kind == "entry"]
    assert names == ["Apple", "Banana", "Cherry", "Damson", "Elder"] * 2
    texts = [e.text for e in doc.entries if e.kind == "entry"]
    assert texts[1:4] == ["Yellow.", "Red.", "Purple."]
    assert doc.uncovered(source.lines) == []
