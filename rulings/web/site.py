"""HTML pages, at the stable URLs of docs/reference.md (forum links depend on them)."""

from __future__ import annotations

import datetime as dt
import itertools

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from markupsafe import Markup, escape

from ..errors import NotFound, Unanswerable
from ..graph import answers, compare, rules
from ..graph.linkify import FORMATS, MAX_LINKIFY_CHARS
from ..index.results import clean_query
from ..index.snippets import CLOSE, OPEN
from ..urls import Urls
from . import games, reading, rulepages, views
from .cache import reads
from .context import absolute, base_url, game, loaded, site_urls, store
from .home import game_index
from .lookup import (
    APPLIES_PARAMS,
    LINKIFY_PARAMS,
    SEARCH_PARAMS,
    card_or_404,
    linkify_args,
    ruling_or_404,
    search_args,
    span_or_404,
    term_name_arg,
    term_or_404,
    term_sheet_or_404,
    version_or_404,
    version_redirect,
)
from .previews import previews

bp = Blueprint("site", __name__)
games.register(bp, redirect_aliases=True)


# -- home, game, search ------------------------------------------------------------
@bp.route("/")
@reads("filter")
def home():
    all_games = store().games()
    query = request.args.get("filter", "")
    shown = [g for g in all_games if query.lower() in g.name.lower()] if query else all_games
    return render_template("home.html", games=shown, total=len(all_games), filter=query)


@bp.route("/<game>/")
def game_home():
    return render_template("game.html", home=game_index(game()))


@bp.route("/search")
@reads(*SEARCH_PARAMS)
def search():
    args = search_args(default_limit=20)
    query, _ = clean_query(args.query)
    results = (
        loaded().search(
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
        game_names={g.slug: g.name for g in store().games()},
        mark=_mark,
    )


def _mark(snippet: str) -> str:
    """A snippet with its match markers as <mark>, everything else escaped."""
    return Markup(str(escape(snippet)).replace(OPEN, "<mark>").replace(CLOSE, "</mark>"))


# -- terms ---------------------------------------------------------------------------
@bp.route("/<game>/terms/<slug>")
def term(slug: str):
    sheet = term_sheet_or_404(game(), slug, views.REFERENCED_BY, "site.term")
    if sheet.term.number:  # a numbered rule lives at its number, which a later edition may change: 302
        now, _ = answers.in_force(sheet.revisions, store().versions(game())[-1].ordinal)
        if now is None or now.removed or not now.number:  # gone since: its history says when
            return redirect(url_for("site.history", slug=sheet.term.slug), code=302)
        return redirect(url_for("site.rule", number=now.number), code=302)
    page = views.term_page(game(), sheet, None)
    if page is None:
        return _not_defined(sheet.term, store().versions(game())[-1])
    return _term_page(page)


@bp.route("/<game>/v/<version>/terms/<slug>")
def term_pinned(version: str, slug: str):
    target = version_or_404(game(), version)
    if version != target.label:  # a version asked as "v1.1", "1.1.0", or a date
        return redirect(
            url_for("site.term_pinned", version=target.label, slug=slug), code=version_redirect(version, target)
        )
    sheet = term_sheet_or_404(game(), slug, views.REFERENCED_BY, "site.term_pinned", version=target.label)
    number = next((r.number for r in reversed(sheet.revisions) if r.ordinal <= target.ordinal), None)
    if number:  # the number the version prints the rule under
        return redirect(url_for("site.rule_pinned", version=target.label, number=number), code=301)
    page = views.term_page(game(), sheet, target)
    if page is None:
        return _not_defined(sheet.term, target)
    return _term_page(page)


def _term_page(page: views.TermPage):
    shown = [page.html, page.definition["html"] if page.definition else ""]
    return render_template("term.html", page=page, previews=previews(page.game, page.version, *shown))


def _not_defined(term_row, version):
    """A term asked about at a version that does not have it: when it came in, or went away (a 404)."""
    revisions = store().revisions(term_row)
    current, _ = answers.in_force(revisions, version.ordinal)
    defined = [r for r in revisions if not r.removed]
    removed = current if current is not None and current.removed else None
    last = [r for r in defined if removed is not None and r.ordinal < removed.ordinal]
    return render_template(
        "not_defined.html",
        game=game(),
        term=term_row,
        version=version,
        first=defined[0] if defined else None,
        removed=removed,
        last=last[-1] if last else None,
    ), 404


# -- whole documents --------------------------------------------------------------------------
@bp.route("/<game>/v/<version>/")
def version_page(version: str):
    """A version's whole text on one page, or, when too long for one (``reading.pages``), its contents."""
    target = version_or_404(game(), version)
    if version != target.label:
        return redirect(url_for("site.version_page", version=target.label), code=version_redirect(version, target))
    doc = reading.document(game(), target)
    paged = reading.pages(doc)
    if paged:  # the contents, linked to the pages; an old link to an anchor of the whole text finds its page
        anchors = {anchor: i for i, page in enumerate(paged) for anchor in page.anchors}
        links, first = reading.page_links(doc), reading.opening(doc)
        opening = first.html if first else []
        return render_template(
            "version.html",
            doc=doc,
            pages=links,
            doc_pages=paged,
            page_anchors=anchors,
            opening=first,
            html=opening,
            game=game(),
            previews=previews(game(), target, *opening),
        )
    whole = reading.document_html(doc)
    return render_template("version.html", doc=doc, html=whole, game=game(), previews=previews(game(), target, *whole))


@bp.route("/<game>/v/<version>/read/<start>")
def reading_page(version: str, start: str):
    """A page of a version's whole text too long for one page, named by the anchor it starts at."""
    target = version_or_404(game(), version)
    if version != target.label:
        code = version_redirect(version, target)
        return redirect(url_for("site.reading_page", version=target.label, start=start), code=code)
    doc = reading.document(game(), target)
    read = reading.reading_page(doc, start)
    if read is None:
        raise NotFound(f"No page of the v{target.label} text starts at {start!r}.")
    shown = previews(game(), target, *read.html)
    return render_template("version.html", doc=doc, read=read, html=read.html, game=game(), previews=shown)


# -- numbered rules ---------------------------------------------------------------------------
@bp.route("/<game>/rules")
def rules_index():
    return render_template("rules.html", index=rulepages.rules_index(game(), None), game=game())


@bp.route("/<game>/v/<version>/rules")
def rules_index_pinned(version: str):
    target = version_or_404(game(), version)
    if version != target.label:
        code = version_redirect(version, target)
        return redirect(url_for("site.rules_index_pinned", version=target.label), code=code)
    return render_template("rules.html", index=rulepages.rules_index(game(), target), game=game())


@bp.route("/<game>/rules/<number>")
def rule(number: str):
    page = rulepages.rule_page(game(), number, None)
    if number != page.number:
        return redirect(url_for("site.rule", number=page.number), code=301)
    return _rule_page(page)


@bp.route("/<game>/v/<version>/rules/<number>")
def rule_pinned(version: str, number: str):
    target = version_or_404(game(), version)
    if version != target.label or number != rules.normalise(number):
        code = version_redirect(version, target) if version != target.label else 301
        return redirect(url_for("site.rule_pinned", version=target.label, number=rules.normalise(number)), code=code)
    page = rulepages.rule_page(game(), number, target)
    return _rule_page(page)


def _rule_page(page: rulepages.RulePage):
    html = rulepages.rule_html(page)
    shown = previews(game(), page.version, *html)
    return render_template("rule.html", page=page, html=html, game=game(), previews=shown)


@bp.route("/<game>/rules/<number>/history")
def rule_history(number: str):
    located, moved = rulepages.located_now(game(), number)
    if moved or number != rules.normalise(number):  # the rule is numbered otherwise now: its history is there
        return redirect(url_for("site.rule_history", number=moved or rules.normalise(number)), code=302)
    return _history_page(rulepages.history_view(game(), located, rules.normalise(number)))


@bp.route("/<game>/rules/<number>/diff/<span>")
def rule_diff(number: str, span: str):
    start, end = span_or_404(span)
    data = compare.diff(store(), game().slug, rules.normalise(number), start, end)
    return _diff_page(data, rulepages.diff_view(game(), data))


@bp.route("/<game>/rules/<number>/diff")
@reads("from", "to")
def rule_diff_between(number: str):
    """The diff picker's answer (``?from=…&to=…``): the diff's own URL."""
    versions = store().versions(game())
    start = request.args.get("from") or versions[0].label
    end = request.args.get("to") or versions[-1].label
    return redirect(url_for("site.rule_diff", number=rules.normalise(number), span=f"{start}..{end}"))


# -- a term's history and diffs ------------------------------------------------------------------
@bp.route("/<game>/terms/<slug>/history")
def history(slug: str):
    term_row = term_or_404(game(), slug, "site.history")
    if term_row.number:  # a numbered rule's history lives at its number
        located, url = rulepages.term_rule(game(), term_row)
        if url:
            return redirect(url, code=302)
        return _history_page(rulepages.history_view(game(), located, term_row.number))
    return _history_page(views.term_history(game(), term_row))


@bp.route("/<game>/terms/<slug>/diff/<span>")
def diff(slug: str, span: str):
    start, end = span_or_404(span)
    term_row = term_or_404(game(), slug, "site.diff", span=span)
    if term_row.number:  # ... and its diffs too, at the number it has at the end of the range (else its start)
        number = rulepages.number_between(game(), term_row, start, end)
        if number:
            return redirect(url_for("site.rule_diff", number=number, span=span), code=302)
    data = compare.diff(store(), game().slug, term_row.slug, start, end)
    return _diff_page(data, views.term_diff_view(game(), term_row, data))


def _history_page(view: views.HistoryView):
    return render_template("history.html", game=game(), view=view)


def _diff_page(data: dict, view: views.DiffView):
    return render_template(
        "diff.html", game=game(), data=data, view=view, html=views.diff_html(data["ops"]), versions=view.versions
    )


@bp.route("/<game>/changes/<span>")
def changes(span: str):
    start, end = span_or_404(span)
    data = compare.changes(store(), game().slug, start, end, redlines=True)
    changed = data["terms"] + (data["rules"]["changed"] if "rules" in data else [])
    redlines = {t["slug"]: views.diff_html(t["ops"]) for t in changed if "ops" in t}
    return render_template("changes.html", game=game(), data=data, redlines=redlines, versions=store().versions(game()))


@bp.route("/<game>/changes")
@reads("from", "to")
def changes_between():
    """The version picker's answer (``?from=1.1&to=1.4``): the change report's own URL. A static export has
    pages only for consecutive versions: there this page makes any other report in the browser, from the two
    versions' snapshots (``export.write_edition_data``, ``static/changes.js``)."""
    versions = store().versions(game())
    if current_app.config["STATIC_EXPORT"]:
        data = [(v, site_urls().edition_data(game().slug, v.label)) for v in versions]
        return render_template("changes_static.html", game=game(), versions=versions, data=data)
    start = request.args.get("from") or versions[0].label
    end = request.args.get("to") or versions[-1].label
    return redirect(url_for("site.changes", span=f"{start}..{end}"))


@bp.route("/<game>/applies")
@reads(*APPLIES_PARAMS)
def applies():
    """The question form and, once asked, its answer (a negative answer is shown on the page, as a 404)."""
    term_name = term_name_arg()
    date = (request.args.get("date") or "").strip()
    version = (request.args.get("version") or "").strip()
    answer, shown = None, []
    if term_name or date or version:  # without a term: which version was in force
        try:
            answer = answers.applies(store(), game().slug, term_name, version=version or None, date=date or None)
            if "text" in answer:
                in_force = answers.version_by_label(store(), game(), answer["in_force"])
                answer["html"] = views.render_for(game(), answer["text"], in_force)
                shown = previews(game(), in_force, answer["html"])
        except Unanswerable as no:
            answer = no.to_dict()
    return render_template(
        "applies.html",
        game=game(),
        term=term_name,
        date=date,
        version=version,
        answer=answer,
        versions=store().versions(game()),
        previews=shown,
    ), (200 if answer is None or answer["status"] == "ok" else 404)


# -- rulings and cards ------------------------------------------------------------------
@bp.route("/<game>/rulings/<slug>")
def ruling(slug: str):
    view = views.ruling_view(game(), ruling_or_404(game(), slug, "site.ruling"))
    shown = previews(game(), store().versions(game())[-1], view["html"])
    return render_template("ruling.html", game=game(), ruling=view, previews=shown)


@bp.route("/<game>/cards/<slug>")
def card(slug: str):
    row = card_or_404(game(), slug)
    # Paragraph ids by the former slug: ids published on card pages before the slugs were shortened stay.
    rulings = [views.ruling_view(game(), r, anchors=f"{r['former_slug']}-p") for r in row["rulings"]]
    shown = previews(game(), store().versions(game())[-1], *(r["html"] for r in rulings))
    cite = views.citation(row["name"], game(), None, absolute(url_for("site.card", slug=slug)))
    return render_template("card.html", game=game(), card=row, rulings=rulings, previews=shown, cite=cite)


# -- forum linking --------------------------------------------------------------------
@bp.route("/<game>/link", methods=["GET", "POST"])
@reads(*LINKIFY_PARAMS)
def link():
    text, fmt = linkify_args()
    result = views.linkify_view(text, fmt) if text else None
    return render_template(
        "link.html",
        game=game(),
        text=text,
        fmt=fmt,
        result=result,
        formats=FORMATS,
        limit=MAX_LINKIFY_CHARS,
        base=base_url(),
    )


# -- crawlers ----------------------------------------------------------------------
# Every page may be crawled, not the answers whose query strings are endless: the JSON API, search results
# and "which version applies?" (a GET form). Pages are linked without query strings, so none is hidden.
ROBOTS = """\
User-agent: *
Disallow: /api/
Disallow: /search?
Disallow: /*/applies?
"""


@bp.route("/robots.txt")
def robots():
    return Response(ROBOTS, mimetype="text/plain")


# -- feed --------------------------------------------------------------------------
@bp.route("/<game>/feed.atom")
def feed():
    entries = loaded().memo(("feed", game().slug), lambda: _feed_entries(game()))
    updated = next((e["version"].date for e in entries if e["version"].date), None) or dt.date.today().isoformat()
    body = render_template("feed.atom.xml", game=game(), entries=entries, updated=updated, urls=Urls(base_url()))
    return Response(body, mimetype="application/atom+xml")


def _feed_entries(found) -> list[dict]:
    """Each version's changes against the one before, newest first (a build never changes them)."""
    versions = store().versions(found)
    entries = [
        {"version": after, "previous": before, "data": compare.changes(store(), found.slug, before.label, after.label)}
        for before, after in itertools.pairwise(versions)
    ]
    return entries[::-1]
