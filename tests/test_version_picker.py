"""Every version one tap away (issue 32): a version whose changelog lists nothing is said to be so on the
game's home, and is no footnote of every term."""

from __future__ import annotations

import re

import pytest


def test_the_game_home_says_a_version_changed_nothing_and_headlines_the_last_change(client):
    html = client.get("/marvel-champions/").get_data(as_text=True)
    assert '<a href="/marvel-champions/changes/1.4..1.4.2">What changed in 1.4.2</a>' in html
    assert "What changed in 1.5" not in html and "/changes/1.4.2..1.5" not in html
    latest = re.search(r'<li data-date="2023-05-18">(.*?)</li>', html, re.S).group(1)
    assert '<span class="quiet">no changes listed</span>' in latest
    assert "The changelog lists no changes for 1.5" in latest


@pytest.mark.parametrize("path", ["/marvel-champions/terms/guard", "/marvel-champions/v/1.5/terms/defend"])
def test_terms_carry_no_footnote_for_a_version_that_changed_nothing(client, path):
    assert "lists no changes for 1.5" not in client.get(path).get_data(as_text=True)
    api = client.get("/api" + path).get_json()
    assert not any("1.5" in note for note in api["notes"])
