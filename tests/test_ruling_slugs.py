"""Ruling URLs (issue 37): short slugs, and every slug published before them kept as a permanent redirect.

Slugs were the card and ten words of the question (up to 80 characters: ~75-character URLs); they are the
card and four telling words now. The former slug of each ruling is kept: its URL answers 301 with the new
one, on the site, the API and in the export (a redirect page), and card pages keep the paragraph ids
published with it.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulings.graph import ruling_rows
from rulings.graph.builder import former_ruling_slug, ruling_slug
from rulings.ingest.model import Ruling

PUBLISHED = "pepper-potts-can-pepper-potts-generate-the-resources-of-a-card-that"  # a former slug (golden URL)


def test_ruling_slugs_are_short_and_name_the_card_and_the_question(store):
    slugs = [r["slug"] for game in store.games() for r in ruling_rows.rulings(store, game)]
    formers = [r["former_slug"] for game in store.games() for r in ruling_rows.rulings(store, game)]
    assert len(slugs) > 200
    assert max(map(len, slugs)) <= 60 and sum(map(len, slugs)) / len(slugs) < 0.9 * sum(map(len, formers)) / len(
        formers
    )
    ruling = Ruling("faq", "", 1, question="Can Pepper Potts generate the resources of a card that is being spent?")
    ruling.group, ruling.group_kind = "Pepper Potts", "card"
    assert ruling_slug(ruling) == "pepper-potts-generate-resources-card-being"
    assert former_ruling_slug(ruling) == "pepper-potts-can-pepper-potts-generate-the-resources-of-a-card-that"


def test_no_ruling_takes_a_slug_another_ruling_was_published_under(store):
    for game in store.games():
        rulings = ruling_rows.rulings(store, game)
        owner = {r["former_slug"]: r["id"] for r in rulings}
        assert len(owner) == len(rulings)  # the former slugs, one per ruling, as published
        assert all(owner.get(r["slug"], r["id"]) == r["id"] for r in rulings)


def test_a_former_ruling_url_redirects_for_good_on_the_site_and_the_api(client):
    for prefix in ("/marvel-champions/rulings/", "/api/marvel-champions/rulings/"):
        moved = client.get(prefix + PUBLISHED)
        assert moved.status_code == 301, prefix
        target = moved.headers["Location"]
        assert target == prefix + "pepper-potts-generate-resources-card-currently"
        assert client.get(target).status_code == 200
    assert client.get("/marvel-champions/rulings/pepper-potts-can-never-was").status_code == 404


def test_card_pages_keep_the_paragraph_ids_published_with_the_former_slugs(client):
    page = client.get("/marvel-champions/cards/pepper-potts").get_data(as_text=True)
    assert f'id="{PUBLISHED}-p-1"' in page


def test_the_export_writes_a_redirect_page_at_each_former_ruling_url(exported_site: Path):
    old = exported_site / "marvel-champions" / "rulings" / PUBLISHED / "index.html"
    stub = old.read_text(encoding="utf-8")
    assert re.search(r'http-equiv="refresh" content="0; url=[^"]*pepper-potts-generate-resources-card-currently', stub)
    new = exported_site / "marvel-champions" / "rulings" / "pepper-potts-generate-resources-card-currently"
    assert (new / "index.html").is_file()
