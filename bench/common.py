"""Helpers for the benchmarks: a built store of the bundled corpus, and percentiles."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
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


def timed(fn, repeat: int) -> list[float]:
    """Wall-clock milliseconds of ``repeat`` calls (after one warm-up call)."""
    fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(label: str, samples_ms: list[float]) -> str:
    samples = sorted(samples_ms)
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"{label:<32} n={len(samples):<6} p50={p50:7.3f} ms  p99={p99:7.3f} ms  max={samples[-1]:7.3f} ms"
