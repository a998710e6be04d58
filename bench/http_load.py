"""Bounded HTTP load against `rulings serve` on loopback: throughput, p50/p99 latency, errors.

    python bench/http_load.py [--clients 8] [--seconds 20] [--rebuild-at SECONDS] [--url http://host:port]
                              [--hostile 8] [--store DIR --corpus DIR]
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

With --hostile N, the normal traffic runs alone and then beside N hostile clients, --runs times, and the
medians of the normal p99s are compared. The hostile clients take turns among three kinds (--hostile-kinds):
"costly", the costliest requests within the limits (hostile_paths); "linkify", posts of 20,000 characters
of misspelled [[names]] (about 1,400 of them, as in issue 34); "cachebust", costly pages with a junk
parameter (?cb=<random>) and searches of random words, which no cache holds. Each hostile client sends
--hostile-rate requests a second (10: what deploy/nginx.conf lets one address send to search; 0: as fast
as it can), whatever the server answers. With --nginx, every client goes through Debian's nginx running
deploy/nginx.conf in front of the server (without its per-address limits: every client here has one address).
--store DIR serves an existing store (for instance the 1,678 games bench/scale.py builds).
"""

from __future__ import annotations

import argparse
import atexit
import collections
import http.client
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from rulings.graph import ruling_rows

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.build import build  # noqa: E402
from rulings.builds import current_build  # noqa: E402
from rulings.graph.store import Store  # noqa: E402
from rulings.settings import ServerOptions, Settings  # noqa: E402
from rulings.urls import urls  # noqa: E402
from tests.nginx import installed as nginx_installed  # noqa: E402
from tests.nginx import running_nginx, running_static_nginx  # noqa: E402
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
        paths += [urls.ruling(game.slug, r["slug"]) for r in ruling_rows.rulings(store, game)[:60]]
        paths += [f"/search?q={urllib.parse.quote(q)}&game={game.slug}" for q in queries]
        paths += [f"/api/search?q={urllib.parse.quote(q)}" for q in queries]
    paths += [
        "/api/marvel-champions/applies?term=Dash&date=2020-03-01",
        "/marvel-champions/terms/dash/diff/1.1..1.4",
        "/marvel-champions/changes/1.3..1.4",
    ]
    return paths


def hostile_paths(store: Store) -> list[str]:
    """The costliest requests a client can send within the limits (a query is cut at 200 characters).

    Searches across every game with many distinct short words (the issue's ``0 1 2 ... 65``), with
    the commonest words of rulebooks, as one long quoted phrase, as typos to correct, with the
    widest result window; completion of one letter; linkify of a post that is nothing but mentions;
    the change report across a game's whole timeline. Nothing here is special-cased by the server.
    """
    common = (
        "the card cards player players turn game play each may must take one two any other hand draw "
        "deck discard pile action actions round phase points token tokens board space move attack"
    )
    typos = "victroy plaeyr cardz turnn discrad acton movment atack pionts boardd tokn roud phse drawn"
    queries = [
        " ".join(str(n) for n in range(66)),
        common,
        f'"{common[:190]}"',
        typos,
        " ".join(f"{a}{b}" for a in "abcdefghij" for b in "aeiou")[:199],
    ]
    paths = [f"/search?q={urllib.parse.quote(q)}" for q in queries]
    paths += [f"/api/search?q={urllib.parse.quote(q)}&limit=100" for q in queries]
    paths += ["/api/complete?q=a", "/api/complete?q=s&limit=20"]
    games = sorted(store.games(), key=lambda g: -len(store.versions(g)))
    if games:
        game = games[0]
        versions = store.versions(game)
        paths.append(f"/api/{game.slug}/linkify?text={urllib.parse.quote('[[a]] ' * 1200)}")
        paths.append(f"/{game.slug}/changes/{versions[0].label}..{versions[-1].label}")
        paths.append(f"/search?q={urllib.parse.quote(queries[0])}&game={game.slug}&version={versions[0].label}")
    return paths


Request = tuple[str, str, bytes | None]  # method, path, JSON body
HOSTILE_KINDS = ("costly", "linkify", "cachebust")
TYPO_POST_CHARS = 20_000  # linkify's limit: the longest post it reads


def typo_post(rng: random.Random) -> bytes:
    """A post of 20,000 characters that is nothing but misspelled [[names]] (each compared with every name)."""
    words, size = [], 0
    while size < TYPO_POST_CHARS - 14:
        words.append("[[" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(9)) + "]]")
        size += 14
    return json.dumps({"text": " ".join(words)}).encode()


def hostile_requests(store: Store) -> dict[str, Callable[[random.Random], Request]]:
    """Each kind of hostile client: rng -> its next request."""
    costly = hostile_paths(store)
    games = sorted(store.games(), key=lambda g: -len(store.versions(g)))
    game = games[0]
    versions = [v.label for v in store.versions(game)]
    pages = [urls.term(game.slug, t.slug) for t in store.terms(game)[:200]]
    pages += [f"/{game.slug}/v/{v}/" for v in versions] + [f"/api/{game.slug}/v/{v}/" for v in versions]
    pages += [f"/{game.slug}/changes/{a}..{b}" for i, a in enumerate(versions) for b in versions[i + 1 :]]
    words = [w for t in store.terms(game)[:300] for w in t.name.lower().split() if w.isalpha()]
    # Made beforehand: making a post takes milliseconds of the load generator's own interpreter lock, which
    # its normal clients share, and would slow them as much as the server.
    posts = [typo_post(random.Random(n)) for n in range(64)]

    def cachebust(rng: random.Random) -> Request:
        if rng.random() < 0.5:  # a junk parameter on a costly page: the answer cache must still hold it
            page = rng.choice(pages)
            return "GET", f"{page}{'&' if '?' in page else '?'}cb={rng.getrandbits(64):x}", None
        query = " ".join(rng.choice(words) for _ in range(rng.randint(2, 6)))  # a search no cache holds
        return "GET", f"/search?q={urllib.parse.quote(query)}&cb={rng.getrandbits(32):x}", None

    return {
        "costly": lambda rng: ("GET", rng.choice(costly), None),
        "linkify": lambda rng: ("POST", f"/api/{game.slug}/linkify", rng.choice(posts)),
        "cachebust": cachebust,
    }


def client(url: str, paths, stop: float, seed: int, strict: bool = True, rate: float = 0.0) -> dict:
    """One keep-alive client sending requests until ``stop``: its latencies, statuses, errors.

    ``paths``: a list of paths to GET at random, or rng -> (method, path, body) (hostile clients).
    ``strict``: any 5xx, or a 404 outside term pages, is an error (normal traffic must all succeed).
    ``rate``: requests a second at most (0: one after the other, as fast as the server answers).
    """
    parsed = urllib.parse.urlparse(url)
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    latencies, statuses, errors = [], collections.Counter(), []
    next_at = time.perf_counter()
    while time.perf_counter() < stop:
        if rate:
            time.sleep(max(0.0, next_at - time.perf_counter()))
            next_at += 1 / rate
        method, path, body = paths(rng) if callable(paths) else ("GET", rng.choice(paths), None)
        headers = {"Content-Type": "application/json"} if body else {}
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            statuses[response.status] += 1
            if strict and (response.status >= 500 or response.status == 404 and "/terms/" not in path):
                errors.append(f"{response.status} {path}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__} {path[:120]}")
            conn.close()
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
        latencies.append((time.perf_counter() - start) * 1000)
    return {"latencies": latencies, "statuses": statuses, "errors": errors}


def summary(results: list[dict], elapsed: float) -> dict:
    latencies = sorted(ms for r in results for ms in r["latencies"])
    return {
        "requests": len(latencies),
        "seconds": elapsed,
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies) if latencies else 0.0,
        "p99": latencies[int(len(latencies) * 0.99)] if latencies else 0.0,
        "statuses": sum((r["statuses"] for r in results), collections.Counter()),
        "errors": [e for r in results for e in r["errors"]],
    }


def run(
    url: str,
    paths: list[str],
    clients: int,
    seconds: float,
    rebuild=None,
    hostile: list | None = None,
    hostile_clients: int = 0,
    seed: int = 0,
    hostile_rate: float = 0.0,
) -> dict:
    """``clients`` normal clients (and ``hostile_clients`` sending ``hostile``) for ``seconds``.

    ``hostile``: the paths hostile clients ask for, or a list of rng -> request, one for each client in turn.

    ``seed``: where the clients' random choices start; runs to be compared need different seeds,
    or a later run asks for the very pages an earlier one had the server compute and keep."""
    stop = time.perf_counter() + seconds
    results: list[dict] = []
    hostile_results: list[dict] = []
    lock = threading.Lock()

    def work(seed: int, chosen, into: list[dict], strict: bool, rate: float = 0.0) -> None:
        result = client(url, chosen, stop, seed, strict, rate)
        with lock:
            into.append(result)

    def hostile_of(number: int):
        return hostile[number % len(hostile)] if hostile and callable(hostile[0]) else hostile

    threads = [threading.Thread(target=work, args=(seed + i, paths, results, True)) for i in range(clients)]
    threads += [
        threading.Thread(target=work, args=(seed + 1000 + i, hostile_of(i), hostile_results, False, hostile_rate))
        for i in range(hostile_clients)
    ]
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
    out = summary(results, elapsed) | {"rebuild_seconds": rebuild_result, "first_request_ms": first_request}
    if hostile_clients:
        out["hostile"] = summary(hostile_results, elapsed)
    return out


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


def scratch(prefix: str) -> Path:
    """A temporary folder, removed when the benchmark ends."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def compare(args, settings: Settings, store: Store) -> None:
    """Every scenario ``args.runs`` times, taking turns; medians and the ratio to the floor."""
    paths = compared_paths(store)
    env = dict(os.environ, RULINGS_STORE=str(settings.store), RULINGS_CORPUS=str(settings.corpus))
    export_dir = scratch("rulings-export-") / "site"
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


def line(label: str, result: dict) -> str:
    statuses = ", ".join(f"{code}: {count}" for code, count in sorted(result["statuses"].items()))
    return (
        f"{label}: {result['requests']} requests, {result['rps']:.0f} req/s, p50 {result['p50']:.1f} ms, "
        f"p99 {result['p99']:.1f} ms ({statuses})"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rebuild-at", type=float, default=None)
    parser.add_argument("--hostile", type=int, default=0, help="clients sending the costliest requests")
    parser.add_argument(
        "--hostile-kinds", default=",".join(HOSTILE_KINDS), help="the hostile clients' kinds, taking turns"
    )
    parser.add_argument("--hostile-rate", type=float, default=10, help="requests a second per hostile client")
    parser.add_argument("--nginx", action="store_true", help="every client through deploy/nginx.conf")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of normal traffic before measuring")
    parser.add_argument("--url")
    parser.add_argument("--store", type=Path, help="an existing store to serve (default: build the bundled corpus)")
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--compare", action="store_true", help="the pages against the framework floor")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--threads", type=int, default=ServerOptions.threads, help="server threads (every server alike; the default's)"
    )
    args = parser.parse_args()
    corpus = args.corpus
    store_dir = args.store or scratch("rulings-load-")
    settings = Settings.resolve(corpus, store_dir)
    store = Store(current_build(store_dir) if args.store else build(settings, progress=lambda _: None).build)
    if args.compare:
        compare(args, settings, store)
        return
    paths = mixed_paths(store, random.Random(7))
    rebuild = (args.rebuild_at, lambda: build(settings, progress=lambda _: None)) if args.rebuild_at else None
    env = dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(corpus))
    serving = running_server(env, SERVE + ("--threads", str(args.threads)), timeout=600)
    with ExitStack() as stack:
        url = args.url or stack.enter_context(serving)
        if args.nginx:
            url = through_nginx(stack, url)
        run(url, paths, args.clients, args.warmup)  # every server thread opens the build before it is timed
        if args.hostile:
            kinds = hostile_requests(store)
            hostile_mix(url, paths, [kinds[k] for k in args.hostile_kinds.split(",")], args)
            return
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


def through_nginx(stack: ExitStack, upstream: str) -> str:
    """deploy/nginx.conf in front of ``upstream``, without its per-address limits (every client here is one
    address); its URL."""
    if not nginx_installed():
        sys.exit("--nginx: nginx is not installed (apt-get install nginx)")
    static = Path(__import__("rulings.static", fromlist=["x"]).__file__).parent
    nginx_url, _ = stack.enter_context(running_nginx([urllib.parse.urlparse(upstream).netloc], static, False))
    return nginx_url


def hostile_mix(url: str, paths: list[str], hostile: list, args) -> None:
    """Normal traffic alone, then beside ``args.hostile`` hostile clients, ``args.runs`` times: the median
    normal p99s and their ratio.

    Each run draws other pages than the warm-up and the other runs (``seed``), so none is answered from
    the pages another run left in the server's answer cache."""
    alone, mixed = [], []
    for number in range(args.runs):
        alone.append(run(url, paths, args.clients, args.seconds, seed=10_000 + 100 * number))
        mixed.append(
            run(
                url,
                paths,
                args.clients,
                args.seconds,
                hostile=hostile,
                hostile_clients=args.hostile,
                seed=20_000 + 100 * number,
                hostile_rate=args.hostile_rate,
            )
        )
        print(line(f"run {number + 1}: normal traffic alone, {args.clients} clients x {args.seconds:.0f} s", alone[-1]))
        print(line(f"run {number + 1}: normal traffic beside {args.hostile} hostile clients", mixed[-1]))
        print(line(f"run {number + 1}: the {args.hostile} hostile clients", mixed[-1]["hostile"]))
    p99_alone = statistics.median(r["p99"] for r in alone)
    p99_mixed = statistics.median(r["p99"] for r in mixed)
    rps_alone = statistics.median(r["rps"] for r in alone)
    rps_mixed = statistics.median(r["rps"] for r in mixed)
    errors = [e for r in alone + mixed for e in r["errors"]]
    print(
        f"medians of {args.runs}{' through nginx' if args.nginx else ''}: normal p99 alone {p99_alone:.1f} ms, "
        f"beside {args.hostile} hostile clients ({args.hostile_kinds}, {args.hostile_rate:g} req/s each) "
        f"{p99_mixed:.1f} ms: {p99_mixed / p99_alone:.2f}x; normal throughput {rps_alone:.0f} -> {rps_mixed:.0f} "
        f"req/s ({rps_mixed / rps_alone:.2f}x); normal errors {len(errors)}"
    )
    for error in errors[:20]:
        print("  error:", error)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
