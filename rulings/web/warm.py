"""What the first requests to a new build would pay for, paid before it is swapped in (``state.Current``).

Opening the index and what search needs (vocabularies; a set of Whoosh searchers for each server
thread, each warmed by a few searches: term dictionaries, field lengths), then asking the new build
for the pages asked most recently of the build being served, so they are answered from memory from
the first request on.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

from flask import Flask
from werkzeug.test import EnvironBuilder, run_wsgi_app

from ..index.search import WARM_QUERIES
from .cache import LOADED, Key
from .state import Loaded, Warm

HOT_PAGES = 100  # pages of the previous build asked again of the new one
WARM_SECONDS = 2.0  # at most this long spent asking them (the swap waits for it)


def warmer(app: Flask) -> Warm:
    def warm(fresh: Loaded, previous: Loaded | None) -> None:
        searcher = fresh.searcher  # opens both indexes and each game's vocabulary
        # a set of opened, warmed Whoosh searchers for each server thread (``index/pool.py``)
        searcher.prepare(app.config.get("SERVER_THREADS", 1))
        searcher.complete(WARM_QUERIES[0][:2])
        deadline = time.monotonic() + WARM_SECONDS
        for key in previous.answers.hottest(HOT_PAGES) if previous is not None else []:
            if time.monotonic() > deadline:
                break
            replay(app, key, fresh)

    return warm


def replay(app: Flask, key: Key, loaded: Loaded) -> int:
    """Ask ``loaded`` for the page ``key`` names, as a client would (the answer is cached there); its status."""
    query = urlencode(key.query, encoding="latin-1")
    environ = EnvironBuilder(path=key.path, base_url=key.origin, query_string=query).get_environ()
    environ[LOADED] = loaded
    body, status, _ = run_wsgi_app(app.wsgi_app, environ, buffered=True)
    for _ in body:
        pass
    return int(status.split()[0])
