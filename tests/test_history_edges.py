"""Reconstruction edge cases on small fixtures: a version that both restates and patches a term,
a patch adding a section that exists, version labels that mix numbers and words."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulings.cli import main
from rulings.graph.history import version_key

from .conftest import assert_clean_exit, write_game

TOML = """[game]
name = "Tiny"
[[documents]]
file = "rules.txt"
kind = "rulebook"
title = "Rules"
version = "1.0"
date = 2020-01-01
[[documents]]
file = "changes.txt"
kind = "changelog"
[[versions]]
label = "2e"
date = 2022-01-01
"""
RULES = "Basics\n\nSome prose.\n\nGlossary\n\nApple: A fruit.\n\nPear: Another fruit.\n"
CHANGES = "\n".join(
    [
        "Changes",
        "",
        "Changed from 1.0 -> 1.1 (May 1, 2021)",
        "",
        "Apple",
        "",
        "A fruit, and a tasty one.",
        "",
        "p. 2, Apple \u2014 \u201ctasty\u201d \u2014> \u201csweet\u201d",
        "p. 3 \u2014> Added section on \u201cPear\u201d",
        "",
    ]
)


def cli(tmp_path, *args):
    result = CliRunner().invoke(main, ["--corpus", str(tmp_path / "corpus"), "--store", str(tmp_path / "store"), *args])
    assert_clean_exit(result)
    return result


def test_a_version_that_restates_and_patches_one_term(tmp_path):
    write_game(tmp_path / "corpus", "tiny", TOML, {"rules.txt": RULES, "changes.txt": CHANGES})
    built = cli(tmp_path, "build")
    assert built.exit_code == 0, built.output
    assert (
        "changes.txt:10: warning: 1.1 says it added the section \u201cPear\u201d, which already exists" in built.output
    )
    apple = json.loads(cli(tmp_path, "applies", "tiny", "apple", "--version", "1.1", "--json").output)
    assert apple["text"] == "A fruit, and a sweet one."  # the patch lands on the version's one revision
    terms = json.loads(cli(tmp_path, "terms", "tiny", "--json").output)
    assert [t["name"] for t in terms].count("Pear") == 1
    pear = json.loads(cli(tmp_path, "applies", "tiny", "pear", "--version", "1.1", "--json").output)
    assert pear["text"] == "Another fruit." and pear["version"] == "1.0"  # not emptied by the section line
    assert (
        json.loads(cli(tmp_path, "applies", "tiny", "apple", "--date", "2022-06-01", "--json").output)["in_force"]
        == "2e"
    )


def test_version_labels_sort_numbers_before_words():
    labels = ["2e", "1.10", "1.9", "1.4.2", "1.4", "1.0"]
    assert sorted(labels, key=version_key) == ["1.0", "1.4", "1.4.2", "1.9", "1.10", "2e"]


def test_name_index_finds_typos_of_other_terms_and_names_without_qualifiers():
    from rulings.graph.identity import NameIndex, Term

    index = NameIndex()
    villainous = Term("entry", ["Villainous"], "rr", 1)
    typo = Term("entry", ["Villanous"], "cl", 2)
    retaliate = Term("entry", ["Retaliate X"], "rr", 3)
    for term in (villainous, typo, retaliate):
        index.add_term(term)
    assert index.near(typo, "versioned") is villainous  # never the term itself
    assert index.near(retaliate, "versioned") is None
    assert index.by_base("Retaliate (Value)", "versioned") is retaliate
    assert index.by_base("Retaliate", "versioned") is retaliate
