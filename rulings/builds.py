"""The store's layout on disk: builds side by side, one of them current.

``<store>/builds/<id>/{graph.sqlite,index/,build.json}`` holds one finished build and
``<store>/current`` is a symlink to one of them. A build is written in
``<store>/builds/.tmp-<id>/`` and published by renaming it and atomically replacing the link,
so readers (the server, read commands) only ever see finished builds. Readers need
:func:`current_build` and :func:`build_info` and nothing of the build pipeline.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

KEEP_BUILDS = 3  # servers may still be reading the previous build while a new one is published


def current_build(store: Path) -> Path | None:
    """The build ``<store>/current`` points at, or None when there is no finished one."""
    link = store / "current"
    try:
        target = link.resolve(strict=True)
    except (FileNotFoundError, RuntimeError):
        return None
    return target if (target / "graph.sqlite").is_file() else None


def build_info(build: Path) -> dict:
    """What ``build.json`` records about a build (fingerprints, counts); empty when unreadable."""
    try:
        return json.loads((build / "build.json").read_text())
    except (OSError, ValueError):
        return {}


@contextmanager
def build_lock(store: Path) -> Iterator[None]:
    """One build at a time per store (other builders wait)."""
    store.mkdir(parents=True, exist_ok=True)
    with open(store / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def new_work_dir(store: Path) -> Path:
    """An empty ``builds/.tmp-<time>-<pid>-<n>`` folder; the pid lets :func:`prune` spot killed builds."""
    builds = store / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    build_id = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.perf_counter_ns() % 100000:05d}"
    work = builds / f".tmp-{build_id}"
    work.mkdir()
    return work


def publish(store: Path, work: Path) -> Path:
    """Make a finished working folder a build and the current one (atomically for readers)."""
    final = work.with_name(work.name.removeprefix(".tmp-"))
    os.rename(work, final)
    tmp = store / f".current-{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(os.path.relpath(final, store), tmp)
    os.replace(tmp, store / "current")
    return final


def prune(store: Path, keep: Path) -> None:
    """Keep the newest builds and drop the rest, and the working folders of killed builds."""
    builds = store / "builds"
    done = sorted((p for p in builds.iterdir() if not p.name.startswith(".")), key=lambda p: p.name)
    for old in done[:-KEEP_BUILDS]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
    for tmp in builds.glob(".tmp-*"):
        try:
            pid = int(tmp.name.split("-")[2])
            os.kill(pid, 0)
        except (ValueError, IndexError, ProcessLookupError):
            shutil.rmtree(tmp, ignore_errors=True)  # left by a build that was killed
        except PermissionError:
            pass
