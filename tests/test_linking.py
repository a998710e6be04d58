"""How running text links glossary terms: longest phrases first, once per paragraph, never the page's own
term, common words only where written as names, phrases to the term whose definition uses them."""

import re
from html import unescape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings.errors import CorpusError
from rulings.graph.inline import dumps, prepare_block
from rulings.graph.mentions import WORD, Linker, Target, _clean_edges, _folded, name_keys
from rulings.graph.rows import BlockRow
from rulings.ingest.manifest import load_manifest
from rulings.text import QUOTES
from rulings.web.render import Links, render_blocks

from .conftest import write_game

ABILITY, BOOST, ICONS, ENEMY = (Target(s, None, s.title()) for s in ("ability", "boost", "icons", "enemy"))
ACTIVATION, DEFEND, ALLY, PLAY = (Target(s, None, s.title()) for s in ("activation", "defend", "ally", "play"))
STUNNED = Target("status-cards", "stunned", "Stunned")


def linker(**texts: str) -> Linker:
    names = [
        ("Ability", ABILITY),
        ("Card Ability", ABILITY),
        ("Boost", BOOST),
        ("Icons", ICONS),
        ("Enemy", ENEMY),
        ("Activation", ACTIVATION),
        ("Defend", DEFEND),
        ("Ally", ALLY),
        ("Play", PLAY),
        ("Stunned", STUNNED),
    ]
    by_slug = {t.slug: t for _, t in names}
    return Linker(names, name_keys(["play"]), {by_slug[s]: text.lower() for s, text in texts.items()})


def found(linker: Linker, text: str) -> list[tuple[str, str]]:
    return [(text[m.start : m.end], m.target.key) for m in linker.find(text)]


def test_longest_name_first_and_sub_definitions_are_targets():
    assert found(linker(), "A card ability on a stunned ally.") == [
        ("card ability", "ability"),
        ("stunned", "status-cards#stunned"),
        ("ally", "ally"),
    ]


def every_length(linker: Linker, text: str) -> list:
    """The candidates by definition: at each word, every length a name could have, longest first."""
    plain = text.translate(QUOTES)
    spans = [(m.start(), m.end(), _folded(m.group(0))) for m in WORD.finditer(plain)]
    out = []
    for i in range(len(spans)):
        for size in range(min(linker.longest, len(spans) - i), 0, -1):
            chunk = spans[i : i + size]
            key = " ".join(w for _, _, w in chunk)
            if key in linker.targets and _clean_edges(plain, chunk[0][0], chunk[-1][1], chunk):
                out.append((i, size, chunk[0][0], chunk[-1][1], key))
    return out


NAMED = Linker([*linker().names, ("Stunned Ally Card", STUNNED), ("The Card Ability Play", PLAY)])
PHRASE_WORDS = ["card", "ability", "Card", "Ability", "the", "stunned", "ally", "-", "/", "’", '"', "play", "x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PHRASE_WORDS), max_size=14).map(" ".join))
def test_candidates_are_those_of_trying_every_length(text):
    """``candidates`` stops growing a name at a word no name goes on with: the same candidates, in order."""
    assert NAMED.candidates(text) == every_length(NAMED, text)


def test_a_stoplisted_word_is_a_mention_only_where_written_as_a_name():
    words = linker()
    assert found(words, "It stays in play. Players play cards.") == []
    assert found(words, 'The word "play" means this.') == [("play", "play")]
    assert found(words, "Read the Play entry.") == [("Play", "play")]
    assert found(words, "Play a card.") == []  # capitalised only because it opens the sentence
    assert found(words, "Skip this step.) Play a card.") == []


def test_side_by_side_mentions_are_one_phrase_of_the_term_whose_definition_uses_it():
    words = linker(
        boost="Add the boost icons on the card.",
        icons="An icon is a symbol.",  # "icon" and "activation" are nouns: the definitions write "an icon"
        activation="There are two enemy activations. The activation ends.",
    )
    assert found(words, "each boost icon on the card") == [("boost icon", "boost")]
    assert found(words, "a type of enemy activation.") == [("enemy activation", "activation")]


def test_no_phrase_without_a_definition_using_it_nor_for_a_subject_and_its_verb():
    words = linker(defend="If an ally defends the attack, it is dealt the damage.")
    assert found(words, "boost ally") == [("boost", "boost"), ("ally", "ally")]  # no definition says "boost ally"
    assert found(words, "If an ally defends the attack") == [("ally", "ally"), ("defends", "defend")]
    assert found(words, "enemies defend") == [("enemies", "enemy"), ("defend", "defend")]


def block(text: str, linker: Linker, anchor: str = "p-x") -> BlockRow:
    """A block as the build stores it: prepared with the game's names (``graph/inline.py``)."""
    return BlockRow(1, 0, anchor, "para", 0, None, text, dumps(prepare_block(text, "para", linker)))


def linked(html: str) -> list[tuple[str, str]]:
    return [(unescape(t), h) for h, t in re.findall(r'<a href="([^"]+)" class="term"[^>]*>(.*?)</a>', html)]


def test_once_per_paragraph_never_side_by_side_never_the_own_term():
    words = linker()
    links = Links(words, lambda t: f"/{t.key}", "ally", None, name_keys(["Ally (Hero Card)"]))
    text = "An enemy and an enemy ally. Boost “Enemy” abilities.\n\nThe enemy again."
    html = render_blocks([block(text, words)], links)
    # "enemy" once (the second paragraph of the block too), "ally" is the page's own term, "abilities"
    # touches the quoted "Enemy"... which is not linked again, so the ability is linked.
    assert linked(html) == [("enemy", "/enemy"), ("Boost", "/boost"), ("abilities", "/ability")]


def test_game_toml_links_stop(tmp_path):
    documents = '[game]\nname = "G"\n[[documents]]\nfile = "a.md"\nkind = "rulebook"\ntitle = "A"\n'
    game = write_game(tmp_path, "g", documents + '[links]\nstop = ["Play", "put  out"]\n', {"a.md": "# A\n"})
    assert load_manifest(game).link_stop == ["play", "put out"]
    bad = write_game(tmp_path, "h", documents + '\n[links]\nstop = "play"\n', {"a.md": "# A\n"})
    with pytest.raises(CorpusError, match=r"h/game.toml:8: .*\[links\] takes stop"):
        load_manifest(bad)


# -- the real Attack page ---------------------------------------------------------------------------
def paragraph_links(client, path: str, anchor: str) -> list[tuple[str, str]]:
    html = client.get(path).get_data(as_text=True)
    element = re.search(rf'<(p|li) id="{anchor}"[^>]*>(.*?)</\1>', html, re.S)
    assert element, anchor
    return linked(element.group(2))


def test_the_attack_page_links_each_term_once_whole_phrases_and_no_wrong_words(client):
    """Marvel Champions' "Attack (Enemy Activation)": 51 links in 301 words before, split phrases
    ("enemy" + "activation"), "attack" linked away from its own page."""
    page = "/marvel-champions/terms/enemy-attacks"
    assert paragraph_links(client, page, "p-to-resolve-an-enemy") == [
        ("enemy activation", "/marvel-champions/terms/activation"),
        ("targets", "/marvel-champions/terms/target"),
        ("player", "/marvel-champions/terms/player"),
    ]
    assert paragraph_links(client, page, "p-if-a-villain-is") == [
        ("villain", "/marvel-champions/terms/villain"),
        ("minion", "/marvel-champions/terms/minion"),
        ("villainous keyword", "/marvel-champions/terms/villainous"),
        ("boost", "/marvel-champions/terms/boost"),
        ("encounter deck", "/marvel-champions/terms/encounter-deck"),  # the deck, not the appendix on building one
    ]
    html = client.get(page).get_data(as_text=True)
    article = re.search(r"<article.*?</article>", html, re.S).group(0)
    for element in re.findall(r"<(?:p|li)[^>]*>(.*?)</(?:p|li)>", article, re.S):
        targets = [h for _, h in linked(element)]
        assert len(targets) == len(set(targets)), element  # each term at most once per paragraph
        assert not re.search(r'</a>[\s“”"]*<a [^>]*class="term"', element), element  # no split phrase
    words = [w.lower() for w, _ in linked(article)]
    assert "attack" not in words and "attacks" not in words  # the page's own subject
    assert not {"deal", "deals", "additional", "uses", "play"} & set(words)  # game.toml [links] stop


def test_a_sub_definition_is_linked_to_its_paragraph(client):
    html = client.get("/marvel-champions/terms/stalwart").get_data(as_text=True)
    assert 'href="/marvel-champions/terms/status-cards#stunned" class="term" data-term="status-cards#stunned"' in html
