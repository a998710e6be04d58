"""The URL builder (rulings/urls.py) writes exactly the URLs the app's routes answer."""

from __future__ import annotations

import re

from flask import url_for

from rulings.urls import Urls, urls


def test_every_builder_url_is_the_url_for_of_its_route(app):
    cases = [
        (urls.home(), "site.home", {}),
        (urls.search(), "site.search", {}),
        (urls.game("mc"), "site.game_home", {"game": "mc"}),
        (urls.term("mc", "dash"), "site.term", {"game": "mc", "slug": "dash"}),
        (urls.term("mc", "dash", "1.4.2"), "site.term_pinned", {"game": "mc", "slug": "dash", "version": "1.4.2"}),
        (urls.history("mc", "dash"), "site.history", {"game": "mc", "slug": "dash"}),
        (urls.diff("mc", "dash", "1.1", "1.4"), "site.diff", {"game": "mc", "slug": "dash", "span": "1.1..1.4"}),
        (urls.changes("mc", "1.3", "1.4"), "site.changes", {"game": "mc", "span": "1.3..1.4"}),
        (urls.ruling("sotm", "ra-flame-barrier"), "site.ruling", {"game": "sotm", "slug": "ra-flame-barrier"}),
        (urls.card("vss", "moon-knight"), "site.card", {"game": "vss", "slug": "moon-knight"}),
        (urls.feed("mc"), "site.feed", {"game": "mc"}),
        (urls.link("mc"), "site.link", {"game": "mc"}),
        (urls.robots(), "site.robots", {}),
        (urls.static("style.css"), "static", {"filename": "style.css"}),
    ]
    adapter = app.url_map.bind("localhost")
    with app.test_request_context():
        for path, endpoint, values in cases:
            assert path == url_for(endpoint, **values)
            assert adapter.match(path) == (endpoint, values)


def test_anchors_and_absolute_urls():
    assert urls.term("mc", "keywords", "1.1", "guard") == "/mc/v/1.1/terms/keywords#guard"
    assert urls.term("mc", "keywords", anchor="guard") == "/mc/terms/keywords#guard"
    site = Urls("https://rules.example.org/")
    assert site.term("mc", "dash") == "https://rules.example.org/mc/terms/dash"
    assert site.feed("mc") == "https://rules.example.org/mc/feed.atom"


def test_answers_index_and_completion_write_builder_urls(cli, store):
    from rulings.index.search import Searcher

    data, _ = cli.json("applies", "mc", "Dash", "--version", "1.2")
    assert data["url"] == urls.term("marvel-champions", "dash", "1.2")
    hit = Searcher(store.build).search("flame barrier", game="sentinels-of-the-multiverse").hits[0]
    assert hit.url == urls.ruling("sentinels-of-the-multiverse", hit.slug)
    completed = Searcher(store.build).completions.complete("quicks", "marvel-champions")[0]
    assert completed["url"] == urls.term("marvel-champions", "quickstrike")


def test_a_page_mounted_below_a_prefix_links_below_it(client):
    """Behind a proxy that mounts the site at /rules (SCRIPT_NAME), every link a page writes keeps the prefix:
    the URL builder made once per request, the stylesheet, the header, the crumbs and the term links."""
    page = client.get("/marvel-champions/terms/defend", environ_overrides={"SCRIPT_NAME": "/rules"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    links = re.findall(r'(?:href|src|action)="(/[^"]*)"', html)
    assert len(links) > 10
    assert all(link.startswith("/rules/") for link in links), [x for x in links if not x.startswith("/rules/")]
    assert 'href="/rules/static/style.css"' in html and 'href="/rules/marvel-champions/"' in html
    plain = client.get("/marvel-champions/terms/defend").get_data(as_text=True)
    assert 'href="/static/style.css"' in plain and "/rules/" not in plain


def test_an_api_term_answer_names_its_pinned_page_and_rulings_below_the_prefix(client):
    answer = client.get("/api/marvel-champions/terms/defend", environ_overrides={"SCRIPT_NAME": "/rules"}).get_json()
    assert answer["url"] == "/rules" + urls.term("marvel-champions", "defend", answer["in_force"])
    assert answer["rulings"] and all(
        r["url"] == "/rules" + urls.ruling("marvel-champions", r["slug"]) for r in answer["rulings"]
    )
