"""Bounded HTTP load against `rulings serve` on loopback: throughput, p50/p99 latency, errors.

    python bench/http_load.py [--clients 8] [--seconds 20] [--rebuild-at SECONDS] [--url http://host:port]
    python bench/http_load.py --compare [--clients 8] [--seconds 10] [--runs 3]

Mixed traffic: term pages (latest and pinned), rulings, game homes, searches and API answers.
With --rebuild-at, a full `rulings build` runs in the middle; the server must fail no request and
the first request after the new build is served is timed. Without --url a server is started on a
free port over a fresh build of the bundled corpus.

--compare loads, side by side in one run, the framework floor (a Flask hello-world on waitress with
the same options, bench/hello_floor.py), term pages, the API's term JSON and search pages of
`rulings serve` with its answer cache warm and with it off (RULINGS_CACHE_MIB=0, every answer
computed), and the same term pages exported (`rulings export`) and served by nginx. Each scenario
runs --runs times, the scenarios taking turns; it prints the median req/s, p50 and p99 and the ratio
of the median req/s to the floor's.
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
from contextlib import ExitStack, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.build import build  # noqa: E402
from rulings.graph.store import Store  # noqa: E402
from rulings.settings import Settings  # noqa: E402
from rulings.urls import urls  # noqa: E402
from tests.nginx import installed as nginx_installed  # noqa: E402
from tests.nginx import running_static_nginx  # noqa: E402
from tests.server import running_server  # noqa: E402

SERVE = (sys.executable, "-m", "rulings", "serve")
HELLO = (sys.executable, str(ROOT / "bench" / "hello_floor.py"))
COMPARED_GAME = "marvel-champions"
COMPARED_TERMS = 100  # term pages of that game, asked in turn
SEARCHES = ["guard keyword", "can i defend for another player", "quickstrke", "ko pile", "flame barrier",
            "deck empty draw", "heal above maximum hit points", "immune targets"]  # fmt: skip


def mixed_paths(store: Store, rng: random.Random) -> list[str]:
    paths = ["/"]
    queries = SEARCHES
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
    """``clients`` connections asking for ``paths`` at random for ``seconds``.

    ``rebuild`` = (at seconds, action): the action (a build) runs in the middle, and the first
    request sent once it has published the new build is timed on a connection of its own."""
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
    rebuild_result = first_request = None
    if rebuild:
        at, action = rebuild
        time.sleep(at)
        rebuild_start = time.perf_counter()
        action()
        rebuild_result = time.perf_counter() - rebuild_start
        first_request = first_request_ms(url, random.Random(len(paths)).choice(paths))
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
        "first_request_ms": first_request,
    }


def first_request_ms(url: str, path: str) -> float:
    """Milliseconds of one request on a new connection (the first after a new build was published)."""
    parsed = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    start = time.perf_counter()
    conn.request("GET", path)
    conn.getresponse().read()
    elapsed = (time.perf_counter() - start) * 1000
    conn.close()
    return elapsed


# -- --compare: the pages against the framework floor, side by side ------------------------------------


def compared_paths(store: Store) -> dict[str, list[str]]:
    game = store.game(COMPARED_GAME)
    slugs = [t.slug for t in store.terms(game, ("entry", "keyword"))][:COMPARED_TERMS]
    return {
        "term": [urls.term(game.slug, slug) for slug in slugs],
        "api": [f"/api/{game.slug}/terms/{slug}" for slug in slugs],
        "search": [f"/search?q={urllib.parse.quote(q)}&game={game.slug}" for q in SEARCHES],
        "export": [urls.term(game.slug, slug) + "/" for slug in slugs],
    }


def compare(args, settings: Settings, store: Store) -> None:
    """Every scenario ``args.runs`` times, taking turns; medians and the ratio to the floor."""
    paths = compared_paths(store)
    env = dict(os.environ, RULINGS_STORE=str(settings.store), RULINGS_CORPUS=str(settings.corpus))
    export_dir = Path(tempfile.mkdtemp(prefix="rulings-export-")) / "site"
    subprocess_run(env, "export", str(export_dir))
    threads = ("--threads", str(args.threads))
    with ExitStack() as stack:
        floor = stack.enter_context(running_server(env, HELLO + threads))
        warm = stack.enter_context(running_server(env, SERVE + threads))
        cold = stack.enter_context(running_server(dict(env, RULINGS_CACHE_MIB="0"), SERVE + threads))
        nginx = stack.enter_context(running_static_nginx(export_dir)) if nginx_installed() else None
        scenarios = [
            ("Flask hello-world on waitress (the floor)", floor, ["/"]),
            ("term page, answers cached", warm, paths["term"]),
            ("term page, cache off", cold, paths["term"]),
            ("API term JSON, answers cached", warm, paths["api"]),
            ("API term JSON, cache off", cold, paths["api"]),
            ("search page, repeated queries", warm, paths["search"]),
            ("search page, cache off", cold, paths["search"]),
        ]
        if nginx:
            scenarios.append(("term page exported, served by nginx", nginx, paths["export"]))
        else:
            print("nginx is not installed: the exported page is left out (apt-get install nginx)", file=sys.stderr)
        for _, url, wanted in scenarios:  # once each first: the cache warm, the server's threads started
            run(url, wanted, args.clients, max(1.0, len(wanted) / 200))
        results: dict[str, list[dict]] = {label: [] for label, _, _ in scenarios}
        for _ in range(args.runs):
            for label, url, wanted in scenarios:
                results[label].append(run(url, wanted, args.clients, args.seconds))
    floor_rps = statistics.median(r["rps"] for r in results[scenarios[0][0]])
    print(f"{args.clients} clients x {args.seconds:.0f} s, {args.threads} server threads, median of {args.runs} runs")
    print("| what | req/s | p50 / p99 | x floor | errors |")
    print("| --- | ---: | --- | ---: | ---: |")
    for label, runs in results.items():
        rps = statistics.median(r["rps"] for r in runs)
        p50 = statistics.median(r["p50"] for r in runs)
        p99 = statistics.median(r["p99"] for r in runs)
        errors = sum(len(r["errors"]) for r in runs)
        print(f"| {label} | {rps:,.0f} | {p50:.1f} / {p99:.1f} ms | {rps / floor_rps:.2f} | {errors} |")
    if any(r["errors"] for runs in results.values() for r in runs):
        sys.exit(1)


def subprocess_run(env: dict, *args: str) -> None:
    import subprocess

    subprocess.run([sys.executable, "-m", "rulings", *args], env=env, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rebuild-at", type=float, default=None)
    parser.add_argument("--url")
    parser.add_argument("--compare", action="store_true", help="the pages against the framework floor")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8, help="server threads (every server alike)")
    args = parser.parse_args()
    corpus = ROOT / "corpus"
    store_dir = Path(tempfile.mkdtemp(prefix="rulings-load-"))
    settings = Settings.resolve(corpus, store_dir)
    report = build(settings, progress=lambda _: None)
    store = Store(report.build)
    if args.compare:
        compare(args, settings, store)
        return
    paths = mixed_paths(store, random.Random(7))
    rebuild = (args.rebuild_at, lambda: build(settings, progress=lambda _: None)) if args.rebuild_at else None
    env = dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(corpus))
    with nullcontext(args.url) if args.url else running_server(env, SERVE + ("--threads", str(args.threads))) as url:
        result = run(url, paths, args.clients, args.seconds, rebuild)
    print(
        f"{args.clients} clients x {args.seconds:.0f} s against {url}: {result['requests']} requests, "
        f"{result['rps']:.0f} req/s, p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, "
        f"errors {len(result['errors'])}"
        + (f", rebuild in the middle took {result['rebuild_seconds']:.2f} s" if result["rebuild_seconds"] else "")
        + (f", first request after it {result['first_request_ms']:.1f} ms" if result["first_request_ms"] else "")
    )
    for error in result["errors"][:20]:
        print("  error:", error)
    sys.exit(1 if result["errors"] else 0)


if __name__ == "__main__":
    main()
