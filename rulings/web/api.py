"""The JSON API: the same answers as the pages and the CLI, described by /api/openapi.json."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request, url_for

from ..errors import BadRequest, NotFound
from ..graph import answers, compare, rules, ruling_rows
from ..graph.report import changes_markdown
from ..urls import Urls
from . import games, reading, rulepages, views
from .cache import reads
from .context import base_url, game, loaded, site_urls, store
from .lookup import (
    APPLIES_PARAMS,
    LINKIFY_PARAMS,
    SEARCH_PARAMS,
    card_or_404,
    int_arg,
    linkify_args,
    ruling_or_404,
    search_args,
    span_or_404,
    term_name_arg,
    term_or_404,
    term_sheet_or_404,
    version_or_404,
)
from .openapi import spec

bp = Blueprint("api", __name__)
games.register(bp, redirect_aliases=False)


@bp.route("/openapi.json")
def openapi():
    return jsonify(spec(base_url()))


@bp.route("/games")
def game_list():
    return jsonify(
        [
            {"slug": g.slug, "name": g.name, "aliases": g.aliases, "url": url_for("site.game_home", game=g.slug)}
            for g in store().games()
        ]
    )


@bp.route("/<game>")
def game_summary():
    found, st = game(), store()
    return jsonify(
        {
            "slug": found.slug,
            "name": found.name,
            "aliases": found.aliases,
            "versions": [{"label": v.label, "date": v.date, "notes": v.notes} for v in st.versions(found)],
            "documents": st.documents(found),
            "terms": len(st.terms(found, ("entry", "keyword"))),
            "rulings": len(ruling_rows.rulings(st, found)),
            "url": url_for("site.game_home", game=found.slug),
        }
    )


@bp.route("/<game>/terms")
@reads("version", "all")
def terms():
    version = request.args.get("version")
    return jsonify(answers.terms_listing(store(), game().slug, version, request.args.get("all") == "1"))


def _term_json(page: views.TermPage) -> dict:
    rev, built = page.revision, site_urls()
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
        "inferred": rev.inferred,
        "blocks": [_block_json(b) for b in page.blocks],
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
            {"title": r["title"], "slug": r["slug"], "url": built.ruling(page.game.slug, r["slug"])}
            for r in page.rulings
        ],
        "versions": [r.version for r in page.revisions],
        "notes": page.notes,
        "citation": page.citation,
        "url": built.term(page.game.slug, page.term.slug, page.version.label),
    }


@bp.route("/<game>/terms/<slug>")
def term(slug: str):
    sheet = term_sheet_or_404(game(), slug, views.REFERENCED_BY)
    page = views.term_page(game(), sheet, None)
    if page is None:
        raise NotFound(f"{sheet.term.name} is not defined in the current version.")
    return jsonify(_term_json(page))


@bp.route("/<game>/v/<version>/terms/<slug>")
def term_pinned(version: str, slug: str):
    target = version_or_404(game(), version)
    sheet = term_sheet_or_404(game(), slug, views.REFERENCED_BY)
    page = views.term_page(game(), sheet, target)
    if page is None:
        raise answers.not_defined(sheet.term, target, sheet.revisions)
    return jsonify(_term_json(page))


@bp.route("/<game>/terms/<slug>/history")
def history(slug: str):
    term_row = term_or_404(game(), slug)
    return jsonify(
        {
            "status": "ok",
            "game": game().slug,
            "term": term_row.name,
            "slug": term_row.slug,
            "revisions": answers.history(store(), game(), term_row),
        }
    )


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(slug: str, span: str):
    start, end = span_or_404(span)
    term_row = term_or_404(game(), slug)
    return jsonify(compare.diff(store(), game().slug, term_row.slug, start, end))


@bp.route("/<game>/changes/<span>")
@reads("format")
def changes(span: str):
    """The change report with each changed term's word redline (``ops``); ``?format=markdown`` to post it."""
    start, end = span_or_404(span)
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "markdown"):
        raise BadRequest("format must be json or markdown")
    data = compare.changes(store(), game().slug, start, end, redlines=True)
    if fmt == "markdown":
        text = changes_markdown(data, game().name, Urls(base_url()))
        return Response(text, mimetype="text/markdown")
    return jsonify(data)


@bp.route("/<game>/applies")
@reads(*APPLIES_PARAMS)
def applies():
    term_name = term_name_arg()
    version, date = request.args.get("version"), request.args.get("date")
    if not (term_name or version or date):
        raise BadRequest("give ?date=YYYY-MM-DD or ?version=LABEL, and ?term=NAME for one term's text")
    return jsonify(answers.applies(store(), game().slug, term_name, version=version, date=date))


def _block_json(block) -> dict:
    return {
        "anchor": block.anchor,
        "kind": block.kind,
        "depth": block.depth,
        "number": block.number,
        "text": block.text,
    }


def _part_json(game, version, part) -> dict:
    term = part.term
    url = (
        url_for("site.rule_pinned", game=game.slug, version=version.label, number=part.number)
        if part.number
        else url_for("site.term_pinned", game=game.slug, version=version.label, slug=term.slug)
    )
    rev = part.revision
    return {
        "name": rev.name,
        "slug": term.slug,
        "kind": term.kind,
        "number": part.number,
        "version": rev.version,
        "complete": rev.complete,
        "redirect": rev.redirect,
        "blocks": [_block_json(b) for b in part.blocks],
        "url": url,
    }


PAGE = 200  # parts per page of a whole document (Magic's editions hold about 1,900)
MAX_PAGE = 1000


@bp.route("/<game>/v/<version>/")
@reads("offset", "limit")
def version_document(version: str):
    """The whole document as it stood at a version, in order, a page of parts at a time."""
    found = game()
    target = version_or_404(found, version)
    doc = reading.document(found, target)
    offset = int_arg("offset", 0, 0, len(doc.parts))
    limit = int_arg("limit", PAGE, 1, MAX_PAGE)
    parts = doc.parts[offset : offset + limit]
    more = offset + limit < len(doc.parts)
    return jsonify(
        {
            "status": "ok",
            "game": found.slug,
            "version": target.label,
            "date": target.date,
            "notes": target.notes,
            "total": len(doc.parts),
            "offset": offset,
            "contents": [
                {"name": item.part.revision.name, "anchor": item.part.anchor, "depth": item.part.depth}
                for item in doc.toc
            ],
            "parts": [_part_json(found, target, part) for part in parts],
            "next": url_for(
                "api.version_document", game=found.slug, version=target.label, offset=offset + limit, limit=limit
            )
            if more
            else None,
            "url": url_for("site.version_page", game=found.slug, version=target.label),
        }
    )


@bp.route("/<game>/rules/<number>")
def rule(number: str):
    return jsonify(_rule_json(rulepages.rule_page(game(), number, None)))


@bp.route("/<game>/v/<version>/rules/<number>")
def rule_pinned(version: str, number: str):
    return jsonify(_rule_json(rulepages.rule_page(game(), number, version_or_404(game(), version))))


def _rule_json(page: rulepages.RulePage) -> dict:
    answer = rules.rule_answer(store(), page.game, page.number, page.version)
    return {
        **answer,
        "parts": [_part_json(page.game, page.version, part) for part in page.parts],
        "sections": [{"number": part.number, "name": part.revision.name} for part in page.children],
        "enclosing": [{"name": name, "url": url} for name, url in page.crumbs[1:]],
        "referenced_by": [{"name": t.name, "slug": t.slug, "url": t.href} for t in page.referenced_by],
        "citation": page.citation,
        "history_url": page.history_url,
    }


@bp.route("/<game>/rules/<number>/history")
def rule_history(number: str):
    """A numbered rule's texts over time, followed through its renumberings (the rule printed under the
    number in the latest version, else in the latest version printing it)."""
    located, _ = rulepages.located_now(game(), number)
    steps = rules.history(store(), located)
    return jsonify(
        {
            "status": "ok",
            "game": game().slug,
            "number": rules.normalise(number),
            "slug": located.term.slug,
            "numbers": [{"number": n, "since": v} for n, v in rulepages.numbers_over_time(steps)],
            "steps": rulepages.history_entries(game(), steps, store().versions(game())[0].stated),
        }
    )


@bp.route("/<game>/rules/<number>/diff/<span>")
def rule_diff(number: str, span: str):
    start, end = span_or_404(span)
    return jsonify(compare.diff(store(), game().slug, rules.normalise(number), start, end))


@bp.route("/search")
@reads(*SEARCH_PARAMS)
def search():
    args = search_args(default_limit=10)
    results = loaded().search(
        args.query,
        game=args.game.slug if args.game else None,
        kind=args.kind,
        version=args.version,
        limit=args.limit,
        partial=args.partial,
    )
    return jsonify(results.as_dict())


MAX_COMPLETIONS = 20


@bp.route("/complete")
@reads(*SEARCH_PARAMS)
def complete():
    args = search_args(default_limit=8, most=MAX_COMPLETIONS)
    game = args.game.slug if args.game else None
    return jsonify(loaded().complete(args.query[:100], game, args.limit))


@bp.route("/<game>/rulings/<slug>")
def ruling(slug: str):
    view = views.ruling_view(game(), ruling_or_404(game(), slug, "api.ruling"))
    shown = ("slug", "kind", "title", "display_title", "question", "answer", "text", "html", "group", "group_kind",
             "section", "expansion", "sources", "cards", "document", "line", "also", "url", "citation")  # fmt: skip
    view["cards"] = [{"slug": c["slug"], "name": c["name"], "kind": c["kind"]} for c in view["cards"]]
    return jsonify({k: view[k] for k in shown})


@bp.route("/<game>/cards/<slug>")
def card(slug: str):
    row = card_or_404(game(), slug)
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
@reads(*LINKIFY_PARAMS)
def link():
    return jsonify(views.linkify_view(*linkify_args()))
