"""Responses gzipped for clients that accept it, so a bare ``rulings serve`` sends pages as small as nginx would.

WSGI middleware outside the answer cache (``cache.AnswerCache``), which keeps one identity body per URL: the
cache and every view stay unaware of encodings. A compressed answer is another representation of the same
URL, so it carries its own validator (the ETag with ``-gzip`` appended inside the quotes) and every answer
that could be compressed says ``Vary: Accept-Encoding``, so no shared cache hands gzip to a client that did
not ask for it. A client revalidating with the gzip ETag is asked about the identity one it stands for, and
so still gets its ``304``. Flask-Compress was not used: it compresses inside Flask, under the answer cache,
which would then hand a gzipped body to the next client whatever it accepts.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterable

from werkzeug.http import parse_accept_header

from .cache import Bounded

COMPRESSIBLE = ("text/", "application/json", "application/javascript", "application/atom+xml", "application/xml",
                "image/svg+xml")  # fmt: skip
MIN_BYTES = 1024  # smaller bodies gain less than gzip's own header and the client's work cost
LEVEL = 6  # zlib's default: nginx's gzip_comp_level 6 does the same; 9 saves ~1% for twice the time
SUFFIX = "-gzip"
KEPT_BYTES = 16 * 2**20  # gzipped bodies kept by ETag: a whole edition takes 20 ms to gzip, 0 to send again


def accepts_gzip(environ: dict) -> bool:
    """The client named gzip (or ``*``) with a quality above 0 in ``Accept-Encoding``."""
    header = environ.get("HTTP_ACCEPT_ENCODING")
    return bool(header) and parse_accept_header(header).quality("gzip") > 0


def gzip_etag(etag: str) -> str:
    """``"build.digest"`` -> ``"build.digest-gzip"``; a weak one stays weak."""
    return etag[:-1] + SUFFIX + '"' if etag.endswith('"') else etag + SUFFIX


def identity_etags(if_none_match: str) -> str:
    """An ``If-None-Match`` naming gzip ETags, as the identity ETags they stand for (``-gzip"`` -> ``"``)."""
    return if_none_match.replace(SUFFIX + '"', '"')


class Compress:
    """WSGI middleware: a 200 answer of a compressible type, at least ``MIN_BYTES`` long, gzipped when the
    client accepts it; ``Vary: Accept-Encoding`` on every answer of such a type."""

    def __init__(self, app: Callable, kept_bytes: int = KEPT_BYTES):
        self.app = app
        self.kept: Bounded[str, bytes] = Bounded(kept_bytes, len)  # gzipped bodies by ETag

    def __call__(self, environ: dict, start_response) -> Iterable[bytes]:
        wanted = accepts_gzip(environ)
        held = environ.get("HTTP_IF_NONE_MATCH", "")
        holds_gzip = wanted and SUFFIX + '"' in held  # the client revalidates a gzipped copy
        if holds_gzip:
            environ["HTTP_IF_NONE_MATCH"] = identity_etags(held)
        captured: list = []

        def capture(status, headers, exc_info=None):
            captured[:] = [status, headers, exc_info]
            return lambda data: captured.append(data)  # the legacy write(); Flask never calls it

        chunks = self.app(environ, capture)
        status, headers, exc_info = captured[0], captured[1], captured[2]
        named = {k.lower(): v for k, v in headers}
        if status.startswith("304 "):  # no type said: the validator of the copy the client holds, and Vary
            start_response(status, _vary(_etag(headers) if holds_gzip else headers), exc_info)
            return _chained(captured[3:], chunks)
        if not named.get("content-type", "").startswith(COMPRESSIBLE) or "content-encoding" in named:
            start_response(status, headers, exc_info)
            return _chained(captured[3:], chunks)
        headers = _vary(headers)
        if not wanted or not status.startswith("200 ") or environ.get("REQUEST_METHOD") == "HEAD":
            start_response(status, headers, exc_info)
            return _chained(captured[3:], chunks)
        try:
            body = b"".join([*captured[3:], *chunks])
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        if len(body) < MIN_BYTES:
            start_response(status, headers, exc_info)
            return [body]
        etag = named.get("etag")  # the same tag, the same body: gzipped once (an answer without one, each time)
        packed = self.kept.get(etag) if etag else None
        if packed is None:
            packed = gzip.compress(body, LEVEL, mtime=0)
            if etag:
                self.kept.put(etag, packed)
        body = packed
        headers = [(k, v) for k, v in _etag(headers) if k.lower() != "content-length"]
        start_response(status, [*headers, ("Content-Encoding", "gzip"), ("Content-Length", str(len(body)))], exc_info)
        return [body]


def _vary(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    for i, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            if "accept-encoding" in value.lower():
                return headers
            return [*headers[:i], (name, f"{value}, Accept-Encoding"), *headers[i + 1 :]]
    return [*headers, ("Vary", "Accept-Encoding")]


def _etag(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, gzip_etag(v) if k.lower() == "etag" else v) for k, v in headers]


def _chained(written: list[bytes], chunks: Iterable[bytes]) -> Iterable[bytes]:
    """What the app wrote (never, with Flask) followed by what it returned, unread until served."""
    if not written:
        return chunks
    return _Prefixed(written, chunks)


class _Prefixed:
    def __init__(self, written: list[bytes], chunks: Iterable[bytes]):
        self.written, self.chunks = written, chunks

    def __iter__(self):
        yield from self.written
        yield from self.chunks

    def close(self):
        if hasattr(self.chunks, "close"):
            self.chunks.close()
