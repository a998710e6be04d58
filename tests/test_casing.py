"""ALL CAPS sources shown in sentence case: acronyms, names, quotes, list markers and emphasis as printed.

Small fixtures for each case, then the Sentinels FAQ's own pages (where each case was first seen).
"""

import re
from html import unescape

import pytest

from rulings.casing import sentence_case
from rulings.ingest.lexer import lex
from rulings.ingest.parsers.faq import FaqParser

from .conftest import text_source

NAMES = ["K.N.Y.F.E.", "Dr. Tremata", "Hypersonic Assault"]


@pytest.mark.parametrize(
    ("caps", "shown"),
    [
        # a dotted acronym stays as printed, and so does the name written without its dots
        (
            "THE FORMER F.I.L.T.E.R. AGENT, *K.N.Y.F.E.*, SO *KNYFE* LEFT.",
            "The former F.I.L.T.E.R. agent, *K.N.Y.F.E.*, so *KNYFE* left.",
        ),
        # "i.e." is a word; a sentence after an acronym ("HP.") starts with a capital, none after "i.e." or "Dr."
        (
            "THE SECOND HIGHEST HP. IF THERE IS NONE (I.E., ONE TARGET), ASK DR. TREMATA.",
            "The second highest HP. If there is none (i.e., one target), ask Dr. Tremata.",
        ),
        # quotes pair in order: the space before a quoted name is kept, a long quote is not a name
        (
            'IT SAYS, "KNIFE DEALS EACH TARGET 1 ENERGY DAMAGE. KNYFE MAY DEAL ANY TARGET 1 MORE". '
            'LIKE TACHYON\'S "HYPERSONIC ASSAULT", IT...',
            'It says, "knife deals each target 1 energy damage. KNYFE may deal any target 1 more". '
            'Like tachyon\'s "Hypersonic Assault", it...',
        ),
        ('HE SAID: "NO WAY." THEN "FLAME BARRIER" WAS PLAYED.', 'He said: "no way." Then "Flame Barrier" was played.'),
        # list markers as printed, the words after them capitalised
        (
            "A) ANY CARDS.\n\nB) IN ANY OTHER CASE.\n\n- 1) DISCARD PILES.\n\n2. DOES IT?",
            "A) Any cards.\n\nB) In any other case.\n\n- 1) Discard piles.\n\n2. Does it?",
        ),
        # a common acronym ("OK") stays in capitals
        ("IS IT OK TO PASS? OK.", "Is it OK to pass? OK."),
        # bold emphasis kept
        ("PLAY NEXT TO A **NON-HERO** TARGET.", "Play next to a **Non-Hero** target."),
    ],
)
def test_sentence_case(caps, shown):
    assert sentence_case(caps, NAMES) == shown


def test_mixed_case_text_is_left_alone():
    assert sentence_case("Knife deals **NON-HERO** damage.", NAMES) == "Knife deals **NON-HERO** damage."


def test_a_list_numbered_at_the_margin_is_never_one_paragraph():
    blocks = lex(["1. DOES IT DRAW?", "2. DOES IT DRAW TWICE?", "3 CARDS ARE DRAWN", "AND THEN SOME."])
    assert [b.text for b in blocks] == ["1. DOES IT DRAW?", "2. DOES IT DRAW TWICE? 3 CARDS ARE DRAWN AND THEN SOME."]


def test_a_ruling_keeps_its_bold_words_and_numbered_questions():
    lines = ["", "MY GAME", "", "GENERAL RULES", "", '"ODD CARD" ERRATA', "",
             "THE TEXT ON THIS CARD IS OFFICIALLY CHANGED TO READ:", "", "HIT A **NON-HERO** TARGET.", "",
             "TWO QUESTIONS", "", "1. DOES IT HIT?", "2. DOES IT HIT TWICE?", "", "YES."]  # fmt: skip
    doc = FaqParser().parse(text_source(lines, "faq", "faq.txt", game="my-game"))
    errata, questions = doc.rulings
    assert errata.text == "THE TEXT ON THIS CARD IS OFFICIALLY CHANGED TO READ:\n\nHIT A **NON-HERO** TARGET."
    assert questions.text == "1. DOES IT HIT?\n\n2. DOES IT HIT TWICE?\n\nYES."


def page(client, slug: str) -> str:
    """A ruling page's main text in sentence case (not the original shown beside it), as HTML; a former slug
    (a URL published before slugs were shortened) through its permanent redirect."""
    response = client.get(f"/sentinels-of-the-multiverse/rulings/{slug}", follow_redirects=True)
    assert response.status_code == 200 and not any(r.status_code != 301 for r in response.history), slug
    html = response.get_data(as_text=True)
    return html.split("<main", 1)[1].split('class="original"', 1)[0]


def words(html: str) -> str:
    """What a reader sees: tags (term links) dropped, entities read."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def test_the_sentinels_faq_shown_as_printed(client):
    knyfe = words(page(client, "k-n-y-f-e-incidental-contact"))
    assert 'This card says, "knife deals each target' in knyfe  # KNIFE as printed (the card's own typo)
    assert "KNYFE may deal any target" in knyfe
    assert 'Tachyon\'s "Hypersonic Assault", in that' in knyfe  # the space before the quoted name
    assert "knyfe" not in knyfe
    assert "second highest HP. If there is no" in words(page(client, "k-n-y-f-e-infiltrate-and-obfuscate"))
    timing = words(page(client, "timing-of-effects"))
    assert 'A) Any cards with a "Start of Turn"' in timing and "B) In any other case" in timing
    errata = page(client, "fanatic-chastise-errata")
    assert "Play next to a <strong>Non-Hero</strong> " in errata
    questions = page(client, "haka-savage-mana-ammo-drop-bunker-card")
    assert questions.count("<li id=") == 2  # two numbered questions, not one
