"""Any rulebook, any game: import, the generic parser, and incremental builds."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.build import build
from rulings.builds import current_build
from rulings.cli import main
from rulings.graph.store import Store
from rulings.index.search import Searcher
from rulings.ingest.importer import game_key, import_folder, kind_of
from rulings.ingest.manifest import load_manifest
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source
from rulings.settings import Settings

from .shared import MISSING, SHARED

SAMPLE = [
    "1830-rulebook.md",
    "agricola-rulebook.md",
    "20-strong-tanglewoods-general-rules.md",
    "20-strong-tanglewoods-rulebook.md",
    "7-wonders-rulebook.md",
    "dominion-rulebook.md",
    "ticket-to-ride-rulebook.md",
    "pandemic-rulebook.md",
    "catan-rulebook.md",
]

MARKDOWN_BOOK = """# Moon Base Rulebook

## Overview

Build the best base on the moon.

## Glossary

**Crater** — A space you cannot build on.

**Dome**: A building that holds air.

Ridge: A line of rocks. It blocks movement.

It also blocks line of sight.

## Frequently Asked Questions

**Q:** Can a dome sit in a crater?

**A:** No. Craters cannot hold buildings.

### Setup

1. Place the board.
2. Deal cards.
"""


@pytest.fixture
def sample_folder(tmp_path):
    """Three rulebooks of ../shared/scale-corpus and a small game written here."""
    if SHARED is None:
        pytest.skip(MISSING)
    scale = SHARED / "scale-corpus" / "rulebooks"
    folder = tmp_path / "rulebooks"
    folder.mkdir()
    for name in SAMPLE:
        shutil.copyfile(scale / name, folder / name)
    (folder / "moon-base-rulebook.md").write_text(MARKDOWN_BOOK)
    (folder / "moon_base_faq.md").write_text("# Moon Base FAQ\n\nQ: Is the moon real?\nA: Yes.\n")
    return folder


def test_generic_markdown_parser(tmp_path):
    from rulings.ingest.manifest import DocumentSpec

    path = tmp_path / "moon.md"
    path.write_text(MARKDOWN_BOOK)
    spec = DocumentSpec("moon", "moon.md", path, "rulebook", "Moon")
    source = read_source(spec)
    doc = parse(source)
    entries = {e.name: e for e in doc.entries}
    assert {"Crater", "Dome", "Ridge"} <= {e.name for e in doc.entries if e.kind == "entry"}
    assert "It also blocks line of sight." in entries["Ridge"].text  # a continuation stays with its term
    assert entries["Setup"].path == ["Moon Base Rulebook", "Frequently Asked Questions"]
    assert entries["Setup"].text.startswith("1. Place the board.")
    faq = doc.rulings[0]
    assert faq.question == "Can a dome sit in a crater?" and faq.answer.startswith("No.")
    assert doc.uncovered(source.lines) == []


@pytest.mark.needs_shared
def test_import_one_game_per_file_or_grouped(sample_folder, tmp_path):
    games, refused = import_folder(sample_folder, tmp_path / "corpus")
    assert len(games) == len(list(sample_folder.iterdir())) and refused == []
    moon = load_manifest(tmp_path / "corpus" / "moon-base-rulebook")
    assert moon.name == "Moon Base" and moon.documents[0].kind == "rulebook"
    grouped, _ = import_folder(sample_folder, tmp_path / "grouped", group=True)
    by_slug = {g.slug: g for g in grouped}
    assert len(by_slug["moon-base"].documents) == 2
    assert {kind for _, kind, _ in by_slug["moon-base"].documents} == {"rulebook", "faq"}
    assert len(by_slug["20-strong-tanglewoods"].documents) == 2  # general rules + rulebook
    again, _ = import_folder(sample_folder, tmp_path / "corpus")
    assert all(g.skipped for g in again)  # never overwrites a manifest


def test_import_keeps_document_url_names_apart(tmp_path):
    source = tmp_path / "books"
    source.mkdir()
    (source / "moon-base.md").write_text(MARKDOWN_BOOK)
    (source / "Moon_Base.txt").write_text("Crater: A hole.\n")
    import_folder(source, tmp_path / "corpus", group=True)
    manifest = load_manifest(tmp_path / "corpus" / "moon-base")  # would refuse two documents named "moon-base"
    assert len({spec.slug for spec in manifest.documents}) == len(manifest.documents) == 2


def test_import_names():
    assert game_key("agricola_rulebook") == game_key("agricola-rulebook") == "agricola"
    assert game_key("20-strong-tanglewoods-general-rules") == "20-strong-tanglewoods"
    assert kind_of("moon_base_faq") == "faq" and kind_of("x-quick-reference") == "reference"


@pytest.mark.needs_shared
def test_cli_import_then_build_and_search(sample_folder, tmp_path):
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    runner = CliRunner()
    result = runner.invoke(
        main, ["--corpus", str(corpus), "--store", str(store), "import", str(sample_folder), "--link"]
    )
    assert result.exit_code == 0 and "imported" in result.output
    assert (corpus / "moon-base-rulebook" / "moon-base-rulebook.md").is_symlink()
    result = runner.invoke(main, ["--corpus", str(corpus), "--store", str(store), "search", "crater", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)[0]["title"] == "Crater"


def test_incremental_build_rebuilds_only_what_changed(corpus_copy, tmp_path):
    settings = Settings.resolve(corpus_copy, tmp_path / "store")
    first = build(settings, progress=lambda _: None)
    assert first.counts["incremental"] is False and first.counts["rebuilt_games"] == 3
    toml = corpus_copy / "vs-system-2pcg" / "game.toml"
    toml.write_text(toml.read_text().replace('name = "Vs. System 2PCG"', 'name = "Vs. System"'))
    os.utime(toml, ns=(1, 2 * 10**18))
    second = build(settings, progress=lambda _: None)
    assert second.counts["incremental"] is True and second.counts["rebuilt_games"] == 1
    store = Store(current_build(settings.store))
    assert store.game("vs-system-2pcg").name == "Vs. System"
    full = build(Settings.resolve(corpus_copy, tmp_path / "full"), progress=lambda _: None, incremental=False)
    assert sorted(map(str, second.diagnostics)) == sorted(map(str, full.diagnostics))  # carried-over games too
    assert any("Dash (Value)" in str(d) for d in second.diagnostics)  # a Marvel Champions suggestion
    other = Store(full.build)
    for game in store.games():
        mine = [(t.name, t.slug) for t in store.terms(game, ("entry", "keyword", "section"))]
        theirs = [(t.name, t.slug) for t in other.terms(other.game(game.slug), ("entry", "keyword", "section"))]
        assert mine == theirs
    searcher, reference = Searcher(store.build), Searcher(other.build)
    for query in ("stun", "flame barrier", "guard keyword", "hidden character"):
        assert [h.url for h in searcher.search(query).hits] == [h.url for h in reference.search(query).hits]
    shutil.rmtree(corpus_copy / "sentinels-of-the-multiverse")
    third = build(settings, progress=lambda _: None)
    assert third.counts["removed_games"] == 1 and third.counts["games"] == 2
    assert not Searcher(third.build).search("flame barrier", game="sentinels-of-the-multiverse").hits


def test_changed_code_means_a_full_build(corpus_copy, tmp_path, monkeypatch):
    settings = Settings.resolve(corpus_copy, tmp_path / "store")
    build(settings, progress=lambda _: None)
    monkeypatch.setattr("rulings.build.code_fingerprint", lambda: "different-code")
    again = build(settings, progress=lambda _: None)
    assert again.counts["incremental"] is False


def test_the_code_fingerprint_covers_the_whole_package_and_its_libraries(tmp_path, monkeypatch):
    import subprocess
    import sys

    import rulings
    from rulings import build as build_module

    copy = tmp_path / "site"
    shutil.copytree(Path(rulings.__file__).parent, copy / "rulings", ignore=shutil.ignore_patterns("__pycache__"))
    probe = [sys.executable, "-c", "from rulings.build import code_fingerprint; print(code_fingerprint())"]
    env = {**os.environ, "PYTHONPATH": str(copy)}

    def fingerprint() -> str:
        return subprocess.run(probe, env=env, cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()

    before = fingerprint()
    with open(copy / "rulings" / "markup.py", "a") as module:  # outside ingest/, graph/ and index/
        module.write("\n# a change\n")
    assert fingerprint() != before

    versions = {"whoosh-reloaded": "9.9.9"}
    real, unpatched = build_module.metadata.version, build_module.code_fingerprint.__wrapped__()
    monkeypatch.setattr(build_module.metadata, "version", lambda name: versions.get(name) or real(name))
    assert build_module.code_fingerprint.__wrapped__() != unpatched  # another Whoosh: another build
