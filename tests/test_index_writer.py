"""An index written by several processes, a run of games each, answers as one written by one process."""

import os

from whoosh import index as whoosh_index

from rulings.index import writer
from rulings.index.search import Searcher

from .test_search_threads import QUERIES, answers


def test_game_runs_cover_every_game_once_in_order(store):
    slugs = [g.slug for g in sorted(store.games(), key=lambda g: g.id)]
    for procs in (1, 2, 3, 8):
        runs = writer.game_runs(store, procs)
        assert [slug for run in runs for slug in run] == slugs
        assert 1 <= len(runs) <= min(procs, len(slugs)) and all(runs)


def test_parallel_index_answers_as_a_serial_one(store, tmp_path, monkeypatch):
    built = {}
    for procs in (1, 2):
        build = tmp_path / f"procs-{procs}"
        build.mkdir()
        os.symlink(store.build / "graph.sqlite", build / "graph.sqlite")
        monkeypatch.setattr(writer, "writer_procs", lambda _store, n=procs: n)
        count = writer.write_index(store, build / "index")
        built[procs] = (count, build)
    (serial_count, serial), (parallel_count, parallel) = built[1], built[2]
    assert serial_count == parallel_count
    segments = len(whoosh_index.open_dir(str(parallel / "index"), indexname=writer.MAIN).reader().leaf_readers())
    assert segments == 2  # one per process, documents numbered in game order across them
    assert not list((parallel / "index").glob("*.tmp"))  # the writers' temporary folders are gone
    one, two = Searcher(serial), Searcher(parallel)
    for query in QUERIES:
        assert answers(two, query) == answers(one, query), query
