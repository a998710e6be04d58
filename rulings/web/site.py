"""HTML pages, at the stable URLs of PRODUCT.md (forum links depend on them)."""

from __future__ import annotations

import datetime as dt
import itertools

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from markupsafe import Markup, escape

from ..errors import BadRequest
from ..graph import answers
from ..graph.linkify import FORMATS, linkify
from ..index.search import CLOSE, OPEN, clean_query
from . import views
from .lookup import (
    card_or_404,
    game_or_404,
    query_values,
    ruling_or_404,
    search_args,
    span_or_404,
    term_name_arg,
    term_or_404,
    version_or_404,
)
from .views import store

bp = Blueprint("site", __name__)


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
    return render_template(
        "game.html",
        game=found,
        versions=st.versions(found),
        az=views.az(terms),
        sections=sections,
        documents=st.documents(found),
        groups=groups,
        cards=[c for c in st.cards(found) if c["ruling_count"]],
        term_count=len(terms),
        sentence=lambda text, caps: views.sentence_case(text, names) if caps else text,
    )


@bp.route("/search")
def search():
    args = search_args(default_limit=20)
    query, _ = clean_query(args.query)
    results = (
        views.loaded().searcher.search(
            query, game=args.game.slug if args.game else None, kind=args.kind, version=args.version, limit=args.limit
        )
        if query
        else None
    )
    return render_template(
        "search.html",
        query=query,
        results=results,
        game=args.game,
        kind=args.kind,
        version=args.version,
        games=store().games(),
        mark=_mark,
    )


def _mark(snippet: str) -> str:
    """A snippet with its match markers as <mark>, everything else escaped."""
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
    if game != found.slug or version != target.label:  # an alias, or a version asked as "v1.1"
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
    return render_template("history.html", game=found, term=term_row, entries=entries, versions=store().versions(found))


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(game: str, slug: str, span: str):
    found = game_or_404(game, "site.diff", slug=slug, span=span)
    start, end = span_or_404(span)
    term_row = term_or_404(found, slug, "site.diff", span=span)
    data = answers.diff(store(), found.slug, term_row.slug, start, end)
    if data.get("status") != "ok":
        abort(404, data.get("message"))
    return render_template(
        "diff.html",
        game=found,
        term=term_row,
        data=data,
        html=views.diff_html(data["ops"]),
        versions=store().versions(found),
    )


@bp.route("/<game>/changes/<span>")
def changes(game: str, span: str):
    found = game_or_404(game, "site.changes", span=span)
    start, end = span_or_404(span)
    data = answers.changes(store(), found.slug, start, end)
    if data.get("status") != "ok":
        abort(404, data.get("message"))
    return render_template("changes.html", game=found, data=data, versions=store().versions(found))


@bp.route("/<game>/applies")
def applies(game: str):
    found = game_or_404(game, "site.applies", **query_values())
    term_name = term_name_arg()
    date = (request.args.get("date") or "").strip()
    version = (request.args.get("version") or "").strip()
    answer = None
    if term_name:
        try:
            answer = answers.applies(store(), found.slug, term_name, version=version or None, date=date or None)
        except BadRequest as exc:
            abort(400, str(exc))
        if answer.get("status") == "ok":
            answer["html"] = views.render_for(
                found, answer["text"], None, answers.version_by_label(store(), found, answer["in_force"])
            )
    return render_template(
        "applies.html",
        game=found,
        term=term_name,
        date=date,
        version=version,
        answer=answer,
        versions=store().versions(found),
    ), (200 if answer is None or answer["status"] == "ok" else 404)


# -- rulings and cards ------------------------------------------------------------------
@bp.route("/<game>/rulings/<slug>")
def ruling(game: str, slug: str):
    found = game_or_404(game, "site.ruling", slug=slug)
    return render_template("ruling.html", game=found, ruling=views.ruling_view(found, ruling_or_404(found, slug)))


@bp.route("/<game>/cards/<slug>")
def card(game: str, slug: str):
    found = game_or_404(game, "site.card", slug=slug)
    row = card_or_404(found, slug)
    rulings = [views.ruling_view(found, r, anchors=f"{r['slug']}-p") for r in row["rulings"]]
    return render_template("card.html", game=found, card=row, rulings=rulings)


# -- forum linking --------------------------------------------------------------------
@bp.route("/<game>/link", methods=["GET", "POST"])
def link(game: str):
    found = game_or_404(game, "site.link" if request.method == "GET" else None, **query_values())
    text = request.form.get("text", "") if request.method == "POST" else request.args.get("text", "")
    fmt = (request.form.get("format") or request.args.get("format") or "markdown").lower()
    if fmt not in FORMATS:
        abort(400, f"format must be one of {', '.join(FORMATS)}")
    result = linkify(store(), found, text[:20000], fmt, views.base_url()) if text else None
    return render_template("link.html", game=found, text=text, fmt=fmt, result=result, formats=FORMATS)


# -- feed --------------------------------------------------------------------------
@bp.route("/<game>/feed.atom")
def feed(game: str):
    found = game_or_404(game, "site.feed")
    entries = views.loaded().memo(("feed", found.slug), lambda: _feed_entries(found))
    updated = next((e["version"].date for e in entries if e["version"].date), None) or dt.date.today().isoformat()
    body = render_template("feed.atom.xml", game=found, entries=entries, updated=updated, base=views.base_url())
    return Response(body, mimetype="application/atom+xml")


def _feed_entries(game) -> list[dict]:
    """Each version's changes against the one before, newest first (a build never changes them)."""
    versions = store().versions(game)
    entries = [
        {"version": after, "previous": before, "data": answers.changes(store(), game.slug, before.label, after.label)}
        for before, after in itertools.pairwise(versions)
    ]
    return entries[::-1]
