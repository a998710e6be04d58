"""In-process search latency, the cost model's worst queries, and index build time and size.

Queries: ../shared/eval/search-dev.tsv and tests/data/search-questions.tsv (the games the corpus has),
each in its game and across all games. Each figure is the median of ``--runs`` runs (default 3).

    python bench/search_latency.py [--corpus var/corpus-magic] [--runs 3]
"""

import argparse
import statistics
import time
from pathlib import Path

from common import ROOT, built_store, cost_report, summary, timed

from rulings.index.search import Searcher
from rulings.index.writer import write_index
from tests.evalfiles import QUESTIONS, dev_cases, question_cases
from tests.shared import require_shared


def percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def one_run(searcher, cases) -> dict[str, tuple[float, float]]:
    filtered, broad = [], []
    for _ in range(5):
        for case in cases:
            filtered += timed(lambda c=case: searcher.search(c.query, game=c.game), 1)
            broad += timed(lambda c=case: searcher.search(c.query), 1)
    return {
        "search in a game": percentiles(filtered),
        "search across all games": percentiles(broad),
        "search as you type": percentiles(
            [t for c in cases[:40] for t in timed(lambda c=c: searcher.search(c.query[:12], partial=True), 1)]
        ),
    }


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    options.add_argument("--runs", type=int, default=3)
    args = options.parse_args()
    require_shared()
    store, build = built_store(args.corpus)
    searcher = Searcher(build)
    games = {g.slug for g in store.games()}
    cases = dev_cases() + (question_cases(games=games) if QUESTIONS.exists() else [])
    runs = [one_run(searcher, cases) for _ in range(args.runs)]
    print(f"{len(cases)} queries x 5, median of {args.runs} runs")
    for label in runs[0]:
        p50 = statistics.median(r[label][0] for r in runs)
        p99 = statistics.median(r[label][1] for r in runs)
        print(f"{label:<28} p50={p50:7.3f} ms  p99={p99:7.3f} ms")
    print(summary("search with typo correction", timed(lambda: searcher.search("quickstrke"), 200)))
    print(summary("completion 'ac'", timed(lambda: searcher.completions.complete("ac"), 500)))
    print(cost_report(searcher, [c.query for c in dev_cases()]))

    start = time.perf_counter()
    count = write_index(store, Path(build.parent / "reindex"))
    seconds = time.perf_counter() - start
    size = sum(p.stat().st_size for p in (build / "index").rglob("*")) / 1024
    print(f"index: {count} documents, {size:.0f} KiB, rebuilt in {seconds:.2f} s")
