"""bench/build_time.py --against: this checkout and another revision build the same corpus in turn."""

import importlib.util
import re
from pathlib import Path

import pytest

from .conftest import CORPUS

ROOT = Path(__file__).resolve().parent.parent


def load_bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # for its ``common``
    spec = importlib.util.spec_from_file_location("build_time", ROOT / "bench" / "build_time.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="the comparison checks a revision out with git")
def test_side_by_side_builds_report_both_sides_and_their_ratio(monkeypatch, capsys):
    build_time = load_bench(monkeypatch)
    build_time.compare(CORPUS, "HEAD", runs=1)
    out = capsys.readouterr().out
    assert "run 1, this checkout:" in out and "run 1, HEAD:" in out
    sides = dict(re.findall(r"^(this checkout|HEAD): median [\d.]+ s wall .*?index ([\d.]+ MiB; built .*)$", out, re.M))
    assert sides.keys() == {"this checkout", "HEAD"}
    assert all("built 3 games" in said for said in sides.values())  # each side built the bundled corpus
    assert re.search(r"^ratio \(this checkout / HEAD\): \d+\.\d\dx$", out, re.M)
