"""A graph written in shards, a run of games per process, is the graph one process writes (rulings/graph/shards.py)."""

import os
import shutil
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulings import build as building
from rulings.builds import current_build
from rulings.errors import CorpusError
from rulings.graph.shards import merge_shard
from rulings.parallel import balanced_runs
from rulings.settings import Settings

from .conftest import CORPUS, write_game
from .test_permalinks import graph_rows


@pytest.fixture
def sharded(monkeypatch):
    return in_shards(monkeypatch)


def in_shards(monkeypatch) -> list[int]:
    """Builds write their graph in two shards, however few games and cores; the processes started, counted."""
    monkeypatch.setattr(building, "SHARDED_FROM", 1)
    monkeypatch.setattr(building, "cores", lambda: 2)
    started = []
    processes = building.processes
    monkeypatch.setattr(building, "processes", lambda count: started.append(count) or processes(count))
    return started


@given(st.lists(st.integers(0, 50), max_size=12), st.integers(1, 5))
def test_runs_keep_the_order_and_are_never_more_than_the_processes(sizes, procs):
    """Games of no size at the end (an empty folder, a game without revisions) make no run of their own."""
    items = list(enumerate(sizes))
    runs = balanced_runs(items, lambda item: item[1], procs)
    assert [item for run in runs for item in run] == items
    assert len(runs) <= procs and (all(runs) if items else runs == [[]])


def test_runs_share_the_size_out(tmp_path):
    assert balanced_runs(list("abcd"), lambda _: 1, 2) == [["a", "b"], ["c", "d"]]
    assert balanced_runs(["a", "b", "c"], {"a": 5, "b": 5, "c": 0}.get, 2) == [["a"], ["b", "c"]]


def test_a_shard_that_cannot_be_merged_says_why_and_leaves_the_graph_as_it_was(store, tmp_path):
    graph = tmp_path / "graph.sqlite"
    shutil.copy(store.build / "graph.sqlite", graph)
    conn = sqlite3.connect(graph)
    before = graph_rows(graph)
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed"):  # the same rows again
        merge_shard(conn, store.build / "graph.sqlite")
    assert graph_rows(graph) == before
    assert not [row for row in conn.execute("PRAGMA database_list") if row[1] == "shard"]
    conn.close()


def test_a_shard_refuses_a_reference_to_anything_but_an_id(tmp_path):
    schema = "CREATE TABLE t (id INTEGER PRIMARY KEY, slug TEXT UNIQUE); CREATE TABLE u (t_slug REFERENCES t(slug));"
    for name in ("main.sqlite", "shard.sqlite"):
        with sqlite3.connect(tmp_path / name) as made:
            made.executescript(schema)
    conn = sqlite3.connect(tmp_path / "main.sqlite")
    with pytest.raises(ValueError, match=r"u.t_slug references t.slug"):
        merge_shard(conn, tmp_path / "shard.sqlite")
    conn.close()


def test_a_graph_written_in_shards_is_the_graph_one_process_writes(store, tmp_path, sharded):
    told: list[str] = []
    report = building.build(Settings.resolve(CORPUS, tmp_path / "store"), progress=told.append)
    assert sharded == [2] and not list(report.build.glob("shard-*"))
    one_process: list[str] = []
    building.build(Settings.resolve(CORPUS, tmp_path / "one"), progress=one_process.append, incremental=False)
    shard_lines = [line for line in told if line.startswith("corpus/")]
    assert shard_lines and shard_lines == [line for line in one_process if line.startswith("corpus/")]
    one_process, in_shards = graph_rows(store.build / "graph.sqlite"), graph_rows(report.build / "graph.sqlite")
    assert in_shards.keys() == one_process.keys()
    for table, written in one_process.items():
        assert in_shards[table] == written, table
    assert sum(map(len, one_process.values())) > 10_000 and len(one_process["games"]) == 3


def test_a_game_that_fails_in_a_shard_names_its_file_and_line_and_leaves_no_build(tmp_path, sharded):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    documents = '[game]\nname = "Zed"\n[[documents]]\nfile = "a.md"\nkind = "rulebook"\ntitle = "A"\n'
    write_game(corpus, "zed", documents + '\n[links]\nstop = "play"\n', {"a.md": "# A\n"})
    settings = Settings.resolve(corpus, tmp_path / "store")
    with pytest.raises(CorpusError, match=r"zed/game.toml:8: .*\[links\] takes stop"):
        building.build(settings, progress=lambda _: None)
    assert sharded == [2] and current_build(settings.store) is None
    left = [path.name for path in settings.store.rglob("*") if path.is_file()]
    assert left == [".build.lock"]  # no shard, no half-built graph: only the lock builds take


def test_an_incremental_build_writes_changed_games_in_shards_as_one_process_would(corpus_copy, tmp_path, monkeypatch):
    """The changed games' ids continue from the graph carried over, in shards as in one process."""
    stores = [Settings.resolve(corpus_copy, tmp_path / name) for name in ("one-process", "shards")]
    for settings in stores:
        building.build(settings, progress=lambda _: None)
    for slug in ("marvel-champions", "vs-system-2pcg"):  # the first game and the last
        os.utime(corpus_copy / slug / "game.toml", ns=(1, 2 * 10**18))
    one_process = building.build(stores[0], progress=lambda _: None)
    started = in_shards(monkeypatch)
    shards = building.build(stores[1], progress=lambda _: None)
    assert started == [2] and shards.counts["incremental"] and shards.counts["rebuilt_games"] == 2
    assert graph_rows(shards.build / "graph.sqlite") == graph_rows(one_process.build / "graph.sqlite")
