"""Several documents of one game make one glossary (issue 15, item 4): the same term from a rulebook
and a reference is one term; precedence says whose text is shown; the other text stays a source."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulings.cli import main
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import assert_clean_exit, write_game

REFERENCE = """# Moon Rules Reference

## Glossary

**Crater:** A space nothing can be built on, ever.

**Dome:** A building that holds air. See also Crater.

**Ridge:** A line of rocks that blocks movement.
"""
RULEBOOK = """# Moon Rulebook

## Playing

Build domes, avoid craters.

## Glossary

**Airlock:** A door between two domes.

**Crater:** A hole.

**Dome:** A building.
"""


def manifest(precedence: str = "") -> str:
    return (
        f'[game]\nname = "Moon"\n{precedence}\n'
        '[[documents]]\nfile = "rulebook.md"\nkind = "rulebook"\ntitle = "Rulebook"\n'  # listed first on purpose
        '[[documents]]\nfile = "reference.md"\nkind = "reference"\ntitle = "Rules Reference"\n'
    )


def run(corpus, store, *args):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


def build(tmp_path, toml: str):
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    write_game(corpus, "moon", toml, {"reference.md": REFERENCE, "rulebook.md": RULEBOOK})
    result = run(corpus, store, "build")
    assert result.exit_code == 0, result.output
    return corpus, store


def test_one_term_per_name_the_reference_text_shown_and_the_rulebook_text_kept(tmp_path):
    corpus, store = build(tmp_path, manifest())
    terms = json.loads(run(corpus, store, "terms", "moon", "--json").output)
    assert sorted(t["name"] for t in terms) == ["Airlock", "Crater", "Dome", "Ridge"]  # no duplicates
    crater = json.loads(run(corpus, store, "applies", "moon", "crater", "--json").output)
    assert crater["text"] == "A space nothing can be built on, ever."  # reference > rulebook by default
    assert crater["source"]["title"] == "Rules Reference"
    assert [(a["title"], a["text"]) for a in crater["source"]["also"]] == [("Rulebook", "A hole.")]
    airlock = json.loads(run(corpus, store, "applies", "moon", "airlock", "--json").output)
    assert airlock["text"] == "A door between two domes." and "also" not in airlock["source"]

    app = create_app(Settings.resolve(corpus, store))
    page = app.test_client().get("/moon/terms/crater").get_data(as_text=True)
    assert "A space nothing can be built on, ever." in page
    assert "Also in Rulebook" in page and "A hole." in page


def test_the_manifest_precedence_says_whose_text_is_shown(tmp_path):
    corpus, store = build(tmp_path, manifest('precedence = ["rulebook.md"]'))
    dome = json.loads(run(corpus, store, "applies", "moon", "dome", "--json").output)
    assert dome["text"] == "A building." and dome["source"]["title"] == "Rulebook"
    assert dome["source"]["also"][0]["text"].startswith("A building that holds air.")


def test_a_precedence_naming_no_document_is_refused_at_its_line(tmp_path):
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    write_game(
        corpus, "moon", manifest('precedence = ["rules.md"]'), {"reference.md": REFERENCE, "rulebook.md": RULEBOOK}
    )
    result = run(corpus, store, "build")
    assert result.exit_code == 3
    assert "moon/game.toml:3: error: [game] precedence: 'rules.md' is neither a document of this game" in result.output


def test_a_term_stays_while_a_document_of_another_series_still_defines_it(tmp_path):
    """Version 2 brings a new rulebook without "Crater"; the reference (version 1) still defines it."""
    toml = (
        '[game]\nname = "Moon"\n'
        '[[documents]]\nfile = "reference.md"\nkind = "reference"\ntitle = "Rules Reference"\nversion = "1"\n'
        "date = 2020-01-01\n"
        '[[documents]]\nfile = "rulebook.md"\nkind = "rulebook"\ntitle = "Rulebook"\nversion = "1"\n'
        "date = 2020-01-01\n"
        '[[documents]]\nfile = "rulebook-2.md"\nkind = "rulebook"\ntitle = "Rulebook"\nversion = "2"\n'
        "date = 2021-01-01\n"
    )
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    second = RULEBOOK.replace("**Crater:** A hole.\n\n", "")
    write_game(corpus, "moon", toml, {"reference.md": REFERENCE, "rulebook.md": RULEBOOK, "rulebook-2.md": second})
    assert run(corpus, store, "build").exit_code == 0
    crater = json.loads(run(corpus, store, "applies", "moon", "crater", "--version", "2", "--json").output)
    assert crater["status"] == "ok" and crater["text"] == "A space nothing can be built on, ever."
    airlock = json.loads(run(corpus, store, "applies", "moon", "airlock", "--version", "2", "--json").output)
    assert airlock["status"] == "ok"


def test_a_newer_rulebook_does_not_override_the_reference_still_in_force(tmp_path):
    """Version 2 brings only a new rulebook with another text of "Dome": the reference of version 1
    still defines it and outranks the rulebook, so its text stays; what version 1 said is unchanged."""
    one = (
        '[game]\nname = "Moon"\n'
        '[[documents]]\nfile = "reference.md"\nkind = "reference"\ntitle = "Rules Reference"\nversion = "1"\n'
        "date = 2020-01-01\n"
        '[[documents]]\nfile = "rulebook.md"\nkind = "rulebook"\ntitle = "Rulebook"\nversion = "1"\n'
        "date = 2020-01-01\n"
    )
    two = one + (
        '[[documents]]\nfile = "rulebook-2.md"\nkind = "rulebook"\ntitle = "Rulebook"\nversion = "2"\n'
        "date = 2021-01-01\n"
    )
    second = RULEBOOK.replace("**Dome:** A building.", "**Dome:** A building with a door.").replace(
        "**Airlock:** A door between two domes.", "**Airlock:** A door between domes."
    )
    files = {"reference.md": REFERENCE, "rulebook.md": RULEBOOK, "rulebook-2.md": second}

    def answers(toml, folder):
        corpus, store = tmp_path / folder / "corpus", tmp_path / folder / "store"
        write_game(corpus, "moon", toml, files)
        assert run(corpus, store, "build").exit_code == 0
        return lambda *args: json.loads(run(corpus, store, "applies", "moon", *args, "--json").output)

    before, after = answers(one, "one"), answers(two, "two")
    dome = after("dome", "--version", "2")
    assert dome["text"] == "A building that holds air. See also Crater."
    assert dome["source"]["title"] == "Rules Reference"
    assert after("airlock", "--version", "2")["text"] == "A door between domes."  # only the rulebook has it
    for name in ("dome", "crater", "ridge"):  # the same text at 1 and at 2
        assert after(name, "--version", "1") == before(name, "--version", "1")
    was, now = before("airlock", "--version", "1"), after("airlock", "--version", "1")
    assert now["superseded_by"]["version"] == "2" and {**now, "superseded_by": None} == was
