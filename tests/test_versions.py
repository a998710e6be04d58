"""Which version applies: the evaluation sample, and each rule of the reconstruction."""

import re

import pytest

from rulings.graph import merge
from rulings.ingest.model import Block
from rulings.text import fold

from .evalfiles import cases


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text or "").lower()).strip()


def check(data: dict, expectation: str) -> bool:
    kind, _, value = expectation.partition(":")
    if kind == "contains":
        return data.get("status") == "ok" and norm(value) in norm(data["text"])
    if kind == "lacks":
        return data.get("status") == "ok" and norm(value) not in norm(data["text"])
    if kind == "status":
        return data.get("status") == value
    if kind in ("version", "in_force"):
        return data.get(kind) == value
    if kind == "complete":
        return data.get("complete") is (value == "true")
    raise AssertionError(f"unknown expectation {expectation!r}")


def ask(cli, game, term, at):
    args = ["applies", game, term]
    args += ["--date", at[5:]] if at.startswith("date:") else ["--version", at]
    return cli.json(*args)


@pytest.mark.needs_shared
@pytest.mark.parametrize("game,term,at,expectation", cases("versions-dev.tsv", 4))
def test_versions_dev_sample(cli, game, term, at, expectation):
    data, code = ask(cli, game, term, at)
    assert check(data, expectation), data
    assert code == (0 if data["status"] == "ok" else 1)


def test_answer_shape(cli):
    data, _ = cli.json("applies", "marvel-champions", "dash", "--date", "2020-03-01")
    assert set(data) >= {
        "status",
        "game",
        "term",
        "slug",
        "in_force",
        "version",
        "date",
        "text",
        "complete",
        "change",
        "source",
        "introduced_in",
        "superseded_by",
        "notes",
        "url",
    }
    assert (data["in_force"], data["version"], data["date"]) == ("1.2", "1.2", "2020-02-25")
    assert data["superseded_by"] == {"version": "1.4", "date": "2021-04-21"}
    assert data["introduced_in"] == "1.0"
    assert data["url"] == "/marvel-champions/v/1.2/terms/dash"
    assert data["source"]["file"] == "rules-reference-changelog.txt"


def test_a_game_whose_documents_state_no_version_answers_with_plain_urls(cli, client):
    """Its one version ("1") is never shown, so no answer pins it."""
    data, code = cli.json("applies", "vs-system-2pcg", "power up")
    assert (code, data["in_force"], data["url"]) == (0, "1", "/vs-system-2pcg/terms/power-up")
    history = client.get("/api/vs-system-2pcg/terms/power-up/history").get_json()
    assert [r["url"] for r in history["revisions"]] == ["/vs-system-2pcg/terms/power-up"]
    assert client.get(data["url"]).status_code == 200


def test_a_versions_own_date_is_in_force_that_day(cli):
    assert cli.json("applies", "mc", "Dash", "--date", "2020-02-25")[0]["in_force"] == "1.2"
    assert cli.json("applies", "mc", "Dash", "--date", "2020-02-24")[0]["in_force"] == "1.1"
    assert cli.json("applies", "mc", "Dash", "--date", "2019-08-01")[0]["in_force"] == "1.0"
    data, code = cli.json("applies", "mc", "Dash", "--date", "2019-07-31")
    assert (data["status"], code) == ("before-first-version", 1)


def test_unknown_term_version_and_bad_date(cli):
    data, code = cli.json("applies", "mc", "quickstr")
    assert (data["status"], code) == ("unknown-term", 1)
    assert "Quickstrike" in data["suggestions"]
    data, code = cli.json("applies", "mc", "Dash", "--version", "9.9")
    assert (data["status"], code) == ("unknown-version", 1)
    result = cli("applies", "mc", "Dash", "--date", "2020-13-45", "--json")
    assert result.exit_code == 2
    result = cli("applies", "mc", "Dash", "--date", "2020-01-01", "--version", "1.1")
    assert result.exit_code == 2


def test_not_defined_says_when_it_was(cli):
    data, code = cli.json("applies", "mc", "Hinder X", "--version", "1.3")
    assert (data["status"], code) == ("not-defined", 1)
    assert data["first_defined"] == {"version": "1.4", "date": "2021-04-21"}


def test_any_name_any_case(cli):
    for name in ("card ability", "ABILITY", "ability", "Card Ability"):
        assert cli.json("applies", "mc", name, "--version", "1.1")[0]["term"] == "Ability"


def test_amend_appends_a_new_paragraph_and_says_the_text_is_assembled(cli):
    """The changelog gives the changed passages, not where they go: no document prints the result."""
    data, _ = cli.json("applies", "mc", "Dash", "--version", "1.2")
    assert data["change"] == "amended" and data["complete"] is False
    assert "cannot exhaust to use that power" in data["text"] and "treated as 0" in data["text"]
    assert any("No document prints this text whole" in n for n in data["notes"])
    earlier, _ = cli.json("applies", "mc", "Dash", "--version", "1.1")  # printed by the Rules Reference
    assert earlier["complete"] is True


def test_amend_replaces_the_paragraph_it_revises(cli):
    data, _ = cli.json("applies", "mc", "Remaining Hit Points", "--version", "1.2")
    assert "An identity or villain" in data["text"] and "A hero or villain" not in data["text"]
    assert "If a card has zero (or fewer) remaining hit points" in data["text"]  # untouched paragraph kept


def test_restatement_replaces(cli):
    data, _ = cli.json("applies", "mc", "Ability", "--version", "1.4")
    assert data["change"] == "replaced"
    assert data["text"].startswith("An ability is game text on a card")
    assert "An ability is special game text" not in data["text"]


def test_a_patch_that_determines_its_sentence_is_applied(cli):
    """Its old words found once, both quotes ending on the same words: what it leaves unquoted is unchanged."""
    data, _ = cli.json("applies", "mc", "Excess Damage", "--version", "1.4.2")
    assert data["change"] == "patched" and data["version"] == "1.4.2" and data["complete"] is True
    assert "any amount of damage that is dealt to a character" in data["text"]
    assert "damage is that dealt" not in data["text"]
    expert, _ = cli.json("applies", "mc", "Expert Set", "--version", "1.4.2")
    assert (
        expert["complete"] is True and "encounter set that is added to scenarios during expert mode" in expert["text"]
    )


def test_a_patch_ending_on_other_words_is_not_spliced_in(cli):
    """ "If a hero defends…" -> "If a hero makes a basic defense…": what follows the new words is not given."""
    attack, _ = cli.json("applies", "mc", "Attack (Enemy Activation)", "--version", "1.5")
    assert attack["complete"] is False and attack["version"] == "1.4.2"
    assert "makes a basic defense" not in attack["text"] and "If a hero defends the attack" in attack["text"]
    assert sum("makes a basic defense" in n and "end on different words" in n for n in attack["notes"]) == 1
    # the two other patches of the same line end on the words they started from: applied
    assert "If an ally defends against the attack, all damage" in attack["text"]
    assert "If no character defends against the attack, the attack is considered undefended" in attack["text"]


def test_keywords_at_1_4_one_definition_each(cli, store):
    data, _ = cli.json("applies", "mc", "Keywords", "--version", "1.4")
    definitions = re.findall(r"(?m)^(?:- )?Overkill\b", data["text"])
    assert len(definitions) == 1 and "If an attack with overkill defeats a minion" not in data["text"]
    assert "(See: Quickstrike) Ranged" not in data["text"]  # the changelog glued them together
    assert "Each card with this keyword also has an ability" not in data["text"]  # went with the 1.1 Uses unit
    game = store.game("marvel-champions")
    keywords, _ = store.find_term(game, "Keywords")
    revision = next(r for r in store.revisions(keywords) if r.version == "1.4")
    subdefs = {s["name"]: s for s in store.subdefs(revision.id)}
    assert {"Overkill", "Ranged", "Patrol", "Uses (X \u201ctype\u201d)", "Hinder X"} <= set(subdefs)
    assert (subdefs["Ranged"]["anchor"], subdefs["Patrol"]["anchor"]) == ("ranged", "patrol")
    assert subdefs["Uses (X \u201ctype\u201d)"]["anchor"] == "uses-x-type"
    assert subdefs["Ranged"]["text"] == "Attacks with ranged ignore retaliate. (See: Ranged)"
    for name in ("Ranged", "Patrol"):  # each its own addressable definition
        found, _ = cli.json("applies", "mc", name, "--version", "1.4")
        assert found["url"] == f"/marvel-champions/v/1.4/terms/keywords#{name.lower()}" or found["term"] == name


def test_patch_quoting_a_whole_sentence(cli):
    data, _ = cli.json("applies", "mc", "Encounter Card", "--version", "1.4.2")
    assert data["change"] == "patched" and data["complete"] is True
    assert "There are eight encounter card types:" in data["text"]
    assert "treachery cards, and villain cards.\n" in data["text"] and ".." not in data["text"]


def test_added_bullet_patch(cli):
    """``Added "…"`` gives the words, not their place: shown at the end, and the text is assembled."""
    data, _ = cli.json("applies", "mc", "Main Scheme", "--version", "1.4.2")
    assert data["text"].rstrip().endswith("- Main scheme cards cannot be discarded from play.")
    assert data["complete"] is False
    assert any("does not say where in the entry" in n for n in data["notes"])


def test_reworked_section_is_incomplete(cli):
    data, _ = cli.json("applies", "mc", "Indirect Damage", "--version", "1.4.2")
    assert (data["change"], data["complete"]) == ("reworked", False)
    assert data["version"] == "1.4.2"
    assert any("reworked" in n for n in data["notes"])
    later, _ = cli.json("applies", "mc", "Indirect Damage", "--version", "1.5")
    assert later["complete"] is False and later["version"] == "1.4.2"


def test_renamed_term_at_old_and_new_versions(cli):
    old, _ = cli.json("applies", "mc", "Attack (Enemy Activation)", "--version", "1.1")
    assert old["term"] == "Enemy Attacks" and "If a villain is attacking" in old["text"]
    new, _ = cli.json("applies", "mc", "Enemy Attacks", "--version", "1.4")
    assert new["term"] == "Attack (Enemy Activation)" and "villainous keyword" in new["text"]
    assert old["slug"] == new["slug"]


def test_misspelled_changelog_name_is_the_right_term(cli):
    data, _ = cli.json("applies", "mc", "Villainous", "--version", "1.4")
    assert data["status"] == "ok" and data["term"] == "Villainous"
    assert cli.json("applies", "mc", "Villanous", "--version", "1.4")[0]["term"] == "Villainous"


def test_empty_version_carries_everything_over(cli):
    data, _ = cli.json("applies", "mc", "Guard", "--version", "1.5")
    assert (data["in_force"], data["version"]) == ("1.5", "1.4")
    assert not any("1.5" in n for n in data["notes"])  # a version that changed nothing is no footnote of a term
    version, _ = cli.json("applies", "mc", "", "--version", "1.5")  # the version itself says what it is
    assert any("lists no changes for 1.5" in n for n in version["notes"])
    assert cli.json("changes", "mc", "1.4.2", "1.5")[0] == {
        "status": "ok",
        "game": "marvel-champions",
        "from": "1.4.2",
        "to": "1.5",
        "added": [],
        "removed": [],
        "changed": [],
        "renamed": [],
        "terms": [],
        "counts": {"added": 0, "changed": 0, "removed": 0, "renamed": 0},
        "url": "/marvel-champions/changes/1.4.2..1.5",
    }


def test_reconstructed_earlier_text_is_incomplete(cli):
    data, _ = cli.json("applies", "mc", "Move", "--version", "1.0")
    assert data["complete"] is False and "moved damage is considered to be dealt" not in data["text"]
    assert "cannot move to its same (current) placement" in data["text"]
    assert cli.json("applies", "mc", "You", "--version", "1.0")[0]["status"] == "not-defined"


def test_diff_dash(cli):
    data, code = cli.json("diff", "marvel-champions", "dash", "1.1", "1.4")
    assert code == 0 and data["changed"] is True
    inserted = "".join(op["text"] for op in data["ops"] if op["op"] == "insert")
    deleted = "".join(op["text"] for op in data["ops"] if op["op"] == "delete")
    assert "SCH" in inserted and "that value is treated as 0" in inserted
    assert "etc." in deleted
    assert "character's" not in deleted  # a curly apostrophe is not a change
    human = cli("diff", "marvel-champions", "dash", "1.1", "1.4").output
    assert "{+" in human and "treated as 0" in human


def test_changes_13_to_14(cli):
    data, code = cli.json("changes", "marvel-champions", "1.3", "1.4")
    assert code == 0
    assert {"Hinder X", "Incite X"} <= set(data["added"])
    assert {"Ability", "Activation"} <= set(data["changed"])
    assert "Move" not in data["changed"] + data["added"]


# -- the merge rule on small fixtures ---------------------------------------------
def blocks(*texts):
    return [Block(t, i) for i, t in enumerate(texts)]


def texts(bs):
    return [b.text for b in bs]


def test_merge_revised_paragraph_in_place_new_one_after_it():
    old = blocks(
        "First paragraph about the thing.", "The thing has exactly three parts in total.", "Last paragraph stays."
    )
    new = blocks("The thing has exactly four parts in total.", "A brand new rule about something else entirely.")
    assert texts(merge.amend(old, new)) == [
        "First paragraph about the thing.",
        "The thing has exactly four parts in total.",
        "A brand new rule about something else entirely.",
        "Last paragraph stays.",
    ]


def test_merge_unrelated_paragraph_goes_at_the_end():
    old = blocks("Alpha rule one.", "Alpha rule two.")
    assert texts(merge.amend(old, blocks("Completely different text here."))) == [
        "Alpha rule one.",
        "Alpha rule two.",
        "Completely different text here.",
    ]


def test_merge_folds_an_old_paragraph_contained_in_a_new_one():
    old = blocks(
        "There is no limit to tokens of any kind in the game.", "If players run out of tokens, coins may be used."
    )
    new = blocks(
        "There is no limit to tokens of any kind in the game, ever. If players run out of tokens, coins may be used."
    )
    assert texts(merge.amend(old, new)) == texts(new)


def test_merge_keeps_step_numbers():
    old = [
        Block("1. Do this.", 1, "step"),
        Block("2. If a villain attacks, flip boost cards and add icons.", 2, "step"),
    ]
    new = blocks("If a villain attacks, flip boost cards. Then, in order:")
    merged = merge.amend(old, new)
    assert merged[1].text == "2. If a villain attacks, flip boost cards. Then, in order:"


def test_restatement_detection():
    old = blocks("An ability is special game text.", "It has bullets.")
    assert merge.is_restatement(old, blocks("An ability is game text on a card, restated at length here."), ["Ability"])
    assert not merge.is_restatement(old, blocks("Short addendum."), ["Ability"])


@pytest.mark.parametrize(
    "text,old,new,expected",
    [
        (  # cut with an ellipsis, but ending on the same words: determined
            "Excess damage is any amount of damage is that dealt to a character.",
            "Excess damage is any amount of damage is that dealt to\u2026",
            "Excess damage is any amount of damage that is dealt to\u2026",
            "Excess damage is any amount of damage that is dealt to a character.",
        ),
        ("The set is added scenarios during play.", "\u201cis added scenarios\u201d", "is added to scenarios",
         "The set is added to scenarios during play."),
        (  # a whole sentence: its final period stays, the new words bring none
            "There are seven types. Each is a card.", "There are seven types.", "There are eight types.",
            "There are eight types. Each is a card.",
        ),
    ],
)  # fmt: skip
def test_a_patch_that_determines_the_text_is_applied(text, old, new, expected):
    target = blocks(text)
    assert merge.undetermined(target, old, new) is None
    assert merge.replace_quote(target, old, new) is True
    assert target[0].text == expected


@pytest.mark.parametrize(
    "text,old,new,why",
    [
        ("If a hero defends the attack, damage is reduced.", "If a hero defends\u2026",
         "If a hero makes a basic defense\u2026", "ends"),
        ("Damage is dealt. Later, damage is dealt.", "damage is dealt", "damage is then dealt", "repeated"),
        ("Nothing of the kind is here.", "nowhere to be found", "nowhere found", "missing"),
        ("A hero defends against it.", "hero defends against", "hero defends only against", None),
        ("A fruit, and a tasty one.", "tasty", "sweet", None),  # not cut: the quote is the whole change
        ("A fruit, and a tasty one.", "tasty\u2026", "sweet\u2026", "ends"),  # cut: what follows "sweet"?
        ("A hero defends against it.", "\u2026hero defends", "\u2026the villain defends", "starts"),
        ("The attacker attacks.", "attack", "strike", "missing"),  # whole words only: not inside "attacker"
    ],
)  # fmt: skip
def test_a_patch_that_leaves_its_sentence_open_is_not_applied(text, old, new, why):
    target = blocks(text)
    assert merge.undetermined(target, old, new) == why
    if why is not None:
        assert merge.replace_quote(target, old, new) is False
        assert target[0].text == text  # nothing spliced in
