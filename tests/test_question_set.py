"""The project's search question set (tests/data/search-questions.tsv) is well formed and every answer it names exists.

It checks the exam, not the engine: each expected name must be a real title or alias (bundled games: the built
graph; Magic: the 2023-04-14 Comprehensive Rules and its glossary), so a misspelt answer cannot silently fail.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulings.graph import ruling_rows
from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source

from .evalfiles import rows as eval_rows
from .shared import SHARED

QUESTIONS = Path(__file__).resolve().parent / "data" / "search-questions.tsv"
MAGIC_EDITION = "comprehensive-rules-2023-04-14.txt"  # the newest edition, the one the questions were written from
GAMES = ("marvel-champions", "vs-system-2pcg", "sentinels-of-the-multiverse", "magic-the-gathering")
KINDS = ("keyword", "natural", "slang", "typo", "buried", "ruling")


def questions() -> list[list[str]]:
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


def options(expected: str) -> list[str]:
    return [o.strip() for o in expected.split("|")]


def magic_rules_and_glossary() -> tuple[set[str], list[str]]:
    """Rule numbers ("723", "702.19", "702.19b") and glossary entry names of the edition, as the parser reads it."""
    path = SHARED / "corpora" / "magic-the-gathering" / MAGIC_EDITION
    doc = parse(read_source(DocumentSpec("magic-the-gathering", MAGIC_EDITION, path, "reference", "Rules")))
    numbers = {e.number for e in doc.entries if e.number}
    numbers |= {b.number for e in doc.entries for b in e.blocks if b.number}
    return numbers, [name for e in doc.entries if e.path == ["Glossary"] for name in e.names]


@pytest.fixture(scope="module")
def bundled_titles(store) -> dict[str, list[str]]:
    """Every title and alias a search hit can carry, per bundled game (lower case)."""
    out = {}
    for game in store.games():
        names = []
        for term in store.terms(game):
            names += [term.name, *store.aliases(term)]
        names += [ruling["title"] for ruling in ruling_rows.rulings(store, game)]
        out[game.slug] = [n.lower() for n in names]
    return out


def test_rows_are_well_formed_and_cover_every_kind():
    qs = questions()
    assert all(len(q) == 4 and all(field.strip() for field in q) for q in qs), [q for q in qs if len(q) != 4]
    assert {q[0] for q in qs} == set(GAMES)
    assert {q[1] for q in qs} <= set(KINDS)
    kinds = Counter(q[1] for q in qs)
    assert len(qs) >= 150 and kinds["typo"] >= 15 and kinds["slang"] >= 15 and kinds["buried"] >= 15, kinds
    assert kinds["ruling"] >= 20 and kinds["natural"] >= len(qs) // 4, kinds


@pytest.mark.needs_shared
def test_no_duplicates_and_nothing_copied_from_the_dev_sample():
    qs = [(q[0], q[2].lower()) for q in questions()]
    assert len(qs) == len(set(qs)), [q for q, n in Counter(qs).items() if n > 1]
    dev = {(game, query.lower()) for game, query, _ in eval_rows("search-dev.tsv")}
    assert not dev & set(qs)


def test_bundled_answers_name_real_titles(bundled_titles):
    missing = []
    for game, _, query, expected in questions():
        if game == "magic-the-gathering":
            continue
        for option in options(expected):
            names = bundled_titles[game]
            found = any(option[1:].lower() in n for n in names) if option.startswith("~") else option.lower() in names
            if not found:
                missing.append((game, query, option))
    assert not missing


@pytest.mark.needs_shared
def test_magic_answers_name_real_rules_and_glossary_entries():
    numbers, glossary = magic_rules_and_glossary()
    assert {"702.19", "702.19b", "723"} <= numbers and "Trample" in glossary  # the reading itself works
    names = [n.lower() for n in glossary]
    missing = []
    for game, _, query, expected in questions():
        if game != "magic-the-gathering":
            continue
        for option in options(expected):
            if option.startswith("rule:"):
                found = option[5:] in numbers
            elif option.startswith("~"):
                found = any(option[1:].lower() in n for n in names)
            else:
                found = option.lower() in names
            if not found:
                missing.append((query, option))
    assert not missing
