"""A game's slug and aliases lead to that game alone: a second game claiming one is a build error naming
both manifests, and the build serving keeps answering."""

import json

import pytest
from click.testing import CliRunner

from rulings.builds import current_build
from rulings.cli import main

from .conftest import assert_clean_exit, write_game

RULES = "Basics\n\nSome prose.\n\nGlossary\n\nAttack: A thing the intruder defines.\n"


def run(corpus, store, *args):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


def intruder(aliases: list[str]) -> str:
    return (
        f'[game]\nname = "Intruder"\naliases = {json.dumps(aliases)}\n'
        '[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitle = "Rules"\n'
    )


@pytest.fixture
def built(corpus_copy, tmp_path):
    store = tmp_path / "store"
    assert run(corpus_copy, store, "build").exit_code == 0
    return corpus_copy, store


@pytest.mark.parametrize(
    "aliases,said",
    [
        (["ic", "mc"], "alias 'mc' is also an alias in {corpus}/intruder/game.toml:3"),  # at marvel-champions
        (["marvel-champions"], "alias 'marvel-champions' is also the folder name of {corpus}/marvel-champions"),
        (["Marvel Champions"], "alias 'Marvel Champions' is also the folder name of {corpus}/marvel-champions"),
        (["SOTM"], "alias 'sotm' is also an alias in {corpus}/intruder/game.toml:3"),
        (["api"], "alias 'api' is taken by the site's own /api/ URLs"),
    ],
)
def test_a_name_two_games_claim_is_a_build_error_naming_both(built, aliases, said):
    corpus, store = built
    before = current_build(store)
    write_game(corpus, "intruder", intruder(aliases), {"rules.txt": RULES})
    result = run(corpus, store, "build")
    assert result.exit_code == 3, result.output
    assert said.format(corpus=corpus) in result.stderr and "game.toml:3: error: [game] " in result.stderr
    assert current_build(store) == before  # the previous build keeps serving...
    answer = run(corpus, store, "applies", "mc", "attack", "--json")
    assert json.loads(answer.stdout)["game"] == "marvel-champions"  # ...and mc is still Marvel Champions
    assert "does not build" in answer.stderr


def test_a_game_folder_named_as_another_games_alias_is_refused(built):
    corpus, store = built
    write_game(corpus, "mc", intruder([]), {"rules.txt": RULES})
    result = run(corpus, store, "build")
    assert result.exit_code == 3
    assert (
        f"{corpus}/marvel-champions/game.toml:3: error: [game] alias 'mc' is also the folder name of {corpus}/mc"
        in (result.stderr)
    )


def test_a_game_may_name_itself(built):
    corpus, store = built
    write_game(corpus, "intruder", intruder(["intruder", "Intruder", "ig"]), {"rules.txt": RULES})
    assert run(corpus, store, "build").exit_code == 0
