"""A damaged build heals: readers say so in one line and answer from the newest intact build, a new
build reuses nothing that fails its checksum, and a store that cannot be written is one clear line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.build import build
from rulings.builds import DAMAGED, build_info, current_build, finished_builds, verify
from rulings.cli import main
from rulings.settings import Settings
from rulings.web.state import Current

from .conftest import CORPUS, assert_clean_exit, write_game
from .damage import DAMAGE, index_file, truncate
from .server import running_server, status_of

TOML = '[game]\nname = "Tiny"\n[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitle = "Rules"\n'
TEXT = "Basics\n\nSome prose.\n\nGlossary\n\nApple: A fruit.\n\nPear: Another fruit.\n"


def run(corpus: Path, store: Path, *args: str):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


@pytest.fixture
def two_builds(tmp_path):
    """A tiny corpus built twice from scratch (no shared files); the second build is current."""
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", TOML, {"rules.txt": TEXT})
    store = tmp_path / "store"
    settings = Settings.resolve(corpus, store)
    first = build(settings, progress=lambda _: None).build
    second = build(settings, progress=lambda _: None, incremental=False).build
    assert current_build(store) == second and not verify(first) and not verify(second)
    return corpus, store, first, second


def test_a_build_records_the_checksums_of_its_files(two_builds):
    _, store, _, second = two_builds
    files = build_info(second)["files"]
    assert "graph.sqlite" in files and any(name.startswith("index/") and name.endswith(".seg") for name in files)
    assert all(len(entry["sha256"]) == 64 and entry["size"] > 0 for entry in files.values())


@pytest.mark.parametrize("damage", DAMAGE)
def test_read_commands_fall_back_to_the_newest_intact_build(two_builds, damage):
    corpus, store, first, second = two_builds
    DAMAGE[damage](second)
    result = run(corpus, store, "applies", "tiny", "pear", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["status"] == "ok"
    warning = result.stderr.strip().splitlines()
    assert len(warning) == 1, result.stderr  # one line, no traceback
    assert warning[0].startswith(f"warning: build {second.name} is damaged: "), warning
    assert f"answering from build {first.name}" in warning[0]
    # Healed: the damaged build is set aside and the intact one is current; the next command is quiet.
    assert current_build(store) == first
    assert (store / "builds" / (DAMAGED + second.name)).is_dir()
    again = run(corpus, store, "applies", "tiny", "pear", "--json")
    assert again.exit_code == 0 and again.stderr == ""


@pytest.mark.parametrize("damage", DAMAGE)
def test_check_names_the_damage_and_build_repairs_it(two_builds, damage):
    corpus, store, first, second = two_builds
    assert run(corpus, store, "check").exit_code == 0
    DAMAGE[damage](second)
    checked = run(corpus, store, "check", "--json")
    assert checked.exit_code == 1
    report = json.loads(checked.stdout)
    assert report[0]["build"] == second.name and report[0]["problems"]
    rebuilt = run(corpus, store, "build")
    assert rebuilt.exit_code == 0, rebuilt.output
    assert f"build {second.name} is damaged" in rebuilt.stderr and "not reused" in rebuilt.stderr
    new = current_build(store)
    assert new not in (first, second) and not verify(new, thorough=True)
    assert run(corpus, store, "check", "--all").exit_code == 0  # the damaged build was dropped
    assert second not in finished_builds(store)


@pytest.mark.parametrize("damage", ["garbled graph", "truncated index segment"])
def test_a_build_never_reuses_a_part_that_fails_its_checksum(tmp_path, damage):
    """An incremental build copies the graph and links the index of the build before it: when that
    build is damaged, the next one starts afresh instead of carrying the damage over."""
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", TOML, {"rules.txt": TEXT})
    write_game(corpus, "other", TOML.replace("Tiny", "Other"), {"rules.txt": TEXT.replace("Pear", "Plum")})
    store = tmp_path / "store"
    settings = Settings.resolve(corpus, store)
    only = build(settings, progress=lambda _: None).build
    DAMAGE[damage](only)
    (corpus / "tiny" / "rules.txt").write_text(TEXT + "\nQuince: A third fruit.\n")
    report = build(settings, progress=lambda _: None)
    assert not report.counts["incremental"]  # no intact build to carry games over from
    assert any(f"build {only.name} is damaged" in str(d) for d in report.diagnostics)
    assert not verify(report.build, thorough=True)
    for game, term in (("tiny", "quince"), ("other", "plum")):
        result = run(corpus, store, "applies", game, term, "--json")
        assert json.loads(result.stdout)["status"] == "ok", result.output
    assert json.loads(run(corpus, store, "search", "plum", "--json").stdout)[0]["title"] == "Plum"


def test_no_intact_build_left_means_a_rebuild(two_builds):
    corpus, store, first, second = two_builds
    truncate(first / "graph.sqlite")
    truncate(second / "graph.sqlite")
    result = run(corpus, store, "terms", "tiny", "--json")
    assert result.exit_code == 0, result.output
    assert "no intact build is left" in result.stderr
    assert {t["name"] for t in json.loads(result.stdout)} >= {"Apple", "Pear"}
    assert not verify(current_build(store), thorough=True)


def test_many_stale_readers_run_one_build(two_builds):
    """N read commands started together on a stale store: one builds, the others wait and use it."""
    corpus, store, _, _ = two_builds
    (corpus / "tiny" / "rules.txt").write_text(TEXT + "\nQuince: A third fruit.\n")
    before = set(finished_builds(store))
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    procs = [
        subprocess.Popen([sys.executable, "-m", "rulings", "terms", "tiny", "--json"], env=env, stdout=subprocess.PIPE)
        for _ in range(4)
    ]
    outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert all("Quince" in out.decode() for out in outputs)
    assert len(set(finished_builds(store)) - before) == 1


# -- a store that cannot be written ---------------------------------------------------------------

HAS_USER_NAMESPACES = (
    shutil.which("unshare") is not None
    and subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"], capture_output=True).returncode == 0
)
needs_namespaces = pytest.mark.skipif(
    not HAS_USER_NAMESPACES, reason="a real full or read-only file system needs unprivileged user namespaces (unshare)"
)


def in_mount_namespace(setup: str, *rulings_args: str, env: dict) -> subprocess.CompletedProcess:
    """Run ``rulings`` in a private mount namespace after ``setup`` (mounts only it can see)."""
    command = " ".join(["exec", sys.executable, "-m", "rulings", *rulings_args])
    return subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-euc", f"{setup}\n{command}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@needs_namespaces
def test_a_full_disk_is_one_line_and_exit_5(tmp_path):
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", TOML, {"rules.txt": TEXT * 2000})
    store = tmp_path / "store"
    store.mkdir()
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    done = in_mount_namespace(f"mount -t tmpfs -o size=256k tmpfs {store}", "build", env=env)
    assert done.returncode == 5, done.stderr
    line = one_error_line(done.stderr)
    assert line == f"error: cannot write the store {store}: no space left on device" or (
        line.startswith(f"error: cannot write the store {store}: database or disk is full")
    ), line


@needs_namespaces
def test_a_read_only_store_serves_the_build_it_has(tmp_path):
    """The replicas of docs/operations.md: a copied build on a read-only store, a corpus that has moved on since."""
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", TOML, {"rules.txt": TEXT})
    store = tmp_path / "store"
    build(Settings.resolve(corpus, store), progress=lambda _: None)
    (corpus / "tiny" / "rules.txt").write_text(TEXT + "\nQuince: A third fruit.\n")  # stale now
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    read_only = f"mount --bind {store} {store}; mount -o remount,bind,ro {store}"
    done = in_mount_namespace(read_only, "terms", "tiny", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert {t["name"] for t in json.loads(done.stdout)} == {"Apple", "Pear"}
    line = one_error_line(done.stderr)
    assert line.startswith(f"warning: cannot write the store {store}: read-only file system; answering from build")
    built = in_mount_namespace(read_only, "build", env=env)
    assert built.returncode == 5
    assert one_error_line(built.stderr) == f"error: cannot write the store {store}: read-only file system"


@needs_namespaces
def test_a_read_only_replica_serves_the_newest_intact_build(two_builds):
    corpus, store, first, second = two_builds
    truncate(index_file(second))
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    read_only = f"mount --bind {store} {store}; mount -o remount,bind,ro {store}"
    done = in_mount_namespace(read_only, "stats", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["build"] == first.name
    line = one_error_line(done.stderr)
    assert line.startswith(f"warning: build {second.name} is damaged: index/") and "set aside" not in line
    assert current_build(store) == second  # nothing could be written


def test_a_full_disk_during_a_build_keeps_the_previous_build(two_builds, monkeypatch):
    """Without namespaces too: a write failing with ENOSPC anywhere in a build is the same one line."""
    import errno

    import rulings.build as build_module

    corpus, store, _, second = two_builds
    (corpus / "tiny" / "rules.txt").write_text(TEXT + "\nQuince: A third fruit.\n")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(store / "builds" / "x"))

    monkeypatch.setattr(build_module, "checksums", full)
    result = run(corpus, store, "build")
    assert result.exit_code == 5
    assert result.output.strip() == f"error: cannot write the store {store.resolve()}: no space left on device"
    assert current_build(store) == second and not list((store / "builds").glob(".tmp-*"))
    answered = run(corpus, store, "terms", "tiny", "--json")
    assert answered.exit_code == 0 and "answering from build" in answered.stderr


def test_a_store_under_a_file_is_one_line(tmp_path):
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", TOML, {"rules.txt": TEXT})
    (tmp_path / "file").write_text("not a folder")
    result = run(corpus, tmp_path / "file" / "store", "build")
    assert result.exit_code == 5
    assert result.output.strip() == (
        f"error: cannot write the store {tmp_path / 'file' / 'store'}: {tmp_path / 'file'} is a file, not a folder"
    )


def test_a_server_survives_its_build_being_damaged_under_it(store_dir, tmp_path):
    """Truncating the index and the graph under a running server: no SIGBUS (Whoosh reads without
    mmap), at most the requests in flight get a 503, then it answers from the newest intact build."""
    store = tmp_path / "store"
    shutil.copytree(store_dir, store, symlinks=True)
    current = current_build(store)
    spare = current.with_name("0-" + current.name)  # an older intact build to fall back to
    shutil.copytree(current, spare)
    env = dict(os.environ, RULINGS_STORE=str(store), RULINGS_CORPUS=str(CORPUS))
    paths = ["/api/search?q=guard", "/search?q=hit+points", "/marvel-champions/terms/guard", "/api/games"]
    with running_server(env, (sys.executable, "-m", "rulings", "serve", "--threads", "1")) as url:
        for path in paths:  # the one thread opens the build, as a busy server's threads all have
            assert urllib.request.urlopen(url + path, timeout=10).status == 200
        for segment in (current / "index").glob("*.seg"):
            truncate(segment, keep=0.1)
        truncate(current / "graph.sqlite")
        statuses = []
        deadline = time.monotonic() + 3 * Current.CHECK_EVERY
        while time.monotonic() < deadline:
            for path in paths + ["/api/search?q=thwart", "/api/search?q=villain+phase"]:
                statuses.append(status_of(url + path))  # 0 from a dead server
            time.sleep(0.05)
        last = [status_of(url + path) for path in paths]
    assert set(statuses) <= {200, 503}, statuses
    assert last == [200] * len(paths)


def test_a_searcher_reads_its_own_copy_of_the_index(store_dir, tmp_path):
    """The files a searcher opened are private in-memory copies: truncating them on disk (which
    would SIGBUS a process mapping them) changes nothing for the searcher that has them open."""
    from rulings.index.search import Searcher

    store = tmp_path / "store"
    shutil.copytree(store_dir, store, symlinks=True)
    searcher = Searcher(current_build(store))
    before = [(h.title, h.url) for h in searcher.search("guard", limit=5).hits]
    for segment in (current_build(store) / "index").glob("*.seg"):
        truncate(segment, keep=0.01)
    assert [(h.title, h.url) for h in searcher.search("guard", limit=5).hits] == before
    assert searcher.search("villain phase").hits
