"""Full build time of a corpus (median of several builds): the bundled one, or any other; or side by side
with the code of another revision.

    python bench/build_time.py [--corpus var/corpus-magic] [--runs 3]
    python bench/build_time.py --rulebooks 1678 --against 4c22351 --runs 3

``--rulebooks N`` builds the first N rulebooks of ../shared/scale-corpus (imported as ``bench/scale.py``
does). ``--against REV`` checks REV out into a temporary worktree and builds the same corpus with each
checkout in turn (``python -m rulings build`` in a process of its own, a fresh store each time), so
both sides meet the same machine: these machines' speed moves by a third within an hour, and only
builds alternated in one run compare. It prints each side's median wall and CPU time and index size,
and the ratio of this checkout's median to REV's.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, Settings, build, checkout_of

from rulings.builds import current_build


def build_in_process(corpus: Path, runs: int) -> None:
    seconds = []
    for _ in range(runs):
        store = Path(tempfile.mkdtemp(prefix="rulings-build-"))
        report = build(Settings.resolve(corpus, store), progress=lambda _: None)
        seconds.append(report.seconds)
        shutil.rmtree(store, ignore_errors=True)
    print(
        f"full build of {corpus}: median {statistics.median(seconds):.2f} s "
        f"(min {min(seconds):.2f} s, max {max(seconds):.2f} s, {len(seconds)} runs); counts {report.counts}"
    )


def timed_build(code: Path, corpus: Path) -> dict:
    """One full build of ``corpus`` by the package in ``code``, in a process of its own and a fresh store."""
    store = Path(tempfile.mkdtemp(prefix="rulings-build-"))
    env = dict(os.environ, PYTHONPATH=str(code))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rulings", "--corpus", str(corpus), "--store", str(store), "build"],
        env=env,
        cwd=tempfile.gettempdir(),  # not this checkout: ``-m rulings`` would import it from the current folder
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"the build by {code} failed:\n{done.stderr}")
    index = current_build(store) / "index"
    result = {
        "wall": wall,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "index": sum(p.stat().st_size for p in index.rglob("*") if p.is_file()) / 2**20,
        "counts": done.stdout.strip().splitlines()[-1].split(" in ")[0],  # "built 3 games, 5 documents, ..."
    }
    shutil.rmtree(store, ignore_errors=True)
    return result


def compare(corpus: Path, revision: str, runs: int) -> None:
    with checkout_of(revision) as other:
        sides = {"this checkout": ROOT, revision: other}
        results: dict[str, list[dict]] = {name: [] for name in sides}
        for run in range(runs):
            for name, code in sides.items():
                results[name].append(result := timed_build(code, corpus))
                print(f"run {run + 1}, {name}: {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU", flush=True)
    medians = {}
    for name, found in results.items():
        medians[name] = statistics.median(r["wall"] for r in found)
        cpu = statistics.median(r["cpu"] for r in found)
        walls = ", ".join(f"{r['wall']:.1f}" for r in found)
        print(
            f"{name}: median {medians[name]:.1f} s wall ({walls}), {cpu:.1f} s CPU, "
            f"index {found[-1]['index']:.1f} MiB; {found[-1]['counts']}"
        )
    print(f"ratio (this checkout / {revision}): {medians['this checkout'] / medians[revision]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: the bundled one)")
    parser.add_argument("--rulebooks", type=int, help="instead: the first N rulebooks of ../shared/scale-corpus")
    parser.add_argument("--against", metavar="REV", help="build side by side with the code of this git revision")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulings-corpus-") as folder:
        corpus = args.corpus
        if args.rulebooks:
            from scale import corpus_of  # needs ../shared: imported only when asked for

            corpus = corpus_of(args.rulebooks, Path(folder))
        if args.against:
            compare(corpus, args.against, args.runs)
        else:
            build_in_process(corpus, args.runs)


if __name__ == "__main__":
    main()
