"""How a server reads a build's index: from a private in-memory copy of each file.

Whoosh maps index files into memory (mmap). A mapped file truncated under a running server
(a build damaged on disk) kills the process with SIGBUS the next time a search touches a page
past the new end: nothing in Python can catch that. Plain reads avoid it but made searches
about 1.5 times slower (many small reads through Whoosh's file layers). So each file is copied
once, on first use, into an anonymous in-memory file (``memfd``) and Whoosh maps that: the same
speed as before, and whatever happens to the file on disk afterwards cannot reach the copy. The
cost is memory: the size of the index files a server has opened (its history index only when a
past version is searched); the copies go when the build is replaced and the searcher dropped.
"""

from __future__ import annotations

import os
import threading
import weakref
from pathlib import Path

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile


def index_storage(folder: Path) -> FileStorage:
    """The storage a server reads an index folder through: private copies where the system has
    anonymous in-memory files (Linux), plain reads elsewhere (slower, but never a SIGBUS)."""
    if hasattr(os, "memfd_create") and Path("/proc/self/fd").is_dir():
        return PrivateCopyStorage(folder)
    return FileStorage(str(folder), supports_mmap=False, readonly=True)


class PrivateCopyStorage(FileStorage):
    """A read-only Whoosh storage whose files are private in-memory copies of the files on disk."""

    def __init__(self, path: Path):
        super().__init__(str(path), supports_mmap=True, readonly=True)
        self._copies: dict[str, int] = {}  # file name -> memfd holding its bytes
        self._lock = threading.Lock()
        weakref.finalize(self, _close_all, self._copies)

    def open_file(self, name: str, **kwargs) -> StructFile:
        with self._lock:
            if name not in self._copies:
                self._copies[name] = _copy_into_memory(Path(self._fpath(name)))
            fd = self._copies[name]
        # A new open file description: its own offset, so threads never share a read position.
        return StructFile(open(f"/proc/self/fd/{fd}", "rb"), name=name, **kwargs)


def _copy_into_memory(path: Path) -> int:
    fd = os.memfd_create(path.name, os.MFD_CLOEXEC)
    try:
        with open(path, "rb") as source:
            size, copied = os.fstat(source.fileno()).st_size, 0
            while copied < size:
                sent = os.sendfile(fd, source.fileno(), copied, size - copied)
                if sent == 0:  # the file shrank while being copied: a short copy, read as a damaged index
                    break
                copied += sent
    except BaseException:
        os.close(fd)
        raise
    return fd


def _close_all(copies: dict[str, int]) -> None:
    """Open mappings keep their pages; closing the descriptors lets the kernel free them with the last one."""
    for fd in copies.values():
        os.close(fd)
