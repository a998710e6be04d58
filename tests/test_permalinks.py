"""Permalinks that never rot: the golden URL list, and a new rules version leaving old pins alone."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rulings.build import build
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import CORPUS

GOLDEN = Path(__file__).parent / "golden" / "urls.txt"


def golden_rows():
    rows = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            url, status, *phrase = line.split("\t")
            rows.append((url, int(status), phrase[0] if phrase else ""))
    return rows


def _text(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html)
    return re.sub(r"\s+", " ", text.replace("&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")).strip()


def article_text(html: str) -> str:
    match = re.search(r"<article[^>]*>(.*?)</article>", html, re.S)
    return _text(match.group(1) if match else "")


def anchored_text(html: str, anchor: str) -> str:
    """The text of the element a URL's ``#anchor`` names (a paragraph, a list item, a numbered rule)."""
    match = re.search(rf'<(\w+)[^>]*\bid="{re.escape(anchor)}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no element with id {anchor!r}"
    return _text(match.group(2))


MAGIC = "/magic-the-gathering/", "/mtg/"


def page_holding(client, html: str, anchor: str) -> str:
    """What a browser shows for ``#anchor`` on the contents page of a text too long for one page: the page
    holding it, which the contents page's script goes on to (static/app.js, ``page-anchors``)."""
    held = re.search(r'<script type="application/json" id="page-anchors">(.*?)</script>', html, re.S)
    assert held, f"no element with id {anchor!r}, and no pages to look for it in"
    pages = re.findall(r'href="([^"]+)"', re.search(r'<nav class="pages".*?</nav>', html, re.S).group(0))
    index = json.loads(held.group(1))
    response = client.get(pages[index.get(anchor, index.get(anchor.split("--")[0]))])
    assert response.status_code == 200
    return response.get_data(as_text=True)


def check_golden(client, url: str, status: int, phrase: str) -> None:
    """The URL answers with its status and text, through a permanent redirect if it has moved (a browser
    follows it, and the anchor with it)."""
    path, _, anchor = url.partition("#")
    response = client.get(path)
    if response.status_code == 301 and status == 200:
        response = client.get(response.headers["Location"])
    assert response.status_code == status, url
    if phrase:
        html = response.get_data(as_text=True)
        if anchor and f'id="{anchor}"' not in html:
            html = page_holding(client, html, anchor)
        shown = anchored_text(html, anchor) if anchor else article_text(html)
        assert shown.startswith(phrase), url


@pytest.mark.parametrize("url,status,phrase", [row for row in golden_rows() if not row[0].startswith(MAGIC)])
def test_golden_urls(client, url, status, phrase):
    check_golden(client, url, status, phrase)


@pytest.mark.needs_shared
@pytest.mark.parametrize("url,status,phrase", [row for row in golden_rows() if row[0].startswith(MAGIC)])
def test_golden_magic_urls(magic_client, url, status, phrase):
    check_golden(magic_client, url, status, phrase)


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


def graph_rows(graph: Path) -> dict[str, list[tuple]]:
    """Every row of every table but ``meta`` (the build's time) in the order written, with its row id where
    it has one (what a query without ``ORDER BY`` reads in)."""
    conn = sqlite3.connect(graph)
    found = {}
    for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name != 'meta'"):
        query = f"SELECT * FROM {name}" if "WITHOUT ROWID" in sql else f"SELECT rowid, * FROM {name} ORDER BY rowid"
        found[name] = conn.execute(query).fetchall()
    conn.close()
    return found


def test_the_same_corpus_builds_the_same_graph_whatever_the_hash_seed(tmp_path):
    """Python's string hashing changes from one process to the next: nothing built may depend on it
    (a term mentioned both as itself and by a sub-definition kept whichever edge a set yielded first; a
    ruling's terms were written in the order a set yielded them)."""
    graphs = []
    for seed in ("1", "2"):
        store = tmp_path / f"seed-{seed}"
        command = [sys.executable, "-m", "rulings", "--corpus", str(CORPUS), "--store", str(store), "build"]
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        graphs.append(graph_rows(store / "current" / "graph.sqlite"))
    assert graphs[0].keys() == graphs[1].keys() and "edges" in graphs[0]
    for table, rows in graphs[0].items():
        assert rows == graphs[1][table], table
