"""Rule pages as good as term pages (issue 31): versions, history through renumberings, diffs, citations,
"Referenced by" as of the version, breadcrumbs named as that edition names its sections, the index of
rules, and pinned pages that a later edition leaves alone but for their forward pointers.

A small game of three editions: B renumbers (Trample 102.1 -> 103.2, Phenomena 101 -> 102, a new section
101), C inserts a section before Keyword Abilities (Trample 103.2 -> 104.2) and changes Trample.
"""

from __future__ import annotations

import re

import pytest

from rulings.builds import current_build
from rulings.graph import rule_numbers
from rulings.graph.store import Store
from rulings.web import create_app

from .conftest import built_game
from .test_lineage import TOML, A, B, edition

C = edition(
    "January 1, 2025",
    """1. Game Concepts

100. General

100.1. These rules apply to every game of Tiny Rules.

100.1a A two-player game has two players.

100.2. Each player starts the game with twenty life.

100.3. Each player needs a deck of sixty cards or more.

101. Battles

101.1. A battle is a card type that players can attack and defeat.

102. Phenomena

102.1. A phenomenon is a card type seen only in the planar variant of the game.

103. Sagas

103.1. A saga is an enchantment that tells a story in chapters.

104. Keyword Abilities

104.1. Banding

104.1a Banding is a static ability that lets creatures attack as a group.

104.2. Trample

104.2a Trample is a static ability that modifies how a creature assigns its combat damage.

104.2b Trample over planeswalkers is a variant of trample.

104.3. Vigilance

104.3a Vigilance is a static ability that lets a creature attack without tapping.
""",
    """Forestcycling
See Typecycling.

Guard Duty
A creature with vigilance stays back to block. See rule 104.3.

Trample
A keyword ability. See rule 104.2.

Typecycling
A keyword ability that finds a land card of a named type.

""",
)

THIRD = """
[[documents]]
file = "rules-c.txt"
kind = "reference"
title = "Comprehensive Rules"
version = "C"
date = 2025-01-01
"""
GAME = "tiny-rules"


def build(root, editions: int):
    files = {"rules-a.txt": A, "rules-b.txt": B, "rules-c.txt": C}
    toml = TOML + (THIRD if editions == 3 else "")
    chosen = dict(list(files.items())[:editions])
    settings = built_game(root / "corpus", root / "store", GAME, toml, chosen)
    return Store(current_build(settings.store)), create_app(settings).test_client()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build(tmp_path_factory.mktemp("rules3"), 3)


@pytest.fixture(scope="module")
def tiny_two(tmp_path_factory):
    return build(tmp_path_factory.mktemp("rules2"), 2)


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def main(html: str) -> str:
    return html.split('<main id="main" tabindex="-1">', 1)[1].split("</main>", 1)[0]


def test_a_rule_page_lists_every_version_with_the_number_it_had_and_where_it_changed(tiny):
    _, client = tiny
    html = page(client, f"/{GAME}/rules/104.2")
    versions = main(html).split('<section id="versions">', 1)[1]
    assert f'<a href="/{GAME}/v/A/rules/102.1">A</a> <time>2024-01-01</time>: added as 102.1' in versions
    assert (
        f'<a href="/{GAME}/v/B/rules/103.2">B</a> <time>2024-06-01</time>: changed and renumbered 102.1 → 103.2'
        in versions
    )
    assert f'href="/{GAME}/rules/103.2/diff/A..B">diff</a>' in versions  # by the number it had then
    assert f'<a href="/{GAME}/v/C/rules/104.2" aria-current="page">C</a>' in versions
    assert "Numbered 102.1 in A → 103.2 in B → 104.2 in C." in html
    assert f'<a href="/{GAME}/rules/104.2/history">Full history</a>' in versions


def test_a_pinned_rule_page_names_only_the_versions_up_to_its_own(tiny):
    _, client = tiny
    html = page(client, f"/{GAME}/v/B/rules/103.2")
    versions = main(html).split('<section id="versions">', 1)[1]
    assert f"/{GAME}/v/A/rules/102.1" in versions and f"/{GAME}/v/B/rules/103.2" in versions
    assert "/v/C/" not in versions and ">C<" not in versions
    banner = re.search(r'<aside class="banner superseded".*?</aside>', html, re.S).group(0)
    assert "It was changed and renumbered 103.2 → 104.2 in <strong>C</strong>" in banner  # a forward pointer
    assert f'<a href="/{GAME}/rules/104.2">see current</a>' in banner
    assert f'href="/{GAME}/rules/104.2/diff/B..C">see diff</a>' in banner


def test_breadcrumbs_name_and_link_the_sections_as_the_edition_does(tiny):
    _, client = tiny
    rules_a = '<a href="/tiny-rules/v/A/rules">Rules</a>'
    a = re.search(r'<nav class="crumbs".*?</nav>', page(client, f"/{GAME}/v/A/rules/102.1")).group(0)
    assert f'{rules_a} › <a href="/{GAME}/v/A/rules/1">1. Game Concepts</a> › ' in a
    assert f'<a href="/{GAME}/v/A/rules/102">102. Keyword Abilities</a>' in a
    c = re.search(r'<nav class="crumbs".*?</nav>', page(client, f"/{GAME}/rules/104.2a")).group(0)
    assert f'<a href="/{GAME}/rules/104">104. Keyword Abilities</a>' in c
    b = re.search(r'<nav class="crumbs".*?</nav>', page(client, f"/{GAME}/v/B/rules/102.1")).group(0)
    assert f'<a href="/{GAME}/v/B/rules/102">102. Phenomena</a>' in b  # 102 is another section in B


def test_a_rule_page_has_a_pinned_citation_and_paragraph_links(tiny):
    _, client = tiny
    html = page(client, f"/{GAME}/v/B/rules/103.2")
    assert 'data-cite-url="http://localhost/tiny-rules/v/B/rules/103.2"' in html  # the ¶ menu's links and quotes
    assert 'data-copy="[Rule 103.2 — Tiny Rules, vB](http://localhost/tiny-rules/v/B/rules/103.2)"' in html
    assert 'data-copy="[url=http://localhost/tiny-rules/v/B/rules/103.2]Rule 103.2 — Tiny Rules, vB[/url]"' in html


def test_referenced_by_is_what_referred_to_the_rule_at_the_version_shown(tiny):
    _, client = tiny
    assert "Guard Duty" not in page(client, f"/{GAME}/v/A/rules/102.2")
    referenced = page(client, f"/{GAME}/v/C/rules/104.3").split("<h2>Referenced by</h2>", 1)[1].split("</section>")[0]
    assert f'<a class="term" href="/{GAME}/v/C/terms/guard-duty">Guard Duty</a>' in referenced


def test_the_history_follows_the_rule_through_its_numbers_with_each_text(tiny):
    _, client = tiny
    html = main(page(client, f"/{GAME}/rules/104.2/history"))
    assert "Numbered 102.1 in A → 103.2 in B → 104.2 in C." in html
    headings = re.findall(r"<h2><a href=\"([^\"]+)\">([^<]+) — v(\w)</a>", html)
    assert headings == [
        (f"/{GAME}/v/A/rules/102.1", "102.1. Trample", "A"),
        (f"/{GAME}/v/B/rules/103.2", "103.2. Trample", "B"),
        (f"/{GAME}/v/C/rules/104.2", "104.2. Trample", "C"),
    ]
    assert f'href="/{GAME}/rules/104.2/diff/B..C">Diff from B</a>' in html
    assert "assigns its combat damage" in html and "Trample over planeswalkers" in html  # the texts themselves
    moved = client.get(f"/{GAME}/rules/103.2/history")  # Trample's number in B: its history is at its number now
    assert moved.status_code == 302 and moved.headers["Location"].endswith(f"/{GAME}/rules/104.2/history")
    phenomena = main(page(client, f"/{GAME}/rules/102/history"))
    assert "Numbered 101 in A → 102 in B." in phenomena and "renumbered 101 → 102" in phenomena.lower()


def test_a_subrule_has_a_history_of_its_own(tiny):
    _, client = tiny
    html = main(page(client, f"/{GAME}/rules/104.2a/history"))
    assert re.findall(r"<h2><a href=\"[^\"]+\">([^<]+) — v(\w)</a>", html) == [
        ("102.1a", "A"),
        ("103.2a", "B"),
        ("104.2a", "C"),
    ]
    assert "Renumbered 102.1a → 103.2a" in html and "Changed and renumbered 103.2a → 104.2a" in html


def test_a_diff_between_any_two_editions_by_the_number(tiny):
    _, client = tiny
    html = page(client, f"/{GAME}/rules/104.2/diff/A..C")
    assert "<ins>its </ins>" in html or "<ins>its" in html
    assert f'<a href="/{GAME}/v/A/rules/102.1">102.1 in vA</a>' in html
    assert f'<a href="/{GAME}/v/C/rules/104.2">104.2 in vC</a>' in html
    picked = client.get(f"/{GAME}/rules/104.2/diff?from=A&to=C")
    assert picked.status_code == 302 and picked.headers["Location"].endswith(f"/{GAME}/rules/104.2/diff/A..C")
    assert client.get(f"/{GAME}/rules/104.2/diff/C..A").status_code == 400  # backwards
    form = page(client, f"/{GAME}/rules/104.2").split('<form class="picker"', 1)[1].split("</form>", 1)[0]
    assert f'action="/{GAME}/rules/104.2/diff"' in form and '<label for="from">' in form


def test_term_routes_of_a_numbered_rule_lead_to_its_number(tiny):
    store, client = tiny
    game = store.game(GAME)
    trample = next(t for t in store.terms(game, ("rule",)) if t.name == "Trample")
    history = client.get(f"/{GAME}/terms/{trample.slug}/history")
    assert history.status_code == 302 and history.headers["Location"].endswith(f"/{GAME}/rules/104.2/history")
    diff = client.get(f"/{GAME}/terms/{trample.slug}/diff/A..B")  # the number it had at the end of the range
    assert diff.status_code == 302 and diff.headers["Location"].endswith(f"/{GAME}/rules/103.2/diff/A..B")


def test_the_index_lists_chapters_and_sections_as_a_version_numbers_them(tiny):
    _, client = tiny
    latest = main(page(client, f"/{GAME}/rules"))
    assert f'<a href="/{GAME}/rules/103">103. Sagas</a>' in latest
    assert f'<a href="/{GAME}/rules/104">104. Keyword Abilities</a>' in latest
    pinned = main(page(client, f"/{GAME}/v/A/rules"))
    assert f'<a href="/{GAME}/v/A/rules/101">101. Phenomena</a>' in pinned and "Sagas" not in pinned.split("<h2>")[0]


def test_a_number_no_version_prints_names_the_numbers_nearby_as_links(tiny):
    """The numbers printed just before and after it (104.9: the last two of 104), then what would hold it."""
    _, client = tiny
    html = page(client, f"/{GAME}/rules/104.9", 404)
    links = f'<a href="/{GAME}/rules/104.3">104.3</a>, <a href="/{GAME}/rules/104.3a">104.3a</a>'
    assert f'Nearby: {links}, <a href="/{GAME}/rules/104">104</a>' in html
    answer = client.get(f"/api/{GAME}/rules/104.9").get_json()
    assert answer["nearby"][0] == {"number": "104.3", "url": f"/{GAME}/rules/104.3"}
    between = client.get(f"/api/{GAME}/rules/104.2z").get_json()["nearby"]
    assert [n["number"] for n in between] == ["104.2a", "104.2b", "104.3", "104.3a", "104.2"], between
    pinned = page(client, f"/{GAME}/v/A/rules/102.9", 404)
    assert f'Nearby: <a href="/{GAME}/v/A/rules/102.2">102.2</a>' in pinned  # version A's own numbers
    moved = page(client, f"/{GAME}/v/C/rules/103.2", 404)  # Trample's number in B: where it is in C
    assert f'See <a href="/{GAME}/v/C/rules/104.2">104.2</a>' in moved


def test_the_api_mirrors_history_and_diff(tiny):
    _, client = tiny
    history = client.get(f"/api/{GAME}/rules/104.2/history").get_json()
    assert [(s["version"], s["number"], s["change"]) for s in history["steps"]] == [
        ("A", "102.1", "added as 102.1"),
        ("B", "103.2", "changed and renumbered 102.1 → 103.2"),
        ("C", "104.2", "changed and renumbered 103.2 → 104.2"),
    ]
    assert history["numbers"] == [{"number": "102.1", "since": "A"}, {"number": "103.2", "since": "B"},
                                  {"number": "104.2", "since": "C"}]  # fmt: skip
    diff = client.get(f"/api/{GAME}/rules/104.2/diff/A..C").get_json()
    assert diff["changed"] is True and {op["op"] for op in diff["ops"]} == {"equal", "insert", "delete"}
    assert diff["url"] == f"/{GAME}/rules/104.2/diff/A..C"  # the rule's diff, not its term's redirect
    rule = client.get(f"/api/{GAME}/v/B/rules/103.2").get_json()
    assert rule["numbers"] == ["102.1", "103.2"] and rule["history_url"] == f"/{GAME}/terms/{rule['slug']}/history"
    chapter = client.get(f"/api/{GAME}/rules/1").get_json()  # a chapter lists its sections
    assert [s["number"] for s in chapter["sections"]] == ["100", "101", "102", "103", "104"]
    spec = client.get("/api/openapi.json").get_json()["paths"]
    assert "/api/{game}/rules/{number}/history" in spec and "/api/{game}/rules/{number}/diff/{span}" in spec


FORWARD = (
    re.compile(r'<aside class="banner (?:superseded|current)".*?</aside>', re.S),  # "superseded in ...", "see current"
    re.compile(r'<meta (?:name|property)="(?:og:)?description" content="[^"]*">'),  # "Superseded in C: ..."
    re.compile(r" until superseded by <a [^>]*>v[\w-]+</a>(?: \([^)]*\))?|; the current version"),  # a whole version's
)


def without_forward_pointers(html: str) -> str:
    for pattern in FORWARD:
        html = pattern.sub("", html)
    return html


def test_a_pinned_rule_page_changes_only_its_forward_pointers_when_an_edition_is_appended(tiny, tiny_two):
    """Every pinned rule page (and history-free API answer) of A and B, built with and without C."""
    store, client = tiny_two
    _, later = tiny
    game = store.game(GAME)
    compared = 0
    for version in store.versions(game):
        for number in sorted(rule_numbers.numbers_at(store, game, version.ordinal)):
            url = f"/{GAME}/v/{version.label}/rules/{number}"
            before, after = page(client, url), page(later, url)
            assert without_forward_pointers(before) == without_forward_pointers(after), url
            compared += 1
        for url in (f"/{GAME}/v/{version.label}/rules", f"/{GAME}/v/{version.label}/"):
            assert without_forward_pointers(page(client, url)) == without_forward_pointers(page(later, url)), url
    assert compared > 20
    assert page(client, f"/{GAME}/v/B/rules/103.2") != page(later, f"/{GAME}/v/B/rules/103.2")  # its banner moved on


def test_a_game_without_numbered_rules_has_no_index_of_them(client):
    assert client.get("/marvel-champions/rules").status_code == 404


def test_a_versions_text_is_read_once_for_its_pages_and_its_sections_rule_pages(tmp_path, monkeypatch):
    """A section's rule page takes its rules from the version's whole text, read once while kept
    (``Loaded.document``): not once per section page (0.1 s each at a Magic edition), nor every version
    held for ever (14 MB each at a Magic edition: ``DOCUMENTS_KEPT``)."""
    from rulings.web import state

    monkeypatch.setattr(state, "DOCUMENTS_KEPT", 2)
    _, client = build(tmp_path, 3)
    read: list[str] = []
    contents = Store.contents
    monkeypatch.setattr(Store, "contents", lambda self, version: read.append(version.label) or contents(self, version))
    for url in ("/v/B/rules/101", "/v/B/rules/102", "/v/B/rules/103", "/v/B/", "/v/B/rules/1"):
        page(client, f"/{GAME}{url}")
    assert read == ["B"]
    words = lambda url: " ".join(re.sub("<[^>]+>", " ", main(page(client, f"/{GAME}{url}"))).split())  # noqa: E731
    assert "102. Phenomena 103. Keyword Abilities Copy citation" in words("/v/B/rules/1")  # a chapter: its sections
    assert "103.2b Trample over planeswalkers is a variant of trample. 103.3. Vigilance" in words("/v/B/rules/103")
    for url in ("/v/A/rules/100", "/v/C/rules/100", "/v/B/rules/100", "/v/A/rules/101"):  # two versions kept
        page(client, f"/{GAME}{url}")  # pages not asked before (answers are cached): each reads its version's
    assert read == ["B", "A", "C", "B", "A"]


def test_a_glossary_entrys_history_shows_each_versions_text_beside_its_notes(tiny):
    """ "Text of Comprehensive Rules B." is a note on the text that version printed: the text is shown with it,
    its rule reference linked at the number it had then, not the note alone as if the text were unknown."""
    _, client = tiny
    history = main(page(client, f"/{GAME}/terms/trample/history"))
    entries = dict(re.findall(r'<li id="v-(\w+)">(.*?)</li>\n', history, re.S))
    assert list(entries) == ["A", "B", "C"]
    for label, number in (("A", "102.1"), ("B", "103.2"), ("C", "104.2")):
        text = entries[label].split('<blockquote class="text">', 1)[1].split("</blockquote>", 1)[0]
        assert f'A keyword ability. See rule <a href="/{GAME}/v/{label}/rules/{number}"' in text, label
    assert "<li>Text of Comprehensive Rules B.</li>" in entries["B"]
