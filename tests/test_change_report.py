"""The change report: grouped, counted, renames and known/inferred marked, each changed term's redline;
the same on the site, in the API and as Markdown from the CLI."""

from rulings.graph.report import redline


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
