"""The server's index storage: each file read once into memory, every searcher reading it in place."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from rulings.builds import current_build
from rulings.index.search import Searcher
from rulings.index.storage import SharedCopyStorage, ViewReader

# (operation, argument): what Whoosh does to a file it reads
OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["read", "readline", "seek", "seek_here", "seek_end"]), st.integers(-3, 40)),
    max_size=30,
)


@given(data=st.binary(max_size=200).map(lambda b: b.replace(b"\x00", b"\n")), operations=OPERATIONS)
def test_a_view_reads_as_a_bytesio_does(data, operations):
    view, copy = ViewReader(memoryview(data)), io.BytesIO(data)
    for operation, n in operations:
        if operation == "read":
            assert view.read(n) == copy.read(n)
        elif operation == "readline":
            assert view.readline(n) == copy.readline(n)
        else:
            whence = {"seek": 0, "seek_here": 1, "seek_end": 2}[operation]
            if (0, copy.tell(), len(data))[whence] + n < 0:
                continue  # Whoosh never seeks before a file's start
            assert view.seek(n, whence) == copy.seek(n, whence)
        assert view.tell() == copy.tell()


def test_every_searcher_set_reads_the_one_copy_of_each_file(store_dir):
    """Eight server threads' searchers hold the index once, not once each (Whoosh's BufferFile copies)."""
    searcher = Searcher(current_build(store_dir))
    searcher.prepare(4)
    storage = searcher.index.ix.storage
    assert isinstance(storage, SharedCopyStorage) and searcher.index.pool.opened == 4
    first, again = storage.open_file(storage.list()[0]), storage.open_file(storage.list()[0])
    assert first._buf.obj is again._buf.obj  # the same bytes behind both
    segment = next(name for name in storage.list() if name.endswith(".seg"))
    part = storage.open_file(segment).subset(8, 16)
    assert part._buf.obj is storage.open_file(segment)._buf.obj and len(part.get(0, 16)) == 16
    assert searcher.search("guard").hits


def test_which_documents_contain_a_word_is_the_same_from_its_ids_alone_or_its_scored_postings(store_dir):
    """``TermScores.contains`` reads a word's document ids without scoring them when its scored postings
    are not kept; the answer is the one the scored postings give."""
    import random

    from rulings.index.topdocs import TermScores

    searcher = Searcher(current_build(store_dir))
    with searcher.lend():
        whoosh = searcher.index.current_searcher
        total = whoosh.reader().doc_count_all()
        for word in ("card", "damag", "hero", "villain", "play", "attack"):
            scored = TermScores()
            everything = set(scored.get(whoosh, "MAIN", "body", word)[0])
            assert len(everything) > 20
            ids_alone = TermScores()
            for seed in range(5):
                asked = sorted(set(random.Random(seed).sample(range(total), 12) + sorted(everything)[seed::40]))
                expected = [d for d in asked if d in everything]
                assert ids_alone.contains(whoosh, "MAIN", "body", word, asked) == expected
                assert scored.contains(whoosh, "MAIN", "body", word, asked) == expected
            assert ("MAIN", "body", word) in ids_alone._ids and not ids_alone._kept  # kept without scores
