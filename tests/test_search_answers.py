"""What a search hit is: a ruling above the text it amends, and a snippet that reads like the page."""

from __future__ import annotations

import pytest

from rulings.index.snippets import CLOSE, OPEN

from .conftest import built_searcher

RULES = """# Tower Rules

## Glossary

**Hero Defeat:** When a hero is reduced to 0 hit points, remove all of that hero's cards from the game.

**Hit Points:** How much damage a hero can take.

**Tower:** The place the heroes defend.
"""
FAQ = """TOWER RULES & CLARIFICATIONS

THE RULINGS IN THIS FAQ COME FROM THE DESIGNERS.

GENERAL RULES AND CLARIFICATIONS

HERO DEFEAT AMENDED

READ HERO DEFEAT AS: WHEN A HERO IS REDUCED TO 0 HIT POINTS, FLIP THAT HERO; REMOVE ITS OTHER CARDS FROM THE GAME.

MOVING THE TOWER

THE TOWER CANNOT BE MOVED.
"""
QUESTION = "what happens when a hero is reduced to 0 hit points"


def manifest(faq_date: str | None, rules_date: str | None) -> str:
    def dated(date):
        return f'version = "{date[:4]}"\ndate = {date}\n' if date else ""

    return (
        f'[game]\nname = "Tower"\n\n[[documents]]\nfile = "rules.md"\nkind = "reference"\ntitle = "Rules"\n'
        f'{dated(rules_date)}\n[[documents]]\nfile = "faq.txt"\nkind = "faq"\ntitle = "FAQ"\n{dated(faq_date)}'
    )


def ranked(searcher, query: str) -> list[tuple[str, str]]:
    return [(h.kind, h.title) for h in searcher.search(query, game="tower").hits]


@pytest.mark.parametrize("faq_date", [None, "2021-06-01"])
def test_a_later_ruling_outranks_the_text_it_amends(tmp_path, faq_date):
    """The FAQ's answer amends the glossary's Hero Defeat: it answers first (undated, or dated after the rules)."""
    searcher = built_searcher(
        tmp_path / "corpus", tmp_path / "store", "tower", manifest(faq_date, None), {"rules.md": RULES, "faq.txt": FAQ}
    )
    found = ranked(searcher, QUESTION)
    ruling = next(i for i, (kind, _) in enumerate(found) if kind == "ruling")
    term = found.index(("glossary", "Hero Defeat"))
    assert ruling < term, found


def test_an_older_ruling_does_not_outrank_a_newer_text(tmp_path):
    searcher = built_searcher(
        tmp_path / "corpus", tmp_path / "store", "tower", manifest("2019-01-01", "2020-01-01"),
        {"rules.md": RULES, "faq.txt": FAQ},
    )  # fmt: skip
    found = ranked(searcher, QUESTION)
    ruling = next(i for i, (kind, _) in enumerate(found) if kind == "ruling")
    assert found.index(("glossary", "Hero Defeat")) < ruling, found


CAPS_FAQ = """SPIRE OF HEROES

RULES & CLARIFICATIONS

THE RULINGS IN THIS FAQ COME FROM THE DESIGNERS.

GENERAL RULES AND CLARIFICATIONS

USING FLAME WALL TWICE IN ONE TURN

NO. *FLAME WALL* WORKS ONCE PER TURN, EVEN IF **ANOTHER HERO** PLAYS IT.
THE HERO WHO PLAYED IT CHOOSES WHEN _IT_ GOES OFF.

[HTTPS://EXAMPLE.COM/FORUM/TOPIC/1](https://example.com/forum/topic/1)

MOVING THE SPIRE

THE SPIRE CANNOT BE MOVED BY ANY CARD.
"""


def test_snippets_of_an_all_caps_source_read_in_sentence_case_without_markdown(tmp_path):
    """The FAQ is in ALL CAPS with *emphasis*: the snippet is in sentence case, its markup gone, at the sentence
    that answers."""
    toml = '[game]\nname = "Spire"\n\n[[documents]]\nfile = "faq.txt"\nkind = "faq"\ntitle = "Rulings"\n'
    searcher = built_searcher(tmp_path / "corpus", tmp_path / "store", "spire", toml, {"faq.txt": CAPS_FAQ})
    hit = searcher.search("can flame wall be used twice in a turn", game="spire").hits[0]
    shown = hit.as_dict()["snippet"]
    assert hit.kind == "ruling" and hit.title == "Using Flame Wall Twice in One Turn"
    assert "*" not in shown and "_" not in shown, shown
    assert "Flame wall works once per turn, even if another hero plays it. The hero who" in shown, shown


def test_the_bundled_all_caps_faq_reads_in_sentence_case(store):
    from rulings.index.search import Searcher

    searcher = Searcher(store.build)
    for query in ("hero destruction", "redirecting damage", "flip villain card", "incapacitated hero"):
        for hit in searcher.search(query, game="sentinels-of-the-multiverse").hits:
            shown = hit.snippet.replace(OPEN, "").replace(CLOSE, "")
            assert "*" not in shown, (query, shown)
            letters = [c for c in shown if c.isalpha()]
            assert sum(c.isupper() for c in letters) < len(letters) / 2, (query, shown)


def test_the_search_page_labels_hits_as_people_call_them(client):
    """Kinds people understand and the game's name, not raw slugs."""
    page = client.get("/search?q=stunned+status+card&game=marvel-champions").get_data(as_text=True)
    assert "glossary · Marvel Champions" in page and "· marvel-champions<" not in page
    assert "<option selected>rule</option>" not in page and "<option>rule</option>" in page
