"""``rulings export``: a static site whose every link leads to a page it wrote."""

import json
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st
from playwright.sync_api import expect

from rulings.graph import name_tables, rule_numbers
from rulings.web import budget, reading

from .conftest import built_game, every_name
from .test_browser import browser  # noqa: F401  (the shared Chromium)

PAGE_TEXT = reading.PAGE_TEXT  # the size of a page as served (``tiny_site`` makes it small while it lasts)

HREF = re.compile(r'\s(?:href|src)="(?![a-z]+:)([^"#?]+)[^"]*"')  # relative links (no scheme)


def broken_links(site: Path) -> set[str]:
    broken = set()
    for page in site.rglob("*.html"):
        for link in HREF.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / unquote(link)).resolve()
            if not target.is_file():
                broken.add(f"{page.relative_to(site)} -> {link}")
    return broken


def test_every_link_of_the_export_resolves_to_a_file(exported_site: Path):
    assert len(list(exported_site.rglob("*.html"))) > 3000
    broken = broken_links(exported_site)
    assert not broken, sorted(broken)[:10]


def test_the_export_has_the_sites_robots_txt_at_its_root(exported_site: Path, client):
    assert (exported_site / "robots.txt").read_bytes() == client.get("/robots.txt").get_data()


def test_superseded_pages_link_their_diff_to_the_latest_version(exported_site: Path):
    pinned = exported_site / "marvel-champions" / "v" / "1.1" / "terms" / "confuse" / "index.html"
    assert "diff/1.1..1.5/index.html" in pinned.read_text(encoding="utf-8")
    assert (exported_site / "marvel-champions" / "terms" / "confuse" / "diff" / "1.1..1.5" / "index.html").is_file()


def test_search_is_one_index_file_a_game_loaded_by_the_search_page_only(exported_site: Path):
    """At 1,678 games one index for every page would weigh about 55 MiB: each game's is its own file."""
    listing = (exported_site / "search" / "games.js").read_text(encoding="utf-8")
    games = json.loads(listing.removeprefix("window.RULINGS_GAMES = ").rstrip().removesuffix(";"))
    assert {g["slug"] for g in games} == {"marvel-champions", "sentinels-of-the-multiverse", "vs-system-2pcg"}
    for game in games:
        assert (exported_site / "search" / "shards" / f"{game['slug']}.js").stat().st_size == game["bytes"]
    assert not (exported_site / "search-index.js").exists()
    loading = [
        page.relative_to(exported_site).as_posix()
        for page in exported_site.rglob("*.html")
        if "search.js" in page.read_text(encoding="utf-8") or "search/shards" in page.read_text(encoding="utf-8")
    ]
    assert loading == ["search/index.html"]


def shard(site: Path, game: str) -> dict:
    text = (site / "search" / "shards" / f"{game}.js").read_text(encoding="utf-8")
    return json.loads(text.split("] = ", 1)[1].rstrip().removesuffix(";"))


def test_a_games_search_index_holds_whole_texts_and_sub_definitions(exported_site: Path):
    docs = shard(exported_site, "marvel-champions")["docs"]
    by_title = {(d["title"], d["kind"]): d for d in docs}
    stunned = by_title["Stunned", "subdefinition"]
    assert stunned["url"] == "marvel-champions/terms/status-cards/index.html#stunned"
    assert stunned["text"].startswith("A stunned status card prevents a character from attacking.")
    attack = by_title["Attack (Enemy Activation)", "term"]  # a text of many paragraphs, one a line, each anchored
    lines = attack["text"].split("\n")
    assert len(lines) == len(attack["anchors"]) > 3
    assert "p-if-a-villain-is" in attack["anchors"]
    assert len(attack["text"]) > 1000  # never cut at 400 characters
    assert (exported_site / attack["url"]).is_file()
    assert "Enemy Attacks" in attack["names"]  # its earlier name finds it too
    assert {d["kind"] for d in docs} == {"term", "subdefinition", "section", "ruling"}


def link_names(site: Path, game: str) -> dict:
    text = (site / game / "link" / "names.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("window.RULINGS_LINK_NAMES = ").rstrip().removesuffix(";"))


def test_a_games_link_page_has_the_names_linkify_needs(exported_site: Path, store):
    """Every name, alias, spelling and sub-definition of a game leads where the server's find_term leads;
    every slug too; each version's link is the URL builder's. Loaded by the game's link page only."""
    from rulings.text import heading_key, name_key
    from rulings.urls import urls

    for game in store.games():
        data = link_names(exported_site, game.slug)
        assert len(json.dumps(data)) < 64_000  # small: one game's names, no texts
        names = every_name(store, game)
        assert len(names) > 100
        for name in names:
            term, anchor = store.find_term(game, name)
            found = data["printed"].get(heading_key(name), data["names"][name_key(name)])  # "Player Decks" first
            index, found_anchor = found if isinstance(found, list) else (found, None)
            assert (data["terms"][index][1], found_anchor) == (term.slug, anchor), name
        slugs = data["slugs"] | {term[1]: i for i, term in enumerate(data["terms"])}  # a term's own slug first
        for slug in name_tables.slug_table(store, game):
            assert store.term_by_slug(game, slug)[0].slug == data["terms"][slugs[slug]][1], slug
        assert {key for key, _ in data["typos"]} == {key for key, _ in store.name_keys(game)}
        assert data["versions"] == [[v.label, urls.term(game.slug, "{slug}", v.label)] for v in store.versions(game)]
        assert data["url"] == urls.term(game.slug, "{slug}")
    marvel = link_names(exported_site, "marvel-champions")
    stunned = marvel["names"]["stunned"]  # a sub-definition: its entry and anchor
    assert (marvel["terms"][stunned[0]][1], stunned[1]) == ("status-cards", "stunned")
    # one key, two terms: the glossary entry by the key, the appendix by its printed name
    assert marvel["terms"][marvel["names"]["player deck"]][1] == "player-deck"
    assert marvel["terms"][marvel["printed"]["player decks"]][1] == "player-decks"
    loading = sorted(
        page.relative_to(exported_site).as_posix()
        for page in exported_site.rglob("*.html")
        if "names.js" in page.read_text(encoding="utf-8")
    )
    assert loading == [f"{game.slug}/link/index.html" for game in store.games()]


# -- an export that scales with versions (issue 31) ----------------------------------------------------
def test_change_reports_are_pages_for_consecutive_versions_only(exported_site: Path, store):
    """Every pair was 1,711 reports at 59 versions: consecutive pairs are pages, any other is made in the browser."""
    game = store.game("marvel-champions")
    labels = [v.label for v in store.versions(game)]
    folder = exported_site / "marvel-champions" / "changes"
    reports = sorted(p.name for p in folder.iterdir() if p.is_dir())
    assert reports == sorted(f"{a}..{b}" for a, b in zip(labels, labels[1:], strict=False))
    picker = (folder / "index.html").read_text(encoding="utf-8")  # the page making any other report
    assert "changes.js" in picker and 'id="report"' in picker


def edition(site: Path, game: str, label: str) -> dict:
    text = (site / game / "v" / label / "edition.js").read_text(encoding="utf-8")
    return json.loads(text.split("] = ", 1)[1].rstrip().removesuffix(";"))


def test_each_version_is_a_snapshot_of_what_a_report_compares(exported_site: Path, store):
    from rulings.graph import answers

    game = store.game("marvel-champions")
    versions = store.versions(game)
    for version in versions:
        data = edition(exported_site, "marvel-champions", version.label)
        in_force = set()
        for term in store.terms(game, ("entry", "keyword", "section")):
            revision, _ = answers.in_force(store.revisions(term), version.ordinal)
            if revision is not None and not revision.removed:
                in_force.add(term.slug)
        assert {item[0] for item in data["terms"]} == in_force, version.label
        assert data["rules"] == [] and data["version"] == version.label


def test_reports_made_from_two_snapshots_are_the_servers(exported_site: Path, store):
    """What static/changes.js compares, compared here the same way: the lists of every pair of versions."""
    from rulings.graph import compare

    game = store.game("marvel-champions")
    labels = [v.label for v in store.versions(game)]
    snapshots = {label: edition(exported_site, "marvel-champions", label) for label in labels}
    for i, start in enumerate(labels):
        for end in labels[i + 1 :]:
            report = compare.changes(store, "marvel-champions", start, end)
            old = {t[0]: t for t in snapshots[start]["terms"]}
            new = {t[0]: t for t in snapshots[end]["terms"]}
            added = sorted(new[s][1] for s in new.keys() - old.keys())
            removed = sorted(old[s][1] for s in old.keys() - new.keys())
            kept = [(old[s], new[s]) for s in old.keys() & new.keys() if old[s][2] != new[s][2]]
            changed = sorted(n[1] for o, n in kept if o[4] != n[4] or n[6] > i)
            renamed = sorted(n[1] for o, n in kept if o[3] != n[3])
            assert added == sorted(report["added"]), (start, end)
            assert removed == sorted(report["removed"]), (start, end)
            assert changed == sorted(report["changed"]), (start, end)
            assert renamed == sorted(r["to"] for r in report["renamed"]), (start, end)


# -- a game of numbered rules in three editions, exported with pages short enough to split its text ---------
@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory):
    """The three editions of tests/test_rule_pages.py exported, a version's text split into pages of at most
    300 characters (``reading.PAGE_TEXT``): (the export's folder, a client of the same build)."""
    from rulings.export import export
    from rulings.web import create_app, reading

    from .test_lineage import TOML, A, B
    from .test_rule_pages import THIRD, C

    root = tmp_path_factory.mktemp("tiny-export")
    files = {"rules-a.txt": A, "rules-b.txt": B, "rules-c.txt": C}
    settings = built_game(root / "corpus", root / "store", "tiny-rules", TOML + THIRD, files)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reading, "PAGE_TEXT", 300)
        done = export(settings, root / "site")
        client = create_app(settings).test_client()
        yield root / "site", client, done


def test_a_numbered_game_exports_whole_with_its_rule_pages_histories_and_pages(tiny_site):
    site, _, done = tiny_site
    assert done["failed"] == [], done["failed"][:10]
    assert not broken_links(site)
    game = site / "tiny-rules"
    for path in ("rules/index.html", "v/A/rules/index.html", "rules/104.2/history/index.html",
                 "rules/103.2/diff/A..B/index.html", "v/A/rules/102.1/index.html"):  # fmt: skip
        assert (game / path).is_file(), path
    moved = (game / "terms" / "rule-102-1" / "history" / "index.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh" content="0; url=../../../rules/104.2/history/index.html"' in moved
    assert sorted(p.name for p in (game / "changes").iterdir() if p.is_dir()) == ["A..B", "B..C"]


def test_a_long_text_is_a_contents_page_and_pages_of_a_chapter_or_less(tiny_site):
    site, client, _ = tiny_site
    contents = (site / "tiny-rules" / "v" / "C" / "index.html").read_text(encoding="utf-8")
    pages = re.findall(r'href="(read/[^"]+)"', contents.split('<nav class="pages"', 1)[1].split("</nav>", 1)[0])
    assert pages[:2] == ["read/introduction/index.html", "read/1/index.html"] and "read/104/index.html" in pages
    anchors = json.loads(re.search(r'id="page-anchors">(.*?)</script>', contents, re.S).group(1))
    held = pages[anchors["104.2b"]]  # where an old link to "…/v/C/#104.2b" goes on to: a section cut at its rules
    assert held == "read/104.2/index.html"
    chapter = (site / "tiny-rules" / "v" / "C" / held).read_text(encoding="utf-8")
    assert 'id="104.2b"' in chapter and 'rel="prev"' in chapter and 'rel="next"' in chapter
    assert "104. Keyword Abilities (from 104.2. Trample)" in chapter
    served = client.get("/tiny-rules/v/C/read/104.2").get_data(as_text=True)
    assert 'id="104.2b"' in served and client.get("/tiny-rules/v/C/read/104.2a").status_code == 404


def shown_report(page, site: Path, query: str) -> dict:
    page.goto((site / "tiny-rules" / "changes" / "index.html").as_uri() + query)
    expect(page.locator("#report p.counts").first).to_be_visible()

    def texts(selector: str) -> list[str]:
        return page.locator(selector).all_inner_texts()

    return {
        "changed": texts("#changed details summary .name"),
        "added": texts("#added li a"),
        "removed": texts("#removed li a"),
        "rules changed": texts("#rules-changed details summary .name"),
        "rules moved": texts("#rules-moved li a"),
        "rules added": texts("#rules-added details summary .name"),
        "rules removed": texts("#rules-removed details summary .name"),
        "redlines": page.locator("#rules-changed ins").count(),
    }


def test_a_report_between_any_two_versions_is_made_in_the_browser_as_the_server_makes_it(browser, tiny_site):  # noqa: F811
    from rulings.graph.rules import heading

    site, client, _ = tiny_site
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    shown = shown_report(page, site, "?from=A&to=C")
    data = client.get("/api/tiny-rules/changes/A..C").get_json()
    rules = data["rules"]
    assert shown["changed"] == data["changed"] and shown["added"] == data["added"]
    assert shown["removed"] == data["removed"]
    for kind in ("changed", "moved", "added", "removed"):
        assert shown[f"rules {kind}"] == [heading(r["number"], r["name"]) for r in rules[kind]], kind
    assert shown["rules changed"] and shown["rules moved"] and shown["redlines"] > 0
    page.locator("#from").select_option("B")  # consecutive versions: the exported report itself
    page.locator("#to").select_option("C")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("h1")).to_have_text("Changes B → C")
    assert page.url.endswith("/tiny-rules/changes/B..C/index.html")
    page.locator("#from").select_option("A")  # any other pair: made in the browser
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#span")).to_have_text("A → C")
    page.goto((site / "tiny-rules" / "changes" / "index.html").as_uri() + "?from=C&to=A")
    expect(page.locator("#report")).to_contain_text("runs backwards")
    page.close()
    assert not errors, errors


@pytest.mark.needs_shared
def test_every_page_of_magics_editions_is_at_most_500_kb(magic_client, magic_store, monkeypatch):
    """The whole-edition page was 3.6 MB: a phone gets the contents, then a chapter (or a part of one) a page."""
    monkeypatch.setattr(reading, "PAGE_TEXT", PAGE_TEXT)  # not the short pages of a module fixture still alive
    # Reading every page of seven editions is a crawl, not a client the "report" budget should turn away (429):
    # on a fast machine the first contents pages spent its burst before the last was asked for.
    budgets = magic_client.application.extensions.setdefault("rulings.budgets", {})
    unlimited = budget.Spending("report", budget.Budget(share=1e6, burst=1e6, said="whole documents"), threads=4)
    monkeypatch.setitem(budgets, "report", unlimited)
    game = magic_store.game("magic-the-gathering")
    for version in magic_store.versions(game):
        response = magic_client.get(f"/magic-the-gathering/v/{version.label}/")
        contents = response.get_data(as_text=True)
        assert response.status_code == 200, (version.label, response.status_code, contents[-600:])
        assert len(contents.encode()) <= 500_000, version.label
        nav = contents.split('<nav class="pages"', 1)[1].split("</nav>", 1)[0]
        pages = re.findall(r'href="([^"]+)"', nav)
        assert len(pages) > 10 and "/read/7" in " ".join(pages)
        held = set()
        for url in pages:
            response = magic_client.get(url)
            assert response.status_code == 200 and len(response.data) <= 500_000, (url, len(response.data))
            held.update(re.findall(r'\bid="(\d{3}\.\d+[a-z]?)"', response.get_data(as_text=True)))
        assert held == rule_numbers.numbers_at(magic_store, game, version.ordinal) - {
            n for n in rule_numbers.numbers_at(magic_store, game, version.ordinal) if "." not in n
        }, version.label  # every rule and subrule on some page


def test_the_export_takes_each_page_once_and_a_versions_pages_together():
    """Pages of no version first, then each version's pages in the order it was first linked: the server keeps
    the whole texts of a few versions only (``DOCUMENTS_KEPT``), and every page of a version reads its text."""
    from rulings.export import Pending

    pending = Pending(["/", "/g/v/A/rules/1", "/g/terms/t", "/g/v/B/", "/g/v/A/", "/g/terms/t"])
    taken = [pending.pop(), pending.pop(), pending.pop()]
    for link in ("/g/v/B/read/1", "/g/rules/1", "/g/v/A/rules/2", "/g/v/A/"):  # linked from /g/v/A/rules/1
        pending.add(link)
    while pending:
        taken.append(pending.pop())
    assert taken == [
        "/", "/g/terms/t", "/g/v/A/rules/1", "/g/rules/1", "/g/v/A/", "/g/v/A/rules/2", "/g/v/B/", "/g/v/B/read/1"
    ]  # fmt: skip


SEGMENTS = ["a", "b", "index.html", "v", "2023-04-14", "rules", "702.19", "x%20y", ".", "", "..", "static"]


@examples(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(SEGMENTS), max_size=6), st.lists(st.sampled_from(SEGMENTS), max_size=6))
def test_a_link_is_made_relative_as_posixpath_makes_it(path, start):
    """``relative_path`` skips ``relpath``'s two getcwd calls a link: its answer must not differ, "." and ""
    segments, doubled slashes and ".." included."""
    from rulings.export import relative_path

    path_text, start_text = "/".join(path).lstrip("/") or "index.html", "/".join(start).lstrip("/") or "."
    assert relative_path(path_text, start_text) == posixpath.relpath(path_text, start_text)
