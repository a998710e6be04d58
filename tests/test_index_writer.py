"""An index written by several processes, a run of games each, answers as one written by one process."""

import gc
import os
from collections import Counter

import pytest
from whoosh import index as whoosh_index

from rulings.graph import index_feed
from rulings.graph.store import Store
from rulings.index import postings, writer
from rulings.index.search import Searcher

from .test_search_threads import QUERIES, answers


def test_game_runs_cover_every_game_once_in_order(store):
    slugs = [g.slug for g in sorted(store.games(), key=lambda g: g.id)]
    for procs in (1, 2, 3, 8):
        runs = writer.game_runs(store, procs)
        assert [slug for run in runs for slug in run] == slugs
        assert 1 <= len(runs) <= min(procs, len(slugs)) and all(runs)


def test_games_are_cut_into_runs_by_the_text_they_index(store):
    sizes = index_feed.indexing_sizes(
        store,
    )
    for game in store.games():
        texts = [
            text
            for (text,) in store.q(
                "SELECT r.text FROM revisions r JOIN terms t ON t.id = r.term_id WHERE t.game_id = ?", game.id
            )
        ]
        assert sizes[game.slug] == sum(map(len, texts)) + 300 * len(texts) > 300 * len(texts)


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


def test_a_run_writes_without_the_garbage_collector_and_gives_it_back(store, tmp_path, monkeypatch):
    """``_write_run`` (a process's run of games) adds its documents with the cyclic collector off, and leaves
    it as it found it, whether the run ends or fails."""
    seen = []
    add = writer._add
    monkeypatch.setattr(writer, "_add", lambda *args: seen.append(gc.isenabled()) or add(*args))
    index_dir = tmp_path / "index"
    index_dir.mkdir()
    fields = writer.schema(writer.keep_words(store))
    for name in (writer.MAIN, writer.HISTORY):
        whoosh_index.create_in(str(index_dir), fields, indexname=name)
    games = [g.slug for g in store.games()][:1]
    assert gc.isenabled()
    count, segments = writer._write_run(store.build, index_dir, games)
    assert count > 100 and segments[0] is not None and seen == [False] and gc.isenabled()
    monkeypatch.setattr(writer, "_add", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        writer._write_run(store.build, index_dir, games)
    assert gc.isenabled()


def test_postings_spilled_to_runs_on_disk_answer_as_kept_in_memory(store, tmp_path, monkeypatch):
    """A writer short of memory spills its terms to runs on disk (read back a batch at a time)."""
    saved = []
    spill = postings.TermPool._spill
    monkeypatch.setattr(postings.TermPool, "_spill", lambda pool: saved.append(1) or spill(pool))
    built = {}
    for limit in (1, writer.LEAST_MB):
        build = tmp_path / f"limit-{limit}"
        build.mkdir()
        os.symlink(store.build / "graph.sqlite", build / "graph.sqlite")
        monkeypatch.setattr(writer, "postings_memory", lambda limit=limit: limit)
        monkeypatch.setattr(postings, "BATCH", 7)  # batches cut anywhere, the last one short
        writer.write_index(store, build / "index")
        built[limit] = build
        if limit == 1:
            assert len(saved) > 3  # 1 MB of terms at a time: several runs, merged
            saved.clear()
    assert not saved  # with the least memory a writer is given, the bundled corpus stays in memory
    on_disk, in_memory = (Searcher(built[limit]) for limit in (1, writer.LEAST_MB))
    for query in QUERIES:
        assert answers(on_disk, query) == answers(in_memory, query), query
    assert all_postings(built[1]) == all_postings(built[writer.LEAST_MB])


def all_postings(build, indexname: str = writer.MAIN) -> dict:
    """(field, term) -> every posting's (document, weight, value), as read back."""
    reader = whoosh_index.open_dir(str(build / "index"), indexname=indexname).reader()
    return {(field, text): postings_of(reader.postings(field, text)) for field, text in reader.all_terms()}


def postings_of(matcher) -> list[tuple]:
    found = []
    while matcher.is_active():
        found.append((matcher.id(), matcher.weight(), matcher.value()))
        matcher.next()
    return found


def test_segments_merged_through_the_pool_hold_what_one_writer_writes(store, tmp_path):
    """Merging segments (an incremental build's ``optimize``) reads each posting back into the pool: the
    result, a game's documents deleted first or not, is the index one writer makes of the same games."""
    games = [g.slug for g in sorted(store.games(), key=lambda g: g.id)]
    names = (writer.MAIN, writer.HISTORY)

    def written(name: str, runs: list[list[str]], dropped: str | None = None):
        build = tmp_path / name
        (build / "index").mkdir(parents=True)
        fields = writer.schema(writer.keep_words(store))
        indexes = [whoosh_index.create_in(str(build / "index"), fields, indexname=n) for n in names]
        for run in runs:  # a segment per run, left unmerged
            writers = [writer.segment_writer(ix) for ix in indexes]
            writer._add(*writers, store, run)
            for each in writers:
                each.commit(merge=False)
        for ix in indexes:  # then one writer deletes a game's documents and merges every segment
            merging = writer.segment_writer(ix)
            if dropped:
                merging.delete_by_term("game", dropped)
            merging.commit(optimize=True)
        readers = [whoosh_index.open_dir(str(build / "index"), indexname=n).reader() for n in names]
        assert all(len(reader.leaf_readers()) == 1 for reader in readers)
        stored = [list(reader.all_stored_fields()) for reader in readers]
        return [all_postings(build, n) for n in names], stored

    assert written("merged", [[slug] for slug in games]) == written("one", [games])
    assert written("merged-less", [[slug] for slug in games], dropped=games[0]) == written("one-less", [games[1:]])


def test_the_graph_is_read_a_few_statements_a_game_to_index_it(store, monkeypatch):
    """Writing the index asks the graph a few questions per game (``writer.GameRows``), not per entry; one asked
    more often (a redirect's definition) never reads a whole table."""
    asked: dict[str, tuple] = {}
    times = Counter()
    for method in ("q", "one"):
        asks = getattr(Store, method)

        def counted(self, sql, *args, asks=asks):
            asked.setdefault(sql, args)
            times[sql] += 1
            return asks(self, sql, *args)

        monkeypatch.setattr(Store, method, counted)
    documents = sum(1 for _ in writer.documents(store))
    games = len(store.games())
    assert documents > 1000 and sum(times.values()) < 20 * games, times
    for sql in [sql for sql, n in times.items() if n > games]:  # asked of one entry (a redirect's definition)
        plan = [row[3] for row in store.conn.execute("EXPLAIN QUERY PLAN " + sql, asked[sql])]
        assert not [step for step in plan if step.startswith("SCAN ") and "USING" not in step], (sql, plan)


def test_a_writer_holds_its_postings_in_a_share_of_the_machines_memory(monkeypatch, tmp_path):
    """An eighth of the memory (the container's when it has less), shared by the writing processes,
    from LEAST_MB to MOST_MB."""
    container = tmp_path / "memory.max"
    monkeypatch.setattr(writer, "MEMORY_LIMITS", (tmp_path / "no-such-file", container))
    sizes = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 2**21}  # 8 GiB
    monkeypatch.setattr(writer.os, "sysconf", sizes.__getitem__)
    monkeypatch.setattr(writer, "cores", lambda: 2)
    assert writer.postings_memory() == 512
    sizes["SC_PHYS_PAGES"] = 2**19  # 2 GiB
    assert writer.postings_memory() == writer.LEAST_MB
    sizes["SC_PHYS_PAGES"] = 2**23  # 32 GiB
    assert writer.postings_memory() == writer.MOST_MB
    container.write_text("max\n")  # a container without a limit
    assert writer.postings_memory() == writer.MOST_MB
    container.write_text(f"{8 * 2**30}\n")  # a container of 8 GiB on the machine of 32
    assert writer.postings_memory() == 512
    container.write_text(f"{2 * 2**30}\n")
    assert writer.postings_memory() == writer.LEAST_MB
    monkeypatch.setattr(writer.os, "sysconf", unknown_setting)  # a system without the figures
    assert writer.postings_memory() == writer.LEAST_MB


def unknown_setting(name: str):
    raise ValueError(f"unrecognized configuration name {name!r}")  # as os.sysconf says it
