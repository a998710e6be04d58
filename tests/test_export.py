"""``rulings export``: a static site whose every link leads to a page it wrote."""

import json
import re
from pathlib import Path
from urllib.parse import unquote

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
