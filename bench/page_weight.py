"""Bytes on the wire: pages of the bundled corpus from a real `rulings serve`, plain and gzipped.

    python bench/page_weight.py

Builds the bundled corpus, serves it, asks each page once without and once with
``Accept-Encoding: gzip`` and prints the bytes of each body as sent, the ratio, and the time
gzip adds to a page (the median of timed compressions of the plain body at the server's level).
"""

from __future__ import annotations

import gzip
import http.client
import os
import statistics
import sys
import time
from urllib.parse import urlsplit

from common import ROOT, built_store

from rulings.web.compress import LEVEL
from tests.server import running_server

PAGES = [
    "/marvel-champions/terms/enemy-attacks",
    "/marvel-champions/",
    "/marvel-champions/changes/1.3..1.4",
    "/marvel-champions/v/1.5/",
    "/search?q=damage",
    "/api/marvel-champions/terms/enemy-attacks",
    "/static/app.js",
    "/static/style.css",
]


def fetch(url: str, path: str, headers: dict[str, str]) -> tuple[int, str | None, bytes]:
    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.getheader("Content-Encoding"), answer.read()
    finally:
        conn.close()


def main(pages: list[str] = PAGES, repeat: int = 20) -> list[dict]:
    _, build = built_store()
    env = dict(os.environ, RULINGS_STORE=str(build.parent.parent), RULINGS_CORPUS=str(ROOT / "corpus"))
    rows = []
    with running_server(env) as url:
        print(f"{'page':45} {'plain':>9} {'gzip':>8} {'ratio':>6} {'gzip ms':>8}")
        for path in pages:
            status, _, plain = fetch(url, path, {})
            _, encoding, packed = fetch(url, path, {"Accept-Encoding": "gzip"})
            assert status == 200 and encoding == "gzip" and gzip.decompress(packed) == plain, path
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                gzip.compress(plain, LEVEL, mtime=0)
                times.append((time.perf_counter() - start) * 1000)
            row = dict(page=path, plain=len(plain), gzip=len(packed), ms=statistics.median(times))
            rows.append(row)
            print(f"{path:45} {len(plain):9,} {len(packed):8,} {len(plain) / len(packed):5.1f}x {row['ms']:8.2f}")
    return rows


if __name__ == "__main__":
    main(repeat=int(sys.argv[1]) if len(sys.argv) > 1 else 20)
