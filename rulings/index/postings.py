"""The postings of a segment being written, kept per term and written a term at a time.

Whoosh's pool keeps each posting as a tuple (field, term, document, weight, value), sorts them all
when the segment is written, spilling sorted runs to disk and merging them back posting by posting,
and its field writer then takes them one by one: at 200 rulebooks (4.3 million postings) that was
half the time spent writing an index. Here the postings of a term are appended to arrays of their
own as documents are added (a term's documents come in increasing order), only the terms are
sorted, and a term's postings go to the postings writer at once. A posting is kept as one number,
its document and the term's count in it: the weight and value Whoosh's formats give a posting
follow from the count (``Posted``), and are made as the term is written. When the terms outgrow their
memory they are spilled to disk as a run sorted by term, and the runs are merged term by term.
"""

from __future__ import annotations

import heapq
import itertools
import pickle
from array import array
from operator import itemgetter

from whoosh import formats
from whoosh.system import pack_uint, unpack_uint
from whoosh.util import random_name

from .codec import encode_documents, encode_weights

TERM_BYTES = 200  # what a term costs in memory (its key and array, their slots), beside its text
POSTING_BYTES = 9  # a document number and a count in one 64-bit number, and the array's room to grow
BATCH = 2_000  # terms per pickle in a run on disk
COUNT_BITS = 32  # a posting: its document number above these bits, the term's count in the document below
COUNT_MASK = (1 << COUNT_BITS) - 1
TAILS_KEPT = 50_000  # runs of counts a field remembers the encoded weights and values of


class Posted:
    """How a field's format makes a posting of a term's count in a document: its weight (the count times the
    field's boost) and its value (the count, for ``Frequency``; none for ``Existence``)."""

    def __init__(self, field):
        if type(field.format) not in (formats.Frequency, formats.Existence):
            raise ValueError(f"postings of a {type(field.format).__name__} format are not written here")
        self.boost = field.format.field_boost
        self.valued = type(field.format) is formats.Frequency
        self.tails: dict[tuple[int, ...], bytes] = {}  # counts -> their weights and values, encoded

    def count(self, weight: float, value: bytes | None) -> int:
        """The count a posting read back from a segment (merging segments) was made of; an error if it was not."""
        count = unpack_uint(value)[0] if self.valued else 1
        if weight != count * self.boost:
            raise ValueError(f"a posting weighs {weight}, not {count} x {self.boost}")
        return count

    def postings(self, packed: array) -> tuple[list, list, list]:
        """Document numbers, weights and values of a term's packed postings, as Whoosh's writers take them."""
        counts = [posting & COUNT_MASK for posting in packed]
        return [posting >> COUNT_BITS for posting in packed], *self._weighed(counts)

    def encoded(self, packed: array) -> bytes:
        """A short list of packed postings as ``codec.encode_postings`` writes its postings: its weights and values
        encoded once for each run of counts met (most short lists are a few ones), then reused."""
        counts = tuple([posting & COUNT_MASK for posting in packed])
        tail = self.tails.get(counts)
        if tail is None:
            if len(self.tails) >= TAILS_KEPT:
                self.tails.clear()
            weights, values = self._weighed(counts)
            tail = self.tails[counts] = encode_weights(array("f", weights), values)
        return bytes(encode_documents([posting >> COUNT_BITS for posting in packed]) + tail)

    def _weighed(self, counts) -> tuple[list, list]:
        return [count * self.boost for count in counts], list(map(pack_uint, counts)) if self.valued else []


class TermPool:
    """What ``SegmentWriter`` asks of a pool (``add`` a posting, ``cleanup``), ``add_field`` and ``write_terms``.

    A term's postings must come in increasing document order, as ``add_document`` gives them. Whoosh's
    fields with separate spelling words post those to document 0 again and again: no field here has them.
    """

    def __init__(self, tempstore, limitmb: int, schema):
        self.tempstore = tempstore
        self.limit = limitmb * 1024 * 1024
        self.size = 0
        self.posted = {name: Posted(field) for name, field in schema.items() if field.indexed}
        self.fields: dict[str, dict[bytes, array]] = {}  # field -> term -> postings (document << 32 | count)
        self.runs: list[str] = []

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        """One posting (Whoosh's pool interface: segments merged into a new one post this way)."""
        fieldname, text, docnum, weight, value = item
        self.add_field(fieldname, docnum, {text: self.posted[fieldname].count(weight, value)})

    def add_field(self, fieldname: str, docnum: int, counts: dict[bytes, int]) -> None:
        """The postings of one field of one document: its terms and their counts (``term_counts``). One call
        a field, not one a posting: the postings of a large index number in the tens of millions."""
        terms = self.fields.get(fieldname)
        if terms is None:
            terms = self.fields[fieldname] = {}
        document = docnum << COUNT_BITS
        added = 0
        for text, count in counts.items():
            postings = terms.get(text)
            if postings is None:
                terms[text] = array("Q", (document | count,))
                added += TERM_BYTES + len(text)
            else:
                postings.append(document | count)
        self.size += added + len(counts) * POSTING_BYTES
        if self.size > self.limit:
            self._spill()

    def _held(self):
        """((field, term), postings) of the terms held, in order."""
        for fieldname in sorted(self.fields):
            terms = self.fields[fieldname]
            for text in sorted(terms):
                yield (fieldname, text), terms[text]

    def _spill(self) -> None:
        """Write the terms held so far to disk, sorted, as one run; start again empty."""
        name = f"{random_name()}.run"
        with self.tempstore.create_file(name).raw_file() as run:
            held = self._held()
            while batch := list(itertools.islice(held, BATCH)):
                pickle.dump(batch, run, pickle.HIGHEST_PROTOCOL)
        self.runs.append(name)
        self.fields, self.size = {}, 0

    def _read_run(self, name: str):
        with self.tempstore.open_file(name).raw_file() as run:
            while True:
                try:
                    yield from pickle.load(run)
                except EOFError:
                    return

    def terms_in_order(self):
        """(field, term) and its packed postings, in term order."""
        if not self.runs:
            yield from self._held()
            return
        merged = heapq.merge(*(self._read_run(name) for name in self.runs), self._held(), key=itemgetter(0))
        key, postings = next(merged, (None, None))
        for following, more in merged:
            if following == key:  # the same term in a later run: later documents
                postings.extend(more)
                continue
            yield key, postings
            key, postings = following, more
        if key is not None:
            yield key, postings

    def write_terms(self, fieldwriter, schema) -> None:
        """Every term's postings to ``fieldwriter`` (``codec.TermFieldWriter``), field by field, in order."""
        field = posted = None
        for (fieldname, text), packed in self.terms_in_order():
            if fieldname != field:
                if field is not None:
                    fieldwriter.finish_field()
                fieldwriter.start_field(fieldname, schema[fieldname])
                field, posted = fieldname, self.posted[fieldname]
            fieldwriter.add_term(text, packed, posted)
        if field is not None:
            fieldwriter.finish_field()

    def cleanup(self) -> None:
        for name in self.runs:
            try:
                self.tempstore.delete_file(name)
            except OSError:
                pass
        self.runs = []
