"""Loose ends a reader trips on (issue 37): redlines, names and dates said once, breadcrumbs that link."""

from __future__ import annotations

import re

import pytest

from rulings.web.views import diff_html
from rulings.web.wording import dated


def test_a_redline_keeps_line_ends_once_and_outside_its_marks():
    ops = [
        {"op": "equal", "text": "First paragraph.\n\n"},
        {"op": "delete", "text": "Old second paragraph.\n\n"},
        {"op": "insert", "text": "New second paragraph.\n\nA third & <last>."},
        {"op": "delete", "text": "\n"},  # a line end that went: nothing to show
        {"op": "insert", "text": " "},
    ]
    html = diff_html(ops)
    assert "<br>" not in html  # a .diff keeps its newlines (pre-wrap): a <br> drew each twice
    assert html == (
        "First paragraph.\n\n<del>Old second paragraph.</del>\n\n"
        "<ins>New second paragraph.\n\nA third &amp; &lt;last&gt;.</ins> "
    )
    assert not re.search(r"<(ins|del)>\s|\s</(ins|del)>", html)  # no mark starts or ends on a line end


def test_the_change_report_has_no_br_and_no_link_inside_a_summary(client):
    html = client.get("/marvel-champions/changes/1.3..1.4").get_data(as_text=True)
    assert "<br>" not in html
    summaries = re.findall(r"<summary>.*?</summary>", html, re.S)
    assert len(summaries) > 40 and not [s for s in summaries if "<a " in s]


def test_a_version_named_by_its_date_is_dated_once():
    assert dated("2023-04-14", "2023-04-14") == "2023-04-14"
    assert dated("1.4", "2021-04-21") == "1.4 (2021-04-21)"
    assert dated("1.0", None) == "1.0"


@pytest.mark.needs_shared
def test_magic_editions_are_dated_once_in_pickers_and_lines(magic_client):
    html = magic_client.get("/magic-the-gathering/applies?term=trample&date=2021-06-01").get_data(as_text=True)
    assert 'value="2021-02-02">2021-02-02</option>' in html
    assert not re.search(r"(\d{4}-\d\d-\d\d) \(\1\)", html), re.search(r"(\d{4}-\d\d-\d\d) \(\1\)", html)
    page = magic_client.get("/magic-the-gathering/terms/trample").get_data(as_text=True)
    assert not re.search(r"(\d{4}-\d\d-\d\d) \(\1\)", page)


def test_a_pinned_term_does_not_list_its_own_name_as_another(client):
    """Enemy Attacks in 1.3 (later renamed Attack (Enemy Activation)) said "Also: Enemy Attacks"."""
    html = client.get("/marvel-champions/v/1.3/terms/enemy-attacks").get_data(as_text=True)
    assert "<h1>Enemy Attacks</h1>" in html
    assert not re.search(r'<p class="aliases">[^<]*Enemy Attacks', html)


@pytest.mark.parametrize(
    ("path", "links"),
    [
        (
            "/sentinels-of-the-multiverse/terms/active",
            [
                ("/sentinels-of-the-multiverse/", "Sentinels of the Multiverse"),
                ("/sentinels-of-the-multiverse/v/1/", "Official Rulebook"),  # a document: the rules read whole
                ("/sentinels-of-the-multiverse/terms/official-rulebook-glossary", "Glossary"),
            ],
        ),
        (
            "/sentinels-of-the-multiverse/rulings/ra-flame-barrier",
            [
                ("/sentinels-of-the-multiverse/", "Sentinels of the Multiverse"),
                ("/sentinels-of-the-multiverse/#rulings", "Characters"),
                ("/sentinels-of-the-multiverse/cards/ra", "Ra"),
            ],
        ),
    ],
)
def test_every_breadcrumb_is_a_link(client, path, links):
    html = client.get(path).get_data(as_text=True)
    crumbs = re.search(r'<nav class="crumbs" aria-label="Breadcrumbs">(.*?)</nav>', html).group(1)
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', crumbs) == links
    assert re.sub(r"<a [^>]+>[^<]+</a>|›|\s", "", crumbs) == ""  # nothing but links between the separators
    for href, _ in links:
        assert client.get(href.split("#")[0]).status_code == 200, href
