"""How cost grows with the corpus: 3, 100, 500 and all 1,678 rulebooks of ../shared/scale-corpus.

For each size: full build time (and its index part), incremental rebuild after touching one file,
store and index size, peak memory of the build, search p50/p99 in-process across all games and
within one game, term-page p99 (in-process), and from a running `rulings serve`: eight concurrent
first searches on a fresh server, the first request once a rebuild is published and the first one
the new build answers, and eight concurrent first searches on the new build. Prints a Markdown
table (docs/benchmarks/scale.md keeps their history). The scale corpus is linked into a temporary folder, never copied
into the project.

    python bench/scale.py [--sizes 3,100,500,1678] [--into DIR]

``--into DIR`` keeps each size's corpus (links) and store in DIR (``DIR/store-1678``), to serve
them afterwards (``rulings --corpus DIR/corpus-1678 --store DIR/store-1678 serve``). With
``--reuse``, a size whose corpus and store DIR already holds is measured without a full build
(its full build, index time and peak memory are then left blank): the other figures again, in
minutes rather than the better part of an hour at 1,678 rulebooks.

    python bench/scale.py --sizes 1678 --into DIR --reuse
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from functools import partial
from pathlib import Path

from common import ROOT, cost_report, timed

from rulings.builds import build_info, current_build
from rulings.graph import build_facts
from rulings.graph.store import Store
from rulings.index.search import Searcher
from rulings.ingest.importer import import_folder
from rulings.settings import Settings
from rulings.urls import urls
from rulings.web import create_app
from tests.server import running_server
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


def percentile(samples: list[float], share: float) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * share))]


def search_latencies(searcher: Searcher, store: Store, rng: random.Random) -> tuple[list[float], list[float]]:
    """Milliseconds of every query across all games, and within the game of its best hit and four random games."""
    games = [g.slug for g in store.games()]
    broad, within = [], []
    for _ in range(5):
        for query in QUERIES:
            broad += timed(partial(searcher.search, query), 1)
    for query in QUERIES:
        hits = searcher.search(query).hits
        for game in ([hits[0].game] if hits else []) + rng.sample(games, min(4, len(games))):
            within += timed(partial(searcher.search, query, game=game), 5)
    return broad, within


def touch_one_game(corpus: Path) -> None:
    touched = next(p for p in sorted(corpus.iterdir()) if p.is_dir())
    for doc in touched.iterdir():
        if doc.name != "game.toml":
            os.utime(doc, follow_symlinks=False)
    (touched / "game.toml").touch()


def get(url: str, path: str) -> tuple[float, str, int]:
    """(milliseconds, build that answered, status) of one GET on a connection of its own."""
    parsed = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    start = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    elapsed = (time.perf_counter() - start) * 1000
    conn.close()
    return elapsed, response.headers.get("X-Rulings-Build", ""), response.status


def concurrent_first_searches(url: str, queries: list[str]) -> float:
    """Eight searches at once, none asked before: the slowest one's milliseconds."""
    results: list[float] = []
    threads = [
        threading.Thread(target=lambda q=q: results.append(get(url, "/api/search?q=" + urllib.parse.quote(q))[0]))
        for q in queries
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return max(results)


def serving(corpus: Path, store_dir: Path) -> dict:
    """From a running server: first searches, a rebuild published under it, the first requests after."""
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store_dir))
    out = {}
    with running_server(env, (sys.executable, "-m", "rulings", "serve", "--threads", "8"), timeout=600) as url:
        out["eight_first"] = concurrent_first_searches(url, [f"{q} rules" for q in QUERIES[:8]])
        touch_one_game(corpus)
        before = os.readlink(store_dir / "current")
        rebuild = threading.Thread(target=lambda: out.update(incremental=run_build(corpus, store_dir)[0]))
        rebuild.start()
        while os.readlink(store_dir / "current") == before and rebuild.is_alive():
            time.sleep(0.001)
        new_build = Path(os.readlink(store_dir / "current")).name
        out["first_after_publish"], answered_by, _ = get(url, "/api/search?q=" + urllib.parse.quote(QUERIES[0] + " x"))
        slowest, n = out["first_after_publish"], 0
        while answered_by != new_build:  # until the new build answers (warmed in the background)
            n += 1
            elapsed, answered_by, _ = get(url, "/api/search?q=" + urllib.parse.quote(f"{QUERIES[1]} {n}"))
            slowest = max(slowest, elapsed)
            time.sleep(0.01)
        out["first_of_new_build"], out["slowest_during_swap"] = elapsed if n else slowest, slowest
        out["eight_after_swap"] = concurrent_first_searches(url, [f"{q} again" for q in QUERIES[8:16]])
        rebuild.join()
    return out


def measure(size: int, root: Path, reuse: bool = False) -> dict:
    store_dir = root / f"store-{size}"
    reused = reuse and (root / f"corpus-{size}").is_dir() and current_build(store_dir) is not None
    if reused:
        corpus, full, rss = root / f"corpus-{size}", float("nan"), float("nan")
    else:
        corpus = corpus_of(size, root)
        full, rss = run_build(corpus, store_dir, "--full")
    build = current_build(store_dir)
    phases = {} if reused else build_info(build).get("phases", {})  # a kept build may be an incremental one
    index_mib = size_of(build / "index")
    store = Store(build)
    searcher = Searcher(build)
    rng = random.Random(size)
    broad, within = search_latencies(searcher, store, rng)
    os.environ["RULINGS_CACHE_MIB"] = "0"  # every page rendered, none answered from memory
    client = create_app(Settings.resolve(corpus, store_dir)).test_client()
    del os.environ["RULINGS_CACHE_MIB"]
    games = store.games()
    pages = []
    for _ in range(200):
        game = rng.choice(games)
        terms = store.terms(game)
        if terms:
            pages.append(urls.term(game.slug, rng.choice(terms).slug))
    page_ms = [t for url in pages for t in timed(partial(client.get, url), 1)]
    print(f"cost model at {size}:\n{cost_report(searcher, QUERIES)}", file=sys.stderr, flush=True)
    counts = build_facts.counts(
        store,
    )
    served = serving(corpus, store_dir)
    return {
        "size": size,
        "games": counts["games"],
        "terms": counts["terms"],
        "full": full,
        "index_seconds": phases.get("index", float("nan")),
        "incremental": served["incremental"],
        "store": size_of(build / "graph.sqlite"),
        "index": index_mib,
        "rss": rss / 1024,
        "search_p50": percentile(broad, 0.5),
        "search_p99": percentile(broad, 0.99),
        "game_p50": percentile(within, 0.5),
        "game_p99": percentile(within, 0.99),
        "page_p99": percentile(page_ms, 0.99),
        **served,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="3,100,500,1678")
    parser.add_argument("--into", type=Path, help="keep the corpora and stores here (default: a temporary folder)")
    parser.add_argument("--reuse", action="store_true", help="with --into: measure the stores there, no full build")
    args = parser.parse_args()
    if args.reuse and not args.into:
        parser.error("--reuse needs --into DIR")
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulings-scale-") as tmp:
        root = args.into or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        for size in (int(s) for s in args.sizes.split(",")):
            row = measure(size, root, args.reuse)
            rows.append(row)
            print(f"measured {size}: {row}", file=sys.stderr, flush=True)
    print(
        "| rulebooks | games | terms | full build (index) | incremental rebuild | store | index | peak memory "
        "| search p50 / p99, all games | in one game | term page p99 |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['size']} | {r['games']} | {r['terms']} | {r['full']:.1f} s ({r['index_seconds']:.1f} s) "
            f"| {r['incremental']:.2f} s | {r['store']:.1f} MiB | {r['index']:.1f} MiB | {r['rss']:.0f} MiB "
            f"| {r['search_p50']:.1f} / {r['search_p99']:.1f} ms | {r['game_p50']:.1f} / {r['game_p99']:.1f} ms "
            f"| {r['page_p99']:.1f} ms |"
        )
    print()
    print(
        "| rulebooks | 8 first searches at once (fresh server) | first request after a rebuild is published "
        "| first answer of the new build (slowest meanwhile) | 8 first searches at once on the new build |"
    )
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['size']} | {r['eight_first']:.0f} ms | {r['first_after_publish']:.0f} ms "
            f"| {r['first_of_new_build']:.0f} ms ({r['slowest_during_swap']:.0f} ms) | {r['eight_after_swap']:.0f} ms |"
        )


if __name__ == "__main__":
    main()
