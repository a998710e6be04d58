"""How cost grows with the corpus: 3, 100, 500 and all 1,678 rulebooks of ../shared/scale-corpus.

For each size: full build time, incremental rebuild after touching one file, store and index
size, peak memory of the build, search p50/p99 and term-page p99 (in-process). Prints a Markdown
table (the one in the README). The scale corpus is linked into a temporary folder, never copied
into the project.

    python bench/scale.py [--sizes 3,100,500,1678]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from common import ROOT, cost_report, timed

from rulings.builds import current_build
from rulings.graph.store import Store
from rulings.index.search import Searcher
from rulings.ingest.importer import import_folder
from rulings.settings import Settings
from rulings.urls import urls
from rulings.web import create_app
from tests.shared import require_shared

SCALE = require_shared() / "scale-corpus" / "rulebooks"
QUERIES = [
    "victory points",
    "end of game scoring",
    "setup",
    "how many cards in hand",
    "trade with other players",
    "tie breaker",
    "draw a card",
    "discard pile reshuffle",
    "first player",
    "move and attack",
    "what happens when the deck runs out",
    "can i play two cards",
    "winning the game",
    "combat dice",
    "resource tokens",
    "turn order",
    "victroy points",
    "hand limit",
    "game end trigger",
    "workers placement",
]


def corpus_of(size: int, root: Path) -> Path:
    if size <= 3:  # the bundled corpus, copied so touching a file leaves the project alone
        import shutil

        shutil.copytree(ROOT / "corpus", root / "corpus-3")
        return root / "corpus-3"
    folder = root / f"rulebooks-{size}"
    folder.mkdir()
    for path in sorted(SCALE.iterdir())[:size]:
        os.symlink(path, folder / path.name)
    corpus = root / f"corpus-{size}"
    import_folder(folder, corpus, link=True)
    return corpus


def run_build(corpus: Path, store: Path, *flags: str) -> tuple[float, int]:
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rulings", "build", *flags],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - start
    return seconds, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def size_of(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20


def measure(size: int, root: Path) -> dict:
    corpus = corpus_of(size, root)
    store_dir = root / f"store-{size}"
    full, rss = run_build(corpus, store_dir, "--full")
    touched = next(p for p in sorted(corpus.iterdir()) if p.is_dir())
    for doc in touched.iterdir():
        if doc.name != "game.toml":
            os.utime(doc, follow_symlinks=False)
    (touched / "game.toml").touch()
    incremental, _ = run_build(corpus, store_dir)
    build = current_build(store_dir)
    store = Store(build)
    searcher = Searcher(build)
    search_ms = []
    for _ in range(5):
        for query in QUERIES:
            search_ms += timed(partial(searcher.search, query), 1)
    app = create_app(Settings.resolve(corpus, store_dir))
    client = app.test_client()
    rng = random.Random(size)
    games = store.games()
    pages = []
    for _ in range(200):
        game = rng.choice(games)
        terms = store.terms(game)
        if terms:
            pages.append(urls.term(game.slug, rng.choice(terms).slug))
    page_ms = [t for url in pages for t in timed(partial(client.get, url), 1)]
    print(f"cost model at {size}:\n{cost_report(searcher, QUERIES)}", file=sys.stderr, flush=True)
    counts = store.counts()
    search_ms.sort()
    page_ms.sort()
    return {
        "size": size,
        "games": counts["games"],
        "terms": counts["terms"],
        "full": full,
        "incremental": incremental,
        "store": size_of(build / "graph.sqlite"),
        "index": size_of(build / "index"),
        "rss": rss / 1024,
        "search_p50": search_ms[len(search_ms) // 2],
        "search_p99": search_ms[int(len(search_ms) * 0.99)],
        "page_p99": page_ms[int(len(page_ms) * 0.99)],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="3,100,500,1678")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulings-scale-") as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            row = measure(size, Path(tmp))
            rows.append(row)
            print(f"measured {size}: {row}", file=sys.stderr, flush=True)
    print(
        "| rulebooks | games | terms | full build | incremental rebuild | store | index | peak memory "
        "| search p50 / p99 | term page p99 |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['size']} | {r['games']} | {r['terms']} | {r['full']:.1f} s | {r['incremental']:.2f} s "
            f"| {r['store']:.1f} MiB | {r['index']:.1f} MiB | {r['rss']:.0f} MiB "
            f"| {r['search_p50']:.1f} / {r['search_p99']:.1f} ms | {r['page_p99']:.1f} ms |"
        )


if __name__ == "__main__":
    main()
