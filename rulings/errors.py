"""The one error model: every error the service reports, and diagnostics that name file and line.

An error carries what each channel needs: ``status`` and ``message`` (and extra fields) for JSON,
``http_status`` for the web, ``exit_code`` for the CLI (README "What the service promises").
The web answers any of them with one handler (``web/errors.py``), the CLI with one
(``cli.RulingsGroup``); both show ``to_dict()``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """A warning or error found while reading the corpus."""

    level: str  # "warning" | "error" | "suggestion"
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


class NotFound(RulingsError):
    """A page or thing that does not exist (a URL naming no term, ruling or card)."""

    http_status = 404
    exit_code = 1


class Unanswerable(NotFound):
    """A well-formed question with a negative answer; ``status`` says which (README: negative answers).

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


class StoreError(RulingsError):
    """No usable built store (and none could be built)."""

    http_status = 503
    exit_code = 4


class StoreWriteError(StoreError):
    """The store cannot be written: disk full, read-only file system, a file where a folder should be."""

    exit_code = 5
