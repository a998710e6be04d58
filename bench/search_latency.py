"""In-process search latency, the cost model's worst queries, and index build time and size.

Queries: ../shared/eval/search-dev.tsv and tests/data/search-questions.tsv (the games the corpus has),
each in its game and across all games. Each figure is the median of ``--runs`` runs (default 3).

    python bench/search_latency.py [--corpus var/corpus-magic] [--runs 3]
    python bench/search_latency.py --against main [--corpus var/corpus-magic-quick] [--runs 5]

``--against REV`` measures this checkout and REV (a temporary worktree) side by side: each builds the
corpus with its own code, then runs alternate, each in a process of its own, so both meet the same
machine (a shared machine's speed moves by a third within an hour). It prints, for each side, the
median over runs of each run's p50 and p99, wall clock and CPU time, in a game (also per game) and
across all games.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, built_store, checkout_of, cost_report, summary, timed

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


# One run of one side, in a process of its own whose ``rulings`` is that side's code (PYTHONPATH): only
# ``Searcher(build).search`` is used, which every revision has. Cases come on stdin, samples go to stdout.
WORKER = """
import json, sys, time
from pathlib import Path
from rulings.index.search import Searcher
build, cases = sys.argv[1], json.load(sys.stdin)
searcher = Searcher(Path(build))
def sample(game, query):
    wall, cpu = time.perf_counter(), time.process_time()
    searcher.search(query, game=game)
    return [(time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000]
for game, query in cases:  # warm: the kept postings, stored fields and snippets a server has after a while
    sample(game, query), sample(None, query)
out = {"in": [], "across": []}
for _ in range(5):
    for game, query in cases:
        out["in"].append([game, *sample(game, query)])
        out["across"].append([None, *sample(None, query)])
print(json.dumps(out))
"""


def side_build(code: Path, corpus: Path, folder: Path) -> Path:
    """The corpus built by the code in ``code`` (its own process), into a store in ``folder``."""
    env = dict(os.environ, PYTHONPATH=str(code))
    command = [sys.executable, "-m", "rulings", "--corpus", str(corpus.resolve()), "--store", str(folder), "build"]
    done = subprocess.run(command, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the build by {code} failed:\n{done.stderr}")
    from rulings.builds import current_build

    return current_build(folder)


def side_run(code: Path, build: Path, cases: list[tuple[str, str]]) -> dict[str, list[tuple[float, float]]]:
    """One run of ``WORKER`` with the code in ``code``: per row ("in <game>", "in a game", "across all games")
    its (p50, p99) of wall and of CPU milliseconds."""
    env = dict(os.environ, PYTHONPATH=str(code))
    command = [sys.executable, "-c", WORKER, str(build)]
    done = subprocess.run(
        command, env=env, cwd=tempfile.gettempdir(), input=json.dumps(cases), capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"the searches by {code} failed:\n{done.stderr}")
    samples = json.loads(done.stdout)
    rows = {"search in a game": samples["in"], "search across all games": samples["across"]}
    for game in sorted({c[0] for c in cases}):
        rows[f"  in {game}"] = [s for s in samples["in"] if s[0] == game]
    return {label: [percentiles([s[i] for s in found]) for i in (1, 2)] for label, found in rows.items()}


def compare(corpus: Path, revision: str, runs: int, cases: list[tuple[str, str]]) -> None:
    with checkout_of(revision) as other, tempfile.TemporaryDirectory(prefix="rulings-latency-") as folder:
        sides = {"this checkout": ROOT, revision: other}
        builds = {name: side_build(code, corpus, Path(folder) / str(n)) for n, (name, code) in enumerate(sides.items())}
        results: dict[str, list[dict]] = {name: [] for name in sides}
        for run in range(runs):
            for name, code in sides.items():
                results[name].append(found := side_run(code, builds[name], cases))
                wall, cpu = found["search in a game"]
                print(f"run {run + 1}, {name}: in a game p99 {wall[1]:.2f} ms wall, {cpu[1]:.2f} ms CPU", flush=True)
    print(f"{len(cases)} queries x 5 per run, median of {runs} runs; milliseconds, wall (CPU)")
    print(f"{'':<34}" + "".join(f"  {name[:38]:<38}" for name in sides))
    for label in results["this checkout"][0]:
        cells = []
        for name in sides:
            (w50, w99), (c50, c99) = (
                [statistics.median(r[label][k][j] for r in results[name]) for j in (0, 1)] for k in (0, 1)
            )
            cells.append(f"p50 {w50:5.2f} ({c50:5.2f}) p99 {w99:5.2f} ({c99:5.2f})")
        print(f"{label[:34]:<34}" + "".join(f"  {c:<38}" for c in cells))


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--against", metavar="REV", help="measure side by side with the code of this git revision")
    args = options.parse_args()
    require_shared()
    if args.against:
        games = {p.parent.name for p in args.corpus.glob("*/game.toml")}  # a game's slug is its folder's name
        cases = dev_cases() + (question_cases(games=games) if QUESTIONS.exists() else [])
        compare(args.corpus, args.against, args.runs, [(c.game, c.query) for c in cases])
        sys.exit(0)
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
