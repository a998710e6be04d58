"""Work cut into runs of whole games, each done by a process of its own (the graph's shards, the index's segments).

Runs are contiguous in the games' order, so what each process writes can be put together in that order
and come out as one process would have written it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
MOST_PROCESSES = 4


def cores() -> int:
    """Processes worth starting: one per core, at most ``MOST_PROCESSES``."""
    return max(1, min(MOST_PROCESSES, os.cpu_count() or 1))


def balanced_runs(items: Sequence[Item], size_of: Callable[[Item], int], procs: int) -> list[list[Item]]:
    """``items`` in order, cut into at most ``procs`` runs of about equal total size."""
    if procs <= 1 or len(items) < 2:
        return [list(items)]
    total = sum(size_of(item) for item in items) or 1
    runs: list[list[Item]] = [[]]
    done = 0
    for item in items:
        if len(runs) < procs and done >= total * len(runs) / procs and runs[-1]:
            runs.append([])
        runs[-1].append(item)
        done += size_of(item)
    return runs


def processes(count: int) -> ProcessPoolExecutor:
    """A pool of ``count`` forked processes (they inherit the loaded code and settings; nothing is re-imported)."""
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"))
