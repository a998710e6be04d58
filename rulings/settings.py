"""Where the corpus and the built store live (flags, then environment, then defaults)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    corpus: Path
    store: Path

    @classmethod
    def resolve(cls, corpus: str | os.PathLike | None = None, store: str | os.PathLike | None = None) -> Settings:
        if corpus is None:
            corpus = os.environ.get("RULINGS_CORPUS")
        if corpus is None:
            here = Path.cwd() / "corpus"
            corpus = here if here.is_dir() else PACKAGE_ROOT / "corpus"
        if store is None:
            store = os.environ.get("RULINGS_STORE") or Path.cwd() / "var" / "store"
        return cls(Path(corpus).resolve(), Path(store).resolve())
