"""Where the corpus and the built store live (flags, then environment, then defaults), and how
``rulings serve`` listens."""

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
        corpus = Path(corpus).resolve()
        if store is None:
            store = os.environ.get("RULINGS_STORE") or default_store(corpus)
        return cls(corpus, Path(store).resolve())


def default_store(corpus: Path) -> Path:
    """Where a corpus's builds live unless told: ``./var/store`` for the bundled ``./corpus``, and for any other
    corpus a store of its own named after it (``var/corpus-magic``: ``./var/store-magic``), so building or
    serving another corpus never switches a server of the bundled one to its games."""
    var = Path.cwd() / "var"
    if corpus == (Path.cwd() / "corpus").resolve():
        return var / "store"
    name = corpus.name.removeprefix("corpus-") or corpus.name
    return var / f"store-{name}"


@dataclass(frozen=True)
class ServerOptions:
    """``rulings serve``'s options and their defaults (see ``web/serve.py`` for why these)."""

    host: str = "127.0.0.1"
    port: int = 5000
    # Requests worked on at once; idle connections need no thread. Python runs one thread at a time, so
    # more only contend for its lock: 4 served cold pages 19% faster than 8 on 2 cores (docs/performance.md).
    threads: int = 4
    connection_limit: int = 1000  # open connections, idle ones included; more wait in the backlog
    channel_timeout: int = 30  # seconds before an idle connection (or an unfinished request) is closed
    backlog: int = 1024  # connections the kernel queues while the limit is reached
    time_limit: float = 5.0  # seconds of graph queries and index searches per request, then a 503
