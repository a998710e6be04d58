"""The rules of a variant answer questions about that variant: below the base rules unless the question names it.

A small rulebook written for the test: base rules, a "Variants" chapter (the play lexicon's word) and an
"Option" heading (the game's own word, from its game.toml ``[search] variants``).
"""

from __future__ import annotations

import pytest

from rulings.errors import CorpusError
from rulings.index.scope import names_variant, variant_scope
from rulings.ingest.manifest import load_manifest

from .conftest import built_searcher, write_game

RULEBOOK = """# Harbor Rules

## Ships

A player may launch one ship during a turn, from the dock, after paying its crew.

## Storms

A storm sinks every ship left outside the harbor at the end of the round.

## Game Variants

### Two-Captain Variant

In a two-captain game, a player may launch a ship during the turn of another player.

### Lone Sailor Variant

The lone sailor plays against the tide deck. A storm sinks only ships left outside at the end of every second round.

## Convoy Option

With the convoy option, a player may launch one ship during the turn of another player for each ship docked.
"""

MANIFEST = """[game]
name = "Harbor"

[[documents]]
file = "rules.md"
kind = "rulebook"
title = "Rules"

[search]
variants = ["option"]
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    corpus, store = tmp_path_factory.mktemp("corpus"), tmp_path_factory.mktemp("store")
    return built_searcher(corpus, store, "harbor", MANIFEST, {"rules.md": RULEBOOK})


def titles(searcher, query):
    return [h.title for h in searcher.search(query, game="harbor").hits]


def test_the_base_rule_answers_before_a_variants_restatement_of_it(searcher):
    found = titles(searcher, "can I launch a ship during the turn of another player")
    assert found[0] == "Ships", found
    assert "Two-Captain Variant" in found and "Convoy Option" in found  # still found, below


def test_a_question_that_names_the_variant_gets_its_rules_first(searcher):
    assert titles(searcher, "two captain launch a ship during the other turn")[0] == "Two-Captain Variant"
    assert titles(searcher, "convoy launch ship during turn")[0] == "Convoy Option"
    assert titles(searcher, "lone sailor storm sinks ships")[0] == "Lone Sailor Variant"
    assert titles(searcher, "storm sinks ships outside")[0] == "Storms"


def test_a_scope_is_the_variants_headings_from_the_first_that_names_one():
    markers = frozenset({"variant", "option"})
    words = lambda text: [w.lower().rstrip("s") for w in text.replace("-", " ").split()]  # noqa: E731
    assert variant_scope(["Rules", "Ships"], "Rule 1.2", markers, words) is None
    scope = variant_scope(["9. Casual Variants", "903. Commander"], "Rule 903.7", markers, words)
    assert scope == "casual\ncommander"  # numbering and the variant word left out; not the entry's own name
    assert variant_scope(["Rules"], "805. Shared Team Turns Option", markers, words) == "shared team turn"
    assert variant_scope(["Variants"], "Setup", markers, words) == "variant"  # a heading of the word alone
    assert names_variant(scope, {"commander", "life"}) and not names_variant(scope, {"life"})
    assert not names_variant("shared team turn", {"turn"})  # one word of three is not naming it
    assert names_variant("shared team turn", {"team", "turn"})


def test_a_bad_search_table_is_reported_at_its_line(tmp_path):
    toml = MANIFEST.replace('variants = ["option"]', "variants = 3")
    game = write_game(tmp_path, "harbor", toml, {"rules.md": RULEBOOK})
    with pytest.raises(CorpusError, match=r"\[search\]") as caught:
        load_manifest(game)
    assert caught.value.diagnostic.line == toml.splitlines().index("[search]") + 1
