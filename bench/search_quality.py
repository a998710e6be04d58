"""Search quality: hit@3 and MRR@10 on ../shared/eval/search-dev.tsv and on tests/data/search-questions.tsv.

The question set is scored per game and per kind, its held-out quarter (tests/evalfiles.py) apart.
Questions of games the corpus lacks (Magic, unless built from ``make corpus-magic``) are left out.

Usage: python bench/search_quality.py [--corpus DIR] [--list] [--other.tsv]
  --corpus var/corpus-magic   the bundled games and Magic (make corpus-magic first)
  --list                      every question with its rank and top hit
"""

import argparse
from pathlib import Path

from common import ROOT, built_store

from rulings.index.search import Searcher
from tests.evalfiles import Score, dev_cases, question_cases, score
from tests.shared import require_shared


def table(title: str, groups: dict[str, Score]) -> None:
    print(f"\n{title:<30} {'n':>4} {'hit@3':>6} {'MRR@10':>7}")
    for name, part in groups.items():
        print(f"{name:<30} {len(part.scored):>4} {part.hit3:>6.3f} {part.mrr:>7.3f}")


def listing(result: Score) -> None:
    for s in result.scored:
        mark = " (held out)" if s.case.held_out else ""
        print(f"{s.rank or '-':>3}  {s.case.game[:12]:<12} {s.case.kind:<8} {s.case.query[:60]:<60} -> {s.top}{mark}")


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    options.add_argument("--list", action="store_true")
    options.add_argument("--dev", default="search-dev.tsv", help="a sample in ../shared/eval")
    args = options.parse_args()
    require_shared()
    store, build = built_store(args.corpus)
    searcher = Searcher(build)
    games = {g.slug for g in store.games()}

    dev = score(searcher, dev_cases(args.dev))
    questions = score(searcher, question_cases(games=games))
    if args.list:
        listing(dev)
        listing(questions)
    table(args.dev, {"all": dev})
    table("search-questions.tsv", {"all": questions})
    table("  by game", questions.by(lambda c: c.game))
    table("  by kind", questions.by(lambda c: c.kind))
    table("  tuning / held out", questions.by(lambda c: "held out" if c.held_out else "tuning"))
    print(f"\nsearch-dev hit@3 = {dev.hit3:.3f}   MRR@10 = {dev.mrr:.3f}")
    count = len(questions.scored)
    print(f"questions hit@3 = {questions.hit3:.3f}   MRR@10 = {questions.mrr:.3f}   ({count} questions)")
