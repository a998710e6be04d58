"""History never rewrites itself: adding a later edition changes no answer about earlier versions.

Marvel Champions gets a second full Rules Reference made for this test from the bundled 1.1 text
(entries reworded, added, removed and renamed, see ``LATER_EDITION``) as version 1.6, listed after
the other documents in game.toml and, in a second build, before them. Magic: The Gathering is built
with its first six editions, then with all seven.
"""

from __future__ import annotations

import re
import shutil

import pytest

from rulings.build import build
from rulings.errors import Unanswerable
from rulings.graph import answers, compare
from rulings.graph.store import Store
from rulings.index.search import Searcher
from rulings.settings import Settings

from .append_only import FORWARD, changed, pinned_pages, questions, record
from .conftest import CORPUS, MAGIC_DOCS, magic_corpus

# The 1.1 text made into a "1.6" edition, edit by edit: (what the 1.1 text says, what 1.6 says instead).
LATER_EDITION = [
    # its own title page: version 1.6, and none of 1.1's change notes
    ("**VERSION 1.1**", "**VERSION 1.6**"),
    ('- Pages 11-12: Expanded the definition of "Move".\n', ""),
    ('- Page 15: Expanded the definition of "Star Icon".\n', ""),
    ('- Page 19: Added the definition for "You".\n', ""),
    ('• Page 21: Added an "Appendix III: FAQ" section.\n', ""),
    # reworded
    (
        "If an ability heals a character, damage the character has sustained can be removed from the character.",
        "If an ability heals a character, remove that much damage from the character.",
    ),
    # added (in its alphabetical place)
    (
        "#### HIT POINTS",
        "#### **HERO ACTION**\n\nA hero action is an action that can only be taken in hero form.\n\n#### HIT POINTS",
    ),
    # removed
    (
        '#### **MAY**\n\nThe word "may" indicates that a specified player has the option to resolve the text that '
        "follows. If no player is specified, the option is granted to the controller of the card with the ability "
        "in question.\n\n",
        "",
    ),
    # renamed (declared in game.toml), and a second name for a heading
    ("#### **SELF-REFERENTIAL ABILITIES**", "#### **SELF-REFERENCES**"),
    ("#### MOVE\n", "#### MOVE, MOVING\n"),
]
MANIFEST_ENTRY = """
[[documents]]
file = "rules-reference-v1.6.txt"
kind = "reference"
title = "Rules Reference"
version = "1.6"
date = 2024-01-01
"""
RENAME = """
[[renames]]
from = "Self-Referential Abilities"
to = "Self-References"
version = "1.6"
"""


def later_edition() -> str:
    text = (CORPUS / "marvel-champions" / "rules-reference-v1.1.txt").read_text(encoding="utf-8")
    for old, new in LATER_EDITION:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def corpus_with_later_edition(root, first: bool):
    """The bundled corpus with the 1.6 edition, listed last (or first) among the documents."""
    corpus = root / "corpus"
    shutil.copytree(CORPUS, corpus)
    game = corpus / "marvel-champions"
    (game / "rules-reference-v1.6.txt").write_text(later_edition(), encoding="utf-8")
    toml = (game / "game.toml").read_text(encoding="utf-8")
    if first:
        head, rest = toml.split("[[documents]]", 1)
        toml = head + MANIFEST_ENTRY.lstrip() + "\n[[documents]]" + rest
    else:
        toml += MANIFEST_ENTRY
    (game / "game.toml").write_text(toml + RENAME, encoding="utf-8")
    return corpus


@pytest.fixture(scope="module")
def mc_before(store_dir):
    asked = questions(store_dir, "marvel-champions")
    return asked, record(store_dir, "marvel-champions", asked)


@pytest.fixture(scope="module", params=["listed last", "listed first"])
def mc_after(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("later")
    corpus = corpus_with_later_edition(root, first=request.param == "listed first")
    build(Settings.resolve(corpus, root / "store"), progress=lambda _: None)
    return root / "store"


def test_a_later_edition_changes_no_earlier_answer(mc_before, mc_after):
    asked, before = mc_before
    after = record(mc_after, "marvel-champions", asked, through="1.5")
    assert len(before) > 4000  # terms x versions, by slug and by name, pages, documents, changes
    assert changed(before, after) == []


def test_the_later_edition_is_read_as_a_snapshot(mc_after):
    store = Store((mc_after / "current").resolve())

    def ask(name, version="1.6"):
        try:
            return answers.applies(store, "marvel-champions", name, version=version)
        except Unanswerable as no:
            return no.to_dict()

    heal = ask("Heal")
    assert heal["version"] == "1.6" and heal["text"].startswith("If an ability heals a character, remove that much")
    assert heal["inferred"] is True and any("at the latest in 1.6" in n for n in heal["notes"])
    hero_action = ask("Hero Action")
    assert (hero_action["introduced_in"], hero_action["first_seen"], hero_action["inferred"]) == (None, "1.6", True)
    assert any("added at the latest in 1.6; not listed in any changelog" in n for n in hero_action["notes"])
    assert ask("Hero Action", "1.5")["status"] == "not-defined"  # never back-dated
    may = ask("May")
    assert may["status"] == "not-defined" and may["removed_in"]["version"] == "1.6"
    assert ask("May", "1.5")["text"].startswith('The word "may" indicates')
    renamed = ask("Self-References")
    assert renamed["term"] == "Self-References" and renamed["text"].startswith("Self-referential abilities refer")
    assert renamed["slug"] == ask("Self-Referential Abilities", "1.5")["slug"]  # one term, its history kept
    assert ask("Self-Referential Abilities")["term"] == "Self-References"
    assert ask("Moving")["term"] == "Move"  # a second heading name is an alias, never dropped
    assert ask("Hinder X")["status"] == "not-defined"  # a 1.4 term this edition does not have
    assert ask("Keywords")["version"] == "1.6"  # the edition's text, not the changelog's
    report = compare.changes(store, "marvel-champions", "1.5", "1.6")
    assert {"Hero Action"} <= set(report["added"]) and {"May", "Hinder X"} <= set(report["removed"])
    assert ("Self-Referential Abilities", "Self-References") in [(r["from"], r["to"]) for r in report["renamed"]]
    assert "Heal" in report["changed"] and "Boost" not in report["changed"]  # formatting is not a change
    assert all(t["inferred"] for t in report["terms"])  # 1.5 came from a changelog: nothing here is dated
    hits = Searcher(store.build).search("hinder", game="marvel-champions").hits
    assert not any(h.url.startswith("/marvel-champions/terms/hinder-x") for h in hits)  # not in force any more


@pytest.mark.needs_shared
def test_the_seventh_magic_edition_changes_no_answer_about_the_first_six(magic_store_dir, tmp_path):
    six = tmp_path / "six"
    build(Settings.resolve(magic_corpus(six / "corpus", editions=6), six / "store"), progress=lambda _: None)
    asked = questions(six / "store", "magic-the-gathering")
    before = record(six / "store", "magic-the-gathering", asked)
    after = record(magic_store_dir, "magic-the-gathering", asked, through="2022-11-18")
    assert len(before) > 30000
    assert changed(before, after) == []


ANCHOR = re.compile(r'\sid="([^"]+)"')


def magic_history(root, labels: list[str]):
    """A store of Magic built from the editions of these labels only, the documents linked from ../shared."""
    game = root / "corpus" / "magic-the-gathering"
    game.mkdir(parents=True)
    toml = f'[game]\nname = "Magic: The Gathering"\nlinked_from = "{MAGIC_DOCS}"\n'
    for label in labels:
        file = f"comprehensive-rules-{label}.txt"
        (game / file).symlink_to(MAGIC_DOCS / file)
        toml += f'\n[[documents]]\nfile = "{file}"\nkind = "reference"\ntitle = "Comprehensive Rules"\n'
        toml += f'version = "{label}"\ndate = {label}\n'
    (game / "game.toml").write_text(toml)
    build(Settings.resolve(root / "corpus", root / "store"), progress=lambda _: None)
    return root / "store"


@pytest.mark.needs_shared
def test_pinned_pages_survive_an_appended_and_an_inserted_edition(tmp_path):
    """Every pinned term and rule page (HTML and JSON) of a three-edition history, then the same after an
    edition is appended, and after one is inserted between the second and the third: no page of an
    earlier version changed. What may change is only what points forward (``FORWARD`` in the JSON; the
    banners and version lists outside the article in the HTML)."""
    history = ["2020-01-22", "2020-04-17", "2021-02-02"]
    first = magic_history(tmp_path / "first", history)
    appended = magic_history(tmp_path / "appended", [*history, "2022-02-18"])
    inserted = magic_history(tmp_path / "inserted", [*history[:2], "2020-06-01", history[2]])
    before = pinned_pages(first, "magic-the-gathering", history)
    assert len(before) > 10000 and FORWARD == ("superseded_by", "versions")
    assert changed(before, pinned_pages(appended, "magic-the-gathering", history)) == []
    after_insert = pinned_pages(inserted, "magic-the-gathering", history)
    earlier = {url: page for url, page in before.items() if "/2021-02-02/" not in url}
    assert changed(earlier, after_insert) == []
    # the edition after the inserted one keeps every paragraph anchor it had (its words may say more now)
    later = [url for url in before if "/2021-02-02/" in url and not url.startswith("/api")]
    assert [ANCHOR.findall("".join(before[u][1])) for u in later] == [
        ANCHOR.findall("".join(after_insert[u][1])) for u in later
    ]
