"""The term dictionary file: every (field, word) of a segment with its entry, in key order, found by hashing.

Whoosh's W3 writes it as an ordered hash file that spends about 36 bytes on each key beside the key
and its entry: two lengths of 4 bytes, two hash slots of 12 bytes, a place in an ordered array.
A rules corpus has hundreds of thousands of keys, most of them word pairs with a handful of
postings written into their entry (``codec.py``), so that was a quarter of the index. Here a key
costs about 10 bytes: its two lengths as varints, a 4-byte slot of a hash table at most two thirds
full (a slot holds the record's position; the key is compared where it is written), and every
``EVERY``-th record's position for the ordered look-ups (the nearest key at or after a prefix).

Layout: the records (varint key length, varint entry length, key, entry) in key order; the hash
slots; the sparse positions; the pickled extras (W3 keeps the field numbers there); a trailer.
The reader offers what W3's terms reader and field cursor ask of an ordered hash file.
"""

from __future__ import annotations

import pickle
import struct
import sys
import zlib
from array import array

from .varints import read_varint, write_varint

MAGIC = b"RTD1"
EVERY = 16  # records between two kept positions (the ordered look-ups read at most this many)
SLOT = struct.Struct("!I")  # a record's position + 1 (0: an empty slot)
KEPT = struct.Struct("!Q")  # a kept record's position
CHUNK = 1 << 20  # bytes of records written at once
TRAILER = struct.Struct("!4sQQQQQQ")  # magic, records, end of records, slots, slots at, positions at, extras at


def _slots_for(count: int) -> int:
    """1.5 times ``count``: probes stay short, the table small (a slot is ``hash % size``, so any size does;
    files written with a power of two, which could leave the table two thirds empty, read the same)."""
    return count * 3 // 2 + 1  # one slot at least stays empty: a probe for a missing key ends


def _big_endian(numbers: array) -> bytes:
    """An array's bytes as ``SLOT`` and ``KEPT`` read them (network order)."""
    if sys.byteorder == "little":
        numbers = array(numbers.typecode, numbers)
        numbers.byteswap()
    return numbers.tobytes()


class TermTableWriter:
    """Writes a term dictionary: ``add`` keys in increasing order, then ``close``."""

    def __init__(self, dbfile):
        self.dbfile = dbfile
        self.extras: dict = {}
        self.positions = array("Q")  # arrays: a segment has millions of keys, and Python ints cost 28 bytes
        self.hashes = array("I")
        self.lastkey = b""
        self.records = bytearray()  # written a chunk at a time: a record is a few dozen bytes
        self.start = dbfile.tell()  # where ``records`` goes in the file

    def add(self, key: bytes, value: bytes) -> None:
        if key <= self.lastkey and self.positions:
            raise ValueError(f"keys must increase: {self.lastkey!r}..{key!r}")
        records = self.records
        self.positions.append(self.start + len(records))
        self.hashes.append(zlib.crc32(key))
        write_varint(records, len(key))
        write_varint(records, len(value))
        records += key
        records += value
        self.lastkey = key
        if len(records) >= CHUNK:
            self._write_records()

    def _write_records(self) -> None:
        self.dbfile.write(bytes(self.records))
        self.start += len(self.records)
        self.records = bytearray()

    def close(self) -> int:
        self._write_records()
        dbfile = self.dbfile
        end_of_records = dbfile.tell()
        if end_of_records >= 2**32 - 1:
            raise ValueError("a term dictionary of 4 GiB or more: its positions do not fit its slots")
        size = _slots_for(len(self.positions))
        slots = array("I", bytes(4 * size))
        for position, hashed in zip(self.positions, self.hashes, strict=True):
            slot = hashed % size
            while slots[slot]:
                slot = (slot + 1) % size
            slots[slot] = position + 1
        slots_at = dbfile.tell()
        dbfile.write(_big_endian(slots))
        kept_at = dbfile.tell()
        dbfile.write(_big_endian(self.positions[::EVERY]))
        extras_at = dbfile.tell()
        dbfile.write(pickle.dumps(self.extras, 2))
        counts = (len(self.positions), end_of_records, size, slots_at, kept_at, extras_at)
        dbfile.write(TRAILER.pack(MAGIC, *counts))
        end = dbfile.tell()
        dbfile.close()
        return end


class TermTableReader:
    """Reads a term dictionary written by ``TermTableWriter`` (the ordered hash file methods W3 uses)."""

    def __init__(self, dbfile, length: int):
        self.dbfile = dbfile
        magic, self.count, self.endofdata, self.size, self.slots_at, kept_at, extras_at = TRAILER.unpack(
            dbfile.get(length - TRAILER.size, TRAILER.size)
        )
        if magic != MAGIC:
            raise ValueError(f"not a term dictionary (header {magic!r})")
        self.kept_at, self.kept_count = kept_at, (self.count + EVERY - 1) // EVERY  # read when asked: opening is free
        self.extras = pickle.loads(dbfile.get(extras_at, length - TRAILER.size - extras_at))
        self.is_closed = False

    # -- one record ----------------------------------------------------------------
    def _record(self, pos: int) -> tuple[bytes, int, int, int]:
        """(key, entry position, entry length, next record's position) of the record at ``pos``."""
        head = self.dbfile.get(pos, 10)
        keylen, at = read_varint(head, 0)
        datalen, at = read_varint(head, at)
        keypos = pos + at
        key = self.dbfile.get(keypos, keylen)
        return key, keypos + keylen, datalen, keypos + keylen + datalen

    def key_at(self, pos: int) -> bytes:
        return self._record(pos)[0]

    def key_and_range_at(self, pos: int) -> tuple[bytes, int, int] | None:
        if pos >= self.endofdata:
            return None
        key, datapos, datalen, _ = self._record(pos)
        return key, datapos, datalen

    # -- by key ----------------------------------------------------------------------
    def range_for_key(self, key: bytes) -> tuple[int, int]:
        """(position, length) of ``key``'s entry; KeyError when the dictionary has no such key."""
        size = self.size
        slot = zlib.crc32(key) % size
        get, at = self.dbfile.get, self.slots_at
        for _ in range(self.size):
            (held,) = SLOT.unpack(get(at + slot * 4, 4))
            if not held:
                break
            found, datapos, datalen, _ = self._record(held - 1)
            if found == key:
                return datapos, datalen
            slot = (slot + 1) % size
        raise KeyError(key)

    def __getitem__(self, key: bytes) -> bytes:
        return self.dbfile.get(*self.range_for_key(key))

    def __contains__(self, key: bytes) -> bool:
        try:
            self.range_for_key(key)
        except KeyError:
            return False
        return True

    # -- in order --------------------------------------------------------------------
    def _kept(self, number: int) -> int:
        """The position of the ``number``-th kept record (the ``number * EVERY``-th record)."""
        return KEPT.unpack(self.dbfile.get(self.kept_at + number * KEPT.size, KEPT.size))[0]

    def closest_key_pos(self, key: bytes) -> int | None:
        """The position of the first record whose key is ``key`` or after it (None: past the last).

        A binary search over the kept records (a few dozen reads), then a walk of at most ``EVERY``."""
        low, high = 0, self.kept_count  # the kept records before ``low`` have keys <= ``key``
        while low < high:
            middle = (low + high) // 2
            if self.key_at(self._kept(middle)) <= key:
                low = middle + 1
            else:
                high = middle
        pos = self._kept(low - 1) if low else self._first()
        while pos < self.endofdata:
            found, _, _, after = self._record(pos)
            if found >= key:
                return pos
            pos = after
        return None

    def _first(self) -> int:
        return self._kept(0) if self.kept_count else self.endofdata

    def _ranges(self, pos: int | None):
        if pos is None:
            pos = self._first()
        while pos < self.endofdata:
            key, datapos, datalen, after = self._record(pos)
            yield key, datapos, datalen
            pos = after

    def items(self):
        get = self.dbfile.get
        return ((key, get(datapos, datalen)) for key, datapos, datalen in self._ranges(None))

    def keys(self):
        return (key for key, _, _ in self._ranges(None))

    def items_from(self, key: bytes):
        pos = self.closest_key_pos(key)
        if pos is None:
            return iter(())
        get = self.dbfile.get
        return ((k, get(datapos, datalen)) for k, datapos, datalen in self._ranges(pos))

    def keys_from(self, key: bytes):
        pos = self.closest_key_pos(key)
        return iter(()) if pos is None else (k for k, _, _ in self._ranges(pos))

    def close(self) -> None:
        if not self.is_closed:
            self.dbfile.close()
            self.is_closed = True
