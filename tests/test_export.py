"""``rulings export``: a static site whose every link leads to a page it wrote."""

import json
import re
from pathlib import Path
from urllib.parse import unquote

from .conftest import every_name

HREF = re.compile(r'\s(?:href|src)="(?![a-z]+:)([^"#?]+)[^"]*"')  # relative links (no scheme)


def test_every_link_of_the_export_resolves_to_a_file(exported_site: Path):
    pages = list(exported_site.rglob("*.html"))
    assert len(pages) > 3000
    broken = set()
    for page in pages:
        for link in HREF.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / unquote(link)).resolve()
            if not target.is_file():
                broken.add(f"{page.relative_to(exported_site)} -> {link}")
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
        for slug in store.slug_table(game):
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
