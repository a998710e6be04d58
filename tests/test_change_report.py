"""The change report: grouped, counted, renames and known/inferred marked, each changed term's redline;
the same on the site, in the API and as Markdown from the CLI."""

import pytest

from rulings.graph.report import redline

from .test_rule_pages import tiny  # noqa: F401  (Tiny Rules in three editions)


def test_the_api_report_has_counts_renames_and_redlines(client):
    data = client.get("/api/marvel-champions/changes/1.3..1.4").get_json()
    # 1.4's glossary entries Player Deck and Encounter Deck are added, not changes of the appendix's Player Decks
    # and Encounter Decks (the deck customization rules)
    assert data["counts"] == {"added": 55, "changed": 49, "renamed": 7, "removed": 0}
    assert data["added"] and data["changed"] and data["removed"] == []  # the contract's lists of names stay
    renamed = {r["from"]: r for r in data["renamed"]}
    assert renamed["Enemy Attacks"] == {
        "from": "Enemy Attacks",
        "to": "Attack (Enemy Activation)",
        "slug": "enemy-attacks",
        "version": "1.4",
        "inferred": False,
    }
    attack = next(t for t in data["terms"] if t["slug"] == "enemy-attacks")
    assert attack["kind"] == "changed" and attack["was"] == "Enemy Attacks"
    ops = {op["op"] for op in attack["ops"]}
    assert ops == {"equal", "insert", "delete"}


def test_a_change_no_document_dates_is_inferred(client):
    """1.4.2 -> 1.5: the changelog lists nothing for 1.5, so nothing changed there; 1.0's reconstructed
    texts and first-seen terms are where inferred changes appear."""
    data = client.get("/api/marvel-champions/changes/1.0..1.1").get_json()
    assert all(isinstance(t["inferred"], bool) for t in data["terms"])
    assert client.get("/api/marvel-champions/changes/1.4.2..1.5").get_json()["counts"] == {
        "added": 0,
        "changed": 0,
        "renamed": 0,
        "removed": 0,
    }


def test_the_site_report_groups_and_redlines(client):
    html = client.get("/marvel-champions/changes/1.3..1.4").get_data(as_text=True)
    assert '<a href="#changed"><strong>49</strong> changed</a>' in html
    pinned = "/marvel-champions/v/1.4/terms/enemy-attacks"
    assert f'Enemy Attacks → <a href="{pinned}">Attack (Enemy Activation)</a>' in html
    assert html.count('<details class="change">') == 49
    assert "<ins>" in html and "<del>" in html
    assert 'id="from"' in html and 'id="to"' in html  # the version picker


def test_the_version_picker_redirects_to_the_report(client):
    response = client.get("/marvel-champions/changes?from=1.1&to=1.4")
    assert response.status_code == 302 and response.location == "/marvel-champions/changes/1.1..1.4"
    assert client.get("/marvel-champions/changes?from=1.4&to=1.1", follow_redirects=True).status_code == 400


def test_markdown_report_from_the_cli_and_the_api(cli, client):
    result = cli("changes", "marvel-champions", "1.3", "1.4", "--format", "markdown", "--base-url", "https://r.example")
    assert result.exit_code == 0
    text = result.output
    assert text.startswith("## Marvel Champions: The Card Game: what changed from 1.3 to 1.4\n")
    assert text.splitlines()[2] == "55 added · 49 changed · 7 renamed · 0 removed"
    pinned = "https://r.example/marvel-champions/v/1.4/terms/enemy-attacks"
    assert f"- Enemy Attacks → [Attack (Enemy Activation)]({pinned}) (in 1.4)" in text
    assert f"#### [Attack (Enemy Activation)]({pinned}) (was Enemy Attacks)" in text
    assert "~~" in text and "**" in text
    api = client.get("/api/marvel-champions/changes/1.3..1.4?format=markdown")
    assert api.mimetype == "text/markdown"
    served = "http://localhost/marvel-champions/v/1.4/terms/enemy-attacks"
    assert f"#### [Attack (Enemy Activation)]({served})" in api.get_data(as_text=True)
    assert client.get("/api/marvel-champions/changes/1.3..1.4?format=pdf").status_code == 400


def test_a_redline_marks_words_not_spaces_and_shortens_long_unchanged_text():
    ops = [
        {"op": "equal", "text": "x" * 10 + " " + "word " * 60},
        {"op": "delete", "text": "old "},
        {"op": "insert", "text": "new [1] "},
        {"op": "equal", "text": "end.\nNext line"},
    ]
    (first, second) = redline(ops)
    assert first.startswith("> … word word") and "~~old~~ **new \\[1\\]** end." in first
    assert len(first) < 160
    assert second == "> Next line"


def test_a_long_unchanged_stretch_between_two_changes_keeps_both_ends_and_one_ellipsis():
    middle = "alpha " + "word " * 60 + "omega "
    ops = [
        {"op": "delete", "text": "old"},
        {"op": "equal", "text": " " + middle},
        {"op": "insert", "text": "new"},
    ]
    (line,) = redline(ops)
    assert line.count("…") == 1
    assert line.startswith("> ~~old~~ alpha word") and line.endswith("word omega **new**")


# -- numbered rules (issue 31) ----------------------------------------------------------------------------
def test_a_report_details_numbered_rules_beside_the_glossary(tiny):  # noqa: F811
    _, client = tiny
    data = client.get("/api/tiny-rules/changes/A..B").get_json()
    assert data["added"] == ["Guard Duty"] and data["changed"] == ["Trample", "Typecycling"]  # the contract: names
    assert "Credits" not in data["changed"] and data["counts"]["changed"] == 2  # front matter is no glossary term
    rules = data["rules"]
    changed = {r["number"]: r for r in rules["changed"]}
    trample = changed["103.2"]
    assert (trample["name"], trample["was"], trample["kind"]) == ("Trample", "102.1", "rule")
    assert trample["subrules"] == {"added": ["103.2b"], "removed": [], "changed": [], "moved": [["102.1a", "103.2a"]]}
    assert {op["op"] for op in trample["ops"]} >= {"equal", "insert"}
    moved = {(r["from"], r["to"], r["kind"]) for r in rules["moved"]}  # renumbered, words unchanged: no add, no remove
    assert {("101", "102", "section"), ("101.1", "102.1", "rule"), ("100.2", "100.3", "rule")} <= moved
    assert {("102", "103", "section"), ("102.2", "103.3", "rule")} <= moved
    added = {r["number"]: r for r in rules["added"]}
    assert set(added) == {"100.2", "101", "101.1", "103.1"}
    assert added["101.1"]["text"].endswith("A battle is a card type that players can attack and defeat.")
    assert rules["removed"] == []
    assert rules["counts"] == {"added": 3, "changed": 1, "moved": 3, "removed": 0}
    assert "matter" not in data  # the fixture's introduction and credits are the same in both
    assert rules["section_counts"] == {"added": 1, "changed": 0, "moved": 2, "removed": 0}


def test_the_report_page_counts_rules_and_shows_moves_redlines_and_texts(tiny):  # noqa: F811
    _, client = tiny
    html = client.get("/tiny-rules/changes/A..B").get_data(as_text=True)
    assert '<p class="counts">Glossary: <a href="#changed"><strong>2</strong> changed</a>' in html
    counts = html.split('<p class="counts">Rules: ', 1)[1].split("</p>", 1)[0]
    assert '<a href="#rules-changed"><strong>1</strong> changed</a>' in counts
    assert '<a href="#rules-moved"><strong>3</strong> renumbered</a>' in counts
    assert '<p class="counts">Chapters and sections: 2 renumbered · 1 added</p>' in html  # text: no links beside it
    changed = html.split('<section id="rules-changed">', 1)[1].split("</section>", 1)[0]
    assert (
        '<span class="name">103.2. Trample</span> <small class="muted">was 102.1</small>' in changed
    )  # no link in a summary
    assert '<a href="/tiny-rules/v/B/rules/103.2">103.2. Trample in B →</a>' in changed
    assert "<ins>" in changed
    moved = html.split('<section id="rules-moved">', 1)[1].split("</section>", 1)[0]
    assert '101 → <a href="/tiny-rules/v/B/rules/102">102. Phenomena</a>' in moved
    added = html.split('<section id="rules-added">', 1)[1].split("</section>", 1)[0]
    assert "A battle is a card type that players can attack and defeat." in added


def test_the_markdown_and_cli_reports_list_rules_too(tiny, tmp_path):  # noqa: F811
    _, client = tiny
    text = client.get("/api/tiny-rules/changes/A..B?format=markdown").get_data(as_text=True)
    lines = text.splitlines()
    assert lines[2] == "Glossary: 1 added · 2 changed · 0 renamed · 0 removed"
    assert lines[3] == "Rules: 1 changed · 3 renumbered · 3 added · 0 removed"
    assert "#### [103.2. Trample](http://localhost/tiny-rules/v/B/rules/103.2) (was 102.1)" in text
    assert "- 101 → [102. Phenomena](http://localhost/tiny-rules/v/B/rules/102)" in text


@pytest.mark.needs_shared
def test_magics_renumbered_rules_are_moves_not_adds_and_removes(magic_store, magic_cli):
    """2022-11-18 -> 2023-04-14 inserted sections 210, 310 and 314 and dropped 713: the old report listed 331
    numbers added and 279 removed, most of them the same rules under new numbers."""
    from .test_magic import MAGIC_DOCS, alnum, published_rules

    data, code = magic_cli.json("changes", "magic-the-gathering", "2022-11-18", "2023-04-14")
    assert code == 0 and "Credits" not in data["changed"] and data["matter"]["changed"] == ["Credits"]
    rules = data["rules"]
    moves = {(r["from"], r["to"]) for r in rules["moved"]}
    assert {("310", "311"), ("311", "312"), ("715", "714"), ("729", "728")} <= moves  # Planes, Phenomena, Sagas...
    assert rules["counts"]["added"] < 40 and rules["counts"]["removed"] < 20 and rules["counts"]["moved"] > 80
    old = published_rules(MAGIC_DOCS / "comprehensive-rules-2022-11-18.txt")
    new = published_rules(MAGIC_DOCS / "comprehensive-rules-2023-04-14.txt")
    for rule in rules["moved"]:  # the same words under another number, read from the documents themselves
        if rule["kind"] == "rule":
            same = [
                n for n in old if n == rule["from"] or (n.startswith(rule["from"]) and n[len(rule["from"]) :].isalpha())
            ]
            for number in same:
                assert alnum(old[number].replace(rule["from"], "")) == alnum(
                    new[rule["to"] + number[len(rule["from"]) :]].replace(rule["to"], "")
                ), number
    for rule in rules["changed"]:
        assert (
            rule["subrules"]["added"]
            or rule["subrules"]["removed"]
            or rule["subrules"]["changed"]
            or rule.get("was_name")
            or rule["kind"] != "rule"
        ), rule["number"]  # a change is a change of words somewhere
    markdown = magic_cli("changes", "magic-the-gathering", "2022-11-18", "2023-04-14", "--format", "markdown").output
    assert "- 715 → [714. Saga Cards](" in markdown
