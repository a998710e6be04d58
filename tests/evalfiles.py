"""Readers and scoring for the search and versions evaluation sets.

Two search sets, scored the same way (hit@3 and MRR@10): the sample in ../shared/eval (``game, query,
expected``) and the project's own question set ``tests/data/search-questions.tsv`` (``game, kind, query,
expected``; tests/data/README.md). A fixed quarter of the question set is *held out*: chosen by a hash
of the question, never looked at while tuning search, and reported on its own.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from .shared import SHARED

QUESTIONS = Path(__file__).resolve().parent / "data" / "search-questions.tsv"
# The blind sets of issue 30 (tests/data/README.md): written from the documents alone, frozen before any
# search ran on them, and split in two halves by a hash: tune on "dev", report "test" once. Every test half
# so far has been reported (docs/benchmarks/blind-test-halves.md); the newest set is the default.
BLIND_SETS = ("search-blind", "search-blind-2", "search-blind-3", "search-blind-4")
BLIND_SPENT = set(BLIND_SETS)  # every test half reported: read them whole, tune on them
BLIND = Path(__file__).resolve().parent / "data" / f"{BLIND_SETS[-1]}.tsv"


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


@dataclass(frozen=True)
class Case:
    game: str
    kind: str  # the question set's kinds (natural, slang, typo, ...); "dev" for the ../shared sample
    query: str
    expected: str

    @property
    def held_out(self) -> bool:
        """One question in four, fixed by its text: scored apart, never used to tune search."""
        return hashlib.sha1(f"{self.game}\t{self.query}".encode()).digest()[0] % 4 == 0


def dev_cases(name: str = "search-dev.tsv") -> list[Case]:
    return [Case(game, "dev", query, expected) for game, query, expected in rows(name)]


def blind_half(case: Case) -> str:
    """The half of the blind set a question is in, fixed by its text: "dev" (tuning) or "test" (reported once)."""
    return "test" if hashlib.sha256(f"{case.game}\t{case.query}".encode()).digest()[0] % 2 else "dev"


def blind_cases(half: str, games: set[str] | None = None, path: Path = BLIND) -> list[Case]:
    """One half of a blind set ("dev" or "test"; "all" for both)."""
    return [c for c in question_cases(path, games) if half == "all" or blind_half(c) == half]


def question_cases(path: Path = QUESTIONS, games: set[str] | None = None) -> list[Case]:
    """The question set (optionally only some games: Magic needs ``make corpus-magic``)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            game, kind, query, expected = line.split("\t")
            if games is None or game in games:
                out.append(Case(game, kind, query, expected))
    return out


RULE = re.compile(r"rule:(\d+(?:\.\d+[a-z]?)?)$")


def _rule_matches(hit, number: str) -> bool:
    """``rule:702.19b``: the hit is that rule or points at it; ``rule:702.19`` / ``rule:723``: the rule or a part."""
    found = [n for n in (getattr(hit, "number", None), hit.url.partition("#")[2] or None) if n]
    if number[-1].isalpha():  # a subrule: itself, or its rule pointing at it
        return number in found
    return any(n == number or n.startswith(number + ".") or re.fullmatch(re.escape(number) + "[a-z]", n) for n in found)


def search_matches(hit, expected: str) -> bool:
    """A title or alias; alternatives split by " | "; "~x" = title contains x; "rule:N" = a numbered rule."""
    names = [hit.title.lower(), *(a.lower() for a in hit.aliases)]
    for option in (o.strip() for o in expected.split("|")):
        rule = RULE.match(option)
        if rule:
            if _rule_matches(hit, rule.group(1)):
                return True
            continue
        option = option.lower()
        if option.startswith("~"):
            if any(option[1:] in n for n in names):
                return True
        elif option in names:
            return True
    return False


@dataclass
class Scored:
    case: Case
    rank: int | None  # of the first right answer in the top 10
    top: str | None  # the first hit's title


@dataclass
class Score:
    scored: list[Scored]

    @property
    def hit3(self) -> float:
        return sum(bool(s.rank and s.rank <= 3) for s in self.scored) / max(len(self.scored), 1)

    @property
    def mrr(self) -> float:
        return sum(1 / s.rank if s.rank else 0.0 for s in self.scored) / max(len(self.scored), 1)

    def by(self, key) -> dict[str, Score]:
        groups: dict[str, list[Scored]] = defaultdict(list)
        for s in self.scored:
            groups[key(s.case)].append(s)
        return {k: Score(v) for k, v in sorted(groups.items())}


def score(searcher, cases: list[Case]) -> Score:
    """Each case searched in its game; the rank of its first right answer among 10 hits."""
    scored = []
    for case in cases:
        hits = searcher.search(case.query, game=case.game, limit=10).hits
        rank = next((i for i, h in enumerate(hits, 1) if search_matches(h, case.expected)), None)
        scored.append(Scored(case, rank, hits[0].title if hits else None))
    return Score(scored)


def evaluate_search(searcher, tsv: str = "search-dev.tsv") -> tuple[float, float, list[tuple]]:
    """(hit@3, MRR@10, per-query (game, query, rank, top title)) on a ../shared/eval sample."""
    result = score(searcher, dev_cases(tsv))
    return result.hit3, result.mrr, [(s.case.game, s.case.query, s.rank, s.top) for s in result.scored]
