"""Pages of the live graph and index garbled with their modification time kept, under load: how many
requests meet the damage, what they get, how soon the server answers from the intact build, and what it logs;
then what the CLI says.

    python bench/silent_damage.py [--clients 4] [--seconds 6] [--corpus DIR]

Two kinds of damage, each on a fresh copy of a store of two intact builds (the newer current), while
--clients clients keep asking for term pages (latest and pinned, most of them not yet computed), searches
and API answers of `rulings serve --threads 4`:

- "time kept": the middle of graph.sqlite and of the largest index segment garbled, then their
  modification times put back (a timestamp-preserving restore of a bad copy); their change times move,
  which no user can set back.
- "bit rot": the same, and build.json made to agree with every stat field of the files as they are now,
  as a disk's own decay would leave them: only hashing finds it, when a query meets the damage.

For each: the statuses of the requests answered after the damage, split by the build that answered
(X-Rulings-Build), the seconds until the server's log says why it left the build, and the CLI's first line
and exit status on the same damage, then the next command's. It exits 1 if any request got a 5xx other
than 503 or the server kept answering from the damaged build.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT

from rulings.build import build
from rulings.builds import current_build
from rulings.graph.store import Store
from rulings.settings import Settings
from rulings.urls import urls
from tests.damage import as_if_bit_rot, garble_keeping_time, index_file
from tests.server import free_port, wait_until_answering


def two_builds(root: Path, corpus: Path) -> Path:
    store = root / "template"
    settings = Settings.resolve(corpus, store)
    build(settings, progress=lambda _: None)
    build(settings, progress=lambda _: None, incremental=False)
    return store


def damage(build_dir: Path, bit_rot: bool) -> None:
    garble_keeping_time(build_dir / "graph.sqlite", index_file(build_dir), share=0.8)
    if bit_rot:
        as_if_bit_rot(build_dir)


def paths_of(store: Store) -> list[str]:
    out = []
    for game in store.games():
        versions = [v.label for v in store.versions(game)]
        for term in store.terms(game):
            out += [urls.term(game.slug, term.slug), urls.term(game.slug, term.slug, versions[0])]
            out.append(f"/api/{game.slug}/terms/{term.slug}")
        out += [f"/api/search?q={term.slug.replace('-', '+')}" for term in store.terms(game)[:40]]
    return out


def load(url: str, paths: list[str], stop: threading.Event, seed: int, into: list) -> None:
    """Ask for ``paths`` at random until ``stop``: (time, status, build that answered) of each answer."""
    host, port = url.removeprefix("http://").split(":")
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    while not stop.is_set():
        try:
            conn.request("GET", rng.choice(paths))
            response = conn.getresponse()
            response.read()
            into.append((time.perf_counter(), response.status, response.headers.get("X-Rulings-Build")))
        except (OSError, http.client.HTTPException):
            into.append((time.perf_counter(), 0, None))
            conn.close()
            conn = http.client.HTTPConnection(host, int(port), timeout=30)


def server_case(store: Path, corpus: Path, bit_rot: bool, clients: int, seconds: float) -> dict:
    damaged, fallback = current_build(store), sorted((store / "builds").iterdir())[0]
    env = dict(os.environ, RULINGS_STORE=str(store), RULINGS_CORPUS=str(corpus))
    log = tempfile.TemporaryFile()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulings", "serve", "--threads", "4", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    answers: list = []
    stop = threading.Event()
    try:
        wait_until_answering(url + "/", proc, 120, log)
        paths = paths_of(Store(damaged))
        threads = [threading.Thread(target=load, args=(url, paths, stop, n, answers)) for n in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        damaged_at = time.perf_counter()
        if bit_rot:  # the server paused meanwhile: it never sees the stat fields move, as with a disk's own decay
            os.kill(proc.pid, signal.SIGSTOP)
        damage(damaged, bit_rot)
        if bit_rot:
            os.kill(proc.pid, signal.SIGCONT)
        time.sleep(seconds)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        proc.terminate()
        proc.wait(10)
    log.seek(0)
    said = [line for line in log.read().decode(errors="replace").splitlines() if "is damaged" in line]
    after = [(at - damaged_at, status, build_id) for at, status, build_id in answers if at > damaged_at]
    by_build = collections.Counter((build_id == damaged.name, status) for _, status, build_id in after)
    last_damaged = max((at for at, _, build_id in after if build_id == damaged.name), default=None)
    return {
        "requests": len(after),
        "from_damaged": {status: n for (old, status), n in sorted(by_build.items()) if old},
        "from_intact": {status: n for (old, status), n in sorted(by_build.items()) if not old},
        "last_from_damaged_s": last_damaged,
        "said": said[0].split(" in ", 1)[-1].split(": ", 1)[-1] if said else None,  # Flask's "[time] WARNING in x: "
        "fallback": fallback.name,
        "bad": any(status >= 500 and status != 503 or status == 0 for _, status, _ in after),
    }


def cli_case(store: Path, corpus: Path, bit_rot: bool) -> list[tuple[int, str]]:
    damage(current_build(store), bit_rot)
    env = dict(os.environ, RULINGS_STORE=str(store), RULINGS_CORPUS=str(corpus))
    out = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "rulings", "terms", "marvel-champions"], env=env, capture_output=True, text=True
        )
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        out.append((done.returncode, lines[0] if lines else "", len(lines), "Traceback" in done.stderr))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="rulings-silent-"))
    failed = False
    try:
        template = two_builds(root, args.corpus)
        for label, bit_rot in (("time kept", False), ("bit rot", True)):
            store = root / f"server-{bit_rot}"
            shutil.copytree(template, store, symlinks=True)
            result = server_case(store, args.corpus, bit_rot, args.clients, args.seconds)
            failed |= result["bad"] or result["last_from_damaged_s"] is not None and result["from_intact"] == {}
            last = result["last_from_damaged_s"]
            print(f"server, {label}: {result['requests']} requests after the damage")
            print(f"  answered from the damaged build: {result['from_damaged'] or 'none'}")
            print(f"  answered from build {result['fallback']}: {result['from_intact']}")
            print(f"  last answer from the damaged build {last:.2f} s after it" if last is not None else "", end="")
            print(f"\n  log: {result['said']}")
            store = root / f"cli-{bit_rot}"
            shutil.copytree(template, store, symlinks=True)
            for number, (code, line, lines, traceback) in enumerate(cli_case(store, args.corpus, bit_rot), 1):
                failed |= traceback
                print(f"cli, {label}, command {number}: exit {code}, {lines} line(s) on stderr: {line or '(none)'}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
