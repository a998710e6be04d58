"""The JSON API: the same answers as the pages and the CLI, described by /api/openapi.json."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request, url_for

from ..errors import BadRequest
from ..graph import answers
from ..graph.linkify import FORMATS, linkify
from ..index.search import KINDS
from . import views
from .openapi import spec
from .site import SLUG, VERSION, _span, card_or_404, game_or_404, ruling_or_404
from .views import store

bp = Blueprint("api", __name__)


def negative(data: dict):
    """A well-formed question with a negative answer is a 404 carrying the answer's status."""
    return jsonify(data), (200 if data.get("status") == "ok" else 404)


@bp.route("/openapi.json")
def openapi():
    return jsonify(spec(request.host_url.rstrip("/")))


@bp.route("/games")
def games():
    return jsonify([{"slug": g.slug, "name": g.name, "aliases": g.aliases,
                     "url": url_for("site.game_home", game=g.slug)} for g in store().games()])


@bp.route("/<game>")
def game(game: str):
    found = game_or_404(game)
    st = store()
    return jsonify({"slug": found.slug, "name": found.name, "aliases": found.aliases,
                    "versions": [{"label": v.label, "date": v.date, "notes": v.notes} for v in st.versions(found)],
                    "documents": st.documents(found),
                    "terms": len(st.terms(found, ("entry", "keyword"))), "rulings": len(st.rulings(found)),
                    "url": url_for("site.game_home", game=found.slug)})


@bp.route("/<game>/terms")
def terms(game: str):
    found = game_or_404(game)
    version = request.args.get("version")
    try:
        return jsonify(answers.terms_listing(store(), found.slug, version, request.args.get("all") == "1"))
    except answers.Unanswerable as no:
        return negative(no.payload)


def _term_json(page: views.TermPage) -> dict:
    rev = page.revision
    return {
        "status": "ok", "game": page.game.slug, "name": rev.name, "slug": page.term.slug, "kind": page.term.kind,
        "aliases": page.aliases, "in_force": page.version.label, "version": rev.version, "date": rev.date,
        "text": rev.text, "html": page.html, "complete": rev.complete, "change": rev.change, "source": rev.source,
        "redirect": rev.redirect,
        "definition": ({"term": page.definition["term"].name, "anchor": page.definition["anchor"],
                        "html": page.definition["html"]} if page.definition else None),
        "superseded_by": ({"version": page.next_revision.version, "date": page.next_revision.date}
                          if page.next_revision else None),
        "subdefinitions": [{"name": s["name"], "anchor": s["anchor"], "text": s["text"]} for s in page.subdefs],
        "see_also": [{"name": t.name, "slug": t.slug, "anchor": a} for t, a in page.see_also],
        "referenced_by": [{"name": t.name, "slug": t.slug} for t in page.referenced_by],
        "rulings": [{"title": r["title"], "slug": r["slug"],
                     "url": url_for("site.ruling", game=page.game.slug, slug=r["slug"])} for r in page.rulings],
        "versions": [r.version for r in page.revisions], "notes": page.notes, "citation": page.citation,
        "url": url_for("site.term_pinned", game=page.game.slug, version=page.version.label, slug=page.term.slug),
    }


def _term_or_404(found, slug: str):
    term, _ = store().term_by_slug(found, slug) if SLUG.match(slug or "") else (None, False)
    if term is None:
        abort(404, f"No term {slug!r} in {found.name}.")
    return term


@bp.route("/<game>/terms/<slug>")
def term(game: str, slug: str):
    found = game_or_404(game)
    page = views.term_page(found, _term_or_404(found, slug), None)
    return jsonify(_term_json(page))


@bp.route("/<game>/v/<version>/terms/<slug>")
def term_pinned(game: str, version: str, slug: str):
    found = game_or_404(game)
    if not VERSION.match(version):
        abort(404, f"No version {version!r}.")
    try:
        target = answers.version_by_label(store(), found, version)
    except answers.Unanswerable as no:
        return negative(no.payload)
    term_row = _term_or_404(found, slug)
    page = views.term_page(found, term_row, target)
    if page is None:
        first = store().revisions(term_row)[0]
        return negative({"status": "not-defined", "message": f"{term_row.name} is not defined in {target.label}",
                         "first_defined": {"version": first.version, "date": first.date}})
    return jsonify(_term_json(page))


@bp.route("/<game>/terms/<slug>/history")
def history(game: str, slug: str):
    found = game_or_404(game)
    term_row = _term_or_404(found, slug)
    return jsonify({"status": "ok", "game": found.slug, "term": term_row.name, "slug": term_row.slug,
                    "revisions": answers.history(store(), found, term_row)})


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(game: str, slug: str, span: str):
    found = game_or_404(game)
    start, end = _span(span)
    term_row = _term_or_404(found, slug)
    return negative(answers.diff(store(), found.slug, term_row.slug, start, end))


@bp.route("/<game>/changes/<span>")
def changes(game: str, span: str):
    found = game_or_404(game)
    start, end = _span(span)
    return negative(answers.changes(store(), found.slug, start, end))


@bp.route("/<game>/applies")
def applies(game: str):
    found = game_or_404(game)
    term_name = (request.args.get("term") or "").strip()
    if not term_name:
        abort(400, "give ?term=NAME and ?date=YYYY-MM-DD or ?version=LABEL")
    if len(term_name) > 100:
        abort(400, "term name too long")
    try:
        return negative(answers.applies(store(), found.slug, term_name, version=request.args.get("version"),
                                        date=request.args.get("date")))
    except BadRequest as exc:
        abort(400, str(exc))


@bp.route("/search")
def search():
    query = request.args.get("q", "")
    game_slug = request.args.get("game") or None
    kind = request.args.get("kind") or None
    if kind and kind.lower() not in KINDS:
        abort(400, f"kind must be one of {', '.join(sorted(KINDS))}")
    game_row = store().game(game_slug) if game_slug else None
    if game_slug and game_row is None:
        abort(400, f"unknown game {game_slug!r}")
    try:
        limit = int(request.args.get("limit", 10))
    except ValueError:
        abort(400, "limit must be a number")
    results = views.loaded().searcher.search(query, game=game_row.slug if game_row else None, kind=kind,
                                             version=request.args.get("version") or None, limit=limit)
    return jsonify(results.as_dict())


@bp.route("/complete")
def complete():
    game_slug = request.args.get("game") or None
    game_row = store().game(game_slug) if game_slug else None
    return jsonify(views.loaded().searcher.complete(request.args.get("q", "")[:100],
                                                    game_row.slug if game_row else None))


@bp.route("/<game>/rulings/<slug>")
def ruling(game: str, slug: str):
    found = game_or_404(game)
    view = views.ruling_view(found, ruling_or_404(found, slug))
    return jsonify({k: view[k] for k in ("slug", "kind", "title", "display_title", "question", "answer", "text",
                                         "html", "group", "group_kind", "section", "expansion", "sources", "cards",
                                         "document", "line", "url", "citation")})


@bp.route("/<game>/cards/<slug>")
def card(game: str, slug: str):
    found = game_or_404(game)
    row = card_or_404(found, slug)
    return jsonify({"name": row["name"], "slug": row["slug"], "kind": row["kind"], "card_set": row["card_set"],
                    "number": row["number"],
                    "rulings": [{"title": r["title"], "slug": r["slug"], "text": r["text"], "sources": r["sources"]}
                                for r in row["rulings"]]})


@bp.route("/<game>/linkify", methods=["GET", "POST"])
def link(game: str):
    found = game_or_404(game)
    payload = request.get_json(silent=True) or {}
    text = payload.get("text") if request.method == "POST" and payload else \
        (request.form.get("text") or request.args.get("text") or "")
    fmt = (payload.get("format") or request.values.get("format") or "markdown").lower()
    if fmt not in FORMATS:
        abort(400, f"format must be one of {', '.join(FORMATS)}")
    if not isinstance(text, str):
        abort(400, "text must be a string")
    return jsonify(linkify(store(), found, text[:20000], fmt, request.host_url))
