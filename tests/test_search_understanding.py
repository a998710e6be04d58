"""Search answers questions as players type them: each behaviour on a small game written for the test.

Passages, question words, compounds, contractions, numbers, the play lexicon, a game's [vocabulary],
honest spelling suggestions, search as you type, and the cost model's budget.
"""

from __future__ import annotations

import os
import re

import pytest
from whoosh import index as whoosh_index

from rulings.builds import current_build
from rulings.errors import CorpusError
from rulings.graph.store import Store
from rulings.index import query as query_module
from rulings.index import ranking as ranking_module
from rulings.index import writer
from rulings.index.correction import edits
from rulings.index.schema import light_stem, normal_word, schema
from rulings.index.search import Searcher
from rulings.index.snippets import CLOSE, OPEN
from rulings.index.spelling import SpellingWords
from rulings.index.topdocs import TermScores, top_documents
from rulings.ingest.manifest import load_manifest
from rulings.web import create_app

from .conftest import built_game, write_game

RULEBOOK = """# Lantern Hold Rulebook

## Glossary

**Alter-Ego**: The quiet side of a keeper card, used between fights. A keeper in alter-ego form cannot attack.

**Alteration Effect**: An effect that alters the printed value of a card. Alteration effects last until the end
of the round.

**Guard**: An enemy with guard must be attacked before other enemies.

**Defend**: To stop an attack with a keeper or an ally. Each keeper may defend once per round.

**Attack**: An enemy attack targets the keeper whose turn it is.

Each enemy attack deals its damage to the defender, after the defender's armor is subtracted.

If no one defends against the attack, the attacked keeper takes all of its damage and the attack counts as undefended.

An attack against a keeper in alter-ego form is resolved the same way as any other attack.

**Hand Size**: Keep at most seven cards in hand; discard down to seven at the end of the round.

**Defeated**: A keeper with no hit points left is defeated and leaves the game with its cards.

**Lantern Deck**: Keepers draw from the lantern deck. A keeper who must draw when there are no cards in the lantern
deck loses a hit point instead.

**Empty Space**: A space of the board that no lantern lights.

**Keeper Phase**: The phase in which every keeper takes a turn, in seating order.

**Lantern**: Each lantern card lights two spaces of the board.

**Nemesis**: The one enemy sworn against a keeper; it attacks no other keeper.

**Watchtower**: A keeper in a watchtower sees every space of the board.
"""

MANIFEST = """[game]
name = "Lantern Keep"

[[documents]]
file = "rulebook.md"
kind = "rulebook"
title = "Rulebook"

[vocabulary]
tank = "guard"
"""


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    corpus, store = tmp_path_factory.mktemp("corpus"), tmp_path_factory.mktemp("store")
    return built_game(corpus, store, "lantern-keep", MANIFEST, {"rulebook.md": RULEBOOK})


@pytest.fixture(scope="module")
def searcher(settings):
    return Searcher(current_build(settings.store))


def top(searcher, query, **kw):
    hits = searcher.search(query, game="lantern-keep", **kw).hits
    return hits[0] if hits else None


# -- analysis ---------------------------------------------------------------------------------
def test_contractions_clitics_and_numbers_meet_their_written_forms():
    assert normal_word("didnt") == normal_word("didn't") == normal_word("didn\u2019t") == "did"
    assert normal_word("cant") == normal_word("can't") == "cannot"
    assert normal_word("ko'd") == "ko" and normal_word("player's") == "player"
    assert normal_word("two") == "2" and normal_word("2nd") == "second"


def test_stemming_is_inflectional_only():
    assert light_stem("defends") == light_stem("defended") == light_stem("defending") == light_stem("defend")
    assert light_stem("heroes") == light_stem("hero") and light_stem("trampled") == light_stem("trample")
    assert light_stem("alteration") != light_stem("alter")
    assert light_stem("attacker") != light_stem("attack")


def test_british_and_american_spellings_meet(searcher):
    """A doubled final "l" before -ed/-ing is one ("cancelled", "controlled"; "spelled" keeps its two), and a
    word the texts spell the other way is searched as they spell it."""
    assert light_stem("cancelled") == light_stem("canceled") == light_stem("cancel") == "cancel"
    assert light_stem("controlled") == light_stem("controlling") == light_stem("control")
    assert light_stem("spelled") == light_stem("spell") and light_stem("rolled") == light_stem("roll")
    with searcher.lend():
        planner = searcher.planner()
    assert planner.as_spelled_here("the keepers armour") == "the keepers armor"  # the texts say "armor"
    assert planner.as_spelled_here("colour") == "colour"  # no text says "color" either


def test_a_swap_of_two_letters_is_one_edit():
    assert edits("gaurd", "guard") == 1 and edits("plugh", "plus") == 2 and edits("frist", "first") == 1


# -- ranking ----------------------------------------------------------------------------------
def test_the_answer_buried_in_a_long_entry_is_the_hit_and_its_passage_is_pointed_at(searcher, settings):
    hit = top(searcher, "who takes the damage if nobody defends")
    assert hit.title == "Attack"
    path, _, anchor = hit.url.partition("#")
    assert anchor, hit.url
    assert "no one defends" in hit.snippet.replace(OPEN, "").replace(CLOSE, "")
    assert f"{OPEN}defends{CLOSE}" in hit.snippet
    page = create_app(settings).test_client().get(path).get_data(as_text=True)
    paragraph = re.search(rf'id="{re.escape(anchor)}"[^>]*>(.*?)</(?:p|li)>', page, re.S)
    assert paragraph and "no one defends" in re.sub(r"<[^>]+>", "", paragraph.group(1))


def test_spaced_hyphenated_and_run_together_compounds_meet(searcher):
    for typed in ("alter ego", "alter-ego", "alterego", "can I attack in alter ego form"):
        hits = searcher.search(typed, game="lantern-keep").hits
        titles = [h.title for h in hits]
        assert "Alter-Ego" in titles[:2], (typed, titles)
        assert titles.index("Alter-Ego") < (titles.index("Alteration Effect") if "Alteration Effect" in titles else 99)


def test_one_word_typed_as_two_is_joined_when_no_text_has_the_two_side_by_side(searcher):
    plan = searcher.plan("can a keeper in a watch tower see the board", game="lantern-keep")
    assert "watchtower" in [w.stem for w in plan.words] and "tower" not in [w.stem for w in plan.words]
    assert top(searcher, "watch tower keeper").title == "Watchtower"
    # two words the texts do write side by side stay two ("hand size" is not "handsize")
    assert [w.stem for w in searcher.plan("hand size", game="lantern-keep").words] == ["hand", "siz"]


def test_a_word_is_joined_only_where_the_game_searched_has_it(tmp_path):
    """One index holds every game: "watch tower" is one word in the game that prints "watchtower", two
    in a game that prints only "watch" and "tower" (and a lexicon phrase joined away, "arch enemy" as
    "archenemy", is not searched again as a phrase of question words)."""
    manifest = '[game]\nname = "{}"\n\n[[documents]]\nfile = "rules.md"\nkind = "rulebook"\ntitle = "Rules"\n'
    write_game(
        tmp_path / "corpus",
        "towers",
        manifest.format("Towers"),
        {
            "rules.md": (
                "# Towers Rules\n\n## Glossary\n\n**Watchtower**: A tall piece that sees the board.\n\n"
                "**Archenemy**: The one foe you face alone, your nemesis.\n"
            )
        },
    )
    settings = built_game(
        tmp_path / "corpus",
        tmp_path / "store",
        "patrols",
        manifest.format("Patrols"),
        {"rules.md": ("# Patrols Rules\n\n## Glossary\n\n**Watch**: Look at the board.\n\n**Tower**: A tall piece.\n")},
    )
    searcher = Searcher(current_build(settings.store))
    stems = lambda text, game: [w.stem for w in searcher.plan(text, game=game).words]  # noqa: E731
    assert stems("watch tower", "towers") == ["watchtower"]
    assert stems("watch tower", "patrols") == ["watch", "tower"]
    assert stems("arch enemy", "towers") == ["archenemi"]


def test_question_words_do_not_decide(searcher):
    assert top(searcher, "what happens when how many cards can I keep in my hand").title == "Hand Size"


def test_digits_meet_number_words(searcher):
    assert top(searcher, "keep 7 cards").title == "Hand Size"
    assert top(searcher, "lights 2 spaces").title == "Lantern"


def test_play_lexicon_reaches_the_rules_word_but_never_outranks_it(searcher):
    assert top(searcher, "what happens when my keeper dies").title == "Defeated"
    assert top(searcher, "can my ally block").title == "Defend"
    assert top(searcher, "defeated").title == "Defeated"  # the word itself first
    assert top(searcher, "what if my keeper gets beat").title == "Defeated"  # "beat": defeat


def test_a_negated_phrase_means_what_it_stands_for(searcher):
    """ "nobody defends" asks about undefended attacks, not about defending (the lexicon's "nobody defend")."""
    plan = searcher.plan("i didnt defend", game="lantern-keep")
    assert [w.stem for w in plan.telling] == ["undefend"]
    assert plan.telling[0].alternatives == {"defend": query_module.SYNONYM_WEIGHT}  # the word typed, below it
    for typed in ("nobody defends", "no one defends", "i didnt defend how much damage do i take"):
        hit = top(searcher, typed)
        assert hit.title == "Attack" and hit.url.endswith("#p-if-no-one-defends"), typed


def test_a_phrase_no_text_says_is_searched_as_one_idea(searcher):
    """ "arch enemy": no text says it, so "arch" is not a word to find and "nemesis" stands in for the phrase."""
    plan = searcher.plan("my arch enemy attacks", game="lantern-keep")
    assert [w.stem for w in plan.words] == ["enemi", "attack"]
    assert plan.words[0].alternatives == {"nemesi": query_module.IDIOM_WEIGHT}
    assert top(searcher, "arch enemy").title == "Nemesis"
    # a phrase the texts do say is searched as typed, what it stands for below it like any synonym
    same_time = searcher.plan("two attacks at the same time", game="lantern-keep")
    assert {"sam", "tim"} <= {w.stem for w in same_time.words}


def test_a_phrase_of_question_words_is_a_word_of_its_own_that_counts_for_little(searcher):
    plan = searcher.plan("do i have to discard", game="lantern-keep")
    must = next(w for w in plan.words if w.stem == "must")
    discard = next(w for w in plan.words if w.stem == "discard")
    assert must.weight < 1.0 and must not in plan.telling and "must" not in discard.alternatives
    assert top(searcher, "do i have to discard").title == "Hand Size"


def test_filler_words_weigh_little_and_decide_nothing(searcher):
    plan = searcher.plan("same keeper defends each round", game="lantern-keep")
    weights = {w.stem: w.weight for w in plan.words}
    assert weights["sam"] == weights["each"] == query_module.FILLER_WEIGHT and weights["keeper"] == 1.0
    # a conjunction joins a question's halves and tells no answer from another ("draw but the deck is empty")
    joined = {w.stem: w.weight for w in searcher.plan("keeper defends but loses", game="lantern-keep").words}
    assert joined["but"] == query_module.FILLER_WEIGHT and joined["keeper"] == 1.0
    pairs = searcher.plan("each keeper defends", game="lantern-keep").clauses
    boosts = {c.text: c.boost for c in pairs if c.fieldname == "pairs"}
    assert boosts["keeper_defend"] == query_module.PAIR_WEIGHT  # a pair weighs as its weaker word
    assert boosts["each_keeper"] == query_module.PAIR_WEIGHT * query_module.FILLER_WEIGHT
    # "the same way as any other attack" does not outweigh "each keeper may defend once per round"
    assert top(searcher, "same keeper defends each round").title == "Defend"


def test_lexicon_keys_that_analyse_alike_mean_alike():
    """Keys are matched as analysed: "killed" is "kill". Two keys that analyse alike must mean the same
    thing, or one's meaning lands on the other's word ("decked", run out of cards, on every "deck")."""
    from rulings.index.lexicon import LEXICON
    from rulings.index.schema import word_analyzer

    analyse = word_analyzer()
    meanings: dict[tuple, list[set]] = {}
    for key, values in LEXICON.synonyms.items():
        stems = {t.text for value in values for t in analyse(value)}
        meanings.setdefault(tuple(t.text for t in analyse(key)), []).append(stems)
    clashing = {key: found for key, found in meanings.items() if len(found) > 1 and not set.intersection(*found)}
    assert not clashing


def test_knocked_out_is_a_play_word_for_defeated(searcher):
    """The play word "knocked out" is what many games call defeated (KO), as "killed" is."""
    assert top(searcher, "keeper knocked out").title == "Defeated"


def test_empty_is_a_play_word_for_no_cards(searcher):
    """An empty deck or hand is one with no cards (the lexicon's "run out" the other way round)."""
    empty = next(w for w in searcher.plan("lantern deck is empty", game="lantern-keep").words if w.stem == "empti")
    assert "no_card" in empty.alternatives
    # drawing from an empty deck is the rule for drawing with no cards, not the entry named "Empty Space"
    assert top(searcher, "what if i draw when empty").title == "Lantern Deck"


def test_a_games_vocabulary_from_its_manifest(searcher):
    assert top(searcher, "tank").title == "Guard"
    assert searcher.search("tank", game="lantern-keep").hits[0].snippet  # found, with a snippet


# -- suggestions and search as you type ---------------------------------------------------------
def test_a_close_typo_is_corrected(searcher):
    results = searcher.search("gaurd enemy", game="lantern-keep")
    assert results.corrected and results.did_you_mean == "guard enemy"
    assert results.hits[0].title == "Guard"


def test_another_inflection_of_a_known_word_is_not_a_typo(searcher):
    # the texts say "defend", "defends", "attacked": "defending" and "attacking" are words, not misspellings
    assert searcher.corrector.correct(["defending", "attacking", "keepers"]) == (
        ["defending", "attacking", "keepers"],
        False,
    )
    assert searcher.corrector.correct(["keepr"]) == (["keeper"], True)  # a misspelling still is one


def test_nonsense_is_not_corrected_into_results(searcher):
    results = searcher.search("xyzzyq plugh", game="lantern-keep")
    assert results.hits == [] and results.did_you_mean is None and results.message == "no matches"


def test_no_results_offer_the_closest_names(searcher):
    results = searcher.search("keeperphasez", game="lantern-keep")
    assert results.hits == [] and results.did_you_mean is None
    assert results.suggestions[0]["name"] == "Keeper Phase"
    assert results.suggestions[0]["url"] == "/lantern-keep/terms/keeper-phase"


def test_instant_search_corrects_finished_words_and_completes_the_last(searcher):
    assert [c["name"] for c in searcher.complete("keepr ph", "lantern-keep")] == ["Keeper Phase"]
    hits = searcher.search("keepr ph", game="lantern-keep", partial=True).hits
    assert hits and hits[0].title == "Keeper Phase"
    assert searcher.complete("xyzzy ph", "lantern-keep") == []


# -- cost model -------------------------------------------------------------------------------------
def test_a_long_query_is_bounded_by_the_cost_model(searcher):
    digits = " ".join(str(n) for n in range(66))
    plan = searcher.plan(digits)
    assert len(plan.words) <= query_module.MAX_WORDS and len(plan.pairs) <= query_module.MAX_PAIRS
    assert plan.cost <= query_module.BUDGET
    repeated = searcher.plan("guard guard guard guard guard guard")
    assert len(repeated.words) == 1 and repeated.pairs == ["guard_guard"]


def test_the_budget_keeps_the_most_telling_clauses(searcher, monkeypatch):
    whole = searcher.plan("enemy attack keeper lantern", game="lantern-keep")
    with searcher.lend():
        cheapest = min(searcher.planner().df("body", w.stem) for w in whole.words)
    monkeypatch.setattr(query_module, "BUDGET", cheapest + 1)
    tight = searcher.plan("enemy attack keeper lantern", game="lantern-keep")
    assert tight.dropped > 0 and tight.clauses and tight.cost <= query_module.BUDGET
    # what the budget keeps is the most telling clauses: names before running text, rare before common
    assert tight.clauses == whole.clauses[: len(tight.clauses)]


def test_a_bad_vocabulary_is_reported_at_its_line(tmp_path):
    toml = MANIFEST.replace('tank = "guard"', 'tank = "guard"\nsquishy = 3')
    game = write_game(tmp_path, "lantern-keep", toml, {"rulebook.md": RULEBOOK})
    with pytest.raises(CorpusError, match=r"\[vocabulary\]") as caught:
        load_manifest(game)
    assert caught.value.diagnostic.line == toml.splitlines().index("[vocabulary]") + 1


# -- scoring and pointing ---------------------------------------------------------------------------
def test_term_at_a_time_scores_are_whooshs_own(searcher):
    """topdocs adds up each clause's BM25F scores: the same documents and scores as Whoosh's Or of the clauses."""
    with searcher.lend():
        whoosh = searcher.index.current_searcher
        for text in ("who takes the damage if nobody defends", "alter ego attack", "keep 7 cards in hand"):
            plan = searcher.plan(text, game="lantern-keep")
            ours = top_documents(whoosh, "MAIN", TermScores(), plan.clauses, 20)
            theirs = whoosh.search(plan.query(), limit=20)
            assert [f.docnum for f in ours.found] == [h.docnum for h in theirs]
            assert [f.score for f in ours.found] == pytest.approx([h.score for h in theirs])


def test_remembered_frequencies_and_stored_fields_are_whooshs_own(searcher, monkeypatch):
    """Builds never change: document frequencies and stored fields are read once and kept (bounded)."""
    from rulings.index import topdocs

    monkeypatch.setattr(topdocs, "STORED_KEPT", 3)
    monkeypatch.setattr(topdocs, "FREQUENCIES_KEPT", 4)
    kept = TermScores()
    with searcher.lend():
        whoosh = searcher.index.current_searcher
        reader = whoosh.reader()
        for fieldname, text in [("body", "keeper"), ("title", "guard"), ("pairs", "hand_siz"), ("body", "xyzzy")] * 2:
            assert kept.doc_frequency(reader, "MAIN", fieldname, text) == reader.doc_frequency(fieldname, text)
        assert len(kept._frequencies) <= 4
        for docnum in range(min(reader.doc_count(), 6)):
            assert kept.stored_fields(whoosh, "MAIN", docnum) == whoosh.stored_fields(docnum)
        assert len(kept._stored) == 3
    for query in ("who takes the damage if nobody defends", "keep 7 cards in hand"):  # the same answers, kept or not
        first = [(h.title, h.url, h.score) for h in searcher.search(query, game="lantern-keep").hits]
        assert first == [(h.title, h.url, h.score) for h in searcher.search(query, game="lantern-keep").hits]


def test_a_word_no_text_has_is_stood_in_for_by_its_alternatives(searcher):
    plan = searcher.plan("keeper with no hp", game="lantern-keep")
    hp = next(w for w in plan.words if w.stem == "hp")
    # "hit points" is searched as the pair, not as "hit" and "points" apart; it stands in for "hp"
    assert hp.alternatives == {"hit_point": query_module.STAND_IN_WEIGHT}
    assert top(searcher, "keeper with no hp").title == "Defeated"
    guard = next(w for w in searcher.plan("tank guard", game="lantern-keep").words if w.stem == "guard")
    assert all(weight < query_module.STAND_IN_WEIGHT for weight in guard.alternatives.values())


def test_a_stand_in_names_the_entry_its_words_make_up(searcher):
    """ "hp" stands in for "hit points": an entry named "Hit Points" is named by "hp" as by its own words; a
    name holding only part of a stand-in ("Hit") is not."""
    with searcher.lend():
        wanted = searcher.ranker.required_words(searcher.plan("hp keeper", game="lantern-keep"))[0]
    standing = searcher.ranker.stand_ins(wanted)
    assert standing == {"hp": [frozenset({"hit", "point"})]}
    tokens = set(wanted)
    assert searcher.ranker._name_bonus({"name_keys": "hit points"}, "hp keeper", tokens, standing) == 0.25
    assert (
        searcher.ranker._name_bonus({"name_keys": "hit points,keeper"}, "hp keeper", tokens) == 0.25
    )  # "keeper" alone
    assert searcher.ranker._name_bonus({"name_keys": "hit"}, "hp keeper", tokens, standing) == 0.0
    assert searcher.ranker._name_bonus({"name_keys": "hit points"}, "hp keeper", tokens) == 0.0


def test_the_hit_points_at_the_passage_that_answers_even_below_the_candidates_cut(searcher, monkeypatch):
    # three candidates: the Attack entry, Keeper Phase and a lesser passage of Attack; the paragraph
    # about damage and armor ranks fifth by BM25F but covers the whole question
    monkeypatch.setattr(ranking_module, "CANDIDATES", 1)
    hit = searcher.search("attack keeper damage armor", game="lantern-keep", limit=1).hits[0]
    assert hit.title == "Attack" and hit.url.partition("#")[2] == "p-each-enemy-attack-deals"
    assert "armor is subtracted" in hit.snippet.replace(OPEN, "").replace(CLOSE, "")


def test_a_passage_stores_only_its_own_text_and_a_hit_found_by_it_alone_shows_its_entry(searcher, monkeypatch):
    with searcher.lend():
        reader = searcher.index.current_searcher.reader()
        passages = [f for f in reader.all_stored_fields() if f["kind"] == "passage"]
    own = {"parent", "kind", "subkind", "span", "anchor", "number", "label", "unit"}  # label: a sub-definition's name
    assert passages and all(set(f) <= own for f in passages)
    assert all("span" in f for f in passages)  # where its text is in its entry's: no copy of it

    def passages_only(*args):  # the entry's own document is not among the candidates
        return [found for found in candidates(*args) if found[1].fields["kind"] == "passage"]

    candidates = searcher.ranker._candidates
    monkeypatch.setattr(searcher.ranker, "_candidates", passages_only)
    hit = top(searcher, "armor subtracted")
    assert (hit.title, hit.game, hit.kind, hit.subkind) == ("Attack", "lantern-keep", "glossary", "entry")
    assert hit.url == "/lantern-keep/terms/attack#p-each-enemy-attack-deals"
    assert "armor is subtracted" in hit.snippet.replace(OPEN, "").replace(CLOSE, "")


def test_an_index_whose_passages_store_their_entrys_fields_still_answers(settings, tmp_path, monkeypatch):
    """A build indexed before passages stored only their own fields (its schema has no ``entry``)."""
    build = current_build(settings.store)
    old = tmp_path / "old-build"
    (old / "index").mkdir(parents=True)
    os.symlink(build / "graph.sqlite", old / "graph.sqlite")
    store = Store(build)
    fields = schema(writer.keep_words(store))
    fields.remove("entry")
    fields.remove("span")
    indexes = [whoosh_index.create_in(str(old / "index"), fields, indexname=n) for n in (writer.MAIN, writer.HISTORY)]
    main, history = (ix.writer() for ix in indexes)
    entries = {}
    for doc in writer.documents(store):
        for new in ("entry", "span", "_stored_body"):
            doc.pop(new, None)
        if doc["kind"] == "passage":  # as passages were written: their entry's shown fields copied in
            shown = ("game", "label", "name_keys", "slug", "aliases", "version", "scope")
            doc = {**{k: entries[doc["parent"]].get(k) for k in shown}, **doc, "_stored_game": doc["game"]}
        else:
            entries[doc["id"]] = doc
        (main if doc.pop("latest") else history).add_document(**doc)
    main.commit()
    history.commit()
    searcher = Searcher(old)
    candidates = searcher.ranker._candidates
    monkeypatch.setattr(
        searcher.ranker, "_candidates", lambda *a: [f for f in candidates(*a) if f[1].fields.get("parent")]
    )
    hit = top(searcher, "armor subtracted")
    assert (hit.title, hit.game, hit.url) == (
        "Attack",
        "lantern-keep",
        "/lantern-keep/terms/attack#p-each-enemy-attack-deals",
    )


def test_spelling_look_ups_in_memory_find_what_whoosh_finds(searcher):
    with searcher.lend():
        reader = searcher.index.current_searcher.reader()
        words = SpellingWords(reader)
        for typed in ("gaurd", "keepr", "lanturn", "xyzzyq", "defnd"):
            assert sorted(words.within(typed, 2)) == sorted(reader.terms_within("spell", typed, 2, prefix=1))
