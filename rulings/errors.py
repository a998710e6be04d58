"""Errors and diagnostics that name the file and line they are about."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """A warning or error found while reading the corpus."""

    level: str  # "warning" | "error"
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.level}: {self.message}"


class RulingsError(Exception):
    """Base class: every error the service reports to a user."""

    exit_code = 1


class CorpusError(RulingsError):
    """The corpus cannot be built: a manifest or document is unusable."""

    exit_code = 3

    def __init__(self, path: str, message: str, line: int | None = None):
        self.diagnostic = Diagnostic("error", path, line, message)
        super().__init__(str(self.diagnostic))


class StoreError(RulingsError):
    """No usable built store (and none could be built)."""

    exit_code = 4


class NotFound(RulingsError):
    """A game, term, version or ruling that does not exist."""

    exit_code = 1


class BadRequest(RulingsError):
    """A request that cannot be answered as asked (bad date, bad range...)."""

    exit_code = 2
