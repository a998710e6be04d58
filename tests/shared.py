"""Where ../shared (seeds, evaluation samples, scale corpus) is, even from a fresh clone elsewhere.

Tried in order: $RULINGS_SHARED; a ``shared`` folder beside this checkout; one beside the
repository this checkout was cloned from (CI clones into a temporary folder).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _origin() -> Path | None:
    try:
        url = subprocess.run(
            ["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"], capture_output=True, text=True, timeout=5
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(url).resolve() if url and not url.startswith(("http", "git@", "ssh:")) else None


def find_shared() -> Path:
    candidates = [os.environ.get("RULINGS_SHARED"), ROOT.parent / "shared"]
    origin = _origin()
    if origin is not None:
        candidates.append(origin.parent / "shared")
    for candidate in candidates:
        if candidate and (Path(candidate) / "eval").is_dir():
            return Path(candidate)
    raise RuntimeError("cannot find the shared folder (seeds, eval samples): set RULINGS_SHARED")


SHARED = find_shared()
