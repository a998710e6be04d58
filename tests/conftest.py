"""Shared fixtures: the bundled corpus built once per test session, and a CLI runner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.build import build
from rulings.cli import main
from rulings.graph.store import Store
from rulings.ingest.manifest import load_manifest
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source
from rulings.settings import Settings

from .shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
SEEDS = SHARED / "seeds"


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("store")
    build(Settings.resolve(CORPUS, store), progress=lambda _: None)
    return store


@pytest.fixture(scope="session")
def store(store_dir) -> Store:
    return Store((store_dir / "current").resolve())


@pytest.fixture(scope="session")
def parsed():
    """Every bundled document parsed, keyed by (game, file)."""
    out = {}
    for game_dir in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        manifest = load_manifest(game_dir)
        for spec in manifest.documents:
            source = read_source(spec)
            out[(manifest.slug, spec.file)] = (source, parse(source))
    return out


class Cli:
    """Runs ``rulings`` in-process against the session's store."""

    def __init__(self, store_dir: Path):
        self.env = {"RULINGS_STORE": str(store_dir), "RULINGS_CORPUS": str(CORPUS)}

    def __call__(self, *args: str, input: str | None = None):
        result = CliRunner().invoke(main, list(args), env=self.env, input=input, catch_exceptions=False)
        return result

    def json(self, *args: str):
        result = self(*args, "--json")
        return json.loads(result.output), result.exit_code


@pytest.fixture(scope="session")
def cli(store_dir) -> Cli:
    return Cli(store_dir)


@pytest.fixture
def corpus_copy(tmp_path) -> Path:
    """A writable copy of the bundled corpus for tests that change it."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


def text_source(
    text: str | list[str], kind: str, file: str = "doc.txt", furniture: tuple[str, ...] = (), game: str = "g"
):
    """An in-memory document for parser fixture tests (nothing on disk)."""
    from rulings.ingest.manifest import DocumentSpec
    from rulings.ingest.source import Source

    lines = text.replace("\r", "\n").split("\n") if isinstance(text, str) else list(text)
    spec = DocumentSpec(game, file, None, kind, Path(file).stem.title(), furniture=furniture)
    return Source(spec, lines, "0", "utf-8")


def write_game(root: Path, slug: str, toml: str, files: dict[str, str | bytes]) -> Path:
    """A small game folder for fixture tests."""
    game = root / slug
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.toml").write_text(toml)
    for name, content in files.items():
        path = game / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return game


@pytest.fixture(scope="session")
def app(store_dir):
    from rulings.web import create_app

    return create_app(Settings.resolve(CORPUS, store_dir))


@pytest.fixture(scope="session")
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def exported_site(store_dir, tmp_path_factory) -> Path:
    """``rulings export`` of the bundled corpus, run as a user would."""
    import os
    import subprocess
    import sys

    target = tmp_path_factory.mktemp("export") / "site"
    env = dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(CORPUS))
    done = subprocess.run(
        [sys.executable, "-m", "rulings", "export", str(target)], env=env, capture_output=True, text=True, check=True
    )
    assert "not exported" not in done.stderr, done.stderr
    return target
