"""Numbered rules are identified by lineage, not by number (issue 31): a small game in two editions.

The second edition inserts a rule before 100.2 (the old 100.2 becomes 100.3), puts a new section at 101
and moves "Phenomena" to 102, and moves Trample from 102.1 to 103.2 beside a new rule, Banding, at 103.1.
Every number answers with that edition's own entry; a rule's history follows the rule.
"""

from __future__ import annotations

import pytest

from rulings.builds import current_build
from rulings.graph import answers, rules, term_sheet
from rulings.graph.store import Store
from rulings.web import create_app

from .conftest import built_game

TOML = """[game]
name = "Tiny Rules"

[[documents]]
file = "rules-a.txt"
kind = "reference"
title = "Comprehensive Rules"
version = "A"
date = 2024-01-01

[[documents]]
file = "rules-b.txt"
kind = "reference"
title = "Comprehensive Rules"
version = "B"
date = 2024-06-01
"""


def edition(effective: str, body: str, glossary: str) -> str:
    """A comprehensive rules document: title, date, contents (its headings), body, glossary, credits."""
    headings = [line for line in body.splitlines() if line and line.split(".")[0].isdigit() and ". " in line[:5]]
    contents = "\n".join(h for h in headings if len(h.split(".")[0]) <= 3 and h.split(" ")[0].count(".") == 1)
    return (
        f"Tiny Rules Comprehensive Rules\n\nThese rules are effective as of {effective}.\n\nIntroduction\n\n"
        f"This document is the authority.\n\nContents\n\n{contents}\n\nGlossary\n\nCredits\n\n{body}\n"
        f"Glossary\n\n{glossary}\nCredits\n\nDesign: Someone\n"
    )


A = edition(
    "January 1, 2024",
    """1. Game Concepts

100. General

100.1. These rules apply to every game of Tiny Rules.

100.1a A two-player game has two players.

100.2. Each player needs a deck of sixty cards or more.

101. Phenomena

101.1. A phenomenon is a card type seen only in the planar variant of the game.

102. Keyword Abilities

102.1. Trample

102.1a Trample is a static ability that modifies how a creature assigns combat damage.

102.2. Vigilance

102.2a Vigilance is a static ability that lets a creature attack without tapping.
""",
    """Forestcycling
See Typecycling.

Trample
A keyword ability. See rule 102.1.

Typecycling
A keyword ability that finds a land.

""",
)

B = edition(
    "June 1, 2024",
    """1. Game Concepts

100. General

100.1. These rules apply to every game of Tiny Rules.

100.1a A two-player game has two players.

100.2. Each player starts the game with twenty life.

100.3. Each player needs a deck of sixty cards or more.

101. Battles

101.1. A battle is a card type that players can attack and defeat.

102. Phenomena

102.1. A phenomenon is a card type seen only in the planar variant of the game.

103. Keyword Abilities

103.1. Banding

103.1a Banding is a static ability that lets creatures attack as a group.

103.2. Trample

103.2a Trample is a static ability that modifies how a creature assigns combat damage.

103.2b Trample over planeswalkers is a variant of trample.

103.3. Vigilance

103.3a Vigilance is a static ability that lets a creature attack without tapping.
""",
    """Forestcycling
See Typecycling.

Guard Duty
A creature with vigilance stays back to block. See rule 103.3.

Trample
A keyword ability. See rule 103.2.

Typecycling
A keyword ability that finds a land card of a named type.

""",
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("lineage")
    settings = built_game(root / "corpus", root / "store", "tiny-rules", TOML, {"rules-a.txt": A, "rules-b.txt": B})
    return Store(current_build(settings.store)), create_app(settings).test_client()


def ask(store: Store, term: str, version: str) -> dict:
    try:
        return answers.applies(store, "tiny-rules", term, version=version)
    except Exception as negative:  # a not-defined answer, as every channel shows it
        return negative.to_dict()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "number,version,name,text,numbers",
    [
        ("101", "A", "101. Phenomena", "", ["101"]),
        ("101", "B", "101. Battles", "", ["101"]),
        ("102", "B", "102. Phenomena", "", ["101", "102"]),
        ("100.2", "A", "Rule 100.2", "Each player needs a deck", ["100.2"]),
        ("100.2", "B", "Rule 100.2", "Each player starts the game with twenty life", ["100.2"]),
        ("100.3", "B", "Rule 100.3", "Each player needs a deck", ["100.2", "100.3"]),
        ("102.1", "A", "Trample", "Trample is a static ability", ["102.1"]),
        ("102.1", "B", "Rule 102.1", "A phenomenon is a card type", ["101.1", "102.1"]),
        ("103.2", "B", "Trample", "Trample is a static ability", ["102.1", "103.2"]),
        ("103.2a", "B", "Trample", "Trample is a static ability", ["102.1a", "103.2a"]),
        ("103.1", "B", "Banding", "Banding is a static ability", ["103.1"]),
    ],
)
def test_a_number_answers_with_the_entry_its_edition_prints(tiny, number, version, name, text, numbers):
    store, _ = tiny
    answer = ask(store, number, version)
    assert answer["status"] == "ok", answer
    assert answer["numbers"] == numbers
    assert answer["name"] == name
    assert text in answer["text"]
    assert answer["url"] == f"/tiny-rules/v/{version}/rules/{number}"


def test_a_number_an_edition_does_not_print_says_where_its_rule_went(tiny):
    store, _ = tiny
    moved = ask(store, "102.1a", "B")  # Trample's subrule letter a is 103.2a there; 102.1 is Phenomena's rule
    assert moved["status"] == "not-defined"
    assert moved["renumbered"]["number"] == "103.2a" and "103.2a here" in moved["message"]
    assert ask(store, "103", "A")["status"] == "not-defined"  # first printed in B


def test_a_rule_history_follows_the_rule_through_its_renumbering(tiny):
    store, _ = tiny
    game = store.game("tiny-rules")
    b = store.versions(game)[-1]
    trample = rules.history(store, rules.locate(store, game, "103.2", b.ordinal))
    assert [(s.revision.version, s.number) for s in trample] == [("A", "102.1"), ("B", "103.2")]
    banding = rules.history(store, rules.locate(store, game, "103.1", b.ordinal))
    assert [(s.revision.version, s.number) for s in banding] == [("B", "103.1")]
    phenomena = rules.history(store, rules.locate(store, game, "102", b.ordinal))
    assert [(s.revision.version, s.number, s.revision.change) for s in phenomena] == [
        ("A", "101", "introduced"),
        ("B", "102", "renumbered"),
    ]


def test_pages_by_number_show_each_edition_and_a_term_page_by_its_number_then(tiny):
    _, client = tiny
    assert "101. Battles" in client.get("/tiny-rules/v/B/rules/101").get_data(as_text=True)
    assert "101. Phenomena" in client.get("/tiny-rules/v/A/rules/101").get_data(as_text=True)
    assert "Phenomena" in client.get("/tiny-rules/rules/102").get_data(as_text=True)
    slug = client.get("/tiny-rules/rules/103.2").get_data(as_text=True)
    assert "Trample over planeswalkers" in slug
    pinned = client.get("/tiny-rules/v/A/terms/rule-102-1")  # Trample's term, pinned: its number then
    assert pinned.status_code == 301 and pinned.headers["Location"].endswith("/tiny-rules/v/A/rules/102.1")
    current = client.get("/tiny-rules/terms/rule-102-1")  # now: its number may move again, so 302
    assert current.status_code == 302 and current.headers["Location"].endswith("/tiny-rules/rules/103.2")


def test_referenced_by_lists_what_referred_to_a_term_at_the_version_shown(tiny):
    store, client = tiny
    game = store.game("tiny-rules")
    a, b = store.versions(game)
    vigilance = rules.locate(store, game, "103.3", b.ordinal).term
    kinds = ("cites", "mentions")
    assert [name for _, name in term_sheet.referrers(store, vigilance, kinds, b.ordinal)] == ["Guard Duty"]
    assert term_sheet.referrers(store, vigilance, kinds, a.ordinal) == []  # Guard Duty came later
    assert "Guard Duty" not in client.get("/tiny-rules/v/A/rules/102.2").get_data(as_text=True)
    assert "Guard Duty" in client.get("/tiny-rules/v/B/rules/103.3").get_data(as_text=True)
    trample = rules.locate(store, game, "103.2", b.ordinal).term
    assert [name for _, name in term_sheet.referrers(store, trample, kinds, a.ordinal)] == ["Trample"]  # the glossary's


def test_a_see_entry_shows_what_it_points_to_as_of_the_version_asked(tiny):
    store, _ = tiny
    assert ask(store, "Forestcycling", "A")["text"] == "A keyword ability that finds a land."
    assert ask(store, "Forestcycling", "B")["text"] == "A keyword ability that finds a land card of a named type."
