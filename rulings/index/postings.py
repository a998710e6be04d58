"""The postings of a segment being written, kept per term and written a term at a time.

Whoosh's pool keeps each posting as a tuple (field, term, document, weight, value), sorts them all
when the segment is written, spilling sorted runs to disk and merging them back posting by posting,
and its field writer then takes them one by one: at 200 rulebooks (4.3 million postings) that was
half the time spent writing an index. Here the postings of a term are appended to arrays of their
own as documents are added (a term's documents come in increasing order), only the terms are
sorted, and a term's postings go to the postings writer at once. When the terms outgrow their
memory they are spilled to disk as a run sorted by term, and the runs are merged term by term.
"""

from __future__ import annotations

import heapq
import itertools
import pickle
from array import array
from operator import itemgetter

from whoosh.util import random_name

TERM_BYTES = 400  # what a term costs in memory (its key, arrays and their slots), beside its text
POSTING_BYTES = 24  # a document number, a weight and a value's reference
BATCH = 2_000  # terms per pickle in a run on disk


class TermPool:
    """What ``SegmentWriter`` asks of a pool (``add`` a posting, ``cleanup``), ``add_field`` and ``write_terms``.

    A term's postings must come in increasing document order, as ``add_document`` gives them. Whoosh's
    fields with separate spelling words post those to document 0 again and again: no field here has them.
    """

    def __init__(self, tempstore, limitmb: int):
        self.tempstore = tempstore
        self.limit = limitmb * 1024 * 1024
        self.size = 0
        self.fields: dict[str, dict[bytes, tuple[array, array, list]]] = {}  # field -> term -> postings
        self.values: dict[bytes, bytes] = {}  # one object per distinct value (most are a count of 1, 2, 3...)
        self.runs: list[str] = []

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        """One posting (Whoosh's pool interface: segments merged into a new one post this way)."""
        fieldname, text, docnum, weight, value = item
        self.add_field(fieldname, docnum, [(text, 0, weight, value)])

    def add_field(self, fieldname: str, docnum: int, items) -> int:
        """The postings of one field of one document, ``field.index``'s (term, frequency, weight, value)
        items; returns the field's length (its frequencies summed). One call a field, not one a posting:
        the postings of a large index number in the tens of millions."""
        terms = self.fields.get(fieldname)
        if terms is None:
            terms = self.fields[fieldname] = {}
        values = self.values
        length = count = 0
        for text, frequency, weight, value in items:
            postings = terms.get(text)
            if postings is None:
                postings = terms[text] = (array("I"), array("d"), [])
                self.size += TERM_BYTES + len(text)
            postings[0].append(docnum)
            postings[1].append(weight)
            if value:  # a format without values (W3 keeps only non-empty ones)
                postings[2].append(values.setdefault(value, value))
            length += frequency
            count += 1
        self.size += count * POSTING_BYTES
        if self.size > self.limit:
            self._spill()
        return length

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
        self.fields, self.values, self.size = {}, {}, 0

    def _read_run(self, name: str):
        with self.tempstore.open_file(name).raw_file() as run:
            while True:
                try:
                    yield from pickle.load(run)
                except EOFError:
                    return

    def terms_in_order(self):
        """(field, term) and its postings (document numbers, weights, values), in term order."""
        if not self.runs:
            yield from self._held()
            return
        merged = heapq.merge(*(self._read_run(name) for name in self.runs), self._held(), key=itemgetter(0))
        key, postings = next(merged, (None, None))
        for following, more in merged:
            if following == key:  # the same term in a later run: later documents
                postings[0].extend(more[0])
                postings[1].extend(more[1])
                postings[2].extend(more[2])
                continue
            yield key, postings
            key, postings = following, more
        if key is not None:
            yield key, postings

    def write_terms(self, fieldwriter, schema) -> None:
        """Every term's postings to ``fieldwriter`` (``codec.TermFieldWriter``), field by field, in order."""
        field = None
        for (fieldname, text), (ids, weights, values) in self.terms_in_order():
            if fieldname != field:
                if field is not None:
                    fieldwriter.finish_field()
                fieldwriter.start_field(fieldname, schema[fieldname])
                field = fieldname
            fieldwriter.add_term(text, ids, weights, values)
        if field is not None:
            fieldwriter.finish_field()

    def cleanup(self) -> None:
        for name in self.runs:
            try:
                self.tempstore.delete_file(name)
            except OSError:
                pass
        self.runs = []
