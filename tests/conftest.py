"""Shared fixtures: the bundled corpus built once per test session, and a CLI runner.

Tests are hermetic: the shell's ``RULINGS_*`` variables never reach them, tests that read
../shared carry the ``needs_shared`` marker (and skip, saying why, when it is absent), and under
CI (``.ci/run`` sets ``CI=1``) Hypothesis is derandomized and any skipped test fails the run.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings as hypothesis_settings

from rulings.build import build
from rulings.cli import main
from rulings.graph.store import Store
from rulings.ingest.assemble import cut_manifest, read_list
from rulings.ingest.manifest import load_manifest
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source
from rulings.settings import Settings

from .shared import MISSING, SHARED

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"

hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_collection_modifyitems(config, items):
    if SHARED is not None:
        return
    for item in items:
        if item.get_closest_marker("needs_shared"):
            item.add_marker(pytest.mark.skip(reason=MISSING))


def pytest_sessionfinish(session, exitstatus):
    """CI runs every test: a skip there is a failure (a missing ../shared, a missing browser...)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if os.environ.get("CI") and skipped and exitstatus == 0:
        reporter.write_line(f"CI: {len(skipped)} tests were skipped; every test must run in CI", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _clear_rulings_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("RULINGS_")]:
        monkeypatch.delenv(name)


@pytest.fixture(scope="session", autouse=True)
def _no_rulings_variables_in_the_session():
    """An operator's RULINGS_BASE_URL (or STORE, CORPUS...) in the shell never reaches a test,
    nor the session's store and app, which are made before any function-scoped fixture."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        _clear_rulings_variables(monkeypatch)
        yield


@pytest.fixture(autouse=True)
def _no_rulings_variables(monkeypatch):
    """Nor does one a previous test left behind."""
    _clear_rulings_variables(monkeypatch)


@pytest.fixture(scope="session")
def seeds() -> Path:
    """../shared/seeds: the five documents of the bundled corpus as received."""
    if SHARED is None:
        pytest.skip(MISSING)
    return SHARED / "seeds"


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("store")
    build(Settings.resolve(CORPUS, store), progress=lambda _: None)
    return store


@pytest.fixture(scope="session")
def store(store_dir) -> Store:
    return Store((store_dir / "current").resolve())


def every_name(store: Store, game) -> list[str]:
    """Every name a game's terms and sub-definitions answer to, sorted (what a ``[[mention]]`` may say)."""
    join = "JOIN terms t ON t.id = {0}.term_id WHERE t.game_id = ?"
    names = store.q("SELECT n.name FROM term_names n " + join.format("n"), game.id)
    names += store.q("SELECT s.name FROM subdefs s " + join.format("s"), game.id)
    return sorted({name for (name,) in names})


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

    def __init__(self, store_dir: Path, corpus: Path = CORPUS):
        self.env = {"RULINGS_STORE": str(store_dir), "RULINGS_CORPUS": str(corpus)}

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


def assert_clean_exit(result) -> None:
    """A CLI run ended by the command itself (with its exit status), not by an uncaught exception.

    Click's runner catches exceptions into ``result.exception``; they never reach ``result.output``.
    """
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError("".join(traceback.format_exception(*result.exc_info)))


def wsgi_get(app, path: str, host: str):
    """A GET straight to the WSGI app with this Host header, as waitress would pass it (Flask's test
    client itself trips on some hosts while handling cookies)."""
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Response

    return Response.from_app(app, EnvironBuilder(path, headers={"Host": host}).get_environ(), buffered=True)


def write_game(root: Path, slug: str, toml: str, files: dict[str, str | bytes]) -> Path:
    """A small game folder for fixture tests."""
    game = root / slug
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.toml").write_text(toml)
    for name, content in files.items():
        path = game / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return game


def built_game(corpus: Path, store: Path, slug: str, toml: str, files: dict[str, str | bytes]) -> Settings:
    """A small game written into ``corpus`` and built into ``store``: the settings to open it with."""
    write_game(corpus, slug, toml, files)
    settings = Settings.resolve(corpus, store)
    build(settings, progress=lambda _: None)
    return settings


def built_searcher(corpus: Path, store: Path, slug: str, toml: str, files: dict[str, str | bytes]):
    """``built_game``, opened for searching."""
    from rulings.builds import current_build
    from rulings.index.search import Searcher

    return Searcher(current_build(built_game(corpus, store, slug, toml, files).store))


MAGIC_DOCS = SHARED / "corpora" / "magic-the-gathering" if SHARED is not None else None
MAGIC_MANIFEST = ROOT / "docs" / "corpora" / "magic-the-gathering" / "game.toml"
# The quick game's editions (quick.txt: seven of 2020-2023), in its order: the manifest names the whole
# history (86 since 2003), and tests of the shipped game read these seven, never whatever the folder holds.
MAGIC_EDITIONS = read_list(MAGIC_MANIFEST.with_name("quick.txt"))


def magic_corpus(root: Path, editions: int | None = 7) -> Path:
    """A corpus holding only Magic: The Gathering with the first ``editions`` editions of the quick game (None:
    the whole history of the manifest): the repository's game.toml cut to those documents, the published files
    linked in from ../shared (never copied)."""
    game = root / "magic-the-gathering"
    game.mkdir(parents=True)
    manifest = MAGIC_MANIFEST.read_text(encoding="utf-8")
    files = [d["file"] for d in tomllib.loads(manifest)["documents"]] if editions is None else MAGIC_EDITIONS[:editions]
    text = cut_manifest(manifest, set(files)) if editions is not None else manifest
    text = text.replace("[game]\n", f'[game]\nlinked_from = "{MAGIC_DOCS}"\n', 1)  # the links point there
    (game / "game.toml").write_text(text)
    for file in files:
        (game / file).symlink_to(MAGIC_DOCS / file)
    return root


@pytest.fixture(scope="session")
def magic_store_dir(tmp_path_factory) -> Path:
    """All seven Magic editions built (the tests using it are marked ``needs_shared``)."""
    if MAGIC_DOCS is None or not MAGIC_DOCS.is_dir():
        pytest.skip(MISSING)
    root = tmp_path_factory.mktemp("magic")
    build(Settings.resolve(magic_corpus(root / "corpus"), root / "store"), progress=lambda _: None)
    return root / "store"


@pytest.fixture(scope="session")
def magic_cli(magic_store_dir) -> Cli:
    return Cli(magic_store_dir, magic_store_dir.parent / "corpus")


@pytest.fixture(scope="session")
def magic_store(magic_store_dir) -> Store:
    return Store((magic_store_dir / "current").resolve())


@pytest.fixture(scope="session")
def magic_client(magic_store_dir):
    from rulings.web import create_app

    return create_app(Settings.resolve(None, magic_store_dir)).test_client()


@pytest.fixture(scope="session")
def app(store_dir):
    from rulings.web import create_app

    return create_app(Settings.resolve(CORPUS, store_dir))


@pytest.fixture(scope="session")
def client(app):
    return app.test_client()


@pytest.fixture
def cold_app(store_dir, monkeypatch):
    """The site with its answer cache off (``RULINGS_CACHE_MIB=0``): every request computes its answer."""
    from rulings.web import create_app

    monkeypatch.setenv("RULINGS_CACHE_MIB", "0")
    return create_app(Settings.resolve(CORPUS, store_dir))


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
