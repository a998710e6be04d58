"""Build the store from the corpus: parse, assemble, write graph and index, then swap in atomically.

A build is written aside and only then made current (the layout is ``builds.py``). A build
that fails or is killed leaves the previous one serving; readers that opened the previous
build keep using it until they reopen.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from . import __version__
from .builds import (
    build_info,
    build_lock,
    checksums,
    intact_build,
    new_work_dir,
    prune,
    publish,
    restamp,
    retire,
    usable_build,
)
from .errors import CorpusError, Diagnostic, StoreError, WriteError, storage_failure, write_error
from .graph.builder import create_schema, delete_game, write_game
from .graph.history import Assembler
from .graph.shards import merge_shard
from .graph.store import Store
from .index.writer import keep_words_key, update_index, write_index
from .ingest.corrections import apply_corrections
from .ingest.manifest import CORPUS_LABEL, check_game_names, discover_games, load_manifest, located
from .ingest.parsers import parse
from .ingest.report import DocumentReport, document_report, game_names
from .ingest.source import read_source
from .parallel import balanced_runs, cores, processes
from .settings import Settings

DEPENDENCIES = ("whoosh-reloaded", "markdown-it-py")  # the libraries whose versions shape a build
QUALITY = "report.json"  # each document's quality report (with every entry's reason), per game
SHARDED_FROM = 32  # games: fewer are written by one process (the processes and the merge cost more)


@dataclass
class BuildReport:
    build: Path
    seconds: float
    counts: dict = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    state: dict = field(default_factory=dict)  # what the next incremental build compares against
    phases: dict = field(default_factory=dict)  # seconds spent on the graph and on the index
    documents: list[DocumentReport] = field(default_factory=list)  # the documents this build parsed

    def as_dict(self) -> dict:
        return {
            "build": self.build.name,
            "seconds": round(self.seconds, 3),
            "counts": self.counts,
            "warnings": [str(d) for d in self.diagnostics if d.level == "warning"],
            "suggestions": [d.message for d in self.diagnostics if d.level == "suggestion"],
            "merges": [str(d) for d in self.diagnostics if d.level == "merge"],
            "documents": [d.as_dict() for d in self.documents],
        }


def quality_reports(build: Path) -> dict[str, list[dict]]:
    """Every document's quality report in a build (game slug -> reports, with ``explain``)."""
    try:
        return json.loads((build / QUALITY).read_text())
    except (OSError, ValueError):
        return {}


@functools.cache
def code_fingerprint() -> str:
    """The whole package's code and the versions of the libraries it runs on.

    Any change to them makes old builds stale: a build is only carried over by the code that wrote it.
    """
    digest = hashlib.sha256(__version__.encode())
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".sql", ".toml") and "__pycache__" not in path.parts:
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    for name in DEPENDENCIES:
        try:
            digest.update(f"{name}=={metadata.version(name)}\n".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} missing\n".encode())
    return digest.hexdigest()[:16]


def corpus_fingerprint(corpus: Path) -> str:
    """Cheap: names, sizes and modification times of every file in the corpus."""
    digest = hashlib.sha256(code_fingerprint().encode())
    if corpus.is_dir():
        for path in sorted(corpus.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                stat = path.stat()
                digest.update(f"{path.relative_to(corpus)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def is_stale(settings: Settings, build: Path | None = None) -> bool:
    """True when there is no intact build, or it was built from another corpus or other code."""
    build = build or usable_build(settings.store)[0]
    return build is None or build_info(build).get("fingerprint") != corpus_fingerprint(settings.corpus)


def _progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"  {message}", file=sys.stderr, flush=True)


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def build(
    settings: Settings, progress=_progress, incremental: bool = True, only_if_stale: bool = False
) -> BuildReport | None:
    """Build the corpus into a new build directory and make it current.

    Incremental by default: games whose folder did not change since the newest intact build
    (same code) are carried over from it; only changed games are parsed, written and re-indexed.
    A build reuses nothing from a build whose files fail their checksums: those are set aside.
    With ``only_if_stale`` (read commands), nothing is done when a build that waited for the
    lock finds the store already up to date, so N stale readers run one build, not N.
    Raises WriteError, one clear line, when the store cannot be written.
    """
    try:
        return _locked_build(settings, progress, incremental, only_if_stale)
    except CorpusError as exc:  # named as the file the user can open, wherever --corpus points
        where = located(exc.diagnostic.path, settings.corpus)
        if where == exc.diagnostic.path:
            raise
        raise CorpusError(where, exc.diagnostic.message, exc.diagnostic.line) from exc.__cause__
    except (OSError, sqlite3.Error) as exc:
        error = write_error("the store", settings.store, exc)
        if error is None:
            raise
        raise error from exc


def _locked_build(settings: Settings, progress, incremental: bool, only_if_stale: bool) -> BuildReport | None:
    started = time.perf_counter()
    store = settings.store
    with build_lock(store):
        fingerprint = corpus_fingerprint(settings.corpus)
        previous, damaged = usable_build(store, thorough=True)
        if only_if_stale and previous is not None and build_info(previous).get("fingerprint") == fingerprint:
            return None
        for damage in damaged:
            retire(store, damage.build, previous)
        work = new_work_dir(store)
        try:
            report = _build_into(work, settings, progress, previous if incremental else None)
            report.diagnostics += [Diagnostic("warning", str(d.build), None, f"{d}; not reused") for d in damaged]
            trusted = build_info(previous).get("files") if incremental and previous else None
            (work / "build.json").write_text(
                json.dumps(
                    {
                        "fingerprint": fingerprint,
                        "version": __version__,
                        "built_at": time.time(),
                        "counts": report.counts,
                        "corpus": str(settings.corpus),
                        **report.state,
                        "phases": {name: round(seconds, 3) for name, seconds in report.phases.items()},
                        "files": checksums(work, trusted),
                    },
                    indent=2,
                )
            )
            final = publish(store, work)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        prune(store, final)
        restamp(final)  # removing older builds moved the change times of the files it shared with them
        report.build = final
        report.seconds = time.perf_counter() - started
        return report


def game_fingerprint(game_dir: Path) -> str:
    """Changes when the game's manifest or any file in its folder changes (cheap: stat only)."""
    digest = hashlib.sha256()
    for path in sorted(game_dir.iterdir()):
        if path.is_file() and not path.name.startswith("."):
            stat = path.stat()
            digest.update(f"{path.name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def _link_tree(source: Path, target: Path) -> None:
    """Hard-link an index's files (Whoosh never rewrites a segment); locks are not shared."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file() and "LOCK" not in path.name:
            try:
                os.link(path, target / path.name)
            except OSError:
                shutil.copy2(path, target / path.name)


def _build_into(work: Path, settings: Settings, progress, previous: Path | None) -> BuildReport:
    report = BuildReport(work, 0.0)
    started = time.perf_counter()
    games = discover_games(settings.corpus)
    if not games:
        raise CorpusError(str(settings.corpus), "no game folders in the corpus")
    check_game_names(games)
    fingerprints = {g.name: game_fingerprint(g) for g in games}
    before = build_info(previous) if previous else {}
    incremental = bool(before.get("games")) and before.get("code") == code_fingerprint()
    if incremental:
        assert previous is not None  # ``before`` is read from it
        shutil.copyfile(previous / "graph.sqlite", work / "graph.sqlite")
        changed = [slug for slug, fp in fingerprints.items() if before["games"].get(slug) != fp]
        removed = [slug for slug in before["games"] if slug not in fingerprints]
    else:
        changed, removed = list(fingerprints), []
    conn = _graph_connection(work / "graph.sqlite")
    if incremental:
        for slug in changed + removed:
            delete_game(conn, slug)
    else:
        create_schema(conn)
    wanted = set(changed)
    quality = quality_reports(previous) if incremental and previous else {}  # carried-over games keep their reports
    for slug, reports in _write_games(conn, work, [g for g in games if g.name in wanted], progress):
        report.documents.extend(reports)
        quality[slug] = [r.as_dict(explain=True) for r in reports]
    for slug in removed:
        quality.pop(slug, None)
    (work / QUALITY).write_text(json.dumps(quality, ensure_ascii=False))
    # Every game's warnings and suggestions, those carried over unchanged included.
    report.diagnostics = [
        Diagnostic(*row) for row in conn.execute("SELECT level, path, line, message FROM diagnostics ORDER BY rowid")
    ]
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('built_at', ?)", (str(time.time()),))
    conn.commit()
    conn.execute("ANALYZE")
    totals = {"games": conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]}
    for table in ("documents", "terms", "rulings", "versions", "cards"):
        totals[table] = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    conn.close()
    graph = Store(work)  # the finished graph, read as every reader does
    report.phases["graph"] = time.perf_counter() - started
    started = time.perf_counter()
    words = keep_words_key(graph)
    if incremental and previous and words == before.get("keep_words"):
        _link_tree(previous / "index", work / "index")
        indexed = update_index(graph, work / "index", changed + removed, changed)
    else:
        indexed = write_index(graph, work / "index")
    report.phases["index"] = time.perf_counter() - started
    totals.update(indexed=indexed, rebuilt_games=len(changed), removed_games=len(removed), incremental=incremental)
    report.counts = totals
    report.state = {"games": fingerprints, "code": code_fingerprint(), "keep_words": words}
    return report


def _graph_connection(path: Path) -> sqlite3.Connection:
    """A graph file being written: no journal, no waiting for the disk (a failed build is thrown away)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    return conn


def _write_games(conn: sqlite3.Connection, work: Path, game_dirs: list[Path], progress):
    """Each game parsed, assembled and written into the graph, in order; (its slug, its documents' reports).

    Many games are cut into one run per core, each written by a process of its own into a graph file
    of its own, which are then merged in order (``graph/shards.py``): the same rows and ids as one
    process writes. Parsing and assembling a game is most of the time a build spends on the graph.
    """
    runs = balanced_runs(game_dirs, _folder_size, cores() if len(game_dirs) >= SHARDED_FROM else 1)
    if len(runs) == 1:
        return [(game_dir.name, _build_game(conn, game_dir, progress)) for game_dir in game_dirs]
    shards = [work / f"shard-{number}.sqlite" for number in range(len(runs))]
    with processes(len(runs)) as pool:
        built = list(pool.map(_build_shard, shards, runs))
    for shard, (_, messages) in zip(shards, built, strict=True):
        merge_shard(conn, shard)
        shard.unlink()
        for message in messages:  # told in game order, as one process tells them, to the caller's ``progress``
            progress(message)
    return [game for games, _ in built for game in games]


def _folder_size(game_dir: Path) -> int:
    return sum(path.stat().st_size for path in game_dir.iterdir() if path.is_file())


def _build_shard(path: Path, game_dirs: list[Path]) -> tuple[list[tuple[str, list[DocumentReport]]], list[str]]:
    """In a process of its own: ``game_dirs`` written into a graph file of their own; what was built,
    and the progress messages for the parent to pass on (a caller's ``progress`` stays in the parent)."""
    messages: list[str] = []
    conn = _graph_connection(path)
    try:
        create_schema(conn)
        built = [(game_dir.name, _build_game(conn, game_dir, messages.append)) for game_dir in game_dirs]
        conn.commit()
    finally:
        conn.close()
    return built, messages


def _build_game(conn: sqlite3.Connection, game_dir: Path, progress) -> list[DocumentReport]:
    """Parse one game's documents, assemble its versions and write it into the graph; the documents' reports."""
    manifest = load_manifest(game_dir)
    sources = []
    for spec in manifest.documents:
        source = read_source(spec)
        try:
            parsed = parse(source)
        except Exception as exc:  # a parser bug must still name the document, not print a traceback
            raise CorpusError(
                spec.display_path, f"could not be parsed ({type(exc).__name__}: {exc}); please report this document"
            ) from exc
        apply_corrections(spec, parsed, manifest.corrections)
        sources.append((spec, source, parsed))
        progress(f"{spec.display_path}: {len(parsed.entries)} entries, {len(parsed.rulings)} rulings")
    try:
        assembly = Assembler(manifest, [(spec, parsed) for spec, _, parsed in sources]).run()
        write_game(conn, manifest, sources, assembly)
        names = game_names([parsed for _, _, parsed in sources])
        return [document_report(source, parsed, names) for _, source, parsed in sources]
    except CorpusError:
        raise
    except Exception as exc:  # likewise for the versions and the graph: name the game
        if storage_failure(exc):
            raise  # a full disk is the store's problem, not the game's
        message = f"could not be assembled ({type(exc).__name__}: {exc}); please report this game"
        raise CorpusError(f"{CORPUS_LABEL}/{manifest.slug}", message) from exc


def ensure_built(settings: Settings, progress=_progress, warn=_warn) -> Path:
    """The build to answer from: the current one, built first if missing or older than the corpus.

    A damaged current build gives way to the newest intact one (one line through ``warn``). When
    the corpus does not build or the store cannot be written (a read-only replica, a full disk),
    the build there is keeps answering, with one line saying why it was not rebuilt.
    """
    found = intact_build(settings.store, warn)
    if is_stale(settings, found):
        try:
            report = build(settings, progress, only_if_stale=True)
        except CorpusError as exc:
            if found is None:
                raise
            warn(f"the corpus changed but does not build ({exc}); answering from build {found.name}")
        except WriteError as exc:
            if found is None:
                raise
            warn(f"{exc}; answering from build {found.name}, which may be older than the corpus")
        else:
            found = report.build if report else intact_build(settings.store, warn)
    if found is None:
        raise StoreError(f"no build in {settings.store}; run `rulings build`")
    return found
