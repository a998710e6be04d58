"""What a search answers: its hits, best first, and what it says about the query (corrected, cut, nothing
found). The web pages, the API, the CLI and the MCP server show these; ``as_dict`` is the JSON they share."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .snippets import CLOSE, OPEN, marks

MAX_QUERY_CHARS = 200


@dataclass
class Hit:
    title: str
    aliases: list[str]
    game: str
    kind: str
    slug: str
    url: str
    score: float
    snippet: str
    subkind: str = ""
    version: str | None = None
    number: str | None = None  # the numbered rule the hit points at ("702.19b"), if any

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "aliases": self.aliases,
            "game": self.game,
            "kind": self.kind,
            "slug": self.slug,
            "url": self.url,
            "score": round(self.score, 4),
            "snippet": self.snippet.replace(OPEN, "").replace(CLOSE, ""),
            "marks": marks(self.snippet),
            "subkind": self.subkind,
            "version": self.version,
            "number": self.number,
        }


@dataclass
class Results:
    query: str
    hits: list[Hit] = field(default_factory=list)
    did_you_mean: str | None = None
    corrected: bool = False
    truncated: bool = False
    message: str | None = None
    suggestions: list[dict] = field(default_factory=list)  # closest names when nothing matched

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "did_you_mean": self.did_you_mean,
            "corrected": self.corrected,
            "truncated": self.truncated,
            "message": self.message,
            "suggestions": self.suggestions,
            "hits": [h.as_dict() for h in self.hits],
        }


def clean_query(text: str) -> tuple[str, bool]:
    """Drop control characters, collapse space, cap the length."""
    text = "".join(" " if unicodedata.category(c).startswith("C") else c for c in (text or ""))
    text = re.sub(r"\s+", " ", text).strip()
    return (
        text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] if len(text) > MAX_QUERY_CHARS else text,
        len(text) > MAX_QUERY_CHARS,
    )
