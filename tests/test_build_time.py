"""bench/build_time.py --against: this checkout and another revision build the same corpus in turn."""

import re

import pytest

from .benches import ROOT, load_bench
from .conftest import CORPUS

pytestmark = pytest.mark.bench  # `make bench-check`, not `make test`: it runs a benchmark script


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="the comparison checks a revision out with git")
def test_side_by_side_builds_report_both_sides_and_their_ratio(monkeypatch, capsys):
    build_time = load_bench(monkeypatch, "build_time")
    build_time.compare(CORPUS, "HEAD", runs=1)
    out = capsys.readouterr().out
    assert "run 1, this checkout:" in out and "run 1, HEAD:" in out
    sides = dict(re.findall(r"^(this checkout|HEAD): median [\d.]+ s wall .*?index ([\d.]+ MiB; built .*)$", out, re.M))
    assert sides.keys() == {"this checkout", "HEAD"}
    assert all("built 3 games" in said for said in sides.values())  # each side built the bundled corpus
    assert re.search(r"^ratio \(this checkout / HEAD\): \d+\.\d\dx$", out, re.M)
