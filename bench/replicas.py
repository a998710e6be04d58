"""Two stateless `rulings serve` replicas behind nginx (Debian package), loaded through nginx.

The built store is a read-only artifact, so any number of replicas can serve the same build.
This script builds the bundled corpus once, starts two replicas on loopback, puts nginx in
front (round robin), runs bench/http_load.py's load through nginx, and checks that both
replicas answered and that no request failed.

    python bench/replicas.py [--clients 8] [--seconds 20]
"""

from __future__ import annotations

import argparse
import collections
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT
from http_load import free_port, mixed_paths, run, start_server

from rulings.build import build
from rulings.graph.store import Store
from rulings.settings import Settings

NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$upstream_addr $status';
    access_log {tmp}/access.log upstream;
    client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy; fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
    upstream rulings {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; keepalive 16; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://rulings;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
        }}
    }}
}}
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        sys.exit("nginx is not installed: apt-get install nginx (the Debian package)")
    tmp = Path(tempfile.mkdtemp(prefix="rulings-replicas-"))
    settings = Settings.resolve(ROOT / "corpus", tmp / "store")
    report = build(settings, progress=lambda _: None)
    replicas = [start_server(settings.store, settings.corpus) for _ in range(2)]
    port = free_port()
    ports = [int(url.rsplit(":", 1)[1]) for _, url in replicas]
    (tmp / "nginx.conf").write_text(NGINX_CONF.format(tmp=tmp, a=ports[0], b=ports[1], port=port))
    proxy = subprocess.Popen(
        [nginx, "-c", str(tmp / "nginx.conf"), "-p", str(tmp), "-g", "daemon off;"], stderr=subprocess.PIPE
    )
    time.sleep(0.5)
    try:
        if proxy.poll() is not None:
            sys.exit("nginx did not start: " + proxy.stderr.read().decode())
        url = f"http://127.0.0.1:{port}"
        result = run(url, mixed_paths(Store(report.build), random.Random(5)), args.clients, args.seconds)
    finally:
        proxy.terminate()
        proxy.wait(10)
        for process, _ in replicas:
            process.terminate()
            process.wait(10)
    served = collections.Counter(line.split()[0] for line in (tmp / "access.log").read_text().splitlines() if line)
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
