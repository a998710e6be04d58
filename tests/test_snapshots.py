"""The version model on small fixtures: same text, sub-definition units, lasting anchors, and a game
with two complete editions (what is known, what is removed, what a declared rename carries)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.graph import merge
from rulings.graph.anchors import assign_anchors
from rulings.graph.identity import Revision, Term
from rulings.graph.units import mark_openers, subdefinitions
from rulings.ingest.model import Block
from rulings.settings import Settings
from rulings.text import comparable
from rulings.web import create_app

from .conftest import write_game


# -- same text -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a,b",
    [
        ("**Guard** \u2014 While *any* minion", "Guard - While any minion"),
        ("It\u2019s \u201cthe\u201d rule.", "It's the rule."),
        ("- first\n- second", "\u2022 first\n\u2022 second"),
        ("1. Do this.\n2. Do that.", "Do this. Do that."),
        ("Wrapped over\nlines.\n\nAnd paragraphs.", "Wrapped over lines. And paragraphs."),
        ("See [Guard](/mc/terms/guard).", "See Guard."),
    ],
)
def test_formatting_is_not_a_difference(a, b):
    assert comparable(a) == comparable(b)


@pytest.mark.parametrize("a,b", [("any remaining damage", "any excess damage"), ("A fruit.", "a fruit."),
                                 ("one, two", "one two")])  # fmt: skip
def test_words_case_and_punctuation_are(a, b):
    assert comparable(a) != comparable(b)


# -- sub-definition units --------------------------------------------------------------------------
def blocks(*texts, kind="para"):
    return mark_openers([Block(t, i, kind) for i, t in enumerate(texts)])


def test_openers_by_dash_always_by_colon_only_in_a_list():
    assert [b.opens for b in blocks("Guard \u2014 While engaged.", "Note: not a name.")] == ["Guard", None]
    assert [b.opens for b in blocks("Timing: a lone sentence with a colon.")] == [None]
    listed = blocks("Intro.", "Guard: While engaged.", "Patrol: While engaged too.", "Example: not one.")
    assert [b.opens for b in listed] == [None, "Guard", "Patrol", None]


def test_a_unit_runs_to_the_next_opener_and_an_amend_replaces_it_whole():
    old = blocks(
        "A keyword is an attribute.",
        "Guard \u2014 While any minions with this keyword are engaged.",
        "Overkill \u2014 If an ally defends, excess damage goes to the hero.",
        "If an attack with overkill defeats a minion, excess damage goes to the villain.",
        "Uses (X \u201ctype\u201d) \u2014 Place X counters.",
        "Each card with this keyword also has an ability.",
    )
    assert [(s.name, s.text.count("\n\n")) for s, _ in subdefinitions(old)] == [
        ("Guard", 0),
        ("Overkill", 1),
        ("Uses (X \u201ctype\u201d)", 1),
    ]
    new = blocks(
        "Guard: While a minion with guard is engaged.",
        "Overkill: Excess damage goes to the identity or villain.",
        "Patrol: While a minion with patrol is engaged.",
        "Uses (X \u201ctype\u201d): Place X counters; discard after the last.",
    )
    merged = merge.amend(old, new)
    assert [b.text.split(":")[0].split(" \u2014")[0] for b in merged] == [
        "A keyword is an attribute.",
        "Guard",
        "Overkill",
        "Patrol",  # inserted where the changelog has it
        "Uses (X \u201ctype\u201d)",
    ]
    assert sum("overkill" in b.text.lower() for b in merged) == 1  # never two Overkill definitions
    assert not any("Each card with this keyword" in b.text for b in merged)  # gone with the old Uses unit


# -- anchors ---------------------------------------------------------------------------------------
def revision(version, *texts):
    return Revision(version, "Term", blocks(*texts), "introduced", True, {})


def test_anchors_stay_with_their_block_and_never_change_meaning():
    term = Term("entry", ["Term"], "doc", 1)
    term.revisions = [
        revision("1", "If a hero defends, damage is reduced.", "Overkill \u2014 Old definition.", "Another rule."),
        revision("2", "If a hero makes a basic defense, damage is reduced.", "A brand new rule.", "Another rule."),
        revision("3", "If a hero defends, damage is reduced.", "Overkill \u2014 New definition.", "Another rule."),
    ]
    assign_anchors(term)
    first, second, third = ([b.anchor for b in r.blocks] for r in term.revisions)
    assert first == ["p-if-a-hero-defends", "overkill", "p-another-rule"]
    assert second == ["p-if-a-hero-defends", "p-a-brand-new-rule", "p-another-rule"]  # revised in place: same
    assert third == ["p-if-a-hero-defends", "overkill", "p-another-rule"]  # a name keeps its anchor, even after a gap
    numbered = Term("rule", ["Trample"], "doc", 1, number="702.19")
    numbered.revisions = [
        Revision("1", "Trample", [Block("Trample is ...", 1, "rule", number="702.19a")], "x", True, {})
    ]
    assign_anchors(numbered)
    assert numbered.revisions[0].blocks[0].anchor == "702.19a"


def test_a_new_paragraph_never_takes_an_anchor_the_term_used_before():
    term = Term("entry", ["Term"], "doc", 1)
    term.revisions = [
        revision("1", "If a hero defends, damage is reduced."),
        revision("2", "Totally other words."),
        revision("3", "If a hero defends, something else entirely happens now.", "Totally other words."),
    ]
    assign_anchors(term)
    assert [b.anchor for b in term.revisions[2].blocks] == ["p-if-a-hero-defends-2", "p-totally-other-words"]


# -- two complete editions -------------------------------------------------------------------------
TOML = """[game]
name = "Tiny"

[[documents]]
file = "rules-2.txt"
kind = "rulebook"
title = "Rules"
version = "2.0"
date = 2021-01-01

[[documents]]
file = "rules-1.txt"
kind = "rulebook"
title = "Rules"
version = "1.0"
date = 2020-01-01

[[renames]]
from = "Pear"
to = "Pearl"
version = "2.0"
"""
FIRST = "# Basics\n\nSome prose.\n\n# Glossary\n\nApple: A fruit.\n\nPear: Another fruit.\n\nPlum: A small fruit.\n\n"
SECOND = "# Basics\n\nSome prose, reworded.\n\n# Glossary\n\nApple: A *fruit*.\n\nCherry: A red fruit.\n\n"
SECOND += "Pearl: Another fruit, polished.\n\n"
FAQ = "# FAQ\n\nQ: Can I eat an apple?\n\nA: Yes.\n"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    write_game(root / "corpus", "tiny", TOML, {"rules-1.txt": FIRST + FAQ, "rules-2.txt": SECOND + FAQ})

    def run(*args):
        result = CliRunner().invoke(main, ["--corpus", str(root / "corpus"), "--store", str(root / "store"), *args])
        return json.loads(result.output) if "--json" in args else result

    assert run("build").exit_code == 0
    run.root = root
    return run


def test_an_edition_after_an_edition_knows_what_it_added_and_removed(tiny):
    cherry = tiny("applies", "tiny", "cherry", "--json")
    assert (cherry["introduced_in"], cherry["first_seen"], cherry["inferred"]) == ("2.0", "2.0", False)
    plum = tiny("applies", "tiny", "plum", "--json")
    assert plum["status"] == "not-defined" and plum["removed_in"]["version"] == "2.0"
    assert tiny("applies", "tiny", "plum", "--version", "1.0", "--json")["text"] == "A small fruit."
    apple = tiny("applies", "tiny", "apple", "--version", "2.0", "--json")
    assert apple["version"] == "1.0"  # the same text (emphasis aside) makes no revision


def test_a_declared_rename_carries_the_history(tiny):
    pearl = tiny("applies", "tiny", "Pear", "--version", "2.0", "--json")
    assert (pearl["term"], pearl["slug"], pearl["text"]) == ("Pearl", "pear", "Another fruit, polished.")
    assert tiny("applies", "tiny", "Pearl", "--version", "1.0", "--json")["term"] == "Pear"
    report = tiny("changes", "tiny", "1.0", "2.0", "--json")
    renamed = [(r["from"], r["to"], r["slug"], r["version"], r["inferred"]) for r in report["renamed"]]
    assert (report["added"], report["removed"]) == (["Cherry"], ["Plum"])
    assert renamed == [("Pear", "Pearl", "pear", "2.0", False)]
    assert set(report["changed"]) == {"Basics", "Pearl"} and not any(t["inferred"] for t in report["terms"])


def test_a_ruling_printed_again_is_one_ruling(tiny, tmp_path):
    rulings = tiny("search", "eat an apple", "--game", "tiny", "--kind", "ruling", "--json")
    assert [r["slug"] for r in rulings] == ["eat-apple"]  # formerly can-i-eat-an-apple (a redirect)
    stats = tiny("stats", "--json")
    assert stats["games"][0]["rulings"] == 1


def test_a_term_the_latest_version_removed_is_never_linked_to_a_404(tiny):
    """Plum, removed in 2.0: the A–Z says so and links its last text, its 1.0 page says it was removed and
    points to its history (no current page to see), its history's 2.0 entry links no page; no link of the
    whole site answers 404."""
    client = create_app(Settings.resolve(tiny.root / "corpus", tiny.root / "store")).test_client()
    home = client.get("/tiny/").get_data(as_text=True)
    assert re.search(r'href="/tiny/v/1\.0/terms/plum">Plum</a> <small class="muted">removed in 2\.0</small>', home)
    old = client.get("/tiny/v/1.0/terms/plum").get_data(as_text=True)
    assert "It was removed in <strong>2.0</strong>" in old and 'href="/tiny/terms/plum/history">see its history' in old
    history = client.get("/tiny/terms/plum/history").get_data(as_text=True)
    assert 'href="/tiny/v/2.0/terms/plum"' not in history and 'href="/tiny/terms/plum"' not in history
    assert client.get("/tiny/terms/plum").status_code == 404  # the page a forum link finds: it says when
    seen, queue = {"/tiny/"}, ["/tiny/"]
    while queue:
        page = client.get(queue.pop())
        assert page.status_code in (200, 301, 302, 308), page.request.path
        if page.status_code == 200 and "html" in page.content_type:
            for href in re.findall(r'href="(/tiny/[^"#?]*)"', page.get_data(as_text=True)):
                if href not in seen:
                    seen.add(href)
                    queue.append(href)
    assert len(seen) > 20
