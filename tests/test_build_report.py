"""The build's quality report: one line per document, the whole story with --explain FILE, --json."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulings.cli import main

from .conftest import assert_clean_exit, write_game

TOML = (
    '[game]\nname = "Moon"\n[[documents]]\nfile = "rules.md"\nkind = "reference"\ntitle = "Rules"\n'
    '[[documents]]\nfile = "faq.md"\nkind = "faq"\ntitle = "FAQ"\n'
)
RULES = """# Moon Rules

## Glossary

**Airlock:** A door. See also Dome.

**Crater:** A hole. See Ridge.

**Crater:** A second hole.

**Dome:**

## Setup

1. **Board:** Put it down.
2. **Cards:** Deal five.
"""
FAQ = "# FAQ\n\n**Can a dome sit in a crater?**\n\nNo.\n"


def run(corpus, store, *args):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


def test_a_badly_parsed_document_builds_and_the_report_says_what_is_wrong(tmp_path):
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    write_game(corpus, "moon", TOML, {"rules.md": RULES, "faq.md": FAQ})
    result = run(corpus, store, "build")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    summary = next(line for line in lines if line.startswith("corpus/moon/rules.md"))
    assert summary == (
        "corpus/moon/rules.md (generic): 4 entries, 3 sections; cross-references 1 resolved, 1 unresolved; "
        "0 lines not placed; 4 warnings"
    )
    assert any(line.startswith("corpus/moon/faq.md (generic): 1 section; 1 ruling;") for line in lines)
    assert len([line for line in lines if line.startswith("corpus/")]) == 2  # one line per document, no flood

    explained = run(corpus, store, "build", "--explain", "rules.md").output
    assert "     5  entry    Airlock: a definition paragraph under 'Glossary', a heading" in explained
    assert "    13  section  Setup: a level-2 heading" in explained
    for warning in (
        "'Crater' refers to 'Ridge', which no entry of the game is named",
        "term 'Crater' has the name of the term at line 7",
        "term 'Dome' has no text",
        "the glossary ends abruptly at 'Dome'",
    ):
        assert warning in explained
    assert "entry    Board" not in explained and "entry    Cards" not in explained  # steps are never terms

    report = json.loads(run(corpus, store, "build", "--json").output)
    rules = next(d for d in report["documents"] if d["path"] == "corpus/moon/rules.md") if report["documents"] else None
    assert rules is None  # nothing changed: nothing was parsed again, the report of the last parse stays
    data = json.loads(run(corpus, store, "build", "--full", "--json").output)
    rules = next(d for d in data["documents"] if d["path"] == "corpus/moon/rules.md")
    assert rules["entries"] == {"section": 3, "entry": 4} and rules["terms"] == 4
    assert rules["cross_references"] == {
        "resolved": 1,
        "unresolved": [{"line": 7, "term": "Crater", "target": "Ridge"}],
    }
    assert "explain" not in rules
    full = json.loads(run(corpus, store, "build", "--explain", "corpus/moon/rules.md", "--json").output)
    assert [item["names"] for item in full["explain"] if item["kind"] == "entry"] == [
        ["Airlock"],
        ["Crater"],
        ["Crater"],
        ["Dome"],
    ]


def test_explain_names_the_document_or_says_which_exist(tmp_path):
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    write_game(corpus, "moon", TOML, {"rules.md": RULES, "faq.md": FAQ})
    result = run(corpus, store, "build", "--explain", "rule.md")
    assert result.exit_code == 2
    assert "--explain rule.md is no document of the corpus" in result.output
