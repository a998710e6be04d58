"""A page size cuts the ranked list, never re-ranks it: the CLI's --limit, the API's limit, the site's pages."""

from __future__ import annotations

import pytest

from rulings.index.search import Searcher

from .evalfiles import QUESTIONS, question_cases


@pytest.fixture(scope="module")
def searcher(store):
    return Searcher(store.build)


def ranked(searcher, query: str, game: str | None, limit: int) -> list[tuple[str, str]]:
    return [(h.url, h.title) for h in searcher.search(query, game=game, limit=limit).hits]


def test_limit_10_and_50_give_the_same_first_10(searcher, store):
    """Every question of the project's question set (the bundled games), in its game and across all games."""
    games = {g.slug for g in store.games()}
    cases = question_cases(QUESTIONS, games)
    assert len(cases) >= 100
    changed = []
    for case in cases:
        for game in (case.game, None):
            short, long = ranked(searcher, case.query, game, 10), ranked(searcher, case.query, game, 50)
            if short != long[:10]:
                changed.append((case.query, game))
    assert not changed, changed


@pytest.mark.parametrize("limit", [1, 3, 7, 20, 100])
def test_every_page_size_is_a_cut_of_the_same_list(searcher, limit):
    for query in ("can i attack with an exhausted character", "what happens when a hero is defeated", "card"):
        assert ranked(searcher, query, None, limit) == ranked(searcher, query, None, 100)[:limit]
