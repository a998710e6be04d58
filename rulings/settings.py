"""Where the corpus and the built store live (flags, then environment, then defaults)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    corpus: Path
    store: Path

    @classmethod
    def resolve(cls, corpus: str | os.PathLike | None = None, store: str | os.PathLike | None = None) -> Settings:
        if corpus is None:
            corpus = os.environ.get("RULINGS_CORPUS") or Path.cwd() / "corpus"
        if store is None:
            store = os.environ.get("RULINGS_STORE") or Path.cwd() / "var" / "store"
        return cls(Path(corpus).resolve(), Path(store).resolve())
