"""How a server reads a build's index: from one private in-memory copy of each file, shared.

Whoosh maps index files into memory (mmap). A mapped file truncated under a running server
(a build damaged on disk) kills the process with SIGBUS the next time a search touches a page
past the new end: nothing in Python can catch that. Plain reads avoid it but made searches
about 1.5 times slower (many small reads through Whoosh's file layers). So each file is read
once, on first use, into memory, and every searcher reads views of those bytes: whatever happens
to the file on disk afterwards cannot reach them.

Whoosh's own in-memory file (``BufferFile``) copies its buffer into a ``BytesIO`` for each file
it opens, for each searcher: with one set of searchers per server thread that was the index's
size once per thread (6 GB for 8 threads at 1,678 rulebooks). ``ViewFile`` reads the shared
bytes in place, so a server holds the index once, however many searchers it opens; the copies go
when the build is replaced and its searchers dropped.
"""

from __future__ import annotations

import threading
from pathlib import Path

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import BufferFile

LINE_CHUNK = 256  # bytes looked at a time for the end of a line (pickles read lines rarely)


def index_storage(folder: Path) -> FileStorage:
    """The storage a server reads an index folder through."""
    return SharedCopyStorage(folder)


class SharedCopyStorage(FileStorage):
    """A read-only Whoosh storage whose files are read once into memory and shared by every reader.

    ``supports_mmap`` is off so that Whoosh maps nothing itself: a segment's compound file is then
    cut into its parts with ``ViewFile.subset``, views of the same bytes.
    """

    def __init__(self, path: Path):
        super().__init__(str(path), supports_mmap=False, readonly=True)
        self._copies: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def open_file(self, name: str, **kwargs) -> ViewFile:
        with self._lock:
            if name not in self._copies:
                self._copies[name] = Path(self._fpath(name)).read_bytes()
            data = self._copies[name]
        return ViewFile(memoryview(data), name=name, **kwargs)


class ViewFile(BufferFile):
    """Whoosh's ``BufferFile`` reading its buffer in place (``ViewReader``) instead of a copy of it."""

    def __init__(self, buf: memoryview, name: str | None = None, onclose=None):
        super().__init__(b"", name=name, onclose=onclose)  # an empty BytesIO, replaced just below
        self._buf = buf
        self.file = ViewReader(buf)

    def subset(self, position: int, length: int, name: str | None = None) -> ViewFile:
        return ViewFile(self._buf[position : position + length], name=name or self._name)


class ViewReader:
    """The file methods Whoosh reads with (read, readline, seek, tell), over a memoryview, copying only
    what each call returns."""

    def __init__(self, view: memoryview):
        self._view = view
        self._pos = 0

    def read(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = len(self._view) if size is None or size < 0 else min(start + size, len(self._view))
        self._pos = max(start, end)
        return self._view[start:end].tobytes()

    def readline(self, size: int | None = -1) -> bytes:
        start, limit = self._pos, len(self._view) if size is None or size < 0 else self._pos + size
        end = start
        while end < min(limit, len(self._view)):
            chunk = self._view[end : min(end + LINE_CHUNK, limit)].tobytes()
            newline = chunk.find(b"\n")
            if newline >= 0:
                end += newline + 1
                break
            end += len(chunk)
        return self.read(end - start)

    def seek(self, position: int, whence: int = 0) -> int:
        base = (0, self._pos, len(self._view))[whence]
        self._pos = base + position
        return self._pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        """Nothing to close: the bytes belong to the storage."""
