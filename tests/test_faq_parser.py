"""The Sentinels "Rules & Clarifications" FAQ, parsed as it is, and an ALL CAPS fixture."""

import pytest

from rulings.ingest.parsers.faq import FaqParser

from .conftest import text_source

FAQ = ("sentinels-of-the-multiverse", "rules-and-clarifications.txt")


@pytest.fixture(scope="module")
def faq(parsed):
    return parsed[FAQ]


def ruling(doc, title, group=None):
    found = [r for r in doc.rulings if r.title == title and (group is None or r.group == group)]
    assert found, title
    return found[0]


def test_general_rulings_grouped_under_their_section(faq):
    doc = faq[1]
    assert ruling(doc, "Immune Targets").group == "Targets"
    assert ruling(doc, "Damage Bonuses/Reductions Apply to Each Instance of Damage").section == "Damage and Destruction"
    assert ruling(doc, "Timing of Effects").group == "General Rules and Clarifications"
    assert ruling(doc, "Source of Damage").group == "General Environment Rules Clarifications"
    assert all(r.group_kind == "general" for r in doc.rulings if r.group == "Targets")


def test_hero_villain_environment_groups_with_expansions(faq):
    doc = faq[1]
    flame = ruling(doc, "Flame Barrier")
    assert (flame.group, flame.group_kind, flame.cards) == ("Ra", "hero", ["Flame Barrier"])
    assert ruling(doc, "Incidental Contact").group == "K.N.Y.F.E."
    assert ruling(doc, "Incidental Contact").expansion == "Vengeance"
    argent = ruling(doc, "Performs and Accompanies Aren't Powers")
    assert (argent.group, argent.expansion) == ("Argent Adept", "Infernal Relics")
    wasteland = ruling(doc, "Unforgiving Wasteland")
    assert (wasteland.group, wasteland.group_kind, wasteland.expansion) == (
        "The Final Wasteland",
        "environment",
        "Promo",
    )
    assert ruling(doc, "Mountainous Carapace").group_kind == "villain"
    assert ruling(doc, "Lemme See That...").group == "Guise"


def test_sources_errata_and_edition_notes(faq):
    doc = faq[1]
    assert ruling(doc, "Timing of Effects").sources == [
        "https://greaterthangames.com/forum/topic/timing-and-order-of-operations-4347"
    ]
    assert len(ruling(doc, "Ammunition Cards").sources) == 2
    assert ruling(doc, "Immune Targets").sources == []
    chastise = ruling(doc, '"Chastise" Errata')
    assert chastise.kind == "errata" and "PLAY NEXT TO A **NON-HERO** TARGET" in chastise.text  # its bold kept
    assert ruling(doc, "Enhanced Edition Updates", "Ra").kind == "note"


def test_running_header_is_furniture_not_a_section(faq):
    source, doc = faq
    groups = {r.group for r in doc.rulings} | {r.section for r in doc.rulings}
    assert not any("ERRATA, CLARIFICATIONS" in (g or "").upper() for g in groups)
    assert doc.furniture[101] == "running header"
    # The sentence the header interrupted is whole again.
    savage = ruling(doc, '"Savage Mana" and Character Cards')
    assert "SAYS TO \"REMOVE OMNITRON'S VILLAIN CHARACTER CARD FROM PLAY\", SO IT ISN'T MOVED" in savage.text


def test_nothing_lost(faq):
    source, doc = faq
    assert doc.uncovered(source.lines) == []
    assert len(doc.rulings) > 190


def test_fixture_all_caps_faq():
    lines = [
        "",
        "MY GAME",
        "",
        "GENERAL RULES",
        "",
        "TIMING",
        "",
        "THINGS HAPPEN IN ORDER.",
        "",
        "[HTTPS://EXAMPLE.COM/A](https://example.com/a)",
        "",
        "PAGE HEADER",
        "",
        '"ODD CARD" ERRATA',
        "",
        "THE TEXT ON THIS CARD IS OFFICIALLY CHANGED TO READ:",
        "",
        "DO A THING.",
        "",
        "HEROES",
        "",
        "",
        "",
        "[BIG",
        "BOX]",
        "",
        "CAPTAIN",
        "",
        '"SHIELD THROW"',
        "",
        "THIS HITS TWO TARGETS AND",
        "",
        "PAGE HEADER",
        "",
        "THEN COMES BACK.",
    ]
    source = text_source(lines, "faq", "faq.txt", furniture=("PAGE HEADER",), game="my-game")
    doc = FaqParser().parse(source)
    assert [(r.title, r.group, r.kind) for r in doc.rulings] == [
        ("Timing", "General Rules", "clarification"),
        ('"Odd Card" Errata', "General Rules", "errata"),
        ("Shield Throw", "Captain", "clarification"),
    ]
    assert doc.rulings[0].sources == ["https://example.com/a"]
    throw = doc.rulings[2]
    assert (throw.group_kind, throw.expansion, throw.cards) == ("hero", "Big Box", ["Shield Throw"])
    assert throw.text == "THIS HITS TWO TARGETS AND THEN COMES BACK."
    assert doc.uncovered(lines) == []
