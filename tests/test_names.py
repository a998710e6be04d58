"""Every name a document uses for a term resolves wherever a name is accepted (issue 15, item 2):
``applies``, URLs, linkify and the API; each name of a multi-name heading, the heading as printed,
OCR spellings the build repaired; an unambiguous near miss is answered with a note."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import assert_clean_exit, write_game

TOML = '[game]\nname = "Forge"\n[[documents]]\nfile = "rules.md"\nkind = "reference"\ntitle = "Rules"\n'
RULES = """# Forge Rules

## Glossary

**Ability, Card Ability:** The text a card gives the game.

**\u00c6mber:** Tracked by \u00c6mber tokens; forges keys.

**Exhaust / Exhausted:** Turn a card sideways.

**Guard:** See: Keywords, Status Cards

**Keywords:** Words with rules of their own.

**PLAYER\u2019S TURN:** The turn of the active player.

**Status Cards:** Cards put on other cards.

**Victory Points (VP):** What wins the game.

**Villainous:** Belonging to the villain.
"""


@pytest.fixture(scope="module")
def forge(tmp_path_factory):
    root = tmp_path_factory.mktemp("forge")
    corpus, store = root / "corpus", root / "store"
    write_game(corpus, "forge", TOML, {"rules.md": RULES})
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), "build"])
    assert result.exit_code == 0, result.output
    return corpus, store


def cli(forge, *args):
    corpus, store = forge
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


def applies(forge, name):
    result = cli(forge, "applies", "forge", name, "--json")
    return json.loads(result.output), result.exit_code


@pytest.mark.parametrize(
    ("asked", "term"),
    [
        ("Ability", "Ability"),
        ("card ability", "Ability"),
        ("Ability, Card Ability", "Ability"),  # the heading as printed
        ("Exhausted", "Exhaust"),
        ("Exhaust / Exhausted", "Exhaust"),
        ("VP", "Victory Points"),
        ("victory points (vp)", "Victory Points"),
        ("\u00c6mber", "\u00c6mber"),
        ("aember", "\u00c6mber"),
        ("player's turn", "Player\u2019s Turn"),  # title-cased without "Player\u2019S"
    ],
)
def test_every_name_a_heading_prints_answers(forge, asked, term):
    answer, code = applies(forge, asked)
    assert code == 0 and answer["term"] == term
    assert not any("close to" in n for n in answer["notes"])


def test_a_near_miss_is_answered_with_a_note(forge):
    answer, code = applies(forge, "Villanous")
    assert code == 0 and answer["term"] == "Villainous"
    assert (
        answer["notes"][0]
        == "No term is named \u201cVillanous\u201d; this is \u201cVillainous\u201d, the one name it is close to."
    )
    amber, code = applies(forge, "amber")  # one letter from "aember"
    assert code == 0 and amber["term"] == "\u00c6mber" and "close to" in amber["notes"][0]
    unknown, code = applies(forge, "Vilification")  # near nothing: still unknown, with suggestions
    assert code == 1 and unknown["status"] == "unknown-term"


def test_a_redirect_to_several_terms_answers_with_them(forge):
    answer, code = applies(forge, "guard")
    assert code == 0 and answer["text"] == "See: Keywords, Status Cards."
    assert "Guard is defined by the entries it points at: Keywords, Status Cards." in answer["notes"]


def test_urls_linkify_and_the_api_take_every_name(forge):
    corpus, store = forge
    client = create_app(Settings.resolve(corpus, store)).test_client()
    slugs = {t["name"]: t["slug"] for t in json.loads(cli(forge, "terms", "forge", "--json").output)}
    assert slugs["\u00c6mber"] == "aember" and slugs["Player\u2019s Turn"] == "player-s-turn"
    moved = client.get("/forge/terms/ability-card-ability")  # the printed heading's slug
    assert moved.status_code == 301 and moved.headers["Location"].endswith("/forge/terms/ability")
    assert client.get("/forge/terms/vp").status_code == 301
    guessed = client.get("/forge/terms/villanous")
    assert guessed.status_code == 302 and guessed.headers["Location"].endswith("/forge/terms/villainous")
    missing = client.get("/api/forge/terms/villanous")
    assert missing.status_code == 404 and "the nearest is 'Villainous' (villainous)" in missing.get_json()["message"]
    page = client.get("/forge/terms/guard").get_data(as_text=True)
    assert 'href="/forge/terms/keywords"' in page and 'href="/forge/terms/status-cards"' in page
    linked = client.post("/api/forge/linkify", json={"text": "[[Card Ability]], [[VP]] and [[Villanous]]"}).get_json()
    assert [link["term"] for link in linked["links"]] == ["Ability", "Victory Points", "Villainous"]
    assert "note" in linked["links"][2] and "note" not in linked["links"][0]
    assert linked["unresolved"] == []


def test_a_one_letter_typo_of_a_bundled_term_is_answered(cli):
    answer, code = cli.json("applies", "mc", "quickstrke")
    assert code == 0 and answer["term"] == "Quickstrike" and "close to" in answer["notes"][0]
    unknown, code = cli.json("applies", "mc", "quickstr")  # as close to nothing: unknown, with suggestions
    assert code == 1 and "Quickstrike" in unknown["suggestions"]


def test_the_ocr_spelling_the_build_repaired_still_answers(cli):
    """The Marvel Champions RR prints "STARICON"; the term is Star Icon, and "Staricon" still finds it."""
    answer, code = cli.json("applies", "mc", "staricon")
    assert code == 0 and answer["term"] == "Star Icon"
    terms, _ = cli.json("terms", "mc")
    star = next(t for t in terms if t["name"] == "Star Icon")
    assert "Staricon" not in star["aliases"]  # answers, but is not shown as another name
