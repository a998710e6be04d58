"""Where ../shared (seeds, evaluation samples, scale corpus) is, when it is there at all.

Tried in order: $RULINGS_SHARED; a ``shared`` folder beside this checkout; one beside the
repository this checkout was cloned from (CI clones into a temporary folder). A plain clone has
none: the tests that read it are marked ``needs_shared`` and skip, saying so (``conftest.py``).

Run as a script (``.ci/run`` does), it prints the folder or fails: CI never skips those tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISSING = (
    "needs ../shared (seeds, evaluation samples, scale corpus): put the shared folder beside the "
    "checkout or set RULINGS_SHARED to it"
)


def _origin() -> Path | None:
    try:
        url = subprocess.run(
            ["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"], capture_output=True, text=True, timeout=5
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(url).resolve() if url and not url.startswith(("http", "git@", "ssh:")) else None


def find_shared() -> Path | None:
    candidates = [os.environ.get("RULINGS_SHARED"), ROOT.parent / "shared"]
    origin = _origin()
    if origin is not None:
        candidates.append(origin.parent / "shared")
    for candidate in candidates:
        if candidate and (Path(candidate) / "eval").is_dir():
            return Path(candidate).resolve()
    return None


SHARED = find_shared()


def require_shared() -> Path:
    """The shared folder, for the benchmarks and CI that cannot do without it."""
    if SHARED is None:
        raise SystemExit(f"error: {MISSING}")
    return SHARED


if __name__ == "__main__":
    print(require_shared())
    sys.exit(0)
