"""Stored fields, each document's compressed against a dictionary made of its segment's first documents.

W3 deflates each document's pickled fields on its own: a few hundred bytes, too short for deflate to
find what documents share (the field names, the game, the kinds, the rules' vocabulary), so they took
two thirds of their raw size. Here the segment's first ``SAMPLE_DOCS`` documents make a preset
dictionary (their last ``DICTIONARY_BYTES``), written at the end of the column, and every document is
deflated against it (raw deflate: no per-document header and checksum): half the size, and a document
still reads on its own.
"""

from __future__ import annotations

import zlib

from whoosh.columns import Column, ColumnReader, ColumnWriter, VarBytesColumn

SAMPLE_DOCS = 1000
DICTIONARY_BYTES = 16 * 1024
LEVEL = 6
RAW = -15  # raw deflate, a 32 KiB window
SIZE_BYTES = 4  # the dictionary's length, after it


class DictionaryColumn(Column):
    """Byte strings (a document's pickled fields) deflated against the column's own dictionary."""

    _default = b""

    def writer(self, dbfile):
        return self.Writer(dbfile)

    def reader(self, dbfile, basepos, length, doccount):
        return self.Reader(dbfile, basepos, length, doccount)

    class Writer(ColumnWriter):
        def __init__(self, dbfile):
            self._dbfile = dbfile
            self._values = VarBytesColumn.Writer(dbfile)
            self._sample: list[tuple[int, bytes]] | None = []  # held until the dictionary is made of them
            self._dictionary = b""
            self._compressor = None

        def add(self, docnum: int, value: bytes) -> None:
            if self._sample is None:
                self._values.add(docnum, self._compress(value))
                return
            self._sample.append((docnum, value))
            if len(self._sample) == SAMPLE_DOCS:
                self._start()

        def _start(self) -> None:
            sample, self._sample = self._sample, None
            self._dictionary = b"".join(value for _, value in sample)[-DICTIONARY_BYTES:]
            self._compressor = _compressor(self._dictionary)
            for docnum, value in sample:
                self._values.add(docnum, self._compress(value))

        def _compress(self, value: bytes) -> bytes:
            if not value:  # a document without stored fields stays empty
                return value
            compressor = self._compressor.copy()  # primed with the dictionary once, not per document
            return compressor.compress(value) + compressor.flush()

        def finish(self, doccount: int) -> None:
            if self._sample is not None:
                self._start()
            self._values.finish(doccount)
            self._dbfile.write(self._dictionary)
            self._dbfile.write_uint(len(self._dictionary))

    class Reader(ColumnReader):
        def __init__(self, dbfile, basepos, length, doccount):
            end = basepos + length - SIZE_BYTES
            size = dbfile.get_uint(end)
            dictionary = bytes(dbfile.get(end - size, size))
            self._values = VarBytesColumn.Reader(dbfile, basepos, length - SIZE_BYTES - size, doccount)
            self._decompressor = _decompressor(dictionary)
            self._doccount = doccount

        def __getitem__(self, docnum: int) -> bytes:
            value = self._values[docnum]
            return self._decompressor.copy().decompress(value) if value else value

        def __iter__(self):
            for docnum in range(self._doccount):
                yield self[docnum]


def _compressor(dictionary: bytes):
    if not dictionary:  # zlib refuses an empty one
        return zlib.compressobj(LEVEL, zlib.DEFLATED, RAW)
    return zlib.compressobj(LEVEL, zlib.DEFLATED, RAW, zdict=dictionary)


def _decompressor(dictionary: bytes):
    return zlib.decompressobj(RAW, zdict=dictionary) if dictionary else zlib.decompressobj(RAW)
