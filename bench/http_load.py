"""Bounded HTTP load against `rulings serve` on loopback: throughput, p50/p99 latency, errors.

    python bench/http_load.py [--clients 8] [--seconds 20] [--rebuild-at SECONDS] [--url http://host:port]

Mixed traffic: term pages (latest and pinned), rulings, game homes, searches and API answers.
With --rebuild-at, a full `rulings build` runs in the middle; the server must fail no request.
Without --url a server is started on a free port over a fresh build of the bundled corpus.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.build import build  # noqa: E402
from rulings.graph.store import Store  # noqa: E402
from rulings.settings import Settings  # noqa: E402
from rulings.urls import urls  # noqa: E402
from tests.server import running_server  # noqa: E402

SERVE = (sys.executable, "-m", "rulings", "serve")


def mixed_paths(store: Store, rng: random.Random) -> list[str]:
    paths = ["/"]
    queries = [
        "guard keyword",
        "can i defend for another player",
        "quickstrke",
        "ko pile",
        "flame barrier",
        "deck empty draw",
        "heal above maximum hit points",
        "immune targets",
    ]
    for game in store.games():
        versions = [v.label for v in store.versions(game)]
        paths.append(urls.game(game.slug))
        for term in store.terms(game):
            paths.append(urls.term(game.slug, term.slug))
            paths.append(urls.term(game.slug, term.slug, rng.choice(versions)))
        paths += [urls.ruling(game.slug, r["slug"]) for r in store.rulings(game)[:60]]
        paths += [f"/search?q={urllib.parse.quote(q)}&game={game.slug}" for q in queries]
        paths += [f"/api/search?q={urllib.parse.quote(q)}" for q in queries]
    paths += [
        "/api/marvel-champions/applies?term=Dash&date=2020-03-01",
        "/marvel-champions/terms/dash/diff/1.1..1.4",
        "/marvel-champions/changes/1.3..1.4",
    ]
    return paths


def run(url: str, paths: list[str], clients: int, seconds: float, rebuild=None) -> dict:
    parsed = urllib.parse.urlparse(url)
    stop = time.perf_counter() + seconds
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
        mine, bad = [], []
        while time.perf_counter() < stop:
            path = rng.choice(paths)
            start = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status >= 500 or response.status == 404 and "/terms/" not in path:
                    bad.append(f"{response.status} {path}")
            except (OSError, http.client.HTTPException) as exc:
                bad.append(f"{type(exc).__name__} {path}")
                conn.close()
                conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
            mine.append((time.perf_counter() - start) * 1000)
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    rebuild_result = None
    if rebuild:
        at, action = rebuild
        time.sleep(at)
        rebuild_start = time.perf_counter()
        action()
        rebuild_result = time.perf_counter() - rebuild_start
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "seconds": elapsed,
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies),
        "p99": latencies[int(len(latencies) * 0.99)],
        "errors": errors,
        "rebuild_seconds": rebuild_result,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rebuild-at", type=float, default=None)
    parser.add_argument("--url")
    args = parser.parse_args()
    corpus = ROOT / "corpus"
    store_dir = Path(tempfile.mkdtemp(prefix="rulings-load-"))
    settings = Settings.resolve(corpus, store_dir)
    report = build(settings, progress=lambda _: None)
    store = Store(report.build)
    paths = mixed_paths(store, random.Random(7))
    rebuild = (args.rebuild_at, lambda: build(settings, progress=lambda _: None)) if args.rebuild_at else None
    env = dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(corpus))
    with nullcontext(args.url) if args.url else running_server(env, SERVE + ("--threads", "8")) as url:
        result = run(url, paths, args.clients, args.seconds, rebuild)
    print(
        f"{args.clients} clients x {args.seconds:.0f} s against {url}: {result['requests']} requests, "
        f"{result['rps']:.0f} req/s, p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, "
        f"errors {len(result['errors'])}"
        + (f", rebuild in the middle took {result['rebuild_seconds']:.2f} s" if result["rebuild_seconds"] else "")
    )
    for error in result["errors"][:20]:
        print("  error:", error)
    sys.exit(1 if result["errors"] else 0)


if __name__ == "__main__":
    main()
