"""The one error model: every error the service reports, and diagnostics that name file and line.

An error carries what each channel needs: ``status`` and ``message`` (and extra fields) for JSON,
``http_status`` for the web, ``exit_code`` for the CLI (docs/reference.md, "What the service promises").
The web answers any of them with one handler (``web/errors.py``), the CLI with one
(``cli.RulingsGroup``); both show ``to_dict()``.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Diagnostic:
    """A warning or error found while reading the corpus."""

    level: str  # "warning" | "error" | "suggestion" | "merge" (a name taken for a term printed under another)
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.level}: {self.message}"


class RulingsError(Exception):
    """Base class: every error the service reports to a user."""

    status = "error"
    http_status = 500
    exit_code = 1

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra

    def to_dict(self) -> dict:
        """The JSON shape: ``{"status", "message", ...}``."""
        return {"status": self.status, "message": self.message, **self.extra}


class BadRequest(RulingsError):
    """A request that cannot be answered as asked (bad date, bad range, unknown filter...)."""

    http_status = 400
    exit_code = 2


class TooCostly(BadRequest):
    """A request that asks for more work than one request may make (a post naming too many terms to link)."""

    http_status = 413


class Busy(RulingsError):
    """A kind of request that has spent its share of the server for now (``web/budget.py``): ask again later."""

    status = "busy"
    http_status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after


class NotFound(RulingsError):
    """A page or thing that does not exist (a URL naming no term, ruling or card)."""

    http_status = 404
    exit_code = 1


class Unanswerable(NotFound):
    """A well-formed question with a negative answer; ``status`` says which (docs/reference.md: negative answers).

    ``unknown-game``, ``unknown-term``, ``unknown-version``, ``not-defined``, ``before-first-version``.
    """

    def __init__(self, status: str, message: str, **extra):
        super().__init__(message, **extra)
        self.status = status


class CorpusError(RulingsError):
    """The corpus cannot be built: a manifest or document is unusable (the message names file and line)."""

    exit_code = 3

    def __init__(self, path: str, message: str, line: int | None = None):
        self.diagnostic = Diagnostic("error", path, line, message)
        super().__init__(str(self.diagnostic), path=path, line=line)

    def __reduce__(self):  # raised where a process writes part of the graph, raised again by the build
        return CorpusError, (self.diagnostic.path, self.diagnostic.message, self.diagnostic.line)


class StoreError(RulingsError):
    """No usable built store (and none could be built)."""

    http_status = 503
    exit_code = 4


class WriteError(RulingsError):
    """A folder the command writes (the store, an export) cannot be written: disk full, read-only
    file system, a file where the folder should be."""

    exit_code = 5


# -- writes that fail because of where they go --------------------------------------------------

STORAGE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS}
# The folder's fault only when the file is inside it:
PATH_ERRNOS = {errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EEXIST, errno.ENOENT}
SQLITE_WRITE_ERRORS = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR")


def storage_failure(exc: BaseException) -> str | None:
    """Why a write failed when the file system is at fault (full, read-only), else None."""
    sqlite_name = getattr(exc, "sqlite_errorname", None) or ""
    if isinstance(exc, sqlite3.Error) and sqlite_name.startswith(SQLITE_WRITE_ERRORS):
        return str(exc)
    if isinstance(exc, OSError) and exc.errno in STORAGE_ERRNOS:
        return os.strerror(exc.errno).lower()
    return None


def write_error(label: str, folder: Path, exc: BaseException) -> WriteError | None:
    """``cannot write {label} {folder}: reason`` for a write into ``folder`` that failed because of
    the file system or the folder itself; None when ``exc`` is something else (reading the corpus
    can fail with a permission error too)."""
    reason = storage_failure(exc)
    if reason is None and isinstance(exc, OSError) and exc.errno in PATH_ERRNOS and _inside(exc.filename, folder):
        reason = os.strerror(exc.errno).lower()
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            reason = f"{_first_file(folder) or folder} is a file, not a folder"
    return WriteError(f"cannot write {label} {folder}: {reason}") if reason else None


def _inside(filename, folder: Path) -> bool:
    return bool(filename) and Path(os.fsdecode(filename)).resolve().is_relative_to(folder.resolve())


def _first_file(path: Path) -> Path | None:
    """The first existing ancestor of ``path`` that is not a folder (``--store`` under a file)."""
    for parent in (path, *path.parents):
        if parent.exists():
            return None if parent.is_dir() else parent
    return None
