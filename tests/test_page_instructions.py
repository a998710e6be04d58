"""bench/page_instructions.py: instructions per cold page, counted by callgrind over the measured requests only."""

import re
import shutil

import pytest

from .benches import load_bench
from .system import required

pytestmark = pytest.mark.bench  # `make bench-check`, not `make test`: it runs a benchmark script


def test_instructions_per_page_are_counted_for_each_kind(monkeypatch, capsys):
    required("valgrind", [shutil.which("valgrind")], "valgrind")
    page_instructions = load_bench(monkeypatch, "page_instructions")
    found = page_instructions.compare(None, pages=3)["this checkout"]
    out = capsys.readouterr().out
    assert set(found) == {"term page", "API term JSON"}
    assert all(1e5 < n < 1e8 for n in found.values()), found  # a page's work: not nothing, not the start-up's
    assert found["term page"] > found["API term JSON"]  # the same reads, and a template rendered on top
    assert re.search(r"^this checkout: term page \d+\.\d{3}M instructions, API term JSON \d+\.\d{3}M", out, re.M)
