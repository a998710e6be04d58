"""The Marvel Champions changelog, parsed as it is, and fixtures for wrapped lines and patches."""

import datetime as dt

import pytest

from rulings.ingest.parsers.changelog import ChangelogParser, parse_patch

from .conftest import text_source

CL = ("marvel-champions", "rules-reference-changelog.txt")


@pytest.fixture(scope="module")
def changelog(parsed):
    return parsed[CL]


def test_seven_dated_versions_with_parents(changelog):
    versions = changelog[1].versions
    assert [(v.label, v.date, v.parent) for v in versions] == [
        ("1.0", dt.date(2019, 8, 1), None),
        ("1.1", dt.date(2019, 11, 1), "1.0"),
        ("1.2", dt.date(2020, 2, 25), "1.1"),
        ("1.3", dt.date(2020, 3, 23), "1.2"),
        ("1.4", dt.date(2021, 4, 21), "1.3"),
        ("1.4.2", dt.date(2021, 5, 18), "1.4"),
        ("1.5", dt.date(2023, 5, 18), "1.4"),
    ]


def test_entries_per_version(changelog):
    versions = {v.label: v for v in changelog[1].versions}
    assert [e.name for e in versions["1.1"].entries] == ["Move", "Star Icon", "You"]
    assert len(versions["1.2"].entries) == 9
    assert [e.name for e in versions["1.3"].entries] == ["Additional", "Ally Limit", "Modes of Play"]
    names = [e.name for e in versions["1.4"].entries]
    assert 95 <= len(names) <= 110
    assert {"Hinder X", "Incite X", "Attack (Enemy Activation)", "Villanous", "Appendix II: Setup"} <= set(names)
    assert not any(n.endswith(")") and "(" not in n for n in names)  # wrapped "(See:\nGuard)" lines
    assert versions["1.5"].entries == [] and versions["1.5"].patches == []


def test_hard_wraps_reflowed_and_bullets_kept(changelog):
    versions = {v.label: v for v in changelog[1].versions}
    activation = next(e for e in versions["1.4"].entries if e.name == "Activation")
    assert activation.blocks[0].text == (
        "There are two types of enemy activations: an attack activation and a "
        "scheme activation. Whenever an enemy attacks or schemes, it is "
        "considered to have activated."
    )
    assert activation.blocks[1].kind == "bullet"
    ability = next(e for e in versions["1.4"].entries if e.name == "Ability")
    assert "Cancel" in ability.see_also and "When Revealed Abilities" in ability.see_also


def test_patch_lines_are_structured(changelog):
    patches = {v.label: v for v in changelog[1].versions}["1.4.2"].patches
    ops = [(p.op, p.target) for p in patches]
    assert ops == [("replace", "Attack (Enemy Activation)")] * 3 + [
        ("add-to-list", "Card Types"),
        ("replace", "Encounter Card"),
        ("replace", "Excess Damage"),
        ("replace", "Expert Set"),
        ("rework", "Indirect Damage"),
        ("add", "Main Scheme"),
        ("add", "Villain Deck"),
        ("add-section", "Galaxy's Most Wanted Expansion"),
    ]
    excess = patches[5]
    assert excess.old == "Excess damage is any amount of damage is that dealt to..."
    assert excess.new == "Excess damage is any amount of damage that is dealt to..."
    assert patches[8].new == "\u2022 Main scheme cards cannot be discarded from play.".replace("\u2022", "•")


def test_nothing_lost(changelog):
    source, doc = changelog
    assert doc.uncovered(source.lines) == []


def parse_text(text: str):
    source = text_source(text, "changelog", "changes.txt")
    return ChangelogParser().parse(source), source


def test_fixture_wrapped_entries_and_missing_date():
    text = "\n".join(
        [
            "My changelog",
            "",
            "1.0 Release (January 2, 2020)",
            "",
            "Changed from 1.0 -> 2.0",
            "",
            "Alpha",
            "",
            "This line is hard wrapped at a fixed width and it keeps",
            "going on the next line until the sentence is over.",
            "\u2022 A bullet that also wraps onto the",
            "following line.",
            "ALPHA BETA",
            "Text right under an all-caps name.",
            "p. 4, Alpha \u2014 \u201cgoing on\u2026\u201d \u2014> \u201ccarrying on\u2026\u201d",
        ]
    )
    doc, source = parse_text(text)
    assert [v.label for v in doc.versions] == ["1.0", "2.0"]
    assert doc.versions[0].date == dt.date(2020, 1, 2) and doc.versions[1].date is None
    assert doc.versions[1].line == 5  # where the build's "no date" warning points, unless game.toml dates it
    entries = doc.versions[1].entries
    assert [e.name for e in entries] == ["Alpha", "ALPHA BETA"]
    assert entries[0].blocks[0].text == (
        "This line is hard wrapped at a fixed width and it keeps going on the next line until the sentence is over."
    )
    assert (entries[0].blocks[1].kind, entries[0].blocks[1].text) == (
        "bullet",
        "A bullet that also wraps onto the following line.",
    )
    patch = doc.versions[1].patches[0]
    assert (patch.op, patch.target, patch.old, patch.new) == ("replace", "Alpha", "going on...", "carrying on...")
    assert doc.uncovered(source.lines) == []


def test_a_list_item_that_lost_its_bullet_starts_its_own_block():
    """Hard wraps would glue "Ranged: ..." onto the item above it (the 1.4 Keywords entry prints it so)."""
    text = "\n".join(
        [
            "Changed from 1.0 -> 2.0 (May 1, 2021)",
            "",
            "Keywords",
            "",
            "Guard: While a minion with guard is engaged with",
            "a player, that player cannot attack the villain.",
            "\u2022 Quickstrike: After this enemy engages a player, it",
            "immediately attacks that player. (See: Quickstrike)",
            "Ranged: Attacks with ranged ignore retaliate. (See:",
            "Ranged)",
            "\u2022 Surge: After a player reveals a card with surge, that",
            "player reveals an additional card. Note: this is",
            "not a list item.",
        ]
    )
    doc, source = parse_text(text)
    blocks = doc.versions[0].entries[0].blocks
    assert [(b.kind, b.text.split(":")[0]) for b in blocks] == [
        ("para", "Guard"),
        ("bullet", "Quickstrike"),
        ("bullet", "Ranged"),  # an item of the list, like the one it was glued to
        ("bullet", "Surge"),
    ]
    assert blocks[1].text.endswith("(See: Quickstrike)") and blocks[2].text.endswith("(See: Ranged)")
    assert blocks[3].text.endswith("Note: this is not a list item.")  # a colon mid-line starts nothing
    assert doc.uncovered(source.lines) == []


def test_the_keywords_of_1_4_are_one_item_each(changelog):
    keywords = next(e for v in changelog[1].versions if v.label == "1.4" for e in v.entries if e.name == "Keywords")
    names = [b.text.split(":")[0].lstrip("\u2022 ") for b in keywords.blocks]
    assert names[:10] == ["Guard", "Hinder X", "Incite X", "Overkill", "Patrol", "Peril", "Permanent", "Piercing",
                          "Quickstrike", "Ranged"]  # fmt: skip


@pytest.mark.parametrize(
    "line,op,target",
    [
        ("p. 17, Indirect Damage \u2014> Whole section reworked", "rework", "Indirect Damage"),
        ("p. 19, Main Scheme \u2014> Added \u201c\u2022 New rule.\u201d", "add", "Main Scheme"),
        ("p. 45 \u2014> Added section on \u201cNew Expansion\u201d", "add-section", "New Expansion"),
        ("p. 3, Thing \u2014 something we cannot read", "unknown", "Thing"),
    ],
)
def test_patch_line_forms(line, op, target):
    patch = parse_patch(line, 1)
    assert (patch.op, patch.target) == (op, target)
