"""Citations and linked posts in the formats forums read: a name cannot break out of its link."""

import html
import re

import pytest

from rulings.markup import bbcode_text, markdown_label
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import built_game

HOSTILE = "Beta [/url][url=https://evil.example/]Click here"
RULEBOOK = f"""# Beta Rules

## Glossary

**Alpha**: The first card of a turn. See also: {HOSTILE}.

**{HOSTILE}**: A card named to hijack a citation; a player plays it after Alpha.
"""
MANIFEST = """[game]
name = "Beta Test"

[[documents]]
file = "rulebook.md"
kind = "rulebook"
title = "Rulebook"
"""


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    corpus, store = tmp_path_factory.mktemp("corpus"), tmp_path_factory.mktemp("store")
    settings = built_game(corpus, store, "beta-test", MANIFEST, {"rulebook.md": RULEBOOK})
    return create_app(Settings.resolve(corpus, settings.store)).test_client()


def bbcode_tags(text: str) -> list[str]:
    """The tags a BBCode parser sees: ``[`` followed at once by a tag name (or ``/`` and one)."""
    return re.findall(r"\[/?[A-Za-z*]+[^\]]*\]", text)


def test_a_bbcode_citation_is_one_link_whatever_the_name(client):
    term = client.get("/api/beta-test/terms/" + _slug(client)).get_json()
    assert term["name"] == HOSTILE
    cite = term["citation"]
    assert bbcode_tags(cite["bbcode"]) == [f"[url={cite['url']}]", "[/url]"]
    assert cite["bbcode"].replace("\u200b", "") == f"[url={cite['url']}]{cite['label']}[/url]"  # reads as the name
    assert cite["markdown"].count("](") == 1 and "\\[/url\\]\\[url=https://evil.example/\\]" in cite["markdown"]
    page = client.get("/beta-test/terms/" + _slug(client)).get_data(as_text=True)
    shown = re.search(r'data-copy="([^"]*)" data-label="BBCode"', page).group(1)
    assert bbcode_tags(html.unescape(shown)) == [f"[url={cite['url']}]", "[/url]"]


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_a_linked_post_names_a_term_inside_one_link(client, fmt):
    post = "[[beta url url http evil example click hare]] and [[alpha]]"  # a near miss shows the term's own name
    data = client.post("/api/beta-test/linkify", json={"text": post, "format": fmt}).get_json()
    assert [link["term"] for link in data["links"]] == [HOSTILE, "Alpha"]
    if fmt == "bbcode":
        assert len(bbcode_tags(data["text"])) == 4 and "evil.example" not in "".join(bbcode_tags(data["text"]))
    else:
        assert data["text"].count("](") == 2 and "\\[url=https://evil.example/\\]" in data["text"]


def test_labels_are_escaped_for_each_format():
    assert markdown_label("a [b] c\\") == "a \\[b\\] c\\\\"
    assert bbcode_tags(bbcode_text("[b]x[/b] [url=y]")) == []
    assert bbcode_text("The Power of [Aspect]").replace("\u200b", "") == "The Power of [Aspect]"


def _slug(client) -> str:
    terms = client.get("/api/beta-test/terms").get_json()
    return next(t["slug"] for t in terms if t["name"] == HOSTILE)
