"""What the first requests to a new build would pay for, paid before it is swapped in (``state.Current``).

Opening the index and loading what search needs (completion, vocabularies, each index's term
dictionary), then asking the new build for the pages asked most recently of the build being served,
so they are answered from memory from the first request on.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

from flask import Flask
from werkzeug.test import EnvironBuilder, run_wsgi_app

from .cache import LOADED, Key
from .state import Loaded, Warm

HOT_PAGES = 100  # pages of the previous build asked again of the new one
WARM_SECONDS = 2.0  # at most this long spent asking them (the swap waits for it)
WARM_QUERIES = ("rules", "rules of play")


def warmer(app: Flask) -> Warm:
    def warm(fresh: Loaded, previous: Loaded | None) -> None:
        searcher = fresh.searcher  # opens both indexes, loads completion and each game's vocabulary
        for query in WARM_QUERIES:
            searcher.search(query)  # reads the term dictionaries and opens this thread's readers
        searcher.search(WARM_QUERIES[0], version="1")  # ... of the history index too
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
