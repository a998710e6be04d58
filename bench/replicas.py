"""Two stateless `rulings serve` replicas behind nginx (Debian package), loaded through nginx.

The built store is a read-only artifact, so any number of replicas can serve the same build.
This script builds the bundled corpus once, starts two replicas on loopback, puts nginx in
front with deploy/nginx.conf (round robin; its per-client rate limits off, the load generator
being one client), runs bench/http_load.py's load through nginx, and checks that both replicas
answered and that no request failed.

    python bench/replicas.py [--clients 8] [--seconds 20]
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from common import ROOT
from http_load import SERVE, mixed_paths, run

from rulings.build import build
from rulings.graph.store import Store
from rulings.settings import Settings
from rulings.web import create_app
from tests.nginx import installed, running_nginx
from tests.server import running_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    if not installed():
        sys.exit("nginx is not installed: apt-get install nginx (the Debian package)")
    tmp = Path(tempfile.mkdtemp(prefix="rulings-replicas-"))
    settings = Settings.resolve(ROOT / "corpus", tmp / "store")
    report = build(settings, progress=lambda _: None)
    env = dict(os.environ, RULINGS_STORE=str(settings.store), RULINGS_CORPUS=str(settings.corpus))
    static = Path(create_app(settings).static_folder)
    with ExitStack() as stack:
        replicas = [stack.enter_context(running_server(env, SERVE)).removeprefix("http://") for _ in range(2)]
        url, log = stack.enter_context(running_nginx(replicas, static, rate_limits=False))
        result = run(url, mixed_paths(Store(report.build), random.Random(5)), args.clients, args.seconds)
        upstreams = [line.split()[0] for line in log.read_text().splitlines() if line and not line.startswith("- ")]
    served = collections.Counter(upstreams)
    print(
        f"nginx -> 2 replicas, {args.clients} clients x {args.seconds:.0f} s: {result['requests']} requests, "
        f"{result['rps']:.0f} req/s, p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, "
        f"errors {len(result['errors'])}; per replica: "
        + ", ".join(f"{addr} {count}" for addr, count in sorted(served.items()))
    )
    shutil.rmtree(tmp, ignore_errors=True)
    ok = not result["errors"] and len(served) == 2 and min(served.values()) > 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
