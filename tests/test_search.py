"""Search: the evaluation sample, typos, filters, versions, snippets, completion, hostile input."""

import re

import pytest

from rulings.index.filters import filter_query
from rulings.index.search import Searcher

from .evalfiles import cases, evaluate_search, question_cases, score, search_matches


@pytest.fixture(scope="module")
def searcher(store):
    return Searcher(store.build)


@pytest.mark.needs_shared
def test_search_dev_sample_quality(searcher):
    hit3, mrr, _ = evaluate_search(searcher)
    assert hit3 >= 0.95 and mrr >= 0.9, (hit3, mrr)


def test_question_set_quality_on_the_bundled_games(searcher, store):
    """A floor under the project's own question set (bench/search_quality.py prints the detail).

    The set was tuned to and no longer predicts what players get (the blind set in
    tests/data/search-blind.tsv does); the floor guards against a collapse, at 0.94 since three
    questions lost a rank to the page-size-stable pool and an honest parse fix (docs/search.md), at 0.93
    since irregular verbs are their verb ("taken" is "take": "i didnt defend how much damage do i take"
    went from 3rd to 4th while the newest blind set's development half gained a question)."""
    result = score(searcher, question_cases(games={g.slug for g in store.games()}))
    assert len(result.scored) >= 100
    assert result.hit3 >= 0.93 and result.mrr >= 0.87, (result.hit3, result.mrr)


@pytest.mark.needs_shared
@pytest.mark.parametrize("game,query,expected", cases("search-dev.tsv", 3))
def test_each_sample_query_in_top_3(searcher, game, query, expected):
    hits = searcher.search(query, game=game, limit=3).hits
    assert any(search_matches(h, expected) for h in hits), [h.title for h in hits]


def test_defining_entry_first_for_its_name(searcher):
    for name in ("Quickstrike", "Hit Points", "Player Phase", "Ally Limit"):
        assert searcher.search(name, game="marvel-champions").hits[0].title == name


def test_typo_tolerance_and_did_you_mean(searcher):
    results = searcher.search("quickstrke", game="marvel-champions")
    assert results.corrected and results.did_you_mean == "quickstrike"
    assert results.hits[0].title == "Quickstrike"
    results = searcher.search("obligaton elimnated", game="marvel-champions")
    assert results.hits and results.did_you_mean
    assert searcher.search("surge", game="marvel-champions").did_you_mean is None


def test_spelling_correction_is_bounded_per_query(searcher):
    words = ["quickstrke", "gaurd", "obligaton", "elimnated", "villian", "tougness"]
    corrected, changed = searcher.corrector.correct(words + ["QuickStrke"])
    assert changed and corrected[:4] == ["quickstrike", "guard", "obligation", "eliminated"]
    assert corrected[4:6] == ["villian", "tougness"]  # past the cap: left as typed, never a fuzzy scan each
    assert corrected[6] == "quickstrike"  # a repeated word is looked up once


def test_quoting_one_word_searches_it_as_across_all_games(searcher):
    assert str(searcher.build_query('"card"', broad=True)) == str(searcher.build_query("card", broad=True))
    assert "name_keys:guard" in str(searcher.build_query('"guard"', broad=True))


def test_all_caps_source_matches_lower_case_query(searcher):
    hits = searcher.search("flame barrier", game="sentinels-of-the-multiverse").hits
    assert hits[0].title == "Flame Barrier" and hits[0].kind == "ruling"
    assert hits[0].url.startswith("/sentinels-of-the-multiverse/rulings/")


def test_game_and_kind_filters(searcher):
    hits = searcher.search("stun", limit=20).hits
    assert {h.game for h in hits} >= {"marvel-champions", "vs-system-2pcg"}
    only = searcher.search("stun", game="vs-system-2pcg", limit=20).hits
    assert only and {h.game for h in only} == {"vs-system-2pcg"}
    rulings = searcher.search("damage", kind="ruling", limit=20).hits
    assert rulings and {h.kind for h in rulings} == {"ruling"}
    errata = searcher.search("card", kind="errata", limit=20).hits
    assert errata and {h.subkind for h in errata} == {"errata"}
    assert searcher.search("stun", kind="nonsense").hits == []


def test_sub_definitions_are_found_on_their_own(searcher):
    hits = searcher.search("stunned status card", game="marvel-champions", limit=5).hits
    assert any(
        h.kind == "glossary" and h.subkind == "subdefinition" and h.url.endswith("/terms/status-cards#stunned")
        for h in hits
    )


def test_version_filter_searches_that_versions_texts(searcher):
    latest = searcher.search("hero or villain remaining hit points value on the dial", game="marvel-champions")
    old = searcher.search(
        "hero or villain remaining hit points value on the dial", game="marvel-champions", version="1.1"
    )
    old_hit = next(h for h in old.hits if h.title == "Remaining Hit Points")
    assert old_hit.url == "/marvel-champions/v/1.1/terms/remaining-hit-points"
    assert "value on the dial" in old_hit.as_dict()["snippet"]
    assert all("/v/" not in h.url for h in latest.hits)
    hinder = searcher.search("hinder", game="marvel-champions", version="1.3").hits
    assert not any(h.title == "Hinder X" for h in hinder)
    assert searcher.search("hinder", game="marvel-champions").hits[0].title == "Hinder X"


def test_snippets_highlight_the_words(searcher):
    hit = searcher.search("acceleration token", game="marvel-champions").hits[0]
    assert "\u27e6" in hit.snippet  # marked for highlighting
    assert "\u27e6" not in hit.as_dict()["snippet"]


def test_completion(searcher):
    names = [c["name"] for c in searcher.completions.complete("acc", game="marvel-champions")]
    assert names[:2] == ["Acceleration Icon", "Acceleration Token"]
    assert "Villain Phase" in [c["name"] for c in searcher.completions.complete("phase", game="marvel-champions")]
    assert searcher.completions.complete("") == []
    assert all(c["game"] == "vs-system-2pcg" for c in searcher.completions.complete("s", game="vs-system-2pcg"))
    guard = searcher.completions.complete("guard")[0]  # across games, the game is named for the reader
    assert guard["game_name"] == "Marvel Champions: The Card Game"


@pytest.mark.parametrize(
    "query",
    [
        "guard AND (",
        '"unterminated phrase',
        "field:value OR",
        "*",
        "?",
        "\x00\x01\x1b[31m",
        "a" * 10_000,
        "<script>alert(1)</script>",
        "'; DROP TABLE terms; --",
        "\u202e\u200bguard",
        "%s%s%s",
        "🃏🃏",
    ],
)
def test_hostile_queries_answer_cleanly(searcher, query):
    results = searcher.search(query)
    assert isinstance(results.hits, list)
    assert len(results.query) <= 200


def test_cli_search_json_contract(cli):
    data, code = cli.json("search", "ko pile", "--game", "vss", "--limit", "3")
    assert code == 0 and len(data) <= 3
    assert set(data[0]) >= {"title", "aliases", "game", "kind", "slug", "url", "score", "snippet"}
    assert data[0]["game"] == "vs-system-2pcg"
    scores = [h["score"] for h in data]
    assert scores == sorted(scores, reverse=True)


def test_cli_search_unknown_game_is_a_negative_answer(cli):
    data, code = cli.json("search", "stun", "--game", "nope")  # exit 1, like every command naming a game
    assert code == 1 and data["status"] == "unknown-game"


def test_instant_search_corrects_a_finished_word_and_completes_the_last(searcher):
    assert searcher.complete("villian ph", "marvel-champions")[0]["name"] == "Villain Phase"
    hits = searcher.search("villian ph", game="marvel-champions", partial=True).hits
    assert hits and hits[0].title == "Villain Phase"


def test_nonsense_is_not_corrected_into_results(searcher):
    results = searcher.search("xyzzyq plugh")
    assert results.did_you_mean is None and results.hits == []


def test_alter_ego_is_not_alteration(searcher):
    for typed in ("alter ego", "alterego", "alter-ego form"):
        hits = searcher.search(typed, game="marvel-champions", limit=3).hits
        assert "Alteration Effect" not in [h.title for h in hits], typed
        assert "alter-ego" in hits[0].as_dict()["snippet"].lower(), typed


def test_a_clear_correction_is_ranked_alone_and_changes_nothing(searcher, monkeypatch):
    """A correction covering clearly more than the typed query could is taken without ranking the typed query
    (a second ranking's cost); which ranking is shown is what comparing both rankings would choose."""
    rank = searcher.rank
    ranked: list[str] = []
    monkeypatch.setattr(searcher, "rank", lambda text, *a, **k: ranked.append(text) or rank(text, *a, **k))
    results = searcher.search("quickstrke", game="marvel-champions")
    assert results.did_you_mean == "quickstrike" and ranked == ["quickstrike"]

    games = {"marvel-champions", "sentinels-of-the-multiverse", "vs-system-2pcg"}
    typos = [(c.game, c.query) for c in question_cases(games=games) if c.kind == "typo"] + TYPOS
    for game, query in typos:
        results = searcher.search(query, game=game)
        with searcher.lend():  # both rankings, and the rule that chooses between them
            filters = filter_query(game, None, None)
            typed = rank(query, filters, None, game)
            words, changed = searcher.corrector.correct(re.findall(r"[\w'\-]+", query))
            fixed = rank(" ".join(words), filters, None, game) if changed else None
            unseen = searcher.ranker.required_words(searcher.plan(query, game=game))[1]
            taken = searcher._taken(fixed, typed.coverage, typo=bool(unseen))
            expected = searcher.page(fixed if taken and fixed else typed, 10)
        assert results.did_you_mean == (fixed.text if taken and fixed else None), query
        assert [h.url for h in results.hits] == [h.url for h in expected], query


TYPOS = [  # typos beside words no text has, a correction no better than the query, nonsense
    ("marvel-champions", "obligaton elimnated"),
    ("marvel-champions", "villian phsae zzqx"),
    ("sentinels-of-the-multiverse", "legacy soaking damage for the whole team"),
    ("vs-system-2pcg", "xyzzyq plugh"),
]
