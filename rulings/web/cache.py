"""Answers cached per build: a build never changes, so every answer is a function of (build, URL).

``AnswerCache`` wraps the Flask app as WSGI middleware. For each request it takes the build to
answer from (``Current.get()``) once and hands it to Flask through the WSGI environ, so the answer
computed is the answer of the build it is filed under. A ``GET`` whose 200 answer is already
known for that build is sent from memory without entering Flask (keyed by the query parameters its view
reads, ``reads``: others are dropped before the view runs); a client (or nginx) that holds
it already gets a ``304`` before anything is computed. Every answer carries the build it came
from (``X-Rulings-Build``); cacheable ones an ``ETag`` (build id + URL) and a ``Cache-Control``:
a pinned page (``/<game>/v/<version>/...``) may be reused for an hour without asking (what
superseded it can change when a version is added), any other page until the next build (reuse
after asking: a ``304`` while the build is the same).

The answers of one build live in that build's ``Loaded`` (``state.py``), bounded in bytes, least
recently used first out; they go with it when a new build is swapped in, so no answer of one build
is ever served for another.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar
from urllib.parse import parse_qsl, unquote_plus

from werkzeug.http import parse_etags

from .security import SECURITY_HEADERS

if TYPE_CHECKING:
    from .state import Loaded

LOADED = "rulings.loaded"  # environ key: the build (``state.Loaded``) this request answers from
BUILD_HEADER = "X-Rulings-Build"
DEFAULT_MIB = 64  # answers kept per build (RULINGS_CACHE_MIB; 0 turns caching off)
PINNED = re.compile(r"^/(?:api/)?[^/]+/v/[^/]+/")
PINNED_CACHE_CONTROL = "public, max-age=3600"
CURRENT_CACHE_CONTROL = "public, no-cache"  # stored, and reused once the server says it is the same build
UNCACHED_PREFIXES = ("/static/",)  # Flask's own conditional file answers


def reads(*names: str):
    """Mark a view with the query parameters it reads: its answers are keyed by those alone, and it is given
    no other (``AnswerCache``), so a parameter it ignores (``?cb=<random>``) never forces an answer again."""

    def mark(view):
        view.query_params = frozenset(names)
        return view

    return mark


def only_params(query: str, names: frozenset[str]) -> str:
    """``query`` with only the parameters named ``names``, as written (their order and encoding kept)."""
    kept = [part for part in query.split("&") if unquote_plus(part.partition("=")[0], encoding="latin-1") in names]
    return "&".join(kept)


K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Key:
    """What an answer depends on: the site's address as the client named it, the path, the query
    (the parameters its view reads, in a canonical order; repeated parameters keep theirs)."""

    origin: str
    path: str
    query: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, environ: dict, base_url: str | None = None) -> Key:
        """The key of a request; ``base_url`` (``RULINGS_BASE_URL``) is the origin when set, since the
        pages then never name the Host the client sent."""
        if base_url:
            origin = base_url
        else:
            host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
            origin = f"{environ.get('wsgi.url_scheme', 'http')}://{host}{environ.get('SCRIPT_NAME', '')}"
        raw = environ.get("QUERY_STRING", "")
        pairs = parse_qsl(raw, keep_blank_values=True, encoding="latin-1") if raw else []
        return cls(origin, environ.get("PATH_INFO", "") or "/", tuple(sorted(pairs, key=lambda kv: kv[0])))

    def etag(self, build_id: str) -> str:
        digest = hashlib.blake2b(repr((self.origin, self.path, self.query)).encode(), digest_size=9).hexdigest()
        return f'"{build_id}.{digest}"'

    @property
    def cache_control(self) -> str:
        return PINNED_CACHE_CONTROL if PINNED.match(self.path) else CURRENT_CACHE_CONTROL


@dataclass(frozen=True)
class Answer:
    """A finished 200 answer: its status line, headers and body."""

    status: str
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def size(self) -> int:
        return len(self.body) + sum(len(k) + len(v) for k, v in self.headers) + 200


class Bounded(Generic[K, V]):
    """At most ``max_bytes`` of values by key (each measured by ``measure``), least recently used first out;
    a value past a sixteenth of the whole is not kept, so one huge page cannot push out hundreds of others."""

    def __init__(self, max_bytes: int, measure: Callable[[V], int]):
        self.max_bytes = max_bytes
        self._measure = measure
        self._items: OrderedDict[K, V] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        size = self._measure(value)
        if size > self.max_bytes // 16:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= self._measure(old)
            self._items[key] = value
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= self._measure(dropped)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def held(self) -> int:
        """The bytes held, as ``measure`` counts them."""
        return self._bytes


class Answers(Bounded[Key, Answer]):
    """One build's answers by key, at most ``max_bytes`` of them, least recently used first out."""

    def __init__(self, max_bytes: int):
        super().__init__(max_bytes, lambda answer: answer.size)
        self._computing: dict[Key, threading.Event] = {}  # set when the request computing it is done

    def shared(self, key: Key, compute: Callable[[], Answer], wait: float) -> Answer:
        """The answer ``compute`` gives, computed by one request at a time: a request asking for an answer
        being computed waits for it (at most ``wait`` seconds) rather than computing it too, so clients
        asking for one costly page at once (a new build, a link posted to a forum) cost one computation.
        When that computation leaves no answer to share (an error), the waiter computes its own."""
        if not self.max_bytes:
            return compute()
        with self._lock:
            other = self._computing.get(key)
            if other is None:
                mine = self._computing[key] = threading.Event()
        if other is not None:
            other.wait(wait)  # holds no lock and no CPU
            return self.get(key) or compute()
        try:
            return compute()
        finally:
            with self._lock:
                del self._computing[key]
            mine.set()

    def hottest(self, count: int) -> list[Key]:
        """The keys used most recently, most recent first (the pages to warm a new build with)."""
        with self._lock:
            return list(reversed(self._items))[:count]


class AnswerCache:
    """WSGI middleware: each request's build taken once; 304s and known answers without Flask."""

    def __init__(
        self,
        app: Callable,
        current: Callable[[], Loaded],
        base_url: Callable[[], str | None],
        params_read: Callable[[dict], frozenset[str] | None] = lambda environ: None,
        wait: Callable[[], float] = lambda: 5.0,
    ):
        self.app = app
        self.current = current
        self.base_url = base_url  # () -> RULINGS_BASE_URL or None
        self.params_read = params_read  # environ -> the parameters the view of its URL reads (None: no view)
        self.wait = wait  # () -> seconds a request waits for the answer another request is computing

    def __call__(self, environ: dict, start_response) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path.startswith(UNCACHED_PREFIXES):
            return self.app(environ, start_response)
        loaded: Loaded | None = environ.get(LOADED)
        if loaded is None:
            try:
                loaded = environ[LOADED] = self.current()
            except Exception:  # no build at all: Flask answers with the error, as it would have
                return self.app(environ, start_response)
        build_id = loaded.build.name
        if not _cacheable(environ):
            return self.app(environ, _with_build(start_response, build_id))
        if environ.get("QUERY_STRING"):
            names = self.params_read(environ)
            if names is None:  # no view answers this URL (a 404, a redirect to add a slash): nothing to keep
                return self.app(environ, _with_build(start_response, build_id))
            environ["QUERY_STRING"] = only_params(environ["QUERY_STRING"], names)
        key = Key.of(environ, self.base_url())
        etag = key.etag(build_id)
        if _matches(environ.get("HTTP_IF_NONE_MATCH"), etag):
            start_response("304 Not Modified", _validators(key, etag, build_id) + list(SECURITY_HEADERS.items()))
            return []
        answer = loaded.answers.get(key) if environ["REQUEST_METHOD"] in ("GET", "HEAD") else None
        if answer is None:
            compute = lambda: self._compute(environ, key, etag, build_id, loaded)  # noqa: E731
            shared = environ["REQUEST_METHOD"] == "GET"
            answer = loaded.answers.shared(key, compute, self.wait()) if shared else compute()
        start_response(answer.status, answer.headers)
        return [] if environ["REQUEST_METHOD"] == "HEAD" else [answer.body]

    def _compute(self, environ: dict, key: Key, etag: str, build_id: str, loaded) -> Answer:
        """Run the app and keep a 200 answer (with its validators) for the next asker."""
        captured: list = []

        def capture(status, headers, exc_info=None):
            captured[:] = [status, headers]
            return lambda data: captured.append(data)  # the legacy write(); Flask never calls it

        chunks = self.app(environ, capture)
        try:
            body = b"".join([*captured[2:], *chunks])
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        status, headers = captured[0], [(k, v) for k, v in captured[1] if k != BUILD_HEADER]
        if not status.startswith("200 ") or any(k.lower() == "cache-control" for k, _ in headers):
            return Answer(status, headers + [(BUILD_HEADER, build_id)], body)  # an error, or a view's own say
        answer = Answer(status, headers + _validators(key, etag, build_id), body)
        if environ["REQUEST_METHOD"] == "GET":
            loaded.answers.put(key, answer)
        return answer


def _cacheable(environ: dict) -> bool:
    """A GET or HEAD without a body: its answer depends on the URL alone."""
    return (
        environ.get("REQUEST_METHOD") in ("GET", "HEAD")
        and environ.get("CONTENT_LENGTH", "") in ("", "0")
        and ("HTTP_TRANSFER_ENCODING" not in environ)
    )


def _validators(key: Key, etag: str, build_id: str) -> list[tuple[str, str]]:
    return [("ETag", etag), ("Cache-Control", key.cache_control), (BUILD_HEADER, build_id)]


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return not tags.star_tag and tags.contains_weak(etag.strip('"'))  # "*" is not known: the URL may be a 404


def _with_build(start_response, build_id: str):
    def start(status, headers, exc_info=None):
        return start_response(status, [*headers, (BUILD_HEADER, build_id)], exc_info)

    return start
