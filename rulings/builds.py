"""The store's layout on disk: builds side by side, one of them current.

``<store>/builds/<id>/{graph.sqlite,index/,build.json}`` holds one finished build and
``<store>/current`` is a symlink to one of them. A build is written in
``<store>/builds/.tmp-<id>/`` and published by renaming it and atomically replacing the link,
so readers (the server, read commands) only ever see finished builds. Readers need
:func:`usable_build` and :func:`build_info` and nothing of the build pipeline.

``build.json`` records the size, SHA-256 and stat fields of every file of its build, so a build
damaged on disk (a truncated index, a garbled graph) is noticed: readers fall back to the newest
intact build and set the damaged one aside (:func:`usable_build`, :func:`heal`), and a new build
never reuses its parts. The quick check hashes a file only when its stat fields moved; its change
time and inode move with any write, even one that puts the modification time back (a
timestamp-preserving restore, a stray write followed by ``touch -d``), which no user can set.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

KEEP_BUILDS = 3  # servers may still be reading the previous build while a new one is published
DAMAGED = ".damaged-"  # prefix of a build set aside because its files no longer match build.json


def current_build(store: Path) -> Path | None:
    """The build ``<store>/current`` points at (intact or not), or None when there is none."""
    try:
        target = (store / "current").resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return target if target.is_dir() else None


def finished_builds(store: Path) -> list[Path]:
    """Every published build, newest first (build ids start with their time)."""
    try:
        found = [p for p in (store / "builds").iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def build_info(build: Path) -> dict:
    """What ``build.json`` records about a build (fingerprints, counts); empty when unreadable."""
    try:
        return json.loads((build / "build.json").read_text())
    except (OSError, ValueError):
        return {}


# -- checksums: what a build is made of, and whether it still is ---------------------------------


def _sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def build_files(build: Path) -> list[str]:
    """The files readers open (the graph and the index), relative to the build; not locks or build.json."""
    found = [p for p in build.rglob("*") if p.is_file() and p.name != "build.json" and "LOCK" not in p.name]
    return sorted(p.relative_to(build).as_posix() for p in found)


def _stamp(stat: os.stat_result) -> dict:
    """The stat fields a write moves: the size, the modification time, and the change time and inode, which
    move with any write or copy (even one that puts the modification time back) and which no user can set."""
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns, "ino": stat.st_ino}


def checksums(build: Path, trusted: dict | None = None) -> dict[str, dict]:
    """Stat fields and SHA-256 of each of a build's files, for build.json.

    ``trusted`` is the record of a build verified just now: a file hard-linked from it (same size,
    modification time and inode) keeps its checksum instead of being read again.
    """
    out = {}
    for rel in build_files(build):
        stat = (build / rel).stat()
        known = (trusted or {}).get(rel)
        if known and (known["size"], known["mtime_ns"], known.get("ino", stat.st_ino)) == (
            stat.st_size,
            stat.st_mtime_ns,
            stat.st_ino,
        ):
            digest = known["sha256"]
        else:
            digest = _sha256(build / rel)
        out[rel] = {**_stamp(stat), "sha256": digest}
    return out


def restamp(build: Path) -> None:
    """Record the stat fields a build's files have now (their checksums kept): removing an older build that
    shared files with it (hard links) moved their change times. The builder calls it on the build it just
    wrote, whose contents it knows."""
    info = build_info(build)
    files = info.get("files") or {}
    for rel, entry in files.items():
        stat = (build / rel).stat()
        if stat.st_size == entry["size"] and stat.st_mtime_ns == entry["mtime_ns"]:
            entry.update(_stamp(stat))
    tmp = build / f".build.json-{os.getpid()}"
    tmp.write_text(json.dumps(info, indent=2))
    os.replace(tmp, build / "build.json")


# Files hashed by this process and found intact, with the stat fields they had then: a server checking
# its build every few seconds hashes a file again only when it changed since.
_intact: dict[str, tuple[int, int, int, int]] = {}


def _signature(stat: os.stat_result) -> tuple[int, int, int, int]:
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def _moved(stat: os.stat_result, want: dict) -> bool:
    """Whether a file's stat fields differ from its record (a record made before change times were
    recorded compares the modification time alone)."""
    if stat.st_mtime_ns != want["mtime_ns"]:
        return True
    return "ctime_ns" in want and (stat.st_ctime_ns, stat.st_ino) != (want["ctime_ns"], want["ino"])


def verify(build: Path, thorough: bool = False) -> list[str]:
    """What no longer matches the build's record of its files; empty when the build is intact.

    The quick check (every read command, a server every few seconds) compares sizes and hashes only
    the files whose stat fields moved since the record (or since this process last hashed them), which
    catches truncation and any write, whatever it did to the modification time; a thorough check
    (``rulings check``, a server opening a build or meeting a database error, a build about to reuse
    parts) hashes every file, which catches a disk's own bit rot too.
    A build recorded before checksums existed is taken as it is.
    """
    info = build_info(build)
    if not info:
        return ["build.json is missing or unreadable"]
    recorded = info.get("files")
    if recorded is None:
        return []
    problems = []
    for rel, want in recorded.items():
        path = build / rel
        try:
            stat = path.stat()
            if stat.st_size != want["size"]:
                problems.append(f"{rel} is {stat.st_size} bytes, {want['size']} expected")
            elif thorough or (_moved(stat, want) and _intact.get(str(path)) != _signature(stat)):
                if _sha256(path) != want["sha256"]:
                    problems.append(f"{rel} does not match its checksum")
                else:
                    _intact[str(path)] = _signature(stat)
        except FileNotFoundError:
            problems.append(f"{rel} is missing")
        except OSError as exc:
            problems.append(f"{rel} cannot be read ({exc.strerror})")
    return problems


@dataclass(frozen=True)
class Damage:
    """A build whose files no longer match its record."""

    build: Path
    problems: list[str]

    def __str__(self) -> str:
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"build {self.build.name} is damaged: {self.problems[0]}{more}"


def usable_build(
    store: Path, thorough: bool = False, known: tuple[Damage, ...] = ()
) -> tuple[Path | None, list[Damage]]:
    """The current build when it is intact, else the newest intact one; and the damaged builds passed over
    (``known``: builds already found damaged, passed over without a look)."""
    current = current_build(store)
    candidates = ([current] if current else []) + [b for b in finished_builds(store) if b != current]
    damaged: list[Damage] = []
    for build in candidates:
        found = next((d for d in known if d.build == build), None)
        problems = found.problems if found else verify(build, thorough)
        if not problems:
            return build, damaged
        damaged.append(Damage(build, problems))
    return None, damaged


def intact_build(
    store: Path, warn: Callable[[str], None], thorough: bool = False, known: tuple[Damage, ...] = ()
) -> Path | None:
    """The build readers answer from: the current one, or when it is damaged the newest intact one.

    Damage is said in one line through ``warn`` and healed when the store can be written: the
    damaged builds are set aside and ``current`` points at the intact one. Read commands and the
    server both start here (a server hashing every file of the build it opens: ``thorough``).
    """
    build, damaged = usable_build(store, thorough, known)
    if damaged:
        healed = heal(store, damaged, build)
        outcome = f"answering from build {build.name}" if build else "no intact build is left"
        others = f"; {len(damaged) - 1} more damaged" if len(damaged) > 1 else ""
        aside = f"; set aside as {DAMAGED}<id>" if healed else ""
        warn(f"{damaged[0]}; {outcome}{others}{aside}")
    return build


def heal(store: Path, damaged: list[Damage], fallback: Path | None) -> bool:
    """Set damaged builds aside and point ``current`` at ``fallback``, without waiting.

    False when the store cannot be written (a read-only replica keeps answering from the fallback)
    or a build is running (it publishes a new current build anyway).
    """
    try:
        with build_lock(store, wait=False) as locked:
            if locked:
                for damage in damaged:
                    retire(store, damage.build, fallback)
            return locked
    except OSError:
        return False


def retire(store: Path, damaged: Path, fallback: Path | None) -> None:
    """Rename a damaged build ``builds/.damaged-<id>`` (the caller holds the build lock); if it was
    current, ``current`` moves to ``fallback``. Servers still reading it keep their open files."""
    if current_build(store) == damaged:
        if fallback is None:
            (store / "current").unlink()
        else:
            _point_current(store, fallback)
    os.rename(damaged, damaged.with_name(DAMAGED + damaged.name))


@contextmanager
def build_lock(store: Path, wait: bool = True) -> Iterator[bool]:
    """One writer at a time per store: builders wait; with ``wait=False`` yields whether it was taken."""
    store.mkdir(parents=True, exist_ok=True)
    with open(store / ".build.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True


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
    _point_current(store, final)
    return final


def _point_current(store: Path, build: Path) -> None:
    """Replace the ``current`` link atomically: readers see the old build or the new one."""
    tmp = store / f".current-{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(os.path.relpath(build, store), tmp)
    os.replace(tmp, store / "current")


def prune(store: Path, keep: Path) -> None:
    """Keep the newest builds and drop the rest, the builds set aside as damaged, and the working
    folders of killed builds."""
    builds = store / "builds"
    for old in finished_builds(store)[KEEP_BUILDS:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
    for damaged in builds.glob(DAMAGED + "*"):
        shutil.rmtree(damaged, ignore_errors=True)
    for tmp in builds.glob(".tmp-*"):
        try:
            pid = int(tmp.name.split("-")[2])
            os.kill(pid, 0)
        except (ValueError, IndexError, ProcessLookupError):
            shutil.rmtree(tmp, ignore_errors=True)  # left by a build that was killed
        except PermissionError:
            pass
