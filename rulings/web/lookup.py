"""What a URL or query string names, checked once for the site and the API alike.

Each helper either returns the thing asked for or raises the error the app answers with (a clean
4xx, ``errors.py``); the site passes an endpoint so that an alias (a former term name, a version
asked as ``v1.1``) redirects to the one canonical URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import abort, redirect, request, url_for

from ..errors import BadRequest, NotFound, Unanswerable
from ..graph import answers, ruling_rows, term_sheet
from ..graph.linkify import FORMATS
from ..graph.rows import Game, TermRow, VersionRow
from ..graph.term_sheet import TermSheet
from ..index.filters import KINDS
from .context import game, store

SLUG = re.compile(r"[a-z0-9][a-z0-9\-]{0,120}")
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.\-]{0,20}")
MAX_TERM_NAME = 100
SURROGATE = re.compile("[\ud800-\udfff]")  # JSON can spell one ("\\ud800"); no UTF-8 text holds one


def redirect_if(endpoint: str | None, changed: bool, **values) -> None:
    """Answer with a permanent redirect to ``endpoint`` when the URL asked for named the thing by an alias."""
    if endpoint and changed:
        abort(redirect(url_for(endpoint, **values), code=301))


def game_or_404(asked: str) -> Game:
    """The game a URL names, by its slug or an alias (``/mc/``)."""
    game = store().game(asked) if SLUG.fullmatch(asked or "") else None
    if game is None:
        raise NotFound(f"No game {asked!r} here.")
    return game


def version_or_404(game: Game, label: str) -> VersionRow:
    """The version a URL names (an unknown one is the ``unknown-version`` answer, a 404).

    A label that looks like a date is a label first, then the date: the version in force that day.
    """
    if not VERSION.fullmatch(label or ""):
        raise NotFound(f"No version {label!r}.")
    return answers.version_named(store(), game, label)


def version_redirect(asked: str, target: VersionRow) -> int:
    """The status of a redirect from a version named another way to its label: permanent (301) for another
    spelling of the label ("v1.1", "1.1.0"), temporary (302) for a date or "latest", whose version changes
    when an edition is added."""
    spelled = asked.strip().lower().lstrip("v") not in ("latest", "current")
    try:
        same = spelled and answers.version_by_label(store(), game(), asked).id == target.id
    except Unanswerable:
        same = False
    return 301 if same else 302


def term_or_404(game: Game, slug: str, endpoint: str | None = None, **values) -> TermRow:
    """The term a URL names; with an endpoint, an alias or former name redirects to the canonical slug,
    and a slug that misses one term's name by a typo to that term (a temporary redirect: it is a guess)."""
    term, exact = store().term_by_slug(game, slug) if SLUG.fullmatch(slug or "") else (None, False)
    if term is None:
        near = answers.near_miss(store(), game, slug.replace("-", " ")) if SLUG.fullmatch(slug or "") else None
        if near is not None and endpoint:
            abort(redirect(url_for(endpoint, slug=near.slug, **values), code=302))
        hint = f"; the nearest is {near.name!r} ({near.slug})" if near is not None else ""
        raise NotFound(f"No term {slug!r} in {game.name}{hint}.")
    redirect_if(endpoint, not exact, slug=term.slug, **values)
    return term


def term_sheet_or_404(
    game: Game, slug: str, referrer_kinds: tuple[str, ...], endpoint: str | None = None, **values
) -> TermSheet:
    """``term_or_404``, with what the term's page reads about it, in the same statement when the slug is the
    term's own (``term_sheet.term_sheet``)."""
    sheet = term_sheet.term_sheet(store(), game, slug, referrer_kinds) if SLUG.fullmatch(slug or "") else None
    if sheet is None:  # an alias slug, a typo or nothing: redirected, or a 404, as ``term_or_404`` answers
        term = term_or_404(game, slug, endpoint, **values)
        sheet = term_sheet.term_sheet(store(), game, term.slug, referrer_kinds)
        assert sheet is not None  # the term exists: term_or_404 found it
    return sheet


def ruling_or_404(game: Game, slug: str, endpoint: str | None = None, **values) -> dict:
    """The ruling a URL names; with an endpoint, a slug of the former scheme redirects to its ruling's slug."""
    row = ruling_rows.ruling(store(), game, slug) if SLUG.fullmatch(slug or "") else None
    if row is None:
        current = ruling_rows.ruling_slug_formerly(store(), game, slug) if SLUG.fullmatch(slug or "") else None
        redirect_if(endpoint, current is not None, game=game.slug, slug=current, **values)
        raise NotFound(f"No ruling {slug!r} in {game.name}.")
    return row


def card_or_404(game: Game, slug: str) -> dict:
    row = ruling_rows.card(store(), game, slug) if SLUG.fullmatch(slug or "") else None
    if row is None:
        raise NotFound(f"No card {slug!r} in {game.name}.")
    return row


def span_or_404(span: str) -> tuple[str, str]:
    """``1.1..1.4`` as its two version labels."""
    start, dots, end = span.partition("..")
    if not (dots and VERSION.fullmatch(start) and VERSION.fullmatch(end)):
        raise NotFound("A range looks like 1.1..1.4")
    return start, end


SEARCH_PARAMS = ("q", "game", "kind", "version", "limit", "partial")  # what ``search_args`` reads
LINKIFY_PARAMS = ("text", "format")  # what ``linkify_args`` reads from a query string
APPLIES_PARAMS = ("term", "date", "version")


@dataclass(frozen=True)
class SearchArgs:
    query: str
    game: Game | None
    kind: str | None
    version: str | None
    limit: int
    partial: bool = False  # search as you type: the last word is still being typed


def search_args(default_limit: int, most: int = 100) -> SearchArgs:
    """The search parameters of the query string; an unknown game or kind, or a limit outside 1 to ``most``,
    is a 400."""
    args = request.args
    kind = (args.get("kind") or "").lower() or None
    if kind and kind not in KINDS:
        raise BadRequest(f"kind must be one of {', '.join(sorted(KINDS))}")
    game_slug = args.get("game") or None
    game = store().game(game_slug) if game_slug else None
    if game_slug and game is None:
        raise BadRequest(f"unknown game {game_slug!r}")
    limit = int_arg("limit", default_limit, 1, most)
    partial = args.get("partial", "") in ("1", "true")
    return SearchArgs(args.get("q", ""), game, kind, args.get("version") or None, limit, partial)


def int_arg(name: str, default: int, low: int, high: int) -> int:
    """A whole-number parameter of the query string between ``low`` and ``high``; anything else is a 400 that
    says the range (never clamped in silence: a script asking for 500 results learns it gets at most 100)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number from {low} to {high}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be from {low} to {high}, not {value}")
    return value


def term_name_arg() -> str:
    """The ``term`` of an applies question; too long a name is a 400."""
    name = (request.args.get("term") or "").strip()
    if len(name) > MAX_TERM_NAME:
        raise BadRequest("term name too long")
    return name


def linkify_args() -> tuple[str, str]:
    """The ``text`` and ``format`` of a linkify request (query string, form, or a JSON object): strings
    of Unicode text and a known format, or a 400."""
    fields = json_object() if request.method == "POST" and request.is_json else request.values
    text, fmt = _string(fields, "text", ""), _string(fields, "format", "markdown").lower()
    if fmt not in FORMATS:
        raise BadRequest(f"format must be one of {', '.join(FORMATS)}")
    return text, fmt


def json_object() -> dict:
    """The request's JSON body, which must be an object; malformed JSON, JSON nested deeper than the
    parser can walk, or any other value is a 400."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise BadRequest("the JSON body is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest('a JSON body must be an object: {"text": "...", "format": "markdown"}')
    return data


def _string(fields, name: str, default: str) -> str:
    value = fields.get(name) or default
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a string")
    if SURROGATE.search(value):
        raise BadRequest(f"{name} is not valid Unicode text (it holds a lone surrogate)")
    return value
