"""In-process search latency over the evaluation queries, plus index build time and size."""

import time
from functools import partial
from pathlib import Path

from common import built_store, summary, timed

from rulings.index.search import Searcher
from rulings.index.writer import write_index
from tests.evalfiles import rows
from tests.shared import require_shared

require_shared()

store, build = built_store()
searcher = Searcher(build)
queries = [(game, query) for game, query, _ in rows("search-dev.tsv")]
samples = []
for _ in range(20):
    for game, query in queries:
        samples += timed(partial(searcher.search, query, game=game), 1)
print(summary("search (eval queries, game filter)", samples))
samples = []
for _ in range(20):
    for _, query in queries:
        samples += timed(partial(searcher.search, query), 1)
print(summary("search (all games)", samples))
typo = timed(lambda: searcher.search("quickstrke"), 200)
print(summary("search with typo correction", typo))
print(summary("completion 'ac'", timed(lambda: searcher.completions.complete("ac"), 500)))

start = time.perf_counter()
count = write_index(build / "graph.sqlite", Path(build.parent / "reindex"))
seconds = time.perf_counter() - start
size = sum(p.stat().st_size for p in (build / "index").rglob("*")) / 1024
print(f"index: {count} documents, {size:.0f} KiB, rebuilt in {seconds:.2f} s")
