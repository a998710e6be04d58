"""A rebuild while the server is under load fails no request (a short run of bench/http_load.py)."""

import importlib.util
import os
import random
from pathlib import Path

from rulings.build import build
from rulings.builds import current_build
from rulings.graph.store import Store
from rulings.settings import Settings

from .conftest import CORPUS
from .server import running_server

BENCH = Path(__file__).resolve().parent.parent / "bench" / "http_load.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("http_load", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
