"""What a request works with: the build it answers from, the game its URL names, the site's base URL.

Like ``flaskr/db.py:get_db``: small accessors over ``flask.g``, set once per request by the app
(``open_build``) and by the game routes (``games.register``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from flask import current_app, g, request
from werkzeug.sansio.utils import get_current_url

from ..graph.rows import Game
from ..graph.store import Store
from ..urls import Urls
from .state import Loaded


def loaded() -> Loaded:
    """The build this request answers from (it stays the same for the whole request)."""
    return g.loaded


def store() -> Store:
    return g.loaded.store


def game() -> Game:
    """The game a ``/<game>/...`` URL names, resolved once for the request."""
    return g.game


def base_url() -> str:
    """Where the site is served: ``RULINGS_BASE_URL`` when set (so a crafted Host header cannot put
    another site into canonical links, citations and feeds), else the request's own host."""
    return (current_app.config["BASE_URL"] or _host_url(request.scheme, request.host)).rstrip("/")


@lru_cache(maxsize=256)
def _host_url(scheme: str, host: str) -> str:
    """``request.host_url``, worked out once per host (it decodes the host to Unicode: about 8 µs), not
    by every page that writes its canonical link."""
    return get_current_url(scheme, host)


def absolute(path: str) -> str:
    return base_url() + path


def site_urls() -> Urls:
    """The site's URLs (``urls.py``), mounted where this request is: for the links a page writes by the
    dozen (mentions, see-also, versions), where ``url_for`` would cost tens of microseconds each.
    Made once per request (``request.script_root`` is itself worked out at each asking)."""
    built = g.get("site_urls")
    if built is None:
        built = g.site_urls = Urls(request.script_root)
    return built


@dataclass(frozen=True)
class Chrome:
    """The links the layout of every page writes (``base.html``), made once per mount point: as values,
    since each call from a template costs about 4 µs (Jinja's ``Context.call``)."""

    home: str
    search: str
    style: str
    script: str


@lru_cache(maxsize=16)
def _chrome(root: str) -> Chrome:
    built = Urls(root)
    return Chrome(built.home(), built.search(), built.static("style.css"), built.static("app.js"))


def layout() -> dict:
    """What every template is given (a context processor): the site's URLs, and the layout's links."""
    built = site_urls()
    return {"site": built, "chrome": _chrome(built.base)}
