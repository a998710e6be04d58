"""Helpers for the benchmarks: a built store of the bundled corpus, and percentiles."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.build import build  # noqa: E402
from rulings.graph.store import Store  # noqa: E402
from rulings.settings import Settings  # noqa: E402


def built_store(corpus: Path = ROOT / "corpus") -> tuple[Store, Path]:
    store_dir = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    report = build(Settings.resolve(corpus, store_dir), progress=lambda _: None)
    return Store(report.build), report.build


@contextmanager
def checkout_of(revision: str):
    """A temporary git worktree of ``revision`` (removed afterwards), for benchmarks side by side with it."""
    folder = Path(tempfile.mkdtemp(prefix="rulings-rev-")) / "checkout"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(folder), revision], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def timed(fn, repeat: int, clock=time.perf_counter) -> list[float]:
    """Milliseconds of ``repeat`` calls (after one warm-up call): wall clock, or ``time.process_time`` for CPU."""
    fn()
    out = []
    for _ in range(repeat):
        start = clock()
        fn()
        out.append((clock() - start) * 1000)
    return out


def summary(label: str, samples_ms: list[float]) -> str:
    samples = sorted(samples_ms)
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"{label:<32} n={len(samples):<6} p50={p50:7.3f} ms  p99={p99:7.3f} ms  max={samples[-1]:7.3f} ms"


# The most expensive queries within the limits (200 characters) we know of, for the cost model.
HOSTILE = {
    "digits": " ".join(str(n) for n in range(66))[:200],
    "common words": " ".join(["the card play turn player game each may take one"] * 4)[:200],
    "distinct words": "draw discard shuffle deck hand play card turn round phase player game score point win lose "
    "attack defend damage move action token board space tile resource cost pay gain",
    "phrases": '"draw a card" "end of turn" "each player" "the game" "discard pile" "first player"',
    "typos": "qwerty asdfgh zxcvbn poiuyt lkjhgf mnbvcx plokij uhygtf rfvtgb yhnujm",
}


def cost_report(searcher, ordinary: list[str], repeat: int = 5) -> str:
    """The cost model's figure: the worst query's median CPU time against an ordinary query's, across all games."""
    cpu = time.process_time
    usual = statistics.median([t for q in ordinary for t in timed(lambda q=q: searcher.search(q), repeat, cpu)])
    lines = [f"ordinary query (median of {len(ordinary)}): {usual:.1f} ms CPU"]
    for name, query in HOSTILE.items():
        worst = statistics.median(timed(lambda q=query: searcher.search(q), repeat, cpu))
        lines.append(f"{name:<16} {worst:7.1f} ms CPU  ({worst / usual:.1f}x ordinary)")
    return "\n".join(lines)
