"""Numbered comprehensive rules: a small fixture checked entry by entry, then the seven published
editions of the Magic: The Gathering Comprehensive Rules against counts taken straight from their text."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path

import pytest

from rulings.ingest.corrections import apply_corrections
from rulings.ingest.manifest import Correction, DocumentSpec
from rulings.ingest.parsers import parse, parser_for
from rulings.ingest.parsers.comprehensive import ComprehensiveRulesParser, unwrap
from rulings.ingest.source import read_source

from .conftest import MAGIC_EDITIONS, text_source
from .shared import SHARED
from .test_magic_editions import terms_set_apart

FIXTURE = """Tiny Game Comprehensive Rules

These rules are effective as of March 3, 2024.

Introduction

This document is the authority for Tiny Game.

Contents

1. Game Concepts
100. General
101. Golden Rules

2. Turn Structure
200. General

Glossary

Credits

1. Game Concepts

100. General

100.1. These rules apply to every game.

100.1a A two-player game has two players.

100.1b. A multiplayer game has more.
Example: Three players sit at a table.

100.2 Each player needs a deck.

101. Golden Rules

101.1. Card text beats rules text.
Example: A card says you may draw.
Example: Another card says you can't.
     A card may also say nothing at all.

101.2. Trample

101.2a Trample is a static ability. See rule 100.1.

2. Turn Structure

200. General

200.1.A turn has phases.

Glossary

Active Player, Nonactive Player Order
A system that orders choices. See rule 101.1.

Ability
1. Text on an object.
2. An ability on the stack.
See rule 101, "Golden Rules."

Trample
A keyword ability. See rule 101.2.

Credits

Design: Someone
Editing: Someone Else

These rules are effective as of March 3, 2024.
"""


@pytest.fixture(scope="module")
def fixture_doc(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "rules.txt"
    path.write_bytes(FIXTURE.replace("\n", "\r").encode("utf-8-sig"))  # a BOM and CR-only line ends
    source = read_source(DocumentSpec("tiny", "rules.txt", path, "reference", "Comprehensive Rules"))
    return source, parse(source)


def test_the_fixture_is_chosen_by_its_shape(fixture_doc):
    source, doc = fixture_doc
    assert doc.parser == "comprehensive-rules"
    assert doc.uncovered(source.lines) == []
    # the same text as a rulebook keeps its own parser: only references are sniffed
    assert parser_for(text_source(FIXTURE, "rulebook")).name != "comprehensive-rules"


def test_fixture_entry_by_entry(fixture_doc):
    _, doc = fixture_doc
    got = [(e.kind, e.name, e.number, e.path) for e in doc.entries]
    chapter1, chapter2 = "1. Game Concepts", "2. Turn Structure"
    assert got == [
        ("section", "Introduction", None, []),
        ("section", chapter1, "1", []),
        ("section", "100. General", "100", [chapter1]),
        ("rule", "Rule 100.1", "100.1", [chapter1, "100. General"]),
        ("rule", "Rule 100.2", "100.2", [chapter1, "100. General"]),
        ("section", "101. Golden Rules", "101", [chapter1]),
        ("rule", "Rule 101.1", "101.1", [chapter1, "101. Golden Rules"]),
        ("rule", "Trample", "101.2", [chapter1, "101. Golden Rules"]),
        ("section", chapter2, "2", []),
        ("section", "200. General", "200", [chapter2]),
        ("rule", "Rule 200.1", "200.1", [chapter2, "200. General"]),
        ("section", "Glossary", None, []),
        ("entry", "Active Player, Nonactive Player Order", None, ["Glossary"]),
        ("entry", "Ability", None, ["Glossary"]),
        ("entry", "Trample", None, ["Glossary"]),
        ("section", "Credits", None, []),
    ]
    assert doc.effective_date == dt.date(2024, 3, 3)


def blocks(doc, number):
    entry = next(e for e in doc.entries if e.number == number)
    return [(b.kind, b.number, b.text, b.line) for b in entry.blocks], entry.lines


def test_fixture_rules_subrules_and_examples(fixture_doc):
    _, doc = fixture_doc
    assert blocks(doc, "100.1") == (
        [
            ("rule", "100.1", "These rules apply to every game.", 26),
            ("rule", "100.1a", "A two-player game has two players.", 28),
            ("rule", "100.1b", "A multiplayer game has more.\n\nExample: Three players sit at a table.", 30),
        ],
        [26, 28, 30, 31],
    )
    assert blocks(doc, "100.2")[0] == [("rule", "100.2", "Each player needs a deck.", 33)]
    text = "Card text beats rules text.\n\nExample: A card says you may draw.\n\nExample: Another card says you can't."
    assert blocks(doc, "101.1") == (
        [("rule", "101.1", f"{text}\n\nA card may also say nothing at all.", 37)],
        [37, 38, 39, 40],
    )
    # a title line is the rule's name, not a block; its subrules are its text
    assert blocks(doc, "101.2") == ([("rule", "101.2a", "Trample is a static ability. See rule 100.1.", 44)], [42, 44])
    assert blocks(doc, "200.1")[0] == [("rule", "200.1", "A turn has phases.", 50)]
    rule = next(e for e in doc.entries if e.number == "100.1")
    assert rule.text.startswith("100.1. These rules apply to every game.\n\n100.1a A two-player game")


def test_fixture_glossary_front_and_back_matter(fixture_doc):
    _, doc = fixture_doc
    by_name = {(e.kind, e.name): e for e in doc.entries}
    ability = by_name[("entry", "Ability")]
    assert [(b.kind, b.text) for b in ability.blocks] == [
        ("step", "1. Text on an object."),
        ("step", "2. An ability on the stack."),
        ("para", 'See rule 101, "Golden Rules."'),
    ]
    assert by_name[("entry", "Trample")].text == "A keyword ability. See rule 101.2."
    assert by_name[("section", "Introduction")].text == "This document is the authority for Tiny Game."
    credits = by_name[("section", "Credits")]
    assert [b.text for b in credits.blocks] == [
        "Design: Someone",
        "Editing: Someone Else",
        "These rules are effective as of March 3, 2024.",
    ]
    # title, stated date and the contents list (lines 1-20) are furniture, not entries
    assert sorted(doc.furniture) == [1, 3, 9, 11, 12, 13, 15, 16, 18, 20]
    assert min(line for e in doc.entries for line in e.lines if e.name != "Introduction") > 20


def test_a_body_that_names_its_chapters_otherwise_than_its_contents():
    """2009-07-11 lists "1. Game Concepts" in its contents and prints "1. The Game" over its body."""
    at = FIXTURE.rindex("1. Game Concepts")
    source = text_source(FIXTURE[:at] + "1. The Game" + FIXTURE[at + len("1. Game Concepts") :], "reference")
    doc = parse(source)
    assert doc.uncovered(source.lines) == []
    assert sorted(doc.furniture) == [1, 3, 9, 11, 12, 13, 15, 16, 18, 20]  # the contents list, as before
    numbered = [(e.name, e.number, e.path) for e in doc.entries if e.number][:4]
    assert numbered == [
        ("1. The Game", "1", []),
        ("100. General", "100", ["1. The Game"]),
        ("Rule 100.1", "100.1", ["1. The Game", "100. General"]),
        ("Rule 100.2", "100.2", ["1. The Game", "100. General"]),
    ]
    assert [e.number for e in doc.entries if e.kind == "rule"] == ["100.1", "100.2", "101.1", "101.2", "200.1"]


def test_a_contents_list_right_before_the_body_stays_a_contents_list():
    """No line between the contents and the body: the body starts where the numbering starts again."""
    text = FIXTURE.replace("Glossary\n\nCredits\n\n1. Game Concepts", "1. Game Concepts", 1)
    source = text_source(text, "reference")
    doc = parse(source)
    assert doc.uncovered(source.lines) == []
    assert [e.line for e in doc.entries if e.number == "1"] == [18]
    assert max(doc.furniture) == 16  # "200. General" in the contents


def test_the_parts_the_contents_list_names_and_a_list_inside_the_glossary():
    """Back matter is cut at the part titles the contents list names ("Questions?" followed straight by its
    text is one); inside the glossary, an indented run of lines, or a title introducing one, goes on with the
    entry above (2003-03-15's expansion symbols)."""
    text = FIXTURE.replace("Glossary\n\nCredits\n\n1.", "Glossary\n\nCredits\n\nQuestions?\n\n1.", 1)
    sets = "Expansion Symbol\nThe symbol of a set.\n\nSets\n\n     Alpha [symbol]\n\n     Beta [symbol]\n\nTrample\n"
    text = text.replace("Trample\nA keyword", sets.replace("Trample\n", "Trample\nA keyword"), 1)
    text = text.replace("Editing: Someone Else\n", "Editing: Someone Else\n\nQuestions?\nWrite to us.\n", 1)
    source = text_source(text, "reference")
    doc = ComprehensiveRulesParser().parse(source)  # too short to be 40% numbered rules
    assert doc.uncovered(source.lines) == []
    terms = [e.name for e in doc.entries if e.kind == "entry"]
    assert terms == ["Active Player, Nonactive Player Order", "Ability", "Expansion Symbol", "Trample"]
    symbol = next(e for e in doc.entries if e.name == "Expansion Symbol")
    assert [b.text for b in symbol.blocks] == ["The symbol of a set.", "Sets", "Alpha [symbol]", "Beta [symbol]"]
    parts = {e.name: [b.text for b in e.blocks] for e in doc.entries if e.kind == "section" and not e.number}
    assert parts["Questions?"] == ["Write to us.", "These rules are effective as of March 3, 2024."]
    assert parts["Credits"] == ["Design: Someone", "Editing: Someone Else"]


def test_misnumbered_rules_are_kept_as_printed_and_warned_about():
    """Misprints of the 2005-2010 editions: a subrule printed under another rule ("605.2c" under 609.2), a rule
    number printed twice or in another section ("501.2." in section 510), a subrule number missing its rule's
    ("306.b"), a rule line indented by a space (" 611.2.")."""
    text = FIXTURE.replace("nothing at all.", "nothing at all.\n\n100.1c A misprint.")
    text = text.replace(
        "200.1.A turn has phases.", "200.1.A turn has phases.\n\n100.2. Printed again.\n\n 200.2. Indented."
    )
    text = text.replace("101.2a Trample", "101.b A number cut.\n\n101.2a Trample")
    source = text_source(text, "reference")
    doc = ComprehensiveRulesParser().parse(source)
    assert doc.uncovered(source.lines) == []
    numbers = [e.number for e in doc.entries if e.number]
    assert len(numbers) == len(set(numbers))
    assert [e.number for e in doc.entries if e.kind == "rule"] == ["100.1", "100.2", "101.1", "101.2", "200.1", "200.2"]
    assert blocks(doc, "101.1")[0][-1] == ("rule", "100.1c", "A misprint.", 42)
    assert blocks(doc, "200.1")[0][-1] == ("rule", "100.2", "Printed again.", 56)
    assert blocks(doc, "200.2")[0] == [("rule", "200.2", "Indented.", 58)]
    assert [(d.line, d.message) for d in doc.diagnostics] == [
        (42, "subrule 100.1c is printed under rule 101.1: a misprint? Kept as printed, a paragraph of rule 101.1"),
        (46, "'101.b' reads like a subrule number missing its rule's: kept as text"),
        (56, "rule 100.2 is printed again (first at line 33): a misprint? Kept as printed, a paragraph of rule 200.1"),
    ]
    assert all(d.path == "corpus/g/doc.txt" and d.level == "warning" for d in doc.diagnostics)


def test_a_glossary_heading_glued_to_its_first_line_is_warned_about_with_its_remedy():
    """A misprinted edition ("Face Down1. A card is …") is read as printed, never silently made into another
    term; the warning gives the [[corrections]] block that names it right and gives its text back."""
    glued = "Trample1. A keyword ability.\n2. It lets damage through.\nSee rule 101.2."
    text = FIXTURE.replace("Trample\nA keyword ability. See rule 101.2.", glued, 1)
    source = text_source(text, "reference", file="rules.txt", game="tiny")
    doc = ComprehensiveRulesParser().parse(source)
    assert [e.name for e in doc.entries if e.kind == "entry"][-1] == "Trample1. A keyword ability."
    (warning,) = doc.diagnostics
    assert (warning.path, warning.line, warning.level) == ("corpus/tiny/rules.txt", 62, "warning")
    remedy = warning.message.split("add a [[corrections]] block to game.toml: ")[1]
    assert remedy == 'file = "rules.txt", line = 62, was = "Trample1. A keyword ability.", name = "Trample"'
    fix = tomllib.loads("[[corrections]]\n" + remedy.replace(", ", "\n"))["corrections"][0]
    apply_corrections(source.spec, doc, [Correction(**fix)])
    trample = next(e for e in doc.entries if e.kind == "entry" and e.line == 62)
    assert (trample.name, [(b.kind, b.text) for b in trample.blocks]) == (
        "Trample",
        [("step", "1. A keyword ability."), ("step", "2. It lets damage through."), ("para", "See rule 101.2.")],
    )
    assert doc.diagnostics == [warning]  # the correction applied


def test_a_heading_that_reads_as_a_sentence_is_warned_about():
    text = FIXTURE.replace("Trample\nA keyword", "Trample A keyword ability that is glued.\nA keyword", 1)
    doc = ComprehensiveRulesParser().parse(text_source(text, "reference"))
    assert [(d.line, d.message[:65]) for d in doc.diagnostics] == [
        (62, "glossary heading 'Trample A keyword ability that is glued.' reads")
    ]
    assert 'name = "\u2026"' in doc.diagnostics[0].message  # the name is the maintainer's to give


def test_an_empty_section_and_a_subrule_number_with_a_space_in_it():
    """2004-2009: "215. This section is now empty. See rule …" is section 215, its title a note; 2005-2009 print
    "606. 8b Players win …" for subrule 606.8b."""
    text = FIXTURE.replace("See rule 100.1.\n", "See rule 100.1.\n\n101. 2b A spaced subrule.\n", 1)
    text = text.replace(
        "2. Turn Structure\n\n200.", "102. This section is now empty. See rule 101.1.\n\n2. Turn Structure\n\n200."
    )
    source = text_source(text, "reference")
    doc = ComprehensiveRulesParser().parse(source)
    assert doc.uncovered(source.lines) == []
    sections = [(e.number, e.name, e.path) for e in doc.entries if e.kind == "section" and e.number]
    assert sections[3:5] == [
        ("102", "102. This section is now empty. See rule 101.1.", ["1. Game Concepts"]),
        ("2", "2. Turn Structure", []),
    ]
    assert [b.number for b in next(e for e in doc.entries if e.number == "101.2").blocks] == ["101.2a", "101.2b"]
    assert [(d.line, d.message) for d in doc.diagnostics] == [(46, "101. '2b' is read as subrule 101.2b")]


def test_a_rule_citation_whose_quotes_became_question_marks_stays_text():
    """2008-05-01's quotation marks are "?" ("See rule 504, ?Face-Down Spells and Permanents,? and rule 502.26,
    ?Morph.?"): a line citing rules by number stays the entry's text, as it does with its quotes."""
    cited = "See rule 101, ?Golden Rules and Others,? and rule 101.2, ?Trample.?"
    text = FIXTURE.replace('See rule 101, "Golden Rules."', cited, 1)
    doc = ComprehensiveRulesParser().parse(text_source(text, "reference"))
    ability = next(e for e in doc.entries if e.name == "Ability")
    assert (ability.blocks[-1].text, ability.see_also) == (cited, [])


# The hard-wrapped layout of the 2003-2004 editions: a paragraph broken over lines that end in a space (or in a
# hyphen or dash, breaking a word), "Example:" and indented lines opening paragraphs of their own.

WRAPPED = [
    "Tiny Game Comprehensive Rules",
    "",
    "These rules are current as of October 1, 2003.",
    "",
    "1. The Game",
    "",
    "100. General",
    "",
    "100.1. These rules assume a game between two players. Optional rules allow for more ",
    "players. See rule ",
    '101.2 "Sources of Damage." A state-',
    "based effect applies.",
    'Example: A card states "Each player sacrifices a creature." First, the active ',
    "player chooses.",
    "",
    "100.1a A subrule broken in two at the end of its first line by a dash—",
    "once.",
    "     An indented paragraph of the same subrule.",
    "",
    "100.2. Each player needs a deck of at least sixty ",
    "cards.",
    "",
    "100.3. There is no maximum deck size.",
    "",
    "100.4. A player may concede a game at any ",
    "time.",
    "",
    "100.5. Tournaments have rules of their own.",
    "",
    "Glossary",
    "",
    "Ability",
    "An instruction in an object's text is an ability. The result of following such an ",
    "instruction is an effect.",
    "     When an activated ability is played, it goes onto the ",
    "stack.",
    "",
    "Zone ",
    "A zone is any place that cards can be during a game. A short heading that ends in a space is not wrapped: ",
    "it is a heading.",
]


def test_a_hard_wrapped_text_is_read_a_paragraph_at_a_time():
    source = text_source(WRAPPED, "reference")
    doc = parse(source)
    assert doc.parser == "comprehensive-rules"
    assert doc.uncovered(source.lines) == []
    assert blocks(doc, "100.1") == (
        [
            (
                "rule",
                "100.1",
                "These rules assume a game between two players. Optional rules allow for more players. See rule "
                '101.2 "Sources of Damage." A state-based effect applies.\n\nExample: A card states "Each player '
                'sacrifices a creature." First, the active player chooses.',
                9,
            ),
            (
                "rule",
                "100.1a",
                "A subrule broken in two at the end of its first line by a dash\u2014once.\n\n"
                "An indented paragraph of the same subrule.",
                16,
            ),
        ],
        [9, 10, 11, 12, 13, 14, 16, 17, 18],
    )
    assert [e.number for e in doc.entries if e.kind == "rule"] == ["100.1", "100.2", "100.3", "100.4", "100.5"]
    assert blocks(doc, "100.2")[0] == [("rule", "100.2", "Each player needs a deck of at least sixty cards.", 20)]
    ability = next(e for e in doc.entries if e.name == "Ability")
    effect = (
        "An instruction in an object's text is an ability. The result of following such an instruction is an effect."
    )
    assert [(b.text, b.line) for b in ability.blocks] == [
        (effect, 33),
        ("When an activated ability is played, it goes onto the stack.", 35),
    ]
    assert ability.lines == [32, 33, 34, 35, 36]
    assert [e.name for e in doc.entries if e.kind == "entry"] == ["Ability", "Zone"]
    zone = next(e for e in doc.entries if e.name == "Zone")  # "Zone " opens its group: a heading, never wrapped
    assert zone.text.endswith("A short heading that ends in a space is not wrapped: it is a heading.")
    assert doc.effective_date == dt.date(2003, 10, 1)  # "These rules are current as of October 1, 2003."


def test_a_text_printed_a_paragraph_a_line_is_never_joined():
    """Lines that end in a space here and there (the later editions have a few) are not a hard-wrapped text."""
    lines = [line.rstrip() for line in WRAPPED]
    lines[8] += " "  # one stray trailing space
    assert unwrap(lines) == (lines[:8] + [lines[8].rstrip()] + lines[9:], [[n] for n in range(1, len(lines) + 1)])
    assert unwrap(WRAPPED)[1][8:10] == [[9, 10, 11, 12], [13, 14]]


# The seven editions of the shipped game, byte-identical (BOMs, one UTF-16 BE, CRLF and CR-only line ends).

MAGIC = SHARED / "corpora" / "magic-the-gathering" if SHARED else None
EDITIONS = MAGIC_EDITIONS if MAGIC else []
needs_magic = pytest.mark.needs_shared


@needs_magic
def test_the_seven_editions_are_there():
    assert len(EDITIONS) == 7
    assert all((MAGIC / file).is_file() for file in EDITIONS), f"expected the shipped game's editions in {MAGIC}"


def spec(file: str) -> DocumentSpec:
    return DocumentSpec("magic-the-gathering", file, MAGIC / file, "reference", "Comprehensive Rules")


@pytest.fixture(scope="module", params=EDITIONS or [pytest.param(None, id="needs-shared")])
def edition(request):
    source = read_source(spec(request.param))
    return request.param, source, parse(source)


def universal_lines(path: Path) -> list[str]:
    """The file's lines as Python's universal-newline reader sees them (an independent reading)."""
    data = path.read_bytes()
    encoding = "utf-16" if data[:2] in (b"\xfe\xff", b"\xff\xfe") else "utf-8-sig"
    with open(path, encoding=encoding, newline=None) as handle:
        return [line.rstrip("\n") for line in handle]


def regions(lines: list[str]) -> tuple[int, int, int]:
    """0-based indexes of the body's "1. Game Concepts", its "Glossary" and its "Credits" (the second of each)."""

    def second(title: str) -> int:
        return [i for i, line in enumerate(lines) if line.strip() == title][1]

    return second("1. Game Concepts"), second("Glossary"), second("Credits")


@needs_magic
def test_line_numbers_match_a_universal_newline_reading(edition):
    file, source, _ = edition
    expected = universal_lines(MAGIC / file)
    if expected and expected[-1] == "":
        expected.pop()
    assert source.lines[: len(expected)] == expected
    assert all(not line.strip() for line in source.lines[len(expected) :])


@needs_magic
def test_every_line_is_accounted_for(edition):
    _, source, doc = edition
    assert doc.parser == "comprehensive-rules"
    assert doc.uncovered(source.lines) == []


@needs_magic
def test_rules_and_subrules_match_an_independent_count(edition):
    _, source, doc = edition
    body, glossary, _ = regions(source.lines)
    raw = [line for line in source.lines[body:glossary]]
    rules = [m.group(1) for line in raw if (m := re.match(r"(\d{3}\.\d+)(?![\da-z])", line))]
    subrules = [m.group(1) for line in raw if (m := re.match(r"(\d{3}\.\d+[a-z]+)", line))]
    parsed_rules = [e.number for e in doc.entries if e.kind == "rule"]
    parsed_subrules = [b.number for e in doc.entries for b in e.blocks if b.kind == "rule" and b.number[-1].isalpha()]
    assert parsed_rules == rules
    assert parsed_subrules == subrules
    sections = [line.split(".")[0] for line in raw if re.fullmatch(r"\d{1,3}\. [A-Z].*", line.strip())]
    assert [e.number for e in doc.entries if e.kind == "section" and e.number] == sections


@needs_magic
def test_every_rule_says_what_its_line_says(edition):
    _, source, doc = edition
    for entry in (e for e in doc.entries if e.kind == "rule"):
        for block in entry.blocks:
            line = source.lines[block.line - 1]
            first = block.text.split("\n\n")[0]
            assert line.startswith(block.number) and line.rstrip().endswith(first), (block.number, line)


@needs_magic
def test_nothing_comes_from_the_contents_list(edition):
    _, source, doc = edition
    body, _, _ = regions(source.lines)
    contents = range(source.lines.index("Contents") + 1, body + 1)
    assert not [e.name for e in doc.entries if e.line in contents]
    numbers = [e.number for e in doc.entries if e.number]
    assert len(numbers) == len(set(numbers))


@needs_magic
def test_glossary_matches_an_independent_count(edition):
    _, source, doc = edition
    _, glossary, credits = regions(source.lines)
    groups = re.split(r"\n\s*\n", terms_set_apart("\n".join(source.lines[glossary + 1 : credits])).strip())
    terms = [group.split("\n")[0].strip() for group in groups]
    assert [e.name for e in doc.entries if e.kind == "entry"] == terms
    assert "Active Player, Nonactive Player Order" in terms


@needs_magic
def test_known_rules_and_glossary_entries():
    doc = parse(read_source(spec("comprehensive-rules-2021-02-02.txt")))
    assert doc.effective_date == dt.date(2021, 2, 5)  # what the document states, not its file date
    rules = {b.number: b.text for e in doc.entries for b in e.blocks if b.number}
    assert rules["100.1a"] == "A two-player game is a game that begins with only two players."
    assert rules["702.19b"].startswith("The controller of an attacking creature with trample first assigns damage")
    assert "\n\nExample: " in rules["702.19b"]  # the example after 702.19b stays with it
    trample = next(e for e in doc.entries if e.number == "702.19")
    assert (trample.name, trample.path) == ("Trample", ["7. Additional Rules", "702. Keyword Abilities"])
    assert [b.number for b in trample.blocks][:3] == ["702.19a", "702.19b", "702.19c"]
    glossary = next(e for e in doc.entries if e.kind == "entry" and e.name == "Trample")
    assert glossary.path == ["Glossary"]
    assert glossary.text.startswith("A keyword ability") and "See rule 702.19" in glossary.text
    sections = [e.name for e in doc.entries if e.kind == "section"]
    assert sections[:3] == ["Introduction", "1. Game Concepts", "100. General"]
    assert sections[-2:] == ["Glossary", "Credits"] and sections.count("Glossary") == 1


def test_a_glossary_term_printed_with_no_blank_line_above_it_is_a_term_of_its_own(tmp_path):
    """2020-06-01 prints "Concede" right under Companion's definition: a short capitalised line after a
    sentence's end, over a line of text, opens an entry; a numbered line or a "See rule …" line does not."""
    text = FIXTURE.replace(
        "Trample\nA keyword ability. See rule 101.2.\n",
        "Trample\nA keyword ability. See rule 101.2.\nVigilance\nAnother keyword ability. See rule 101.2.\n",
    )
    path = tmp_path / "rules.txt"
    path.write_text(text, encoding="utf-8")
    doc = parse(read_source(DocumentSpec("tiny", "rules.txt", path, "reference", "Comprehensive Rules")))
    entries = {e.name: e for e in doc.entries if e.kind == "entry"}
    assert list(entries)[-2:] == ["Trample", "Vigilance"]
    assert "Vigilance" not in entries["Trample"].text and entries["Vigilance"].text.startswith("Another keyword")
    assert [b.text for b in entries["Ability"].blocks][-1] == 'See rule 101, "Golden Rules."'
