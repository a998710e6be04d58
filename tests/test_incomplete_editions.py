"""An edition read far short of the one before it is refused, naming the file; one game.toml says is incomplete
is a warning, and removes nothing (issue 31, "honest reading of a snapshot")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.errors import CorpusError
from rulings.ingest.manifest import load_manifest

from .conftest import write_game

TERMS = [f"Term {chr(65 + i)}{chr(65 + j)}" for i in range(5) for j in range(5)]  # 25 names: "Term AA" ...


def glossary(names: list[str], changed: str = "", cut: str | None = None) -> str:
    text = "# Glossary\n\n" + "".join(f"{n}: What {n} means{changed}.\n\n" for n in names)
    return text + (f"{cut}: What {cut} me" if cut else "")


def toml(incomplete: str | None = None) -> str:
    out = '[game]\nname = "Cut"\n'
    for version in ("1.0", "2.0", "3.0"):
        out += f'\n[[documents]]\nfile = "rules-{version}.md"\nkind = "reference"\nversion = "{version}"\n'
        if version == "2.0" and incomplete is not None:
            out += f"incomplete = {json.dumps(incomplete)}\n"
    return out


FILES = {
    "rules-1.0.md": glossary(TERMS),
    "rules-2.0.md": glossary(TERMS[:9], changed=", now", cut=TERMS[9]),  # cut off in its tenth entry
    "rules-3.0.md": glossary(TERMS, changed=", now"),
}


def run(root, *args):
    result = CliRunner().invoke(main, ["--corpus", str(root / "corpus"), "--store", str(root / "store"), *args])
    return json.loads(result.output) if "--json" in args else result


def test_an_edition_read_far_short_is_refused_naming_the_file_and_line(tmp_path):
    write_game(tmp_path / "corpus", "cut", toml(), FILES)
    result = run(tmp_path, "build")
    assert result.exit_code == 3
    assert "corpus/cut/rules-2.0.md:21: error: 10 glossary entries where Rules 1.0 1.0 has 25" in result.output
    assert 'incomplete = "why"' in result.output
    assert not (tmp_path / "store" / "current").exists()  # nothing published


def test_an_edition_game_toml_says_is_incomplete_removes_nothing(tmp_path):
    write_game(tmp_path / "corpus", "cut", toml("the file is cut off in Term BE"), FILES)
    result = run(tmp_path, "build")
    assert result.exit_code == 0, result.output
    assert (
        "corpus/cut/rules-2.0.md:21: warning: 10 glossary entries where Rules 1.0 1.0 has 25; incomplete, as "
        "game.toml says (the file is cut off in Term BE): nothing it lacks is taken as removed"
    ) in result.output
    assert "corpus/cut/rules-2.0.md:21: warning: 'Term BE', the last entry of this incomplete edition" in result.output
    at_two = run(tmp_path, "applies", "cut", "Term EE", "--version", "2.0", "--json")
    assert (at_two["status"], at_two["text"], at_two["version"]) == ("ok", "What Term EE means.", "1.0")
    cut = run(tmp_path, "applies", "cut", "Term BE", "--version", "2.0", "--json")
    assert (cut["text"], cut["version"]) == ("What Term BE means.", "1.0")  # its cut text is not taken
    read = run(tmp_path, "applies", "cut", "Term AB", "--version", "2.0", "--json")
    assert (read["text"], read["version"]) == ("What Term AB means, now.", "2.0")
    report = run(tmp_path, "changes", "cut", "1.0", "2.0", "--json")
    assert report["removed"] == [] and len(report["changed"]) == 9
    assert run(tmp_path, "changes", "cut", "2.0", "3.0", "--json")["removed"] == []


@pytest.mark.parametrize(
    "value,message",
    [
        ('""', "[[documents]] #2: incomplete must say why"),
        ("true", "[[documents]] #2: incomplete must say why"),
    ],
)
def test_incomplete_must_say_why(tmp_path, value, message):
    text = toml("x").replace('incomplete = "x"', f"incomplete = {value}")
    game = write_game(tmp_path, "cut", text, FILES)
    with pytest.raises(CorpusError) as raised:
        load_manifest(game)
    assert (raised.value.diagnostic.path, raised.value.diagnostic.line) == ("corpus/cut/game.toml", 13)
    assert raised.value.diagnostic.message.startswith(message)


def test_incomplete_is_said_of_editions_only(tmp_path):
    text = '[game]\nname = "Cut"\n\n[[documents]]\nfile = "changes.md"\nkind = "changelog"\nincomplete = "cut"\n'
    game = write_game(tmp_path, "cut", text, {"changes.md": "# 1.0\n"})
    with pytest.raises(CorpusError, match="incomplete is said of an edition") as raised:
        load_manifest(game)
    assert raised.value.diagnostic.line == 7
    assert load_manifest(write_game(tmp_path / "ok", "cut", toml("cut short"), FILES)).documents[1].incomplete == (
        "cut short"
    )
