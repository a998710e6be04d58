"""Damage that leaves no trace in a file's stat fields (a disk's own bit rot) is found when a query meets it:
the server answers that request with a 503, says why in its log and answers the next from the newest intact
build; the CLI says so in one line and sets the build aside for the next command."""

from __future__ import annotations

import json
import logging
import shutil

import pytest
from click.testing import CliRunner

from rulings.build import build
from rulings.builds import DAMAGED, current_build, verify
from rulings.cli import main
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import CORPUS, assert_clean_exit
from .damage import as_if_bit_rot, garble_keeping_time


@pytest.fixture
def two_builds(store_dir, tmp_path):
    """A copy of the session's store holding two intact builds (the newer current)."""
    store = tmp_path / "store"
    shutil.copytree(store_dir, store, symlinks=True)
    older = current_build(store)
    settings = Settings.resolve(CORPUS, store)
    newer = build(settings, progress=lambda _: None, incremental=False).build
    assert current_build(store) == newer and not verify(older, thorough=True)
    return settings, older, newer


def rot(build_dir) -> None:
    garble_keeping_time(build_dir / "graph.sqlite", share=0.9)
    as_if_bit_rot(build_dir)
    assert verify(build_dir) == []  # the quick check sees nothing
    assert verify(build_dir, thorough=True) == ["graph.sqlite does not match its checksum"]


def test_the_server_meets_the_damage_once_then_answers_from_the_intact_build(two_builds, caplog):
    settings, older, newer = two_builds
    app = create_app(settings)
    client = app.test_client()
    assert client.get("/api/marvel-champions/terms/guard").status_code == 200  # the newer build, opened
    rot(newer)
    caplog.set_level(logging.WARNING)
    met = client.get("/api/marvel-champions/terms/dash")
    assert met.status_code == 503 and met.headers["Retry-After"] == "1"
    assert met.get_json()["message"].startswith("The build being served was damaged")
    said = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert said == [
        f"build {newer.name} is damaged: graph.sqlite does not match its checksum; answering from build "
        f"{older.name}; set aside as {DAMAGED}<id>"
    ]
    after = [client.get(path) for path in ("/api/marvel-champions/terms/dash", "/marvel-champions/terms/attack")]
    assert [r.status_code for r in after] == [200, 200]
    assert {r.headers["X-Rulings-Build"] for r in after} == {older.name}
    assert current_build(settings.store) == older


def test_requests_still_on_the_damaged_build_are_told_so(two_builds):
    """The requests that were answering from the damaged build when another found the damage get 503s too,
    never 500s (in-place damage gave about five 500s before the switch)."""
    settings, older, newer = two_builds
    app = create_app(settings)
    current = app.extensions["rulings"]
    damaged = current.get()
    rot(newer)
    assert current.recheck(damaged) is True  # found once...
    assert current.get().build == older
    assert current.recheck(damaged) is True  # ...and known after, without hashing again
    assert current.recheck(current.get()) is False  # the intact build is no worse for an error


def test_a_fault_of_the_code_is_still_a_logged_500(two_builds, monkeypatch, caplog):
    settings, _, newer = two_builds
    app = create_app(settings)
    monkeypatch.setattr("rulings.web.api.compare.diff", lambda *a, **k: 1 / 0)
    response = app.test_client().get("/api/marvel-champions/terms/dash/diff/1.1..1.4")
    assert response.status_code == 500 and "unhandled error" in caplog.text
    assert current_build(settings.store) == newer  # its files hashed and found intact: nothing set aside


def test_the_cli_says_it_in_one_line_and_the_next_command_answers(two_builds):
    settings, older, newer = two_builds
    rot(newer)
    args = ["--corpus", str(CORPUS), "--store", str(settings.store)]
    results = []
    for _ in range(2):
        result = CliRunner().invoke(main, [*args, "terms", "marvel-champions"])
        assert_clean_exit(result)
        results.append(result)
    first, second = results
    assert first.exit_code == 4 and "Traceback" not in first.output
    assert first.stderr == (
        f"error: build {newer.name} is damaged: graph.sqlite does not match its checksum; "
        f"the next command answers from build {older.name}\n"
    )
    assert second.exit_code == 0 and "Guard" in second.stdout
    as_json = CliRunner().invoke(main, [*args, "stats", "--json"])
    assert json.loads(as_json.stdout)["build"] == older.name


def test_a_server_hashes_every_file_of_a_build_it_opens(two_builds):
    """Before listening (and before swapping a new build in), every file is hashed: damage the stat fields
    do not show is found before any request meets it."""
    settings, older, newer = two_builds
    rot(newer)
    app = create_app(settings)
    assert app.extensions["rulings"].open_now().build == older
    assert current_build(settings.store) == older
