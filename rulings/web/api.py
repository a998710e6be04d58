"""The JSON API: the same answers as the pages and the CLI, described by /api/openapi.json."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request, url_for

from ..errors import BadRequest
from ..graph import answers
from ..graph.linkify import FORMATS, linkify
from . import views
from .lookup import (
    card_or_404,
    game_or_404,
    ruling_or_404,
    search_args,
    span_or_404,
    term_name_arg,
    term_or_404,
    version_or_404,
)
from .openapi import spec
from .views import store

bp = Blueprint("api", __name__)


def answer_response(data: dict):
    """An answer as JSON: 200 when its status is ok, else 404 carrying the answer's status."""
    return jsonify(data), (200 if data.get("status") == "ok" else 404)


@bp.route("/openapi.json")
def openapi():
    return jsonify(spec(views.base_url()))


@bp.route("/games")
def games():
    return jsonify(
        [
            {"slug": g.slug, "name": g.name, "aliases": g.aliases, "url": url_for("site.game_home", game=g.slug)}
            for g in store().games()
        ]
    )


@bp.route("/<game>")
def game(game: str):
    found = game_or_404(game)
    st = store()
    return jsonify(
        {
            "slug": found.slug,
            "name": found.name,
            "aliases": found.aliases,
            "versions": [{"label": v.label, "date": v.date, "notes": v.notes} for v in st.versions(found)],
            "documents": st.documents(found),
            "terms": len(st.terms(found, ("entry", "keyword"))),
            "rulings": len(st.rulings(found)),
            "url": url_for("site.game_home", game=found.slug),
        }
    )


@bp.route("/<game>/terms")
def terms(game: str):
    found = game_or_404(game)
    version = request.args.get("version")
    try:
        return jsonify(answers.terms_listing(store(), found.slug, version, request.args.get("all") == "1"))
    except answers.Unanswerable as no:
        return answer_response(no.payload)


def _term_json(page: views.TermPage) -> dict:
    rev = page.revision
    return {
        "status": "ok",
        "game": page.game.slug,
        "name": rev.name,
        "slug": page.term.slug,
        "kind": page.term.kind,
        "aliases": page.aliases,
        "in_force": page.version.label,
        "version": rev.version,
        "date": rev.date,
        "text": rev.text,
        "html": page.html,
        "complete": rev.complete,
        "change": rev.change,
        "source": rev.source,
        "redirect": rev.redirect,
        "definition": (
            {"term": page.definition["term"].name, "anchor": page.definition["anchor"], "html": page.definition["html"]}
            if page.definition
            else None
        ),
        "superseded_by": (
            {"version": page.next_revision.version, "date": page.next_revision.date} if page.next_revision else None
        ),
        "subdefinitions": [{"name": s["name"], "anchor": s["anchor"], "text": s["text"]} for s in page.subdefs],
        "see_also": [{"name": t.name, "slug": t.slug, "anchor": a} for t, a in page.see_also],
        "referenced_by": [{"name": t.name, "slug": t.slug} for t in page.referenced_by],
        "rulings": [
            {"title": r["title"], "slug": r["slug"], "url": url_for("site.ruling", game=page.game.slug, slug=r["slug"])}
            for r in page.rulings
        ],
        "versions": [r.version for r in page.revisions],
        "notes": page.notes,
        "citation": page.citation,
        "url": url_for("site.term_pinned", game=page.game.slug, version=page.version.label, slug=page.term.slug),
    }


@bp.route("/<game>/terms/<slug>")
def term(game: str, slug: str):
    found = game_or_404(game)
    term_row = term_or_404(found, slug)
    page = views.term_page(found, term_row, None)
    if page is None:
        abort(404, f"{term_row.name} is not defined in the current version.")
    return jsonify(_term_json(page))


@bp.route("/<game>/v/<version>/terms/<slug>")
def term_pinned(game: str, version: str, slug: str):
    found = game_or_404(game)
    target = version_or_404(found, version)
    term_row = term_or_404(found, slug)
    page = views.term_page(found, term_row, target)
    if page is None:
        first = store().revisions(term_row)[0]
        return answer_response(
            {
                "status": "not-defined",
                "message": f"{term_row.name} is not defined in {target.label}",
                "first_defined": {"version": first.version, "date": first.date},
            }
        )
    return jsonify(_term_json(page))


@bp.route("/<game>/terms/<slug>/history")
def history(game: str, slug: str):
    found = game_or_404(game)
    term_row = term_or_404(found, slug)
    return jsonify(
        {
            "status": "ok",
            "game": found.slug,
            "term": term_row.name,
            "slug": term_row.slug,
            "revisions": answers.history(store(), found, term_row),
        }
    )


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(game: str, slug: str, span: str):
    found = game_or_404(game)
    start, end = span_or_404(span)
    term_row = term_or_404(found, slug)
    return answer_response(answers.diff(store(), found.slug, term_row.slug, start, end))


@bp.route("/<game>/changes/<span>")
def changes(game: str, span: str):
    found = game_or_404(game)
    start, end = span_or_404(span)
    return answer_response(answers.changes(store(), found.slug, start, end))


@bp.route("/<game>/applies")
def applies(game: str):
    found = game_or_404(game)
    term_name = term_name_arg()
    if not term_name:
        abort(400, "give ?term=NAME and ?date=YYYY-MM-DD or ?version=LABEL")
    try:
        answer = answers.applies(
            store(), found.slug, term_name, version=request.args.get("version"), date=request.args.get("date")
        )
        return answer_response(answer)
    except BadRequest as exc:
        abort(400, str(exc))


@bp.route("/search")
def search():
    args = search_args(default_limit=10)
    results = views.loaded().searcher.search(
        args.query, game=args.game.slug if args.game else None, kind=args.kind, version=args.version, limit=args.limit
    )
    return jsonify(results.as_dict())


@bp.route("/complete")
def complete():
    args = search_args(default_limit=8)
    completions = views.loaded().searcher.completions
    return jsonify(
        completions.complete(args.query[:100], args.game.slug if args.game else None, max(1, min(args.limit, 20)))
    )


@bp.route("/<game>/rulings/<slug>")
def ruling(game: str, slug: str):
    found = game_or_404(game)
    view = views.ruling_view(found, ruling_or_404(found, slug))
    return jsonify(
        {
            k: view[k]
            for k in (
                "slug",
                "kind",
                "title",
                "display_title",
                "question",
                "answer",
                "text",
                "html",
                "group",
                "group_kind",
                "section",
                "expansion",
                "sources",
                "cards",
                "document",
                "line",
                "url",
                "citation",
            )
        }
    )


@bp.route("/<game>/cards/<slug>")
def card(game: str, slug: str):
    found = game_or_404(game)
    row = card_or_404(found, slug)
    return jsonify(
        {
            "name": row["name"],
            "slug": row["slug"],
            "kind": row["kind"],
            "card_set": row["card_set"],
            "number": row["number"],
            "rulings": [
                {"title": r["title"], "slug": r["slug"], "text": r["text"], "sources": r["sources"]}
                for r in row["rulings"]
            ],
        }
    )


@bp.route("/<game>/linkify", methods=["GET", "POST"])
def link(game: str):
    found = game_or_404(game)
    fields = request.values
    if request.method == "POST" and request.is_json:
        fields = request.get_json(silent=True)
        if not isinstance(fields, dict):
            abort(400, 'a JSON body must be an object: {"text": "...", "format": "markdown"}')
    text, fmt = fields.get("text") or "", fields.get("format") or "markdown"
    if not isinstance(text, str):
        abort(400, "text must be a string")
    if not isinstance(fmt, str) or fmt.lower() not in FORMATS:
        abort(400, f"format must be one of {', '.join(FORMATS)}")
    return jsonify(linkify(store(), found, text[:20000], fmt.lower(), views.base_url()))
