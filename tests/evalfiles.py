"""Readers for the evaluation samples in ../shared/eval (their formats are in their headers)."""

from __future__ import annotations

import pytest

from .shared import SHARED


def rows(name: str) -> list[list[str]]:
    if SHARED is None:
        return []
    out = []
    for line in (SHARED / "eval" / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.split("\t"))
    return out


def cases(name: str, width: int) -> list:
    """The rows of a sample as test parameters; without ../shared one placeholder the marker skips."""
    found = rows(name)
    return found if found else [pytest.param(*[None] * width, id="needs-shared")]


def search_matches(hit, expected: str) -> bool:
    """search-dev.tsv: a title or alias; alternatives split by " | "; "~x" = title contains x."""
    names = [hit.title.lower(), *(a.lower() for a in hit.aliases)]
    for option in (o.strip().lower() for o in expected.split("|")):
        if option.startswith("~"):
            if any(option[1:] in n for n in names):
                return True
        elif option in names:
            return True
    return False


def evaluate_search(searcher, tsv: str = "search-dev.tsv") -> tuple[float, float, list[tuple]]:
    """(hit@3, MRR@10, per-query (game, query, rank, top title))."""
    reciprocal, top3, report = [], 0, []
    cases = rows(tsv)
    for game, query, expected in cases:
        hits = searcher.search(query, game=game, limit=10).hits
        rank = next((i for i, h in enumerate(hits, 1) if search_matches(h, expected)), None)
        reciprocal.append(1 / rank if rank else 0.0)
        top3 += bool(rank and rank <= 3)
        report.append((game, query, rank, hits[0].title if hits else None))
    return top3 / len(cases), sum(reciprocal) / len(cases), report
