"""Every version one tap away (issue 32): a term page lists every version of its game, linked where the
term is defined and marked where it changed; a version whose changelog lists nothing is said to be so on
the game's home, and is no footnote of every term."""

from __future__ import annotations

import re

import pytest

from .test_permalinks import article_text


def pins(html: str) -> list[tuple[str, str | None, bool, bool]]:
    """(version, link, changed, current) for each version the picker lists, in order."""
    nav = re.search(r'<nav class="pins[^"]*" aria-labelledby="pins-label">(.*?)</nav>', html, re.S)
    assert nav, "no version picker"
    out = []
    for item in re.findall(r"<li>(.*?)</li>", nav.group(1), re.S):
        link = re.search(r'href="([^"]+)"', item)
        label = re.search(r">([^<>]+)<", item).group(1)
        out.append((label, link.group(1) if link else None, "(changed)" in item, 'aria-current="page"' in item))
    return out


def test_guards_page_lists_every_version_and_marks_where_it_changed(client):
    html = client.get("/marvel-champions/terms/guard").get_data(as_text=True)
    assert 'id="pins-label" class="muted">Guard in version' in html
    assert pins(html) == [
        (label, f"/marvel-champions/v/{label}/terms/guard", label in ("1.0", "1.4"), False)
        for label in ("1.0", "1.1", "1.2", "1.3", "1.4", "1.4.2", "1.5")
    ]


def test_a_pinned_page_marks_its_version_and_cites_it(client):
    html = client.get("/marvel-champions/v/1.1/terms/guard").get_data(as_text=True)
    assert [p[0] for p in pins(html) if p[3]] == ["1.1"]
    assert (
        "[Guard \u2014 Marvel Champions: The Card Game, v1.1](http://localhost/marvel-champions/v/1.1/terms/guard)"
        in (html.replace("&#34;", '"'))
    )
    assert article_text(html).startswith(
        "See: Keywords. The definition of Guard under Keywords:"
    )  # the picker is no text


def test_versions_where_a_term_is_not_defined_are_listed_but_not_linked(client):
    listed = pins(client.get("/marvel-champions/terms/hinder-x").get_data(as_text=True))
    assert [(label, link is None) for label, link, _, _ in listed] == [
        ("1.0", True), ("1.1", True), ("1.2", True), ("1.3", True), ("1.4", False), ("1.4.2", False), ("1.5", False)
    ]  # fmt: skip
    for _, link, _, _ in listed:
        if link:
            assert client.get(link).status_code == 200


def test_a_game_whose_documents_name_no_version_has_no_picker(client):
    assert 'class="pins' not in client.get("/vs-system-2pcg/terms/power-up").get_data(as_text=True)


def test_the_game_home_says_a_version_changed_nothing_and_headlines_the_last_change(client):
    html = client.get("/marvel-champions/").get_data(as_text=True)
    assert '<a href="/marvel-champions/changes/1.4..1.4.2">What changed in 1.4.2</a>' in html
    assert "What changed in 1.5" not in html and "/changes/1.4.2..1.5" not in html
    latest = re.search(r'<li data-date="2023-05-18">(.*?)</li>', html, re.S).group(1)
    assert '<span class="quiet">no changes listed</span>' in latest
    assert "The changelog lists no changes for 1.5" in latest


@pytest.mark.parametrize("path", ["/marvel-champions/terms/guard", "/marvel-champions/v/1.5/terms/defend"])
def test_terms_carry_no_footnote_for_a_version_that_changed_nothing(client, path):
    assert "lists no changes for 1.5" not in client.get(path).get_data(as_text=True)
    api = client.get("/api" + path).get_json()
    assert not any("1.5" in note for note in api["notes"])
