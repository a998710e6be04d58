"""The benchmark scripts of ``bench/``, loaded as modules for the tests that run them small."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_bench(monkeypatch, name: str):
    """``bench/<name>.py`` as a module, with ``bench/`` importable for its ``common``."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
