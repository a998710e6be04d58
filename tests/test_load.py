"""A rebuild while the server is under load fails no request (a short run of bench/http_load.py)."""

import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest

from rulings.build import build
from rulings.builds import current_build
from rulings.graph.store import Store
from rulings.settings import Settings

from .conftest import CORPUS
from .server import running_server, status_of

BENCH = Path(__file__).resolve().parent.parent / "bench" / "http_load.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("http_load", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.bench  # `make bench-check`, not `make test`: it runs a benchmark script
def test_rebuild_under_load_fails_no_request(tmp_path):
    http_load = load_bench()
    settings = Settings.resolve(CORPUS, tmp_path / "store")
    build(settings, progress=lambda _: None)
    first = current_build(settings.store)
    env = dict(os.environ, RULINGS_STORE=str(settings.store), RULINGS_CORPUS=str(CORPUS))
    with running_server(env, http_load.SERVE + ("--threads", "8")) as url:
        paths = http_load.mixed_paths(Store(first), random.Random(3))
        result = http_load.run(
            url, paths, clients=4, seconds=6, rebuild=(1.5, lambda: build(settings, progress=lambda _: None))
        )
    assert result["errors"] == []
    assert result["requests"] > 50
    assert current_build(settings.store) != first


# A server that writes far more than a pipe holds (64 KiB) to stderr, then answers: as a busy
# `rulings serve` does (waitress warns of every queued task). Blocked on a full pipe, it never would.
CHATTY_SERVER = """
import http.server, sys
for _ in range(256):
    sys.stderr.write("x" * 1023 + "\\n")
sys.stderr.flush()
port = int(sys.argv[sys.argv.index("--port") + 1])
http.server.HTTPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler).serve_forever()
"""


def test_running_server_never_blocks_on_its_stderr(tmp_path):
    with running_server(dict(os.environ), (sys.executable, "-c", CHATTY_SERVER), cwd=tmp_path) as url:
        assert status_of(url + "/") == 200


def test_running_server_says_why_the_server_exited():
    with pytest.raises(RuntimeError, match="no such store"):
        with running_server(dict(os.environ), (sys.executable, "-c", "import sys; sys.exit('no such store')")):
            pass
