"""The site and the JSON API through Flask's test client: every URL, errors, headers, escaping."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

PAGES = [
    "/",
    "/search?q=guard",
    "/search?q=quickstrke&game=marvel-champions",
    "/marvel-champions/",
    "/vs-system-2pcg/",
    "/sentinels-of-the-multiverse/",
    "/marvel-champions/terms/guard",
    "/marvel-champions/v/1.1/terms/guard",
    "/marvel-champions/terms/dash/history",
    "/marvel-champions/terms/dash/diff/1.1..1.4",
    "/marvel-champions/changes/1.3..1.4",
    "/marvel-champions/applies?term=dash&date=2020-03-01",
    "/marvel-champions/applies",
    "/marvel-champions/rulings/",
    "/marvel-champions/cards/pepper-potts",
    "/marvel-champions/link",
    "/vs-system-2pcg/terms/aka",
    "/vs-system-2pcg/v/1/terms/hidden-hide",
    "/vs-system-2pcg/terms/recruit-step",
    "/vs-system-2pcg/cards/moon-knight",
    "/sentinels-of-the-multiverse/terms/immune",
    "/sentinels-of-the-multiverse/rulings/ra-flame-barrier",
    "/sentinels-of-the-multiverse/cards/ra",
    "/sentinels-of-the-multiverse/link",
]


def test_every_url_answers(client):
    for url in PAGES:
        if url.endswith("/rulings/"):
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        assert "text/html" in response.content_type


def test_term_page_content_and_cross_links(client):
    html = client.get("/marvel-champions/terms/player-phase").get_data(as_text=True)
    assert "<h1>Player Phase</h1>" in html
    assert 'href="/marvel-champions/terms/player-turn"' in html  # see also / mention
    assert 'class="term"' in html
    assert 'href="/marvel-champions/terms/player-phase" class="term"' not in html  # never links to itself
    # Paragraph anchors come from the paragraph's first words, never its position.
    assert '<p id="p-during-the-player-phase">' in html and 'id="p-1"' not in html
    assert 'property="og:title"' in html and 'name="description"' in html


def test_pinned_superseded_banner_and_diff(client):
    html = client.get("/marvel-champions/v/1.1/terms/dash").get_data(as_text=True)
    assert "superseded in <strong>1.2</strong>" in html
    assert 'href="/marvel-champions/terms/dash"' in html
    assert 'href="/marvel-champions/terms/dash/diff/1.1..1.5"' in html
    diff = client.get("/marvel-champions/terms/dash/diff/1.1..1.4").get_data(as_text=True)
    assert "<ins>" in diff and "<del>" in diff and "treated as 0" in diff


def test_redirect_entry_shows_its_definition(client):
    html = client.get("/marvel-champions/v/1.1/terms/guard").get_data(as_text=True)
    assert "While any" in html and "keywords#guard" in html
    keywords = client.get("/marvel-champions/v/1.1/terms/keywords").get_data(as_text=True)
    assert '<p id="guard">' in keywords and '<p id="toughness">' in keywords


def test_links_only_to_terms_of_the_version_shown(client):
    old = client.get("/marvel-champions/v/1.1/terms/keywords").get_data(as_text=True)
    assert "/v/1.1/terms/excess-damage" not in old  # Excess Damage only exists from 1.4
    assert "/terms/excess-damage" in client.get("/marvel-champions/terms/overkill").get_data(as_text=True)


def test_aliases_redirect_to_canonical_urls(client):
    response = client.get("/mc/terms/guard")
    assert response.status_code == 301 and response.headers["Location"].endswith("/marvel-champions/terms/guard")
    response = client.get("/marvel-champions/terms/card-ability")
    assert response.status_code == 301 and response.headers["Location"].endswith("/marvel-champions/terms/ability")


@pytest.mark.parametrize(
    "alias,canonical",
    [
        ("/mc/changes/1.3..1.4", "/marvel-champions/changes/1.3..1.4"),
        ("/mc/feed.atom", "/marvel-champions/feed.atom"),
        ("/mc/applies?term=dash&date=2020-03-01", "/marvel-champions/applies?term=dash&date=2020-03-01"),
        ("/mc/link?text=%5B%5Bguard%5D%5D", "/marvel-champions/link?text=%5B%5Bguard%5D%5D"),
        ("/mc/rulings/webbed-up", "/marvel-champions/rulings/webbed-up"),
    ],
)
def test_every_page_of_a_game_alias_redirects_keeping_its_query(client, alias, canonical):
    response = client.get(alias)
    assert response.status_code == 301 and response.headers["Location"].endswith(canonical)


@pytest.mark.parametrize(
    "url",
    [
        "/nope/",
        "/marvel-champions/terms/nope",
        "/marvel-champions/v/9.9/terms/dash",
        "/marvel-champions/v/1.3/terms/hinder-x",
        "/marvel-champions/terms/dash/diff/1.1..9",
        "/marvel-champions/changes/bad",
        "/marvel-champions/rulings/nope",
        "/marvel-champions/cards/nope",
        "/marvel-champions/terms/..%2F..%2Fetc%2Fpasswd",
        "/marvel-champions/terms/%00",
    ],
)
def test_unknown_things_are_friendly_404s(client, url):
    response = client.get(url)
    assert response.status_code == 404
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and "<h1>" in body


@pytest.mark.parametrize(
    "url",
    [
        "/marvel-champions/applies?term=dash&date=2020-13-45",
        "/marvel-champions/link?format=pdf&text=x",
        "/search?q=x&game=nope",
    ],
)
def test_bad_requests_are_400(client, url):
    response = client.get(url)
    assert response.status_code == 400 and "Traceback" not in response.get_data(as_text=True)


def test_security_headers(client):
    response = client.get("/marvel-champions/terms/guard")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"]


def test_no_external_assets(client):
    html = client.get("/marvel-champions/").get_data(as_text=True)
    assert not re.search(r'(src|href)="https?://(?!localhost)', html.split("<main")[0])


def test_search_page_and_did_you_mean(client):
    html = client.get("/search?q=quickstrke&game=marvel-champions").get_data(as_text=True)
    assert "Showing results for" in html and "quickstrike" in html
    assert "<mark>" in html


def test_sentinels_ruling_in_sentence_case_with_original(client):
    html = client.get("/sentinels-of-the-multiverse/rulings/ra-flame-barrier").get_data(as_text=True)
    assert "Ra must take at least 1 point of damage" in html
    assert "RA MUST TAKE AT LEAST 1 POINT" in html  # the original, one click away
    assert "https://greaterthangames.com/forum/topic/combat-stance-o" in html


def test_citation_buttons(client):
    html = client.get("/marvel-champions/v/1.2/terms/dash").get_data(as_text=True)
    assert "[Dash — Marvel Champions: The Card Game, v1.2](http://localhost/marvel-champions/v/1.2/terms/dash)" in html
    assert (
        "[url=http://localhost/marvel-champions/v/1.2/terms/dash]Dash — Marvel Champions: The Card Game, v1.2[/url]"
        in html
    )


def test_linkify_page(client):
    response = client.post(
        "/marvel-champions/link", data={"text": "See [[guard]] and [[dash@1.2]] but [[nope]].", "format": "bbcode"}
    )
    html = response.get_data(as_text=True)
    assert "[url=http://localhost/marvel-champions/terms/guard]Guard[/url]" in html
    assert "[url=http://localhost/marvel-champions/v/1.2/terms/dash]dash (v1.2)[/url]" in html
    assert "Not found: [[nope]]" in html


def test_feed_is_atom(client):
    response = client.get("/marvel-champions/feed.atom")
    assert response.status_code == 200 and response.content_type.startswith("application/atom+xml")
    root = ET.fromstring(response.get_data())
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    assert [e.find("{http://www.w3.org/2005/Atom}title").text for e in entries][:2] == [
        "Version 1.5 (2023-05-18)",
        "Version 1.4.2 (2021-05-18)",
    ]
    content = entries[2].find("{http://www.w3.org/2005/Atom}content")
    assert len(content) == 0 and content.text.startswith("<ul><li>")  # escaped HTML text, as RFC 4287 asks
    assert "/marvel-champions/v/1.4/terms/" in content.text


def robots_rules(text: str) -> list[re.Pattern]:
    """The Disallow lines of a robots.txt as RFC 9309 matches them: a prefix, ``*`` any characters, ``$`` the end."""
    paths = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Disallow:")]
    return [re.compile(re.escape(p).replace(r"\*", ".*").replace(r"\$", "$")) for p in paths]


def test_robots_txt_lets_crawlers_read_every_page_but_no_endless_answer(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"  # not a game called robots.txt
    body = response.get_data(as_text=True)
    assert body.startswith("User-agent: *\n")
    rules = robots_rules(body)
    golden = Path(__file__).parent / "golden" / "urls.txt"
    permalinks = [line.split("\t")[0] for line in golden.read_text().splitlines() if line.startswith("/")]
    pages = [url for url in permalinks + PAGES if "?" not in url and not url.startswith("/api/")]  # the site's pages
    assert len(pages) > 70 and not [url for url in pages if any(rule.match(url) for rule in rules)]
    endless = [
        "/api/games",
        "/api/marvel-champions/terms/guard",
        "/search?q=guard",
        "/marvel-champions/applies?term=dash",
    ]
    assert [client.get(url).status_code for url in endless] == [200] * len(endless)
    assert all(any(rule.match(url) for rule in rules) for url in endless)
    assert all(any(rule.match(url) for url in endless) for rule in rules)  # each rule hides something real


# -- JSON API ------------------------------------------------------------------------------
def test_api_applies_matches_the_cli(client, cli):
    api = client.get("/api/marvel-champions/applies?term=Dash&date=2020-03-01").get_json()
    via_cli, _ = cli.json("applies", "marvel-champions", "Dash", "--date", "2020-03-01")
    assert api == via_cli
    missing = client.get("/api/marvel-champions/applies?term=Dash&date=2019-01-01")
    assert missing.status_code == 404 and missing.get_json()["status"] == "before-first-version"


def test_api_mirrors(client):
    term = client.get("/api/marvel-champions/v/1.1/terms/star-icon").get_json()
    assert term["in_force"] == "1.1" and "mandatory ability in the text box" in term["text"]
    assert client.get("/api/marvel-champions/terms/dash/diff/1.1..1.4").get_json()["changed"] is True
    changes = client.get("/api/marvel-champions/changes/1.3..1.4").get_json()
    assert "Hinder X" in changes["added"]
    hits = client.get("/api/search?q=flame+barrier&game=sotm").get_json()["hits"]
    assert hits[0]["title"] == "Flame Barrier"
    assert client.get("/api/complete?q=acc&game=mc").get_json()[0]["name"].startswith("Acceleration")
    history = client.get("/api/marvel-champions/terms/dash/history").get_json()
    assert [r["version"] for r in history["revisions"]] == ["1.0", "1.2", "1.4"]
    assert client.get("/api/sentinels-of-the-multiverse/rulings/ra-flame-barrier").get_json()["sources"]
    assert client.get("/api/vs-system-2pcg/cards/moon-knight").get_json()["rulings"]
    assert len(client.get("/api/games").get_json()) == 3
    linked = client.post("/api/marvel-champions/linkify", json={"text": "[[surge]]", "format": "markdown"})
    assert linked.get_json()["text"] == "[Surge](http://localhost/marvel-champions/terms/surge)"


@pytest.mark.parametrize(
    "url",
    [
        "/api/nope/terms",
        "/api/marvel-champions/terms/nope",
        "/api/search?q=x&kind=bad",
        "/api/marvel-champions/applies",
        "/api/search?q=x&limit=abc",
    ],
)
def test_api_errors_are_json(client, url):
    response = client.get(url)
    assert response.status_code in (400, 404)
    assert response.is_json and response.get_json()["status"] == "error"


def test_openapi_lists_every_api_route(app, client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    documented = {re.sub(r"\{(\w+)\}", r"<\1>", p) for p in spec["paths"]}
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", r.rule)
        for r in app.url_map.iter_rules()
        if r.rule.startswith("/api/") and r.rule != "/api/openapi.json"
    }
    assert routes <= {d.replace("<span>", "<span>") for d in documented}, routes - documented


def test_document_with_script_renders_inert(tmp_path):
    from rulings.build import build
    from rulings.settings import Settings
    from rulings.web import create_app

    from .conftest import write_game

    corpus = tmp_path / "corpus"
    write_game(
        corpus,
        "evil",
        '[game]\nname = "<b>Evil</b> Game"\n[[documents]]\nfile = "r.md"\nkind = "rulebook"\n'
        'title = "Rules <i>x</i>"\n',
        {
            "r.md": "# Setup\n\nClick <script>alert(1)</script> or [this](javascript:alert(2)).\n\n"
            "# Glossary\n\nTrap: a <img src=x onerror=alert(3)> thing.\n"
        },
    )
    build(Settings.resolve(corpus, tmp_path / "store"), progress=lambda _: None)
    client = create_app(Settings.resolve(corpus, tmp_path / "store")).test_client()
    for url in ("/evil/", "/evil/terms/setup", "/evil/terms/trap", "/search?q=script"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>alert" not in html and 'href="javascript:' not in html
        assert "<img src=x" not in html and "<b>Evil" not in html
    assert "&lt;script&gt;" in client.get("/evil/terms/setup").get_data(as_text=True)


@pytest.mark.parametrize(
    "url",
    [
        "/marvel-champions/v/1.5/terms/keywords",
        "/marvel-champions/terms/status-cards",
        "/marvel-champions/cards/pepper-potts",
        "/sentinels-of-the-multiverse/cards/absolute-zero",
    ],
)
def test_element_ids_are_unique_on_a_page(client, url):
    ids = re.findall(r'\sid="([^"]+)"', client.get(url).get_data(as_text=True))
    assert ids and len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_game_home_is_an_index(client):
    html = client.get("/sentinels-of-the-multiverse/").get_data(as_text=True)
    for label in ("Heroes", "Villains", "Environments"):
        assert f'<section id="group-{label.lower()}" class="index">' in html
    assert 'href="/sentinels-of-the-multiverse/cards/ra">Ra</a>' in html
    assert "sha256" not in html
    vs = client.get("/vs-system-2pcg/").get_data(as_text=True)
    assert "**" not in vs  # headings' emphasis is not shown as text
    hinted = re.findall(r'>Equipment</a> <small class="muted">([^<]+)</small>', vs)
    assert len(hinted) == 2 and hinted[0] != hinted[1]  # look-alike entries told apart


def test_a_revision_is_shown_in_sentence_case_exactly_when_its_opening_is_all_caps(store):
    """The page reads it from the blocks the build prepared in sentence case, not from the text at each request."""
    from rulings.text import is_all_caps
    from rulings.web.views import written_in_caps

    revisions = store.q("SELECT id, substr(text, 1, 400) FROM revisions")
    caps = [rid for rid, opening in revisions if is_all_caps(opening)]
    assert len(caps) > 20 and len(revisions) - len(caps) > 100
    for rid, opening in revisions:
        assert written_in_caps(store.blocks(rid)) == is_all_caps(opening), rid


def test_the_meta_description_is_the_opening_of_the_text(client):
    for slug in ("defend", "guard", "effect"):
        html = client.get(f"/marvel-champions/terms/{slug}").get_data(as_text=True)
        description = re.search(r'<meta name="description" content="([^"]*)">', html).group(1)
        assert re.search(r'<meta property="og:description" content="([^"]*)">', html).group(1) == description
        assert description and len(description) <= 221 and not re.search(r"[<>*]", description)
        text = client.get(f"/api/marvel-champions/terms/{slug}").get_json()["text"]
        assert not text.strip() or " ".join(text.split())[:40] in description


def test_a_pinned_page_describes_the_text_of_its_version(client, store):
    from html import unescape

    from rulings.markup import excerpt

    game = store.game("marvel-champions")
    described = 0
    for term in store.terms(game, ("entry", "keyword")):
        revisions = [r for r in store.revisions(term) if r.text.strip()]
        if len({excerpt(r.text) for r in revisions}) < 2:
            continue
        for revision in revisions:
            html = client.get(f"/marvel-champions/v/{revision.version}/terms/{term.slug}").get_data(as_text=True)
            description = re.search(r'<meta name="description" content="([^"]*)">', html).group(1)
            assert unescape(description).endswith(excerpt(revision.text)), (term.slug, revision.version)
            described += 1
    assert described > 10


def test_a_see_entry_shows_the_definition_it_points_at_rendered_once_per_build_and_version(cold_app):
    from flask import g

    from rulings.web import views

    client = cold_app.test_client()
    page = client.get("/marvel-champions/terms/crisis-icon").get_data(as_text=True)
    loaded = cold_app.extensions["rulings"].get()
    kept = {k: v for k, v in loaded._memo.items() if k[0] == "definition"}
    assert len(kept) == 1 and f'<blockquote class="definition">{next(iter(kept.values()))["html"]}' in page
    assert client.get("/marvel-champions/terms/crisis-icon").get_data(as_text=True) == page
    answer = client.get("/api/marvel-champions/terms/crisis-icon").get_json()
    assert answer["definition"]["term"] == "Side Scheme" and answer["definition"]["html"] in page
    assert len([k for k in loaded._memo if k[0] == "definition"]) == 1  # the page and the API alike
    assert client.get("/marvel-champions/v/1.1/terms/crisis-icon").status_code == 200
    assert len([k for k in loaded._memo if k[0] == "definition"]) == 2  # another version, its own links
    with cold_app.test_request_context("/marvel-champions/terms/crisis-icon"):
        g.loaded = loaded
        game = loaded.store.game("marvel-champions")
        term, _ = loaded.store.term_by_slug(game, "crisis-icon")
        revision = loaded.store.revisions(term)[-1]
        latest = loaded.store.versions(game)[-1]
        assert views.pointed_definition(game, revision, None, latest) == next(iter(kept.values()))  # afresh


def test_security_headers_a_response_sets_itself_are_kept_once():
    from flask import Response

    from rulings.web import security_headers
    from rulings.web.security import SECURITY_HEADERS

    own = Response("x", headers={"x-frame-options": "SAMEORIGIN"})
    headers = list(security_headers(own).headers.items())
    assert [v for k, v in headers if k.lower() == "x-frame-options"] == ["SAMEORIGIN"]
    added = [k for k in SECURITY_HEADERS if k != "X-Frame-Options"]
    assert [k for k, _ in headers][-len(added) :] == added
