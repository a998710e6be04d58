"""The Flask app: a cross-linked site and a JSON API over the current build."""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

from flask import Flask, current_app, g, redirect, request
from flask.json.provider import DefaultJSONProvider
from jinja2 import Environment
from werkzeug.exceptions import HTTPException

from .. import deadline
from ..errors import BadRequest
from ..graph import rules
from ..markup import plain_text
from ..settings import ServerOptions, Settings
from . import budget, errors
from .cache import DEFAULT_MIB, LOADED, AnswerCache
from .compress import Compress
from .context import layout, site_urls
from .security import MAX_BODY_BYTES, SECURITY_HEADERS, check_host
from .state import Current
from .warm import warmer
from .wording import change_words, dated, revision_line


def package_folder(package: str) -> str:
    """The folder an installed data package (``rulings.templates``) is in, found without importing it.

    In a wheel it is inside ``rulings/``; in an editable install, the repository's top-level folder.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"{package} is not installed: reinstall rulings")
    return str(Path(spec.origin).parent)


class App(Flask):
    """Flask, asking once per function whether it is a coroutine.

    Flask asks it of every hook and view at every request (``ensure_sync`` inspects each one):
    about 2% of a cold page, for answers that never change. Functions made per request (none
    here) are still asked each time: the answers kept are bounded.
    """

    SYNC_KEPT = 1024

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        made = self._sync.get(func)
        if made is None:
            made = super().ensure_sync(func)
            if len(self._sync) < self.SYNC_KEPT:
                self._sync[func] = made
        return made


def create_app(settings: Settings | None = None, *, static_export: bool = False) -> Flask:
    """The site and the API over the current build of ``settings.store``.

    ``static_export`` renders pages for ``rulings export`` (links that work from files).
    """
    settings = settings or Settings.resolve()
    app = App(
        __name__,
        template_folder=package_folder("rulings.templates"),
        static_folder=package_folder("rulings.static"),
        static_url_path="/static",
    )
    configure(app, settings, static_export)
    current = Current(Path(settings.store), app.logger, app.config["ANSWER_CACHE_BYTES"], warmer(app))
    app.extensions["rulings"] = current
    cached = AnswerCache(
        app.wsgi_app,
        current.get,
        lambda: app.config["BASE_URL"],
        params_read(app),
        lambda: app.config["TIME_LIMIT"] or ServerOptions.time_limit,
    )
    # Flask's documented way to add WSGI middleware; gzip outside the cache, which keeps identity bodies
    app.wsgi_app = Compress(cached)  # type: ignore[method-assign]
    app.before_request(start_time_limit)
    app.teardown_request(end_time_limit)
    app.before_request(check_host)
    app.before_request(open_build)
    budget.register(app)  # after open_build: a request refused by its budget still says its build
    app.after_request(security_headers)
    app.after_request(relative_redirects)
    errors.register(app)

    from . import api, site

    app.register_blueprint(site.bp)
    app.register_blueprint(api.bp, url_prefix="/api")
    return app


def params_read(app: Flask):
    """environ -> the query parameters the view of its URL reads (``cache.reads``), None when no view answers it.

    Matching a URL costs tens of microseconds, a tenth of a cached answer: the few paths asked with a query
    string (searches, completions) are matched once."""
    adapter = app.url_map.bind("localhost")  # no route depends on the host

    @lru_cache(maxsize=1024)
    def read(path: str, method: str) -> frozenset[str] | None:
        try:
            endpoint, _ = adapter.match(path, method=method)
        except HTTPException:  # 404, 405, or a redirect to add a slash: no view runs
            return None
        return getattr(app.view_functions.get(endpoint), "query_params", frozenset())

    return lambda environ: read(environ.get("PATH_INFO") or "/", environ.get("REQUEST_METHOD", "GET"))


def configure(app: Flask, settings: Settings, static_export: bool) -> None:
    app.config.update(
        SETTINGS=settings,
        STATIC_EXPORT=static_export,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        TEMPLATES_AUTO_RELOAD=False,
        TIME_LIMIT=None if static_export else ServerOptions.time_limit,  # seconds of work per request
        # Canonical links, citations and feeds use it rather than the Host header, which a client can forge.
        BASE_URL=os.environ.get("RULINGS_BASE_URL") or None,
        # Answers kept per build (cache.py); an export asks for each page once.
        ANSWER_CACHE_BYTES=0 if static_export else cache_mib() * 2**20,
    )
    app.jinja_env.globals.update(
        site_urls=site_urls,
        change_words=change_words,
        revision_line=revision_line,
        dated=dated,
        rule_title=rules.heading,
    )
    app.context_processor(layout)
    app.jinja_env.filters["plain"] = plain_text  # names as shown: "**Swarm**" in a heading is emphasis, not text
    app.jinja_env.globals.update(template_macros(app.jinja_env))
    json_provider = cast(DefaultJSONProvider, app.json)  # Flask's own provider, with these two settings
    json_provider.ensure_ascii = False
    json_provider.sort_keys = False


def template_macros(env: Environment) -> dict:
    """The macros of ``macros.html`` (links, citations, breadcrumbs), made once for every template.

    A ``{% from "macros.html" import ... %}`` makes Jinja compare the page's globals with the
    macros' at every rendering (about 10 µs an import, two a page), for macros that never change.
    """
    module = env.get_template("macros.html").module
    return {name: macro for name, macro in vars(module).items() if not name.startswith("_")}


def cache_mib() -> int:
    """``RULINGS_CACHE_MIB``: memory for answers per build (0 turns the cache off)."""
    value = os.environ.get("RULINGS_CACHE_MIB", "").strip()
    if not value:
        return DEFAULT_MIB
    if not value.isdigit():
        raise BadRequest(f"RULINGS_CACHE_MIB must be a whole number of MiB, not {value!r}")
    return int(value)


def start_time_limit() -> None:
    """The request's work (graph queries, index searches) stops past ``TIME_LIMIT`` (``rulings.deadline``)."""
    deadline.start(current_app.config["TIME_LIMIT"])


def end_time_limit(_error=None) -> None:
    deadline.clear()  # the thread serves other requests next


def open_build() -> None:
    """Each request answers from one build, even if a new one becomes current meanwhile: the one
    the answer cache took for it (``cache.AnswerCache``), filed under that build."""
    g.loaded = request.environ.get(LOADED) or current_app.extensions["rulings"].get()


def security_headers(response):
    """The security headers a response has not set itself, in one pass (``setdefault`` looks through every
    header a response has for each one: a tenth of a cold request's framework time)."""
    present = {name.lower() for name in response.headers.keys()}
    response.headers.extend([(k, v) for k, v in SECURITY_HEADERS.items() if k.lower() not in present])
    return response


def relative_redirects(response):
    """Werkzeug's own redirects (``/mc`` -> ``/mc/``) name the Host the client sent: keep only the path.

    (After-request functions run last registered first, so the security headers still follow.)"""
    if not 300 <= response.status_code < 400:
        return response
    location = urlsplit(response.headers.get("Location", ""))
    if location.netloc and location.netloc == request.host:
        return redirect(location.path + (f"?{location.query}" if location.query else ""), response.status_code)
    return response
