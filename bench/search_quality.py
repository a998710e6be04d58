"""Search quality: hit@3 and MRR@10 on ../shared/eval/search-dev.tsv and on tests/data/search-questions.tsv.

The question set is scored per game and per kind, its held-out quarter (tests/evalfiles.py) apart.
Questions of games the corpus lacks (Magic, unless built from ``make corpus-magic``) are left out.

Usage: python bench/search_quality.py [--corpus DIR] [--list] [--blind dev|test|all] [--blind-set NAME]
  --corpus var/corpus-magic   the bundled games and Magic (make corpus-magic first)
  --list                      every question with its rank and top hit
  --blind dev                 also a blind set's development half (default: the newest,
                              tests/data/search-blind-4.tsv); "test" reports its test half: run that
                              once, at the end, never to tune; "all" only for a spent set
  --blind-set search-blind    an older blind set (all four are spent: their test halves were reported)
"""

import argparse
from pathlib import Path

from common import ROOT, built_store

from rulings.index.search import Searcher
from tests.evalfiles import BLIND, BLIND_SETS, BLIND_SPENT, Score, blind_cases, dev_cases, question_cases, score
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
    options.add_argument("--blind", choices=("dev", "test", "all"), help="a blind set half (test: once, at the end)")
    options.add_argument("--blind-set", choices=BLIND_SETS, default=BLIND_SETS[-1], help="which blind set (tests/data)")
    args = options.parse_args()
    if args.blind == "all" and args.blind_set not in BLIND_SPENT:
        options.error(f"{args.blind_set}: its test half is read once, at the end: give --blind dev or --blind test")
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
    if args.blind:
        blind = score(searcher, blind_cases(args.blind, games, BLIND.with_name(f"{args.blind_set}.tsv")))
        if args.list:
            listing(blind)
        table(f"{args.blind_set}.tsv ({args.blind} half)", {"all": blind})
        table("  by game", blind.by(lambda c: c.game))
        table("  by kind", blind.by(lambda c: c.kind))
        n = len(blind.scored)
        print(f"\nblind {args.blind} hit@3 = {blind.hit3:.3f}   MRR@10 = {blind.mrr:.3f}   ({n} questions)")
    print(f"\nsearch-dev hit@3 = {dev.hit3:.3f}   MRR@10 = {dev.mrr:.3f}")
    count = len(questions.scored)
    print(f"questions hit@3 = {questions.hit3:.3f}   MRR@10 = {questions.mrr:.3f}   ({count} questions)")
