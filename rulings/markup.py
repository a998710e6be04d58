"""Markdown in, safe HTML or plain text out (raw HTML in sources is never passed through)."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    # "commonmark" with html disabled: a <script> in a document renders as text.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = _safe_link  # type: ignore[method-assign]  # markdown-it-py's documented hook
    return md


def _safe_link(url: str) -> bool:
    return bool(re.match(r"^(https?:|/|#|mailto:)", url.strip(), re.I))


def render(markdown: str) -> str:
    return _md().render(markdown or "")


# What any rewrite of ``_plain`` needs: a list marker, emphasis, an autolink, a link, an escape, a tab or
# a run of spaces. A text with none (most names and titles) is only stripped: pages ask by the dozen.
_MARKUP = re.compile(r"[-*_`<\[\\\t]|  ")


def plain_text(markdown: str) -> str:
    """Text for indexing and snippets: list markers and emphasis removed."""
    markdown = markdown or ""
    return _plain(markdown) if _MARKUP.search(markdown) else markdown.strip()


_LIST_MARKER = re.compile(r"(?m)^\s*[-*]\s+")
_EMPHASIS = re.compile(r"\*\*|__|`")
_AUTOLINK = re.compile(r"<(https?://[^>]+)>")
_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")  # [label](url) -> label
_ESCAPED = re.compile(r"\\([.\-*_#])")
_SPACES = re.compile(r"[ \t]+")


def _plain(markdown: str) -> str:
    text = _LIST_MARKER.sub("", markdown)
    text = _EMPHASIS.sub("", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _ESCAPED.sub(r"\1", text)
    return _SPACES.sub(" ", text).strip()


# -- labels written inside a link of the formats forum posts are written in ----------------------------

_MARKDOWN_LABEL = re.compile(r"([\[\]\\])")


def markdown_label(text: str) -> str:
    """``text`` as the label of a Markdown link: its brackets and backslashes escaped, so a name cannot
    close the label and start a link of its own."""
    return _MARKDOWN_LABEL.sub(r"\\\1", text)


ZERO_WIDTH_SPACE = "\u200b"


def bbcode_text(text: str) -> str:
    """``text`` inside BBCode, read by no forum as a tag: a zero-width space after each ``[``.

    BBCode has no escape every forum knows (phpBB none, vBulletin ``[noparse]``, SMF ``[nobbc]``), and a
    tag needs its name right after the bracket, so ``[<zero-width space>/url]`` shows as ``[/url]`` and does nothing:
    a name such as ``Beta [/url][url=https://evil.example/]Click here`` stays the label of one link.
    """
    return text.replace("[", "[" + ZERO_WIDTH_SPACE)


def excerpt(text: str, limit: int = 220) -> str:
    """A plain-text summary for meta descriptions and OpenGraph: the text's first ``limit`` characters,
    cut at a word."""
    flat = re.sub(r"\s+", " ", plain_text(text)).strip()
    if len(flat) <= limit:
        return flat
    return flat[:limit].rsplit(" ", 1)[0] + "\u2026"
