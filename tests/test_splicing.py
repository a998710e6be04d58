"""Text that is never spliced (issue 32): two entries of similar names stay two terms, a version's text
is printed or marked as assembled, and a changelog entry that restates a term is its text, in its order."""

from __future__ import annotations

import pytest

from rulings.graph import build_facts, merge
from rulings.graph.identity import NameIndex, Term
from rulings.ingest.model import Block


def ask(cli, term: str, version: str) -> dict:
    data, code = cli.json("applies", "mc", term, "--version", version)
    assert code == 0, data
    return data


# -- identity: a glossary entry is not an appendix section of a similar name -----------------------------
def test_the_glossary_entry_player_deck_is_the_changelogs_text(cli):
    data = ask(cli, "Player Deck", "1.4")
    assert (data["term"], data["slug"], data["version"]) == ("Player Deck", "player-deck", "1.4")
    assert (data["change"], data["complete"]) == ("introduced", True)
    assert data["text"].startswith("A player\u2019s deck contains the player cards")
    assert "If a player deck empties, the player shuffles their discard pile" in data["text"]
    assert "deck customization" not in data["text"]


@pytest.mark.parametrize("version", ["1.1", "1.4", "1.4.2", "1.5"])
def test_the_appendix_player_decks_keeps_its_own_text(cli, version):
    data = ask(cli, "Player Decks", version)
    assert (data["term"], data["slug"], data["version"], data["complete"]) == (
        "Player Decks",
        "player-decks",
        "1.0",
        True,
    )
    assert data["text"].startswith("The deck customization rules for player decks are:")
    assert "A player must choose exactly one identity card." in data["text"]
    assert "If a player deck empties" not in data["text"]


def test_before_the_glossary_entry_existed_its_name_still_finds_what_it_found(cli):
    """Append-only: "Player Deck" at 1.3 answered the appendix (the only term of that name then); it still does."""
    assert ask(cli, "Player Deck", "1.3")["term"] == "Player Decks"


def test_merges_are_explained_in_the_build_report(store):
    merges = [
        d
        for d in build_facts.diagnostics(
            store,
        )
        if d["game"] == "marvel-champions" and d["level"] == "merge"
    ]
    said = {d["message"] for d in merges}
    assert (
        "1.4: \u201cAttack (Enemy Activation)\u201d continues \u201cEnemy Attacks\u201d (entry): a rename game.toml "
        "[[renames]] declares" in said
    )
    assert any(m.startswith("1.4: \u201cDash (Value)\u201d continues \u201cDash\u201d") for m in said)
    assert all(d["path"].endswith("rules-reference-changelog.txt") and d["line"] for d in merges)
    assert not any("Player Deck" in m or "Encounter Deck" in m for m in said)  # two terms each, not merges


def term(kind: str, *names: str) -> Term:
    return Term(kind, list(names), "doc", 1)


def test_a_name_continues_a_term_of_its_side_or_of_the_same_heading():
    index = NameIndex()
    appendix = term("section", "Player Decks")
    keywords = term("entry", "Keywords")
    setup = term("section", "Setup")
    for each in (appendix, keywords, setup):
        index.add_term(each)
    assert index.continued("Player Deck", "entry", "versioned") is None  # a section of a similar name: no
    assert index.continued("Player Decks", "entry", "versioned") == (appendix, "name")  # the same heading
    assert index.continued("Keyword", "entry", "versioned") == (keywords, "form")  # one side: another form
    assert index.continued("Setups", "section", "versioned") == (setup, "form")
    assert index.continued("SETUP", "entry", "versioned") == (setup, "name")  # case is no difference
    entry = term("entry", "Player Deck")
    index.add_term(entry)
    assert index.continued("Player Decks", "entry", "versioned") == (appendix, "name")  # the same heading first
    assert index.continued("Player Deck", "section", "versioned") == (entry, "name")


# -- the restatement rule: a changelog entry that restates the term is its text, in its order --------------
def test_defend_at_1_4_is_the_changelogs_text_in_its_order(cli):
    data = ask(cli, "Defend", "1.4")
    assert (data["change"], data["complete"]) == ("replaced", True)
    text = data["text"]
    assert text.startswith("During an enemy attack, a player may defend against that attack using cards they control.")
    order = [
        "Only one player at a time can defend",
        "A hero can use their basic defense power",
        "An ally can exhaust to defend",
        "When a player resolves a triggered ability labeled as a defense",
        "If a player defends against an enemy attack that targets a different player",
        "If no character is used to defend against an enemy attack",
    ]
    assert [text.index(words) for words in order] == sorted(text.index(words) for words in order)
    for stacked in ("Some game effects and card abilities reference defense", "the players have the option to defend"):
        assert stacked not in text
    assert not any(line.startswith("  ") for line in text.splitlines())  # no bullet left over from 1.3


def blocks(*texts: str, kind: str = "para") -> list[Block]:
    return [Block(t, i, kind) for i, t in enumerate(texts)]


OLD = [
    Block("Some effects reference the thing. There are a few different ways it can occur:", 1),
    Block("A hero can exhaust to do the thing against an attack.", 2, "bullet"),
    Block("An ally can exhaust to do the thing against an attack.", 3, "bullet"),
]


def test_an_entry_that_opens_plainly_and_revises_most_paragraphs_restates_the_term():
    new = [
        Block("During an attack, a player may do the thing with cards they control.", 1),
        Block("A hero can exhaust to do the thing against an enemy attack, once.", 2, "bullet"),
        Block("An ally can exhaust to do the thing against an enemy attack, once.", 3, "bullet"),
    ]
    assert merge.is_restatement(OLD, new, ["Thing"])  # the old opening only led in to its list
    assert not merge.is_restatement(OLD, new[1:], ["Thing"])  # opening with a bullet: changed passages
    defined = [Block("The thing is what a hero or an ally does when attacked, in every game.", 1), *OLD[1:]]
    assert not merge.is_restatement(defined, new, ["Thing"])  # an opening statement it leaves standing: amended


def test_an_entry_that_adds_a_paragraph_amends_and_is_not_printed_whole():
    old = blocks("Each player controls at most three allies. This is the ally limit.")
    new = blocks("A player who controls more allies than the limit discards allies until they have three or fewer.")
    assert not merge.is_restatement(old, new, ["Ally Limit"])
    assert [b.text for b in merge.amend(old, new)] == [old[0].text, new[0].text]
