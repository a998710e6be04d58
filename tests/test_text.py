"""Names as publishers print them: folding for slugs and comparison, title case, the names a heading gives."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulings.graph.mentions import Linker, Target
from rulings.text import LETTERS, QUOTES, fold, name_key, slugify, straightened, term_names, title_case


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("\u00c6mber", "AEmber"),
        ("\u00e6mber", "aember"),
        ("\u0152uvre", "OEuvre"),
        ("Stra\u00dfe", "Strasse"),
        ("\u00d8resund", "Oresund"),
        ("\u0141\u00f3d\u017a", "Lodz"),
        ("Caf\u00e9 na\u00efve", "Cafe naive"),
        ("\ufb01nal \ufb02ag", "final flag"),  # ligatures
        ("Player\u2019s \u201cturn\u201d", 'Player\'s "turn"'),  # curly apostrophe and quotes
        ("a \u2014 b \u2013 c", "a - b - c"),
    ],
)
def test_fold_spells_out_letters_accents_ligatures_and_quotes(text, folded):
    assert fold(text) == folded


FOLDED_CHARS = "".join(chr(code) for code in [*QUOTES, *LETTERS])


@given(st.text(alphabet=st.sampled_from(FOLDED_CHARS + "aé  x\u0301[]-^\\") | st.characters(), max_size=30))
def test_straightening_and_folding_replace_what_their_tables_say(text):
    """The tables applied by a regular expression (``text._replacer``) give what ``str.translate`` gives."""
    assert straightened(text) == text.translate(QUOTES) and len(straightened(text)) == len(text)
    translated = unicodedata.normalize("NFKD", text.translate(QUOTES).translate(LETTERS))
    assert fold(text) == "".join(c for c in translated if not unicodedata.combining(c))


def test_slugs_and_keys_of_folded_names():
    assert slugify("\u00c6mber Bonus") == "aember-bonus"  # not "mber-bonus"
    assert slugify("Player\u2019s Turn") == slugify("Player's Turn") == "player-s-turn"
    assert name_key("\u00c6MBER") == name_key("aember") == "aember"
    assert name_key("Player\u2019s Turn") == name_key("player's turn")
    assert slugify("Caf\u00e9") == "cafe"


@pytest.mark.parametrize(
    ("caps", "title"),
    [
        ("PLAYER\u2019S TURN", "Player\u2019s Turn"),  # not "Player\u2019S"
        ("PLAYER'S TURN", "Player's Turn"),
        ("\u00c6MBER BONUS", "\u00c6mber Bonus"),
        ("CAF\u00c9 RULES", "Caf\u00e9 Rules"),
        ("ALL-PURPOSE COUNTER", "All-Purpose Counter"),
        ("IN PLAY AND OUT OF PLAY", "In Play and Out of Play"),
        ("ATK AND THW", "ATK and THW"),
    ],
)
def test_title_case_is_apostrophe_and_accent_safe(caps, title):
    assert title_case(caps) == title


@pytest.mark.parametrize(
    ("heading", "names"),
    [
        ("Ability, Card Ability", ["Ability", "Card Ability"]),
        ("SUSTAINED DAMAGE; DAMAGE SUSTAINED", ["SUSTAINED DAMAGE", "DAMAGE SUSTAINED"]),
        ("Exhaust / Exhausted", ["Exhaust", "Exhausted"]),
        ("Hidden/Hide", ["Hidden", "Hide"]),
        ("Victory Points (VP)", ["Victory Points", "VP"]),
        ("Identification (ID)", ["Identification", "ID"]),
        ('"If You Do" and "In Order To"', ["If You Do", "In Order To"]),
        ('"Fight With"', ["Fight With"]),
        ('The word "may"', ["May"]),
        ("The term \u201cready\u201d", ["Ready"]),
        ("Rarity, Affiliation, and Uniqueness", ["Rarity", "Affiliation", "Uniqueness"]),
        # qualifiers and numbers are part of a name
        ("Assault (X)", ["Assault (X)"]),
        ("Attack (Enemy Activation)", ["Attack (Enemy Activation)"]),
        ("Copy (of a Card), Copies", ["Copy (of a Card)", "Copies"]),
        ("Accuracy (Weapon/Attack Profile)", ["Accuracy (Weapon/Attack Profile)"]),
        ("+1/+1", ["+1/+1"]),
        ("Age 1 / Age 2", ["Age 1", "Age 2"]),
        ("Power Counter +1, Power Status Card", ["Power Counter +1", "Power Status Card"]),
    ],
)
def test_term_names_as_publishers_write_them(heading, names):
    assert term_names(heading) == names


def test_running_text_links_folded_names():
    linker = Linker(
        [("\u00c6mber", Target("aember", None, "\u00c6mber")), ("Caf\u00e9", Target("cafe", None, "Caf\u00e9"))]
    )
    found = linker.find("Gain 1 \u00c6mber, then visit the caf\u00e9.")
    assert [m.target.slug for m in found] == ["aember", "cafe"]
