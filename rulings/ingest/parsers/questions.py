"""FAQ layouts and card headings as publishers write them.

Questions: ``Q: …`` / ``A: …`` pairs (``Q1.``, ``Question:`` too), a bold question
(``**Can I …?**`` with the answer after it, on the same line or below), a heading that asks, and,
in a FAQ, a numbered question ("1. Can I …?"). Cards: ``NAME (SET, NUMBER)``, ``NAME (#1A)``,
``NAME (79)``, ``NAME (CoTA 267)`` as a heading or a bold line, and in a FAQ any heading under a
pack or product heading. What a section is about (FAQ, card clarifications, errata) comes from its
title, or from the document being a FAQ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text import strip_markup, title_case
from ..lexer import RawBlock

LABELLED_QUESTION = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?(?:Q|Question)\s*\d*\s*[:.)](?:\*\*)?\s*(?P<q>.+)$", re.I)
LABELLED_ANSWER = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?(?:A|Answer)\s*\d*\s*[:.)](?:\*\*)?\s*(?P<a>.+)$", re.I)
BOLD_QUESTION = re.compile(r"^\s*(?:\d{1,3}[.)]\s*)?(?P<m>\*\*|__)(?P<q>[^*_]{4,}?\?)\s*(?P=m)\s*(?P<a>.*)$")
NUMBERED_QUESTION = re.compile(r"^\s*(?:\d{1,3}[.)]|Q\d{1,3}[.:)])\s+(?P<q>[^?]{4,}\?)\s*(?P<a>.*)$")
QUESTION_TITLE = re.compile(r"^(?:Q\s*\d*\s*[:.)]\s*)?(?P<q>.{4,}\?)$", re.I)
CARD = re.compile(r"^(?P<name>[^()]{2,60}?)\s*\((?P<inside>[^()]{1,40})\)\s*$")
HASH_NUMBERED = re.compile(r"^(?P<name>[^#()]{2,60}?)\s+#\s?(?P<number>\d{1,4}[A-Za-z]?)$")  # "War Hawks #09"
CARD_NUMBER = re.compile(r"^(?:#?\s*[A-Za-z]{0,5}\s?#?\d{1,4}[A-Za-z]?(?:\s*/\s*\d{1,4}[A-Za-z]?)?)$")
RULINGS_TITLE = re.compile(
    r"\bf\.?a\.?q\b|frequently asked|questions|q\s*&\s*a|clarifications?|rulings?|errata|card(?:[- ]specific)? notes"
    r"|card descriptions?|\b(?:specific|individual) cards\b|\bnotes on (?:the )?cards\b",
    re.I,
)
ERRATA = re.compile(r"errata|should read|officially (?:changed|amended)|now reads", re.I)
CARD_NOTES = re.compile(r"\bcards?\b", re.I)  # a rulings title about cards ("Card Clarifications: Role Cards")


@dataclass
class Card:
    name: str
    card_set: str | None
    number: str | None


@dataclass
class Question:
    question: str
    answer: str  # what follows the question in the same block (often empty)


def rulings_title(title: str) -> bool:
    return bool(RULINGS_TITLE.search(title))


def card_heading(title: str) -> Card | None:
    """A card named with its set and number: "SPIDER-MAN (CORE SET, 1A)", "Spider-Man (#1A)", "Rey (38)",
    "War Hawks #09"."""
    match = CARD.match(strip_markup(title))
    if not match:
        hashed = HASH_NUMBERED.match(strip_markup(title).strip())
        return Card(title_case(hashed["name"].strip()), None, hashed["number"]) if hashed else None
    inside = match.group("inside").strip()
    name = title_case(match.group("name").strip())
    if "," in inside:
        card_set, number = (p.strip() for p in inside.rsplit(",", 1))
        if CARD_NUMBER.match(number):
            return Card(name, title_case(card_set), number.lstrip("#").strip())
        return None
    if CARD_NUMBER.match(inside) and re.search(r"\d", inside):
        return Card(name, None, inside.lstrip("#").strip())
    return None


def cards_named(title: str) -> list[Card]:
    """The cards a heading names: one, or several ("Captain Phasma (18), Megablaster Troopers (31)")."""
    one = card_heading(title)
    if one and not re.search(r"\)\s*(?:,|/|&|and)\s", title):
        return [one]
    parts = re.split(r"(?<=\))\s*(?:,|/|&|\band\b)\s*", strip_markup(title).strip())
    cards = [card_heading(p) for p in parts]
    return cards if len(cards) > 1 and all(cards) else []


def bold_line(raw: RawBlock) -> str | None:
    """The text of a block that is one bold line and nothing else ("**Abandon All Hope (79)**")."""
    line = raw.raw.strip()
    match = re.fullmatch(r"(\*\*|__)([^*_]+)\1", line)
    return match.group(2).strip() if match and raw.kind == "para" else None


def question(raw: RawBlock, in_faq: bool) -> Question | None:
    """The question a block asks, if it opens one (see the module docstring for the layouts)."""
    if raw.kind == "heading":
        return None
    labelled = LABELLED_QUESTION.match(raw.raw)
    if labelled:
        text = re.sub(r"^(?:Q|Question)\s*\d*\s*[:.)]\s*", "", raw.text, flags=re.I)
        return _split_answer(text)
    bold = BOLD_QUESTION.match(raw.raw)
    if bold:
        asked = strip_markup(bold.group("q")).strip()
        after = raw.text.split(asked, 1)[1].strip() if asked in raw.text else strip_markup(bold.group("a"))
        return Question(asked, after)
    asking = bold_line(raw) if in_faq else None
    if asking and "?" in asking:  # "**Can I stall the round? Like a Backup Muscle with no damage.**"
        return Question(asking, "")
    numbered = NUMBERED_QUESTION.match(raw.raw) if in_faq else None
    if numbered:
        return _split_answer(re.sub(r"^(?:\d{1,3}[.)]|Q\d{1,3}[.:)])\s+", "", raw.text))
    return None


def _split_answer(text: str) -> Question:
    """ "Can I …? Yes, …" -> the question and the answer that follows it in the same paragraph."""
    match = re.match(r"^(?P<q>[^?]*\?)\s*(?:(?:A|Answer)\s*\d*\s*[:.)]\s*)?(?P<a>.*)$", text.strip())
    if match and match.group("a"):
        return Question(match.group("q").strip(), match.group("a").strip())
    return Question(text.strip(), "")


def answer_label(raw: RawBlock) -> str | None:
    """The answer an ``A:`` block gives, label removed."""
    if raw.kind == "heading" or not LABELLED_ANSWER.match(raw.raw):
        return None
    return re.sub(r"^(?:A|Answer)\s*\d*\s*[:.)]\s*", "", raw.text, flags=re.I).strip()


def question_title(title: str) -> str | None:
    """A heading that asks ("Can I play two cards?", "Q: Does …?"), as its question."""
    match = QUESTION_TITLE.match(strip_markup(title).strip())
    return match.group("q").strip() if match else None
