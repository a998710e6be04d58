"""Ways a build gets damaged on disk, for the tests and bench/damaged_builds.py."""

from __future__ import annotations

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


DAMAGE = {
    "truncated graph": lambda b: truncate(b / "graph.sqlite"),
    "garbled graph": lambda b: garble(b / "graph.sqlite"),
    "missing index segment": lambda b: index_file(b).unlink(),
    "truncated index segment": lambda b: truncate(index_file(b)),
    "missing index table of contents": lambda b: index_file(b, ".toc").unlink(),
    "garbled build.json": lambda b: (b / "build.json").write_text("{"),
}
