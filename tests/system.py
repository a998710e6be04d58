"""The Debian packages some tests drive (Chromium, nginx, valgrind): installed by ``.ci/run``, never by a test.

Without one, its tests skip on a developer's machine, saying what to install; under CI (``CI=1``, where
``.ci/run`` installs them) they fail, saying the same.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def required(what: str, candidates: list[str | None], package: str, hint: str = "") -> str:
    """The first of ``candidates`` that is a file; else a skip (a failure under CI) naming the package to install."""
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    message = f"{what} is not installed: sudo apt-get install --no-install-recommends {package}{hint}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (.ci/run installs it)", pytrace=False)
    pytest.skip(message)
