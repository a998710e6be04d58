"""The index's on-disk format: Whoosh's W3 codec, with short posting lists kept in the term dictionary.

Most terms of a rules corpus are rare (word pairs, names, the sources' typos): nine in ten have a
handful of postings. W3 gives every term a block of its own in the postings file, about 100 bytes of
header, statistics and compressed pickle whatever it holds, and a pointer to it; those blocks were
45% of the postings of 200 rulebooks. Whoosh means to inline short lists into the term's entry
instead, but its writer calls a method its term info lacks (``set_inline``), so inlining only works
switched off, and it would pickle them (a few dozen bytes a list). Here a list shorter than
``INLINE_BELOW`` is written into the term's entry as varints, and read back as Whoosh reads any
inlined list (a ``ListMatcher``): the same documents, weights and positions.

The codec object is pickled into each segment, so the reading side below is the one every index
written with it is read with; entries written by plain W3 (a block pointer, or a pickled list) read
as before.
"""

from __future__ import annotations

import itertools
import operator
import struct
from array import array

from whoosh.codec.whoosh3 import (
    STORED_COLUMN,
    W3Codec,
    W3FieldCursor,
    W3FieldWriter,
    W3PerDocReader,
    W3PerDocWriter,
    W3PostingsWriter,
    W3TermInfo,
    W3TermsReader,
)
from whoosh.columns import PickleColumn
from whoosh.filedb.filetables import OrderedHashReader
from whoosh.reading import TermNotFound
from whoosh.system import pack_ushort
from whoosh.util.numeric import byte_to_length, length_to_byte

from .stored import DictionaryColumn
from .terms import TermTableReader, TermTableWriter
from .varints import read_varint, write_varint

INLINE_BELOW = 16  # posting lists this short live in the term dictionary
NO_EXTENT = struct.pack("!qi", 0, 0)  # a block pointer to nothing, for W3 to read a header past
# The flags byte of a term entry (W3: 0 a block pointer, 1 a pickled list). 2: W3's header, then the postings
# as varints (indexes written before SHORT); 3: only the two length bytes, then the postings, from which
# the rest of the header follows (20 of its 23 bytes, on nine terms in ten).
COMPACT, SHORT = 2, 3
HEAD = 3  # bytes before a SHORT entry's postings
SHORT_NO_LENGTHS = bytes((SHORT, 0, length_to_byte(0)))  # the head of a SHORT entry written without field lengths
FLOAT32 = struct.Struct("!f")
STORED_COLUMNS = {1: STORED_COLUMN, 2: PickleColumn(DictionaryColumn())}  # by ``Codec.stored_format``


class Codec(W3Codec):
    """W3 without length statistics per block of postings, with short posting lists inlined, the term
    dictionary in a file of ``terms.py``'s and stored fields deflated against a dictionary (``stored.py``).

    Length statistics serve Whoosh's block-skipping collectors, which search never uses (topdocs.py
    walks every posting of a clause), and looking up a document's field length for each posting
    written was a fifth of writing the index. Field lengths themselves, which scores use, are written
    as before.
    """

    length_stats = False
    # The term dictionary's file: 1 W3's ordered hash file; 2 ``terms.py``'s, a quarter of the index smaller.
    # Kept per instance, and the codec is pickled into each segment: segments written before read as before.
    terms_format = 1
    # Stored fields: 1 W3's, each document deflated alone; 2 against a dictionary of the segment's (stored.py).
    stored_format = 1

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.terms_format = 2
        self.stored_format = 2

    def per_document_writer(self, storage, segment):
        return StoredFieldsWriter(self, storage, segment)

    def per_document_reader(self, storage, segment):
        return StoredFieldsReader(storage, segment, STORED_COLUMNS[self.stored_format])

    def postings_writer(self, dbfile, byteids=False):
        limits = dict(blocklimit=self._blocklimit, compression=self._compression, inlinelimit=INLINE_BELOW)
        return InliningPostingsWriter(dbfile, byteids=byteids, **limits)

    def field_writer(self, storage, segment):
        return TermFieldWriter(self, storage, segment)

    def terms_reader(self, storage, segment):
        name = segment.make_filename(self.TERMS_EXT)
        table = TermTableReader if self.terms_format >= 2 else OrderedHashReader
        dbfile, length = storage.open_file(name), storage.file_length(name)
        return CompactTermsReader(self, dbfile, length, segment.open_file(storage, self.POSTS_EXT), table)


class StoredFieldsWriter(W3PerDocWriter):
    """W3's writer of what is kept per document, its stored fields in the codec's column."""

    def _create_column(self, fieldname, column):
        if fieldname == "_stored":
            column = STORED_COLUMNS[self._codec.stored_format]
        super()._create_column(fieldname, column)


class StoredFieldsReader(W3PerDocReader):
    def __init__(self, storage, segment, stored_column):
        super().__init__(storage, segment)
        self._stored_column = stored_column

    def stored_fields(self, docnum):
        return self._cached_reader("_stored", self._stored_column)[docnum] or {}


class TermFieldWriter(W3FieldWriter):
    """W3's field writer, its term dictionary in the codec's file, which also takes a term with all its
    postings at once (``postings.TermPool``)."""

    def __init__(self, codec, storage, segment):
        super().__init__(codec, storage, segment)
        if codec.terms_format >= 2:  # W3 began its own table: the term file is begun again, as terms.py's
            self._tindex.dbfile.seek(0)
            self._tindex = TermTableWriter(self._tindex.dbfile)
            self._fieldmap = self._tindex.extras["fieldmap"] = {}

    def add_term(self, btext: bytes, packed: array, posted) -> None:
        """A term and its postings as the pool keeps them (``postings.Posted`` makes them Whoosh's). A list to be
        inlined (nine terms in ten) goes straight into the term's entry: what W3's postings writer and term info
        make of it (weights as float32, no field lengths: ``length_stats``), without their bookkeeping of blocks
        and statistics, which the entry does not keep."""
        if len(packed) < INLINE_BELOW:
            self._tindex.add(pack_ushort(self._fieldid) + btext, SHORT_NO_LENGTHS + posted.encoded(packed))
            return
        self.start_term(btext)
        self._postwriter.add_postings(*posted.postings(packed))
        self.finish_term()


class InliningPostingsWriter(W3PostingsWriter):
    def start_postings(self, format_, terminfo):
        """Whoosh's writers begin each term with an empty ``W3TermInfo``; this codec's entries are its own."""
        super().start_postings(format_, terminfo if isinstance(terminfo, CompactTermInfo) else CompactTermInfo())

    def add_postings(self, ids, weights, values) -> None:
        """A term's postings (values: none, or one per document), in the blocks ``add_posting`` makes of them."""
        limit = self._blocklimit
        for start in range(0, len(ids), limit):
            if self._ids:
                self._write_block()
            end = start + limit
            self._ids.extend(ids[start:end])
            block = weights[start:end]
            self._weights.extend(block)
            self._maxweight = max(self._maxweight, max(block))
            self._values.extend(values[start:end])

    def _mini_ids(self):
        """W3's gaps between a block's documents (``delta_encode``), taken by ``map``, not a generator."""
        ids = self._ids
        return tuple(ids) if self._byteids else tuple(map(operator.sub, ids, itertools.chain((0,), ids)))

    def _mini_weights(self):
        """W3's weights of a block: none when all are 1, one when all are the same, counted rather than compared."""
        weights = self._weights
        if weights.count(1.0) == len(weights):
            return None
        if weights.count(weights[0]) == len(weights):
            return weights[0]
        return tuple(weights)

    def finish_postings(self):
        if self.written() or len(self) >= self._inlinelimit:
            return super().finish_postings()
        terminfo, self._terminfo = self._terminfo, None
        terminfo.add_block(self)
        terminfo.set_inlined(self._ids, self._weights, self._values)
        return terminfo


class CompactTermInfo(W3TermInfo):
    """A term's entry; an inlined posting list as varints: count, document gaps, weights, values."""

    def to_bytes(self) -> bytes:
        if not self.is_inlined():
            return super().to_bytes()
        minlength = 0 if self._minlength is None else length_to_byte(self._minlength)
        return bytes((SHORT, minlength, length_to_byte(self._maxlength))) + encode_postings(*self._inlined)

    @classmethod
    def from_bytes(cls, data: bytes) -> W3TermInfo:
        if data[0] == SHORT:
            return _short_term_info(data)
        if data[0] != COMPACT:
            return W3TermInfo.from_bytes(data)
        size = cls._struct.size
        terminfo = W3TermInfo.from_bytes(b"\0" + data[1:size] + NO_EXTENT)  # the header, read by W3
        terminfo._offset = terminfo._length = None
        terminfo._inlined = decode_postings(data, size)
        return terminfo


def _short_term_info(data: bytes) -> W3TermInfo:
    """A SHORT entry as W3 would read its whole header: the statistics worked out from the postings."""
    ids, weights, values = decode_postings(data, HEAD)
    terminfo = W3TermInfo()
    terminfo._weight = _float32(sum(weights))  # W3 keeps them as 32-bit floats
    terminfo._df = len(ids)
    terminfo._minlength, terminfo._maxlength = byte_to_length(data[1]), byte_to_length(data[2])
    terminfo._maxweight = _float32(max(weights))
    terminfo._minid, terminfo._maxid = ids[0], ids[-1]
    terminfo._inlined = (ids, weights, values)
    return terminfo


def _float32(number: float) -> float:
    return FLOAT32.unpack(FLOAT32.pack(number))[0]


class CompactTermsReader(W3TermsReader):
    """W3's term dictionary, its entries read by ``CompactTermInfo``; ``table`` reads the file (``terms.py``'s, or
    W3's ordered hash file for segments written before it)."""

    def __init__(self, codec, dbfile, length, postfile, table=TermTableReader):
        self._codec = codec
        self._dbfile = dbfile
        self._tindex = table(dbfile, length)
        self._fieldmap = self._tindex.extras["fieldmap"]
        self._postfile = postfile
        self._fieldunmap = [None] * len(self._fieldmap)
        for fieldname, number in self._fieldmap.items():
            self._fieldunmap[number] = fieldname

    def cursor(self, fieldname, fieldobj):
        return CompactFieldCursor(self._tindex, fieldname, self._keycoder, self._keydecoder, fieldobj)

    def items(self):
        decode = self._keydecoder
        return ((decode(key), CompactTermInfo.from_bytes(value)) for key, value in self._tindex.items())

    def items_from(self, fieldname, prefix):
        decode = self._keydecoder
        entries = self._tindex.items_from(self._keycoder(fieldname, prefix))
        return ((decode(key), CompactTermInfo.from_bytes(value)) for key, value in entries)

    def term_info(self, fieldname, tbytes):
        try:
            return CompactTermInfo.from_bytes(self._tindex[self._keycoder(fieldname, tbytes)])
        except KeyError:
            raise TermNotFound(f"No term {fieldname}:{tbytes!r}") from None

    def doc_frequency(self, fieldname, tbytes):
        """Read where the entry keeps it (W3 reads a header at a fixed place; a SHORT entry has none)."""
        start, length = self._range_for_key(fieldname, tbytes)
        if self._dbfile.get_byte(start) == SHORT:
            return read_varint(self._dbfile.get(start + HEAD, min(5, length - HEAD)), 0)[0]
        return W3TermInfo.read_doc_freq(self._dbfile, start)

    def frequency(self, fieldname, tbytes):
        start, _ = self._range_for_key(fieldname, tbytes)
        if self._dbfile.get_byte(start) == SHORT:
            return self.term_info(fieldname, tbytes).weight()
        return W3TermInfo.read_weight(self._dbfile, start)


class CompactFieldCursor(W3FieldCursor):
    def term_info(self):
        if self._pos is None:
            return None
        return CompactTermInfo.from_bytes(self._tindex.dbfile.get(self._datapos, self._datalen))


def encode_postings(ids, weights, values) -> bytes:
    """Varints: the count, each document's gap from the one before, each weight (a term's count in the
    document: whole; any other as a float), the values' count and each value's length and bytes."""
    return bytes(encode_documents(ids) + encode_weights(weights, values))


def encode_documents(ids) -> bytearray:
    """The count and each document's gap from the one before: how ``encode_postings`` begins."""
    out = bytearray()
    write_varint(out, len(ids))
    previous = 0
    for docnum in ids:
        write_varint(out, docnum - previous)
        previous = docnum
    return out


def encode_weights(weights, values) -> bytes:
    """The weights and values of the postings ``encode_documents`` began: how ``encode_postings`` ends."""
    out = bytearray()
    whole = all(w == int(w) and 0 <= w < 1 << 31 for w in weights)
    out.append(1 if whole else 0)
    for weight in weights:
        if whole:
            write_varint(out, int(weight))
        else:
            out += struct.pack("!f", weight)
    write_varint(out, len(values))  # none, for a format without values (W3 keeps only non-empty ones)
    for value in values:
        write_varint(out, len(value))
        out += value
    return bytes(out)


def decode_postings(data: bytes, pos: int) -> tuple[tuple, tuple, tuple]:
    count, pos = read_varint(data, pos)
    ids, previous = [], 0
    for _ in range(count):
        gap, pos = read_varint(data, pos)
        previous += gap
        ids.append(previous)
    whole = data[pos]
    pos += 1
    weights = []
    for _ in range(count):
        if whole:
            weight, pos = read_varint(data, pos)
            weights.append(float(weight))
        else:
            weights.append(struct.unpack_from("!f", data, pos)[0])
            pos += 4
    held, pos = read_varint(data, pos)
    values = []
    for _ in range(held):
        size, pos = read_varint(data, pos)
        values.append(data[pos : pos + size])
        pos += size
    # A format without values: each posting's is empty bytes, as W3's blocks give (merging segments needs bytes)
    return tuple(ids), tuple(weights), tuple(values) if held else (b"",) * count
