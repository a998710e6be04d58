"""Where the corpus and the store are: each corpus has a store of its own unless told, so building or serving
another corpus (the Magic game) never switches a running server of the bundled one (issue 35)."""

from __future__ import annotations

from click.testing import CliRunner

from rulings.cli import main
from rulings.settings import Settings

from .conftest import write_game

TOML = '[game]\nname = "Tiny"\n\n[[documents]]\nfile = "rules.md"\nkind = "reference"\n'
RULES = "# Glossary\n\nApple: A fruit.\n\nPear: Another fruit.\n"


def test_each_corpus_has_a_store_of_its_own_unless_told(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Settings.resolve().store == tmp_path / "var" / "store"  # ./corpus, the bundled games
    assert Settings.resolve("var/corpus-magic").store == tmp_path / "var" / "store-magic"
    assert Settings.resolve(tmp_path / "elsewhere" / "games").store == tmp_path / "var" / "store-games"
    assert Settings.resolve("var/corpus-magic", "there").store == tmp_path / "there"
    monkeypatch.setenv("RULINGS_STORE", str(tmp_path / "from-env"))
    assert Settings.resolve("var/corpus-magic").store == tmp_path / "from-env"
    monkeypatch.setenv("RULINGS_CORPUS", "var/corpus-magic")
    monkeypatch.delenv("RULINGS_STORE")
    assert Settings.resolve() == Settings(tmp_path / "var" / "corpus-magic", tmp_path / "var" / "store-magic")


def test_building_another_corpus_leaves_the_bundled_store_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_game(tmp_path / "var" / "corpus-tiny", "tiny", TOML, {"rules.md": RULES})
    for args in (["--corpus", "var/corpus-tiny", "build"], ["build", "--corpus", "var/corpus-tiny"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert f"-> {tmp_path / 'var' / 'store-tiny' / 'builds'}" in result.output
    answer = CliRunner().invoke(main, ["--corpus", "var/corpus-tiny", "applies", "tiny", "pear"])
    assert answer.output.startswith("Pear")
    assert sorted(p.name for p in (tmp_path / "var").iterdir()) == ["corpus-tiny", "store-tiny"]
