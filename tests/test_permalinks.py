"""Permalinks that never rot: the golden URL list, and a new rules version leaving old pins alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulings.build import build
from rulings.settings import Settings
from rulings.web import create_app

GOLDEN = Path(__file__).parent / "golden" / "urls.txt"


def golden_rows():
    rows = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            url, status, *phrase = line.split("\t")
            rows.append((url, int(status), phrase[0] if phrase else ""))
    return rows


def article_text(html: str) -> str:
    match = re.search(r"<article[^>]*>(.*?)</article>", html, re.S)
    text = re.sub(r"<[^>]+>", "", match.group(1) if match else "")
    return re.sub(r"\s+", " ", text.replace("&quot;", '"').replace("&#39;", "'")).strip()


@pytest.mark.parametrize("url,status,phrase", golden_rows())
def test_golden_urls(client, url, status, phrase):
    response = client.get(url)
    assert response.status_code == status, url
    if phrase:
        assert article_text(response.get_data(as_text=True)).startswith(phrase), url


NEW_VERSION = """Rules Reference changelog, continued

Changed from 1.5 -> 1.6 (January 10, 2024)

Dash

If a character's power has a dash as the value, that power cannot be used at all.

Brand New Term

A term nobody had heard of before 1.6.
"""


def test_a_new_version_changes_no_existing_pinned_page(corpus_copy, tmp_path, client):
    game = corpus_copy / "marvel-champions"
    (game / "changelog-1.6.txt").write_text(NEW_VERSION)
    with open(game / "game.toml", "a") as toml:
        toml.write('\n[[documents]]\nfile = "changelog-1.6.txt"\nkind = "changelog"\ntitle = "Changelog 1.6"\n')
    store = tmp_path / "store"
    build(Settings.resolve(corpus_copy, store), progress=lambda _: None)
    newer = create_app(Settings.resolve(corpus_copy, store)).test_client()
    for url, status, _ in golden_rows():
        if "/v/" in url and url.startswith("/marvel-champions"):
            before, after = client.get(url), newer.get(url)
            assert after.status_code == before.status_code == status, url
            assert article_text(after.get_data(as_text=True)) == article_text(before.get_data(as_text=True)), url
    latest = article_text(newer.get("/marvel-champions/terms/dash").get_data(as_text=True))
    assert latest.startswith("If a character's power has a dash as the value, that power cannot be used")
    pinned = newer.get("/marvel-champions/v/1.4/terms/dash").get_data(as_text=True)
    assert "superseded in <strong>1.6</strong>" in pinned
    assert newer.get("/marvel-champions/terms/brand-new-term").status_code == 200
    old_slugs = {
        a
        for a in re.findall(
            r'href="(/marvel-champions/terms/[^"#]+)"', client.get("/marvel-champions/").get_data(as_text=True)
        )
    }
    new_page = newer.get("/marvel-champions/").get_data(as_text=True)
    assert all(f'href="{slug}"' in new_page for slug in old_slugs)
