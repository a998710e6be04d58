"""HTML pages, at the stable URLs of PRODUCT.md (forum links depend on them)."""

from __future__ import annotations

import datetime as dt
import re

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from ..errors import BadRequest
from ..graph import answers
from ..graph.linkify import FORMATS, linkify
from ..graph.store import Game
from ..index.search import CLOSE, OPEN, clean_query
from . import views
from .views import store

bp = Blueprint("site", __name__)

SLUG = re.compile(r"^[a-z0-9][a-z0-9\-]{0,120}$")
VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.\-]{0,20}$")


def game_or_404(asked: str, endpoint: str | None = None, **values) -> Game:
    """The game a URL names; an alias (``/mc/``) redirects permanently to the game's slug."""
    game = store().game(asked) if SLUG.match(asked or "") else None
    if game is None:
        abort(404, f"No game {asked!r} here.")
    if endpoint and asked != game.slug:
        abort(redirect(url_for(endpoint, game=game.slug, **values), code=301))
    return game


def version_or_404(game: Game, label: str):
    if not VERSION.match(label or ""):
        abort(404, f"No version {label!r}.")
    try:
        return answers.version_by_label(store(), game, label)
    except answers.Unanswerable as no:
        abort(404, no.payload["message"])


def term_or_404(game: Game, slug: str, endpoint: str, **values):
    """The term a URL names; an alias or former name redirects to the one canonical URL."""
    if not SLUG.match(slug or ""):
        abort(404, f"No term {slug!r} in {game.name}.")
    term, exact = store().term_by_slug(game, slug)
    if term is None:
        abort(404, f"No term {slug!r} in {game.name}.")
    if not exact:
        abort(redirect(url_for(endpoint, game=game.slug, slug=term.slug, **values), code=301))
    return term


def ruling_or_404(game: Game, slug: str) -> dict:
    row = store().ruling(game, slug) if SLUG.match(slug or "") else None
    if row is None:
        abort(404, f"No ruling {slug!r} in {game.name}.")
    return row


def card_or_404(game: Game, slug: str) -> dict:
    row = store().card(game, slug) if SLUG.match(slug or "") else None
    if row is None:
        abort(404, f"No card {slug!r} in {game.name}.")
    return row


# -- home, game, search ------------------------------------------------------------
@bp.route("/")
def home():
    games = store().games()
    query = request.args.get("filter", "")
    shown = [g for g in games if query.lower() in g.name.lower()] if query else games
    return render_template("home.html", games=shown, total=len(games), filter=query)


@bp.route("/<game>/")
def game_home(game: str):
    found = game_or_404(game, "site.game_home")
    st = store()
    terms = st.terms(found, ("entry", "keyword"))
    sections = st.terms(found, ("section",))
    rulings = st.rulings(found)
    groups: dict[str, list[dict]] = {}
    for ruling in rulings:
        groups.setdefault(ruling["group"] or "Rulings", []).append(ruling)
    names = views.display_names(found)
    return render_template("game.html", game=found, versions=st.versions(found), az=views.az(terms),
                           sections=sections, documents=st.documents(found), groups=groups,
                           cards=[c for c in st.cards(found) if c["rulings"]], term_count=len(terms),
                           sentence=lambda text, caps: views.sentence_case(text, names) if caps else text)


@bp.route("/search")
def search():
    query, _ = clean_query(request.args.get("q", ""))
    game_slug = request.args.get("game") or None
    kind = request.args.get("kind") or None
    version = request.args.get("version") or None
    game = store().game(game_slug) if game_slug else None
    if game_slug and game is None:
        abort(400, f"Unknown game {game_slug!r}.")
    results = views.loaded().searcher.search(query, game=game.slug if game else None, kind=kind,
                                             version=version, limit=20) if query else None
    return render_template("search.html", query=query, results=results, game=game, kind=kind, version=version,
                           games=store().games(), mark=_mark)


def _mark(snippet: str) -> str:
    from markupsafe import Markup, escape

    return Markup(str(escape(snippet)).replace(OPEN, "<mark>").replace(CLOSE, "</mark>"))


# -- terms ---------------------------------------------------------------------------
@bp.route("/<game>/terms/<slug>")
def term(game: str, slug: str):
    found = game_or_404(game, "site.term", slug=slug)
    term_row = term_or_404(found, slug, "site.term")
    page = views.term_page(found, term_row, None)
    if page is None:
        abort(404, f"{term_row.name} is not defined in the current version.")
    return render_template("term.html", page=page)


@bp.route("/<game>/v/<version>/terms/<slug>")
def term_pinned(game: str, version: str, slug: str):
    found = game_or_404(game)
    target = version_or_404(found, version)
    if game != found.slug or version != target.label:
        return redirect(url_for("site.term_pinned", game=found.slug, version=target.label, slug=slug), code=301)
    term_row = term_or_404(found, slug, "site.term_pinned", version=target.label)
    page = views.term_page(found, term_row, target)
    if page is None:
        first = store().revisions(term_row)[0]
        return render_template("not_defined.html", game=found, term=term_row, version=target, first=first), 404
    return render_template("term.html", page=page)


@bp.route("/<game>/terms/<slug>/history")
def history(game: str, slug: str):
    found = game_or_404(game, "site.history", slug=slug)
    term_row = term_or_404(found, slug, "site.history")
    entries = answers.history(store(), found, term_row)
    return render_template("history.html", game=found, term=term_row, entries=entries,
                           versions=store().versions(found))


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(game: str, slug: str, span: str):
    found = game_or_404(game, "site.diff", slug=slug, span=span)
    start, end = _span(span)
    term_row = term_or_404(found, slug, "site.diff", span=span)
    data = answers.diff(store(), found.slug, term_row.slug, start, end)
    if data.get("status") != "ok":
        abort(404, data.get("message"))
    return render_template("diff.html", game=found, term=term_row, data=data, html=views.diff_html(data["ops"]),
                           versions=store().versions(found))


def _span(span: str) -> tuple[str, str]:
    if ".." not in span:
        abort(404, "A range looks like 1.1..1.4")
    start, end = span.split("..", 1)
    if not (VERSION.match(start) and VERSION.match(end)):
        abort(404, "A range looks like 1.1..1.4")
    return start, end


@bp.route("/<game>/changes/<span>")
def changes(game: str, span: str):
    found = game_or_404(game)
    start, end = _span(span)
    data = answers.changes(store(), found.slug, start, end)
    if data.get("status") != "ok":
        abort(404, data.get("message"))
    return render_template("changes.html", game=found, data=data, versions=store().versions(found))


@bp.route("/<game>/applies")
def applies(game: str):
    found = game_or_404(game)
    term_name = (request.args.get("term") or "").strip()[:100]
    date = (request.args.get("date") or "").strip()[:10]
    version = (request.args.get("version") or "").strip()[:20]
    answer = None
    if term_name:
        try:
            answer = answers.applies(store(), found.slug, term_name, version=version or None, date=date or None)
        except BadRequest as exc:
            abort(400, str(exc))
        if answer.get("status") == "ok":
            answer["html"] = views.render_for(found, answer["text"], None,
                                              answers.version_by_label(store(), found, answer["in_force"]))
    return render_template("applies.html", game=found, term=term_name, date=date, version=version,
                           answer=answer, versions=store().versions(found)), (200 if answer is None or
                                                                              answer["status"] == "ok" else 404)


# -- rulings and cards ------------------------------------------------------------------
@bp.route("/<game>/rulings/<slug>")
def ruling(game: str, slug: str):
    found = game_or_404(game, "site.ruling", slug=slug)
    return render_template("ruling.html", game=found, ruling=views.ruling_view(found, ruling_or_404(found, slug)))


@bp.route("/<game>/cards/<slug>")
def card(game: str, slug: str):
    found = game_or_404(game, "site.card", slug=slug)
    row = card_or_404(found, slug)
    rulings = [views.ruling_view(found, r) for r in row["rulings"]]
    return render_template("card.html", game=found, card=row, rulings=rulings)


# -- forum linking --------------------------------------------------------------------
@bp.route("/<game>/link", methods=["GET", "POST"])
def link(game: str):
    found = game_or_404(game)
    text = request.form.get("text", "") if request.method == "POST" else request.args.get("text", "")
    fmt = (request.form.get("format") or request.args.get("format") or "markdown").lower()
    if fmt not in FORMATS:
        abort(400, f"format must be one of {', '.join(FORMATS)}")
    result = linkify(store(), found, text[:20000], fmt, request.host_url) if text else None
    return render_template("link.html", game=found, text=text, fmt=fmt, result=result, formats=FORMATS)


# -- feed --------------------------------------------------------------------------
@bp.route("/<game>/feed.atom")
def feed(game: str):
    found = game_or_404(game)
    versions = store().versions(found)
    entries = []
    for before, after in zip(versions, versions[1:]):
        data = answers.changes(store(), found.slug, before.label, after.label)
        entries.append({"version": after, "previous": before, "data": data})
    entries.reverse()
    updated = next((e["version"].date for e in entries if e["version"].date), None) or dt.date.today().isoformat()
    body = render_template("feed.atom.xml", game=found, entries=entries, updated=updated,
                           base=request.host_url.rstrip("/"))
    return Response(body, mimetype="application/atom+xml")
