"""The index codec (rulings/index/codec.py): short posting lists inlined as varints read back exactly."""

from __future__ import annotations

import struct
from array import array
from bisect import bisect_left
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st
from whoosh import fields
from whoosh import index as whoosh_index
from whoosh.codec.whoosh3 import W3Codec, W3TermInfo
from whoosh.filedb.filestore import RamStorage
from whoosh.system import pack_uint
from whoosh.writing import SegmentWriter

from rulings.index import codec, postings, stored, terms, writer
from rulings.index.schema import Words, schema

FLOAT32 = st.floats(0, 1e6, allow_nan=False).map(lambda w: struct.unpack("!f", struct.pack("!f", w))[0])


STATS = ("doc_frequency", "weight", "min_length", "max_length", "max_weight", "min_id", "max_id")
SAME_AS_W3 = ("doc_frequency", "weight", "max_weight", "min_id", "max_id")  # lengths: no length statistics kept


def written(store, games: list[str], folder, with_codec):
    """A reader of the index of ``games`` written into ``folder`` by ``with_codec``."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), schema(writer.keep_words(store)), indexname=writer.MAIN)
    segment_writer = SegmentWriter(ix, codec=with_codec)
    for doc in writer.documents(store, games):
        doc.pop("latest")
        segment_writer.add_document(**doc)
    segment_writer.commit()
    return whoosh_index.open_dir(str(folder), indexname=writer.MAIN).reader()


@st.composite
def posting_lists(draw):
    last = 2**32 - 2  # W3 keeps 2**32 - 1 for "no document"
    ids = sorted(draw(st.sets(st.integers(0, last), min_size=1, max_size=codec.INLINE_BELOW)))
    weights = draw(st.lists(st.integers(1, 300).map(float) | FLOAT32, min_size=len(ids), max_size=len(ids)))
    values = draw(st.just([]) | st.lists(st.binary(min_size=1, max_size=300), min_size=len(ids), max_size=len(ids)))
    return tuple(ids), tuple(weights), tuple(values)


@given(posting_lists(), st.binary(max_size=30))
def test_inlined_postings_decode_to_what_was_encoded(postings, before):
    ids, weights, values = postings
    encoded = codec.encode_postings(*postings)
    assert codec.decode_postings(before + encoded, len(before)) == (ids, weights, values or (b"",) * len(ids))


def read_alike(ours, w3, fields) -> tuple[list, int]:
    """Assert that every term of ``w3`` reads the same from ``ours`` (statistics, documents, weights,
    positions, stored fields); the terms and how many of ours are inlined."""
    terms = list(w3.all_terms())
    assert terms == list(ours.all_terms()) and len(terms) > 1000
    inlined = 0
    for field, text in terms:
        if field == "spell":  # Existence: no weights or values to compare
            assert list(ours.postings(field, text).all_ids()) == list(w3.postings(field, text).all_ids())
            continue
        info = ours.term_info(field, text)
        inlined += info.is_inlined()
        theirs = w3.term_info(field, text)
        assert [getattr(info, stat)() for stat in SAME_AS_W3] == [getattr(theirs, stat)() for stat in SAME_AS_W3]
        assert (ours.doc_frequency(field, text), ours.frequency(field, text)) == (info.doc_frequency(), info.weight())
        mine, theirs = ours.postings(field, text), w3.postings(field, text)
        assert list(mine.items_as("weight")) == list(theirs.items_as("weight")), (field, text)
        if fields[field].format.supports("positions"):
            assert list(mine.items_as("positions")) == list(theirs.items_as("positions")), (field, text)
    assert [dict(f) for f in ours.all_stored_fields()] == [dict(f) for f in w3.all_stored_fields()]
    return terms, inlined


def test_an_index_reads_every_posting_as_whoosh_wrote_it_with_the_short_lists_inlined(store, tmp_path):
    """The same documents written by Whoosh's W3 codec and by ours: every term's postings (documents,
    weights, positions) alike; most terms' lists in the term dictionary, and the postings file smaller."""
    games = [g.slug for g in store.games()][:2]
    fields = schema(writer.keep_words(store))
    readers = {
        name: written(store, games, tmp_path / name, with_codec)
        for name, with_codec in (("w3", W3Codec()), ("ours", codec.Codec()))
    }
    terms, inlined = read_alike(readers["ours"], readers["w3"], fields)
    assert inlined > len(terms) / 2
    sizes = {name: sum(f.stat().st_size for f in (tmp_path / name).iterdir()) for name in readers}
    assert sizes["ours"] < 0.8 * sizes["w3"], sizes


def test_segments_written_in_the_earlier_formats_read_as_whoosh_wrote_them(store, tmp_path):
    """A segment keeps the codec it was written with: one written before ``terms.py``'s term file and the
    dictionary-deflated stored fields (formats 1) reads through the same classes, every term as W3's."""
    earlier = codec.Codec()
    earlier.terms_format = earlier.stored_format = 1
    games = [g.slug for g in store.games()][:1]
    fields = schema(writer.keep_words(store))
    theirs = written(store, games, tmp_path / "w3", W3Codec())
    read_alike(written(store, games, tmp_path / "earlier", earlier), theirs, fields)


@given(posting_lists(), st.integers(1, 10_000), st.integers(0, 10_000))
def test_entries_written_before_short_ones_read_the_same(postings, shortest, spread):
    """A term entry of an index written before SHORT entries (flag COMPACT: W3's whole header, then the
    postings) reads as the SHORT entry of the same postings does."""
    info = W3TermInfo()
    info._weight, info._df = sum(postings[1]), len(postings[0])
    info._minlength, info._maxlength = shortest, shortest + spread
    info._maxweight, info._minid, info._maxid = max(postings[1]), postings[0][0], postings[0][-1]
    info.set_inlined(*postings)
    entry = codec.CompactTermInfo.to_bytes(info)
    assert entry[0] == codec.SHORT and len(entry) == codec.HEAD + len(codec.encode_postings(*postings))
    short = codec.CompactTermInfo.from_bytes(entry)
    head = bytearray(W3TermInfo.to_bytes(short)[: W3TermInfo._struct.size])
    head[0] = codec.COMPACT
    before = codec.CompactTermInfo.from_bytes(bytes(head) + codec.encode_postings(*postings))
    assert [getattr(before, stat)() for stat in STATS] == [getattr(short, stat)() for stat in STATS]
    assert before.inlined_postings() == short.inlined_postings()


@st.composite
def dictionaries(draw):
    keys = sorted(draw(st.sets(st.binary(min_size=1, max_size=40), max_size=200)))
    return [(key, draw(st.binary(max_size=60))) for key in keys]


def power_of_two_slots(count: int) -> int:
    """How many slots the term dictionary had before its table was sized 1.5 times its keys."""
    size = 8
    while size < count * 3 // 2:
        size *= 2
    return size


@given(
    dictionaries(), st.lists(st.binary(max_size=40), max_size=20), st.booleans(), st.sampled_from((1, 50, terms.CHUNK))
)
def test_the_term_dictionary_finds_every_key_and_keeps_their_order(entries, probes, written_before, chunk):
    """``terms.py``'s file: each key's entry by hashing, none for a key not added, keys in order from any
    key (the nearest at or after it), as W3's ordered hash file answers; also from a file written when its
    hash table had a power of two slots, and whatever the chunks its records were written in."""
    storage = RamStorage()
    slots_for = power_of_two_slots if written_before else terms._slots_for
    with patch.object(terms, "_slots_for", slots_for), patch.object(terms, "CHUNK", chunk):
        writer = terms.TermTableWriter(storage.create_file("t"))
        writer.extras["fieldmap"] = {"body": 0}
        for key, value in entries:
            writer.add(key, value)
        writer.close()
    reader = terms.TermTableReader(storage.open_file("t"), storage.file_length("t"))
    assert reader.size == slots_for(len(entries))
    assert reader.extras == {"fieldmap": {"body": 0}} and list(reader.items()) == entries
    keys = [key for key, _ in entries]
    for key, value in entries:
        assert reader[key] == value and key in reader
    for probe in probes:
        assert (probe in reader) == (probe in keys)
        after = keys[bisect_left(keys, probe) :]
        assert list(reader.keys_from(probe)) == after
        pos = reader.closest_key_pos(probe)
        assert (None if pos is None else reader.key_and_range_at(pos)[0]) == (after[0] if after else None)
    assert reader.closest_key_pos(b"") == (None if not entries else 0)


def test_an_index_whose_term_dictionary_whoosh_wrote_still_reads(store, tmp_path):
    """Segments keep the codec that wrote them: one written before ``terms.py`` (W3's ordered hash file)
    reads every term and posting as one written now."""
    games = [g.slug for g in store.games()][:1]
    before = codec.Codec()
    before.terms_format = 1  # as the codec of a segment written then unpickles
    old = written(store, games, tmp_path / "before", before)
    new = written(store, games, tmp_path / "now", codec.Codec())
    assert type(old._terms._tindex).__name__ == "OrderedHashReader"
    assert isinstance(new._terms._tindex, terms.TermTableReader)
    assert list(old.all_terms()) == list(new.all_terms())
    for field, text in old.all_terms():
        assert old.doc_frequency(field, text) == new.doc_frequency(field, text)
        assert list(old.postings(field, text).all_ids()) == list(new.postings(field, text).all_ids())
    assert list(old.expand_prefix("body", "att")) == list(new.expand_prefix("body", "att"))


@given(st.lists(st.binary(max_size=80) | st.none(), max_size=60), st.integers(1, 25))
def test_stored_values_read_back_as_written_before_and_after_the_dictionary_is_made(values, sample):
    """``stored.py``'s column: each document's value as added (none: empty), whether it was held for the
    dictionary or compressed against it, and documents never added read empty."""
    storage = RamStorage()
    with patch.object(stored, "SAMPLE_DOCS", sample):
        column = stored.DictionaryColumn()
        column_file = storage.create_file("c")
        column_writer = column.writer(column_file)
        for docnum, value in enumerate(values):
            if value is not None:
                column_writer.add(docnum, value)
        column_writer.finish(len(values) + 2)
        column_file.close()
    reader = column.reader(storage.open_file("c"), 0, storage.file_length("c"), len(values) + 2)
    assert [reader[docnum] for docnum in range(len(values) + 2)] == [v or b"" for v in values] + [b"", b""]


def test_stored_fields_read_as_whoosh_wrote_them_in_less_room(store, tmp_path):
    """Every document's stored fields alike from W3's column and ours, ours smaller; a segment written with
    W3's stored fields (as codecs pickled before ``stored.py`` unpickle) still reads them."""
    games = [g.slug for g in store.games()][:2]
    before = codec.Codec()
    before.stored_format = 1
    readers = {
        name: written(store, games, tmp_path / name, with_codec)
        for name, with_codec in (("w3", W3Codec()), ("before", before), ("ours", codec.Codec()))
    }
    w3 = [readers["w3"].stored_fields(n) for n in range(readers["w3"].doc_count_all())]
    assert len(w3) > stored.SAMPLE_DOCS and all(w3)
    for name in ("before", "ours"):
        assert [readers[name].stored_fields(n) for n in range(len(w3))] == w3
    sizes = {name: reader._perdoc._get_column_file("_stored")[2] for name, reader in readers.items()}
    assert sizes["before"] == sizes["w3"] and sizes["ours"] < 0.7 * sizes["w3"], sizes


def test_postings_kept_per_term_write_what_whoosh_pool_wrote_spilled_to_disk_or_not(store, tmp_path):
    """``postings.TermPool`` and ``writer.TermSegmentWriter.add_document``: the same term dictionary (inlined lists
    included), postings, field lengths and stored fields as Whoosh's ``add_document`` and pool of sorted postings
    give, whether the terms stayed in memory or were spilled to runs on disk."""
    games = [g.slug for g in store.games()][:2]
    whoosh_pool = written(store, games, tmp_path / "whoosh", codec.Codec())
    spill = postings.TermPool._spill
    readers = {}
    for name, limitmb in (("memory", 64), ("spilled", 0.25)):
        (tmp_path / name).mkdir()
        ix = whoosh_index.create_in(str(tmp_path / name), schema(writer.keep_words(store)), indexname=writer.MAIN)
        with patch.object(postings.TermPool, "_spill", autospec=True, side_effect=spill) as spilled:
            segment_writer = writer.segment_writer(ix, limitmb=limitmb)
            for doc in writer.documents(store, games):
                doc.pop("latest")
                segment_writer.add_document(**doc)
            segment_writer.commit()
        assert (spilled.call_count > 1) == (name == "spilled"), spilled.call_count
        readers[name] = whoosh_index.open_dir(str(tmp_path / name), indexname=writer.MAIN).reader()
    expected = list(whoosh_pool._terms._tindex.items())
    long_lists = [key for key, entry in whoosh_pool._terms.items() if not entry.is_inlined()]
    assert len(long_lists) > 100
    for reader in readers.values():
        assert list(reader._terms._tindex.items()) == expected
        for field, text in long_lists:
            theirs = whoosh_pool.postings(field, text)
            assert list(reader.postings(field, text).items_as("weight")) == list(theirs.items_as("weight"))
        assert [reader.stored_fields(n) for n in range(reader.doc_count_all())] == [
            whoosh_pool.stored_fields(n) for n in range(whoosh_pool.doc_count_all())
        ]
        scored = [name for name, field in reader.schema.items() if field.scorable]
        assert len(scored) > 3 and [
            [reader.doc_field_length(n, name) for name in scored] for n in range(reader.doc_count_all())
        ] == [[whoosh_pool.doc_field_length(n, name) for name in scored] for n in range(whoosh_pool.doc_count_all())]


def test_the_writer_refuses_what_its_add_document_does_not_write(tmp_path):
    """Boosts given with a document, fields with term vectors or separate spelling words, and fields that do not
    count their terms (``term_counts``, schema.py's fields do), which Whoosh's ``add_document`` writes and
    ``TermSegmentWriter``'s does not: an error, never an index without them."""
    ix = whoosh_index.create_in(str(tmp_path), fields.Schema(body=Words(frozenset(), stored=True)))
    segment_writer = writer.segment_writer(ix)
    with pytest.raises(TypeError, match="boost"):
        segment_writer.add_document(body="defend", _body_boost=2.0)
    segment_writer.add_document(body="defend")
    segment_writer.commit()
    for name, field, refused in (
        ("vectors", fields.TEXT(vector=True), "term vectors"),
        ("positions", fields.TEXT(), "term counts"),
    ):
        (tmp_path / name).mkdir()
        ix = whoosh_index.create_in(str(tmp_path / name), fields.Schema(body=field))
        with pytest.raises(ValueError, match=refused):
            writer.segment_writer(ix)


POSTED_FIELDS = [Words(frozenset()), Words(frozenset(), field_boost=1.5), fields.ID(), fields.KEYWORD()]
SHORT_LISTS = st.lists(st.tuples(st.integers(0, 5), st.integers(1, 300)), min_size=1, max_size=15)


@given(st.lists(SHORT_LISTS, min_size=1, max_size=6), st.sampled_from(range(len(POSTED_FIELDS))))
def test_packed_postings_encode_as_their_documents_weights_and_values_do(lists, which):
    """``postings.Posted``: a short list of packed postings encodes as ``encode_postings`` of the documents,
    weights and values it stands for (the encoded weights of a run of counts reused), for every field's format."""
    posted = postings.Posted(POSTED_FIELDS[which])
    for _ in range(2):
        for gaps_and_counts in lists:
            docnum, packed = 0, []
            for gap, count in gaps_and_counts:
                docnum += gap + (1 if packed else 0)
                packed.append(docnum << postings.COUNT_BITS | (count if posted.valued else 1))
            ids, weights, values = posted.postings(packed)
            assert ids == [p >> postings.COUNT_BITS for p in packed]
            assert posted.encoded(packed) == codec.encode_postings(ids, array("f", weights), values)


def test_a_posting_read_back_must_weigh_its_count_times_the_field_boost():
    """Merging segments posts each posting again as its count: a weight the count does not give is an error,
    never a posting silently weighed otherwise."""
    posted = postings.Posted(Words(frozenset(), field_boost=1.5))
    assert posted.count(4.5, pack_uint(3)) == 3
    with pytest.raises(ValueError, match="weighs 4.0"):
        posted.count(4.0, pack_uint(3))
    assert postings.Posted(fields.ID(field_boost=2.0)).count(2.0, b"") == 1
