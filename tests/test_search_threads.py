"""One Searcher shared by many threads: the same answers as one thread alone, from a few reused searcher sets."""

import random
import threading

import pytest

from rulings.index.search import Searcher

QUERIES = [
    ("can i defend with an exhausted ally", "marvel-champions", None, None),
    ("what happens when the villain deck runs out", "marvel-champions", None, None),
    ("quickstrike", None, None, None),
    ("villian phase", None, None, None),  # corrected
    ("overkill", "marvel-champions", "1.0", None),  # a past version: the history index too
    ("hit points", None, None, "term"),
    ("first player token", None, None, None),
    ("enemy attack keeper lantern", "lantern-keep", None, None),
    ("zzzz qqqq", None, None, None),  # nothing found: closest names
    ("boost icon", "marvel-champions", None, None),
]


def answers(searcher: Searcher, query) -> dict:
    text, game, version, kind = query
    return searcher.search(text, game=game, version=version, kind=kind).as_dict()


@pytest.fixture(scope="module")
def serial(store):
    searcher = Searcher(store.build)
    return {query: answers(searcher, query) for query in QUERIES}


def test_concurrent_searches_answer_as_serial_ones(store, serial):
    searcher = Searcher(store.build)
    threads, rounds = 12, 3
    start = threading.Barrier(threads)
    wrong, failed = [], []

    def work(seed: int) -> None:
        order = QUERIES * rounds
        random.Random(seed).shuffle(order)
        start.wait()
        try:
            for query in order:
                got = answers(searcher, query)
                if got != serial[query]:
                    wrong.append((query, got["hits"][:1], serial[query]["hits"][:1]))
        except Exception as exc:  # noqa: BLE001 (reported below with the query mix that caused it)
            failed.append(repr(exc))

    workers = [threading.Thread(target=work, args=(seed,)) for seed in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not failed, failed[:3]
    assert not wrong, wrong[:3]
    assert 1 <= searcher.index.pool.opened <= threads  # never more sets than searches at once


def test_searcher_sets_are_reused_by_the_next_thread(store, serial):
    searcher = Searcher(store.build)
    got = {}
    for query in QUERIES:  # each search on a short-lived thread of its own, one after the other
        thread = threading.Thread(target=lambda q=query: got.update({q: answers(searcher, q)}))
        thread.start()
        thread.join()
    assert got == serial
    assert searcher.index.pool.opened == 1


def test_prepared_sets_serve_without_opening_more(store):
    searcher = Searcher(store.build)
    searcher.prepare(3)
    assert searcher.index.pool.opened == 3
    with searcher.lend(), searcher.lend():  # nested: the same set
        assert searcher.search("guard").hits
    assert searcher.index.pool.opened == 3


def test_a_searcher_step_outside_lend_is_refused(store):
    searcher = Searcher(store.build)
    with pytest.raises(RuntimeError, match="lend"):
        searcher.planner()
    with searcher.lend():
        assert searcher.planner().df("body", "card") > 0
