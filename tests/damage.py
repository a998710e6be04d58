"""Ways a build gets damaged on disk, for the tests and bench/damaged_builds.py."""

from __future__ import annotations

import json
import os
from pathlib import Path


def index_file(build: Path, suffix: str = ".seg") -> Path:
    """The build's largest index file with this suffix (a segment, or ``.toc`` for a table of contents)."""
    return max((p for p in (build / "index").iterdir() if p.name.endswith(suffix)), key=lambda p: p.stat().st_size)


def truncate(path: Path, keep: float = 0.5) -> None:
    os.truncate(path, int(path.stat().st_size * keep))


def garble(path: Path) -> None:
    """Same size, different bytes in the middle (a bad sector, a stray write)."""
    with open(path, "r+b") as handle:
        handle.seek(path.stat().st_size // 2)
        handle.write(b"\xde\xad\xbe\xef" * 1024)


def garble_keeping_time(*paths: Path, share: float = 0.5) -> None:
    """Garbled pages in the middle ``share`` of each file, its modification time put back afterwards (a
    timestamp-preserving restore of a bad copy, a stray write followed by ``touch -d``). The files are all
    opened first: a server may notice the damage to one and move its build aside before the next is done."""
    handles = [open(path, "r+b") for path in paths]  # noqa: SIM115 (closed below, once all are garbled)
    try:
        for handle in handles:
            stat = os.fstat(handle.fileno())
            handle.seek(int(stat.st_size * (1 - share) / 2))
            middle = handle.read(max(1, int(stat.st_size * share)))
            handle.seek(-len(middle), os.SEEK_CUR)
            handle.write(bytes(byte ^ 0x5A for byte in middle))  # every byte changed
            handle.flush()
            os.utime(handle.fileno(), ns=(stat.st_atime_ns, stat.st_mtime_ns))
    finally:
        for handle in handles:
            handle.close()


def as_if_bit_rot(build: Path) -> None:
    """Make the build's record agree with every stat field of its files as they are now (their checksums
    kept): damage a disk does by itself moves no stat field, and only hashing the files finds it."""
    info = json.loads((build / "build.json").read_text())
    for rel, entry in info["files"].items():
        stat = (build / rel).stat()
        entry.update(size=stat.st_size, mtime_ns=stat.st_mtime_ns, ctime_ns=stat.st_ctime_ns, ino=stat.st_ino)
    (build / "build.json").write_text(json.dumps(info))


DAMAGE = {
    "truncated graph": lambda b: truncate(b / "graph.sqlite"),
    "garbled graph": lambda b: garble(b / "graph.sqlite"),
    "missing index segment": lambda b: index_file(b).unlink(),
    "truncated index segment": lambda b: truncate(index_file(b)),
    "missing index table of contents": lambda b: index_file(b, ".toc").unlink(),
    "garbled build.json": lambda b: (b / "build.json").write_text("{"),
    "garbled graph, modification time kept": lambda b: garble_keeping_time(b / "graph.sqlite"),
    "garbled index segment, modification time kept": lambda b: garble_keeping_time(index_file(b)),
}
