"""Readers for the evaluation samples in ../shared/eval (their formats are in their headers)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVAL_DIR = Path(os.environ.get("RULINGS_EVAL", ROOT.parent / "shared" / "eval"))


def rows(name: str) -> list[list[str]]:
    path = EVAL_DIR / name
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.split("\t"))
    return out
