"""Search over numbered rules (a comprehensive-rules document): the hit points at the subrule that answers.

A small rules document written for the test, in the layout of the Magic Comprehensive Rules: numbered
sections, rules and lettered subrules, and a glossary.
"""

from __future__ import annotations

import pytest
from whoosh import query as Query

from rulings.index import query as query_module
from rulings.index import ranking as ranking_module
from rulings.index.schema import family_stem, light_stem

from .conftest import built_searcher

RULES = """Harbor Comprehensive Rules

These rules are effective as of March 3, 2024.

Introduction

This document is the authority for Harbor.

Contents

1. Ships
100. General
101. Docking

7. Keyword Actions
701. Keyword Actions

Glossary

Credits

1. Ships

100. General

100.1. Each player has a fleet of ships.

100.1a A ship in the harbor is docked.

100.1b A ship outside the harbor is at sea.

101. Docking

101.1. A player may dock one ship during each of their turns.

101.1a A docked ship can't be sunk by a storm.

101.1b A docked ship can't sail until its owner's next turn.

101.2. Navigation through a storm costs one crew for each ship.

101.3. The starting player takes the first turn.

101.3a In a two-player game, the player who sails first skips the harbor toll of their first turn.

101.3b In a convoy game, the fleet that sails first skips the toll of its first turn.

101.4. A ship with crew greater than 0 may sail.

101.5. A ship with crew 0 or less can't sail, and at the end of the turn its owner puts it into the wreck pile.

101.6. A player moors a docked ship to keep it in the harbor.

101.6a A ship at sea is moored only if its owner has docked it in the harbor first.

101.6b The harbor master keeps a ledger of every berth, its tolls and the crews who paid them, and reads it
aloud at the beginning of each round so that every player knows which berths are taken and which are free.

101.6c Tolls are paid in crew. A player who cannot pay a toll in full pays what they can, and the harbor
master writes the rest in the ledger as a debt to be paid at the beginning of that player's next turn.

101.6d A berth taken for three rounds in a row becomes the taker's own berth until the end of the game; the
ledger says so, and no toll is paid for it afterward, though the harbor master still reads it aloud.

101.6e A ship at sea moored by an ability loses one crew.

7. Keyword Actions

701. Keyword Actions

701.1. Scuttle

701.1a To scuttle a ship, its owner moves it from the sea to the wreck pile. Scuttling a ship
doesn't sink it, so salvage and other effects that replace sinking can't return it.

701.2. Salvage

701.2a If the effect of an ability salvages a ship, it replaces sinking with a return to the harbor.

701.2b A salvaged ship is docked.

Glossary

Scuttle
To move a ship you own to the wreck pile. See rule 701.1, "Scuttle."

Credits

Harbor was written for a test.
"""

MANIFEST = (
    '[game]\nname = "Harbor Rules"\n\n[[documents]]\nfile = "rules.txt"\nkind = "reference"\n'
    'title = "Comprehensive Rules"\nversion = "2024-03-03"\ndate = 2024-03-03\n'
)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    corpus, store = tmp_path_factory.mktemp("corpus"), tmp_path_factory.mktemp("store")
    return built_searcher(corpus, store, "harbor-rules", MANIFEST, {"rules.txt": RULES})


def hits(searcher, query):
    return searcher.search(query, game="harbor-rules").hits


def test_a_rule_whose_whole_text_is_one_subrule_points_at_it(searcher):
    """701.1 is all 701.1a: its hit cites 701.1a (number and link), as a passage of a longer rule would."""
    hit = next(h for h in hits(searcher, "scuttle a ship") if h.title == "Scuttle" and h.number)
    assert hit.number == "701.1a" and hit.url.endswith("/rules/701.1a"), (hit.number, hit.url)
    longer = next(h for h in hits(searcher, "salvaged ship docked") if h.title == "Salvage")
    assert longer.number == "701.2b" and longer.url.endswith("/rules/701.2b")


def test_word_families_meet_though_the_index_folds_a_final_e():
    """The index has "regenerat" for "regenerate" (its final "e" folded): still of the family of "regeneration"."""
    for word, related in (("regenerate", "regeneration"), ("activate", "activation"), ("sacrifice", "sacrificing")):
        assert family_stem(light_stem(word)) == family_stem(light_stem(related)), (word, related)
    assert family_stem(light_stem("alter")) == family_stem("alteration")
    assert family_stem(light_stem("attack")) != family_stem(light_stem("tackle"))


def test_a_word_of_the_family_finds_the_rule_that_says_it_another_way(searcher):
    """ "navigate" is searched as "navigation" too (below the word itself): the rule about navigation answers."""
    plan = searcher.plan("can I navigate a ship through a storm", game="harbor-rules")
    assert "navigation" in next(w.alternatives for w in plan.words if w.stem == light_stem("navigate"))
    top = hits(searcher, "how do I navigate my ship")[0]
    assert top.number == "101.2", (top.title, top.number)


def test_common_words_tell_the_passages_of_one_entry_apart(searcher, monkeypatch):
    """ "player" is too common to tell entries apart (searched in names only), yet it tells 101.3a ("the player
    who sails first") from 101.3b ("the fleet that sails first"): the hit points at 101.3a."""
    monkeypatch.setattr(query_module, "COMMON_FLOOR", 0)
    query = "does the player going first skip the toll on the first turn"
    with searcher.lend():
        _, _, common = searcher.ranker.required_words(searcher.plan(query, game="harbor-rules"))
    assert "player" in common
    hit = next(h for h in hits(searcher, query) if h.number and h.number.startswith("101.3"))
    assert hit.number == "101.3a", hit.number


def test_the_general_case_of_a_rule_answers_before_its_exceptions(searcher, monkeypatch):
    """101.6a (what mooring requires) and 101.6e (an exception, far into the rule) say the same words; the
    subrule that comes first, the rule's general case, answers "can a ship be moored at sea"."""
    query = "can a ship at sea be moored"
    hit = next(h for h in hits(searcher, query) if h.number and h.number.startswith("101.6"))
    assert hit.number == "101.6a", hit.number
    monkeypatch.setattr(ranking_module, "POSITION_SCALE", 10**9)  # no prior for the place: the exception
    hit = next(h for h in hits(searcher, query) if h.number and h.number.startswith("101.6"))
    assert hit.number == "101.6e", hit.number


def test_a_passage_that_says_two_words_side_by_side_as_typed_is_the_one_pointed_at(searcher, monkeypatch):
    """101.6a and 101.6e both say "ship", "sea" and "moored"; only 101.6e says "sea moored" as the query
    does, so the hit points at it although it comes later in the rule. Pointing never re-orders hits."""
    query = "sea moored ship"
    with searcher.lend():
        said = searcher.ranker.phrases("is a sea moored ship")
    assert said == ("moored ship", "sea moored")
    assert ranking_module.phrase_places("A ship at sea Moored by an ability", said) == [10]
    assert ranking_module.phrase_places("a ship at sea is moored; the seas moored ships", said) == []
    pointed = hits(searcher, query)
    hit = next(h for h in pointed if h.number and h.number.startswith("101.6"))
    assert hit.number == "101.6e", hit.number
    monkeypatch.setattr(ranking_module, "PHRASE_GAIN", 1.0)
    unpointed = hits(searcher, query)
    assert next(h for h in unpointed if h.number and h.number.startswith("101.6")).number == "101.6a"
    assert [h.title for h in pointed] == [h.title for h in unpointed]


def test_a_number_and_its_word_meet_in_either_order(searcher):
    """ "0 crew" is "crew 0": the rule that says it first, above the one that says "crew greater than 0"."""
    plan = searcher.plan("ship with 0 crew", game="harbor-rules")
    assert "crew_0" in str(plan.query())
    assert hits(searcher, "ship with 0 crew")[0].number == "101.5"


def test_a_word_said_again_tells_little_more_than_the_word_said_once(tmp_path):
    """Short texts saturate fast (BM25F's k1 below Whoosh's 1.2): the text that says "storm" three times
    outscores the one that says it once (of the same length) by less than with Whoosh's default."""
    glossary = "# Weather\n\n## Glossary\n\n**Gale**: A storm, storm, storm front.\n\n**Calm**: A storm without wind.\n"
    manifest = '[game]\nname = "Weather"\n\n[[documents]]\nfile = "rules.md"\nkind = "rulebook"\ntitle = "Rules"\n'
    searcher = built_searcher(tmp_path / "corpus", tmp_path / "store", "weather", manifest, {"rules.md": glossary})

    def ratio(whoosh) -> float:
        scores = {whoosh.stored_fields(d)["label"]: s for d, s in whoosh.search(Query.Term("body", "storm")).items()}
        return scores["Gale"] / scores["Calm"]

    with searcher.lend():
        ours = ratio(searcher.index.current_searcher)
    with searcher.index.ix.searcher() as default:
        assert 1.0 < ours < ratio(default) - 0.1, (ours, ratio(default))


def test_common_words_tell_passages_apart_only_within_the_query_budget(searcher, monkeypatch):
    """Telling which passages hold a common word reads all its documents: a word whose documents alone
    are past the query's budget of postings (any common word of a large index) is left out."""
    monkeypatch.setattr(query_module, "COMMON_FLOOR", 0)
    plan = searcher.plan("does the player going first skip the toll on the first turn", game="harbor-rules")
    with searcher.lend():
        reader = searcher.index.current_searcher.reader()
        player = next(w for w in plan.telling if w.stem == "player")
        monkeypatch.setattr(ranking_module, "BUDGET", searcher.ranker._word_df(reader, player) - 1)
        wanted, _, common = searcher.ranker.required_words(plan)
    assert "player" not in common and "player" not in wanted


def test_a_subrule_number_typed_points_the_hit_at_that_subrule(searcher):
    """ "101.3b" is a passage of rule 101.3: the hit lands on it, not on the rule's top or another subrule."""
    for typed, number in (("101.3b", "101.3b"), ("rule 101.1a", "101.1a"), ("what does 101.3a say", "101.3a")):
        hit = hits(searcher, typed)[0]
        assert (hit.number, hit.url) == (number, f"/harbor-rules/rules/{number}"), (typed, hit.number, hit.url)
    assert hits(searcher, "a ship with 0 crew")[0].number == "101.5"  # a bare number is a count, not a rule


def test_a_quoted_phrase_is_searched_as_its_word_pairs(searcher):
    """No positions are indexed: a quoted phrase is its word pairs, all in one text, weighed as a phrase."""
    pair = f"{light_stem('docked')}_{light_stem('ship')}"
    plan = searcher.plan('"docked ship"', game="harbor-rules")
    assert Query.Term("pairs", pair, boost=query_module.PHRASE_WEIGHT) in plan.clauses
    top = hits(searcher, '"docked ship"')[0]
    assert top.number in ("101.1a", "101.1b"), (top.title, top.number)  # not 100.1a, "a ship ... is docked"
    longer = searcher.plan('"a docked ship can\'t sail"', game="harbor-rules")
    weight = query_module.PHRASE_WEIGHT
    pairs = (pair, "ship_cannot", "cannot_sail")
    assert [c for c in longer.clauses if isinstance(c, Query.And)] == [
        Query.And([Query.Term("pairs", p, boost=weight) for p in pairs])
    ]
    assert hits(searcher, '"a docked ship can\'t sail"')[0].number == "101.1b"
    assert not [c for c in searcher.plan('"docked ship sail"', game="harbor-rules").clauses if isinstance(c, Query.And)]


def test_a_count_in_a_question_is_not_the_end_of_a_rule_number(searcher):
    """ "101.5" is one word: a "5" typed as a count matches no part of it, while "101.5" typed is that rule."""
    assert searcher.index.tokens("see 101.5 and 702.19b.") == ["see", "101.5", "702.19b"]
    assert not [h.number for h in hits(searcher, "storm 5") if h.number and h.number.startswith("101.5")]
    assert not [h.number for h in hits(searcher, "how does a refit to 3 work") if h.number and "3" in h.number]
    assert hits(searcher, "101.5")[0].number == "101.5"
    assert hits(searcher, "what does 101.3a say about the toll")[0].number == "101.3a"


def test_a_glossary_entry_and_the_rule_it_points_to_are_one_hit_at_the_rules_url(searcher):
    """The glossary's "Scuttle ... See rule 701.1" and rule 701.1 answer alike: one hit, the rule, at
    /<game>/rules/<number>, kind "rule", the glossary's words counting for it."""
    found = hits(searcher, "scuttle")
    assert [h.title for h in found].count("Scuttle") == 1, [(h.title, h.kind, h.url) for h in found]
    hit = found[0]
    assert (hit.title, hit.kind, hit.url) == ("Scuttle", "rule", "/harbor-rules/rules/701.1a")
    wreck = hits(searcher, "move a ship you own to the wreck pile")[0]  # the glossary's own words
    assert (wreck.title, wreck.kind, wreck.url) == ("Scuttle", "rule", "/harbor-rules/rules/701.1a")
    assert {h.kind for h in hits(searcher, "ship")} <= {"rule", "section", "glossary"}


def test_a_typo_two_edits_from_a_word_the_rules_know_is_corrected(searcher):
    """ "skutle" (six letters) is two edits from "scuttle": corrected, as "menence" is to "menace"."""
    results = searcher.search("skutle a ship", game="harbor-rules")
    assert results.corrected and results.did_you_mean == "scuttle a ship", results.did_you_mean
    assert results.hits[0].title == "Scuttle"
    assert not searcher.search("xkutle a ship", game="harbor-rules").corrected  # three edits: not a typo of it


def test_a_glossary_entry_reworded_between_editions_still_points_to_its_one_rule(tmp_path):
    """A citation is recorded once per span of editions: "Scuttle", reworded in the second edition, cites
    rule 701.1 in both, and is still one hit with the rule (not two, the glossary entry on its own)."""
    later = RULES.replace("March 3, 2024", "June 1, 2024").replace(
        "To move a ship you own to the wreck pile.", "To move a ship you control to the wreck pile."
    )
    two_editions = MANIFEST + (
        '\n[[documents]]\nfile = "rules-2.txt"\nkind = "reference"\n'
        'title = "Comprehensive Rules"\nversion = "2024-06-01"\ndate = 2024-06-01\n'
    )
    files = {"rules.txt": RULES, "rules-2.txt": later}
    searcher = built_searcher(tmp_path / "corpus", tmp_path / "store", "harbor-rules", two_editions, files)
    found = hits(searcher, "scuttle")
    assert [h.title for h in found].count("Scuttle") == 1, [(h.title, h.kind, h.url) for h in found]
    assert (found[0].kind, found[0].url) == ("rule", "/harbor-rules/rules/701.1a")


def test_a_typo_beside_a_word_no_answer_shares_is_still_corrected(searcher):
    """ "skutle" beside "storm": no rule says both, so the correction's best answers cover only part of the
    query, but more than the query as typed could (it has a word no text has): the correction is taken."""
    results = searcher.search("can i skutle a ship in a storm", game="harbor-rules")
    assert results.corrected and results.did_you_mean == "can i scuttle a ship in a storm", results.did_you_mean
    assert "Scuttle" in [h.title for h in results.hits[:3]]


def test_irregular_verb_forms_are_analysed_as_their_verb():
    """ "sank" is "sink" is "sunk": irregular forms of a verb are the verb, in the texts and in the question."""
    from rulings.index.schema import light_stem

    assert {light_stem(w) for w in ("sank", "sunk", "sink")} == {"sink"}
    assert {light_stem(w) for w in ("ran", "run")} == {"run"} and light_stem("left") == "left"  # a direction
