"""What pages and the API show about a term, a ruling or a version range: shared view models."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from flask import url_for
from markupsafe import Markup

from .. import deadline
from ..casing import sentence_case
from ..graph import answers, rule_numbers, ruling_rows
from ..graph.cite import citation
from ..graph.linkify import linkify_post
from ..graph.mentions import Target, name_keys
from ..graph.rows import BlockRow, Game, RevisionRow, TermRow, VersionRow, aliases_among
from ..graph.term_sheet import TermSheet
from ..markup import excerpt, plain_text
from .context import absolute, base_url, game, loaded, site_urls, store
from .render import Links, render_blocks, render_rules
from .wording import change_words


def term_href(game: Game, version: str | None = None):
    """Link builder for mentions: pinned pages link to the same version; a sub-definition to its paragraph."""

    built = site_urls()

    def href(target: Target) -> str:
        if target.kind == "card":
            return built.card(game.slug, target.slug)
        return built.term(game.slug, target.slug, version, target.anchor)

    return href


def links_for(game: Game, version: VersionRow | None = None, term: TermRow | None = None) -> Links:
    """How texts shown at ``version`` (latest when None) link: only to terms and rules that exist in it,
    never to ``term``, the page's own."""
    target = version or store().versions(game)[-1]
    pinned = version.label if version else None
    numbers = loaded().memo(
        ("numbers", game.slug, target.ordinal), lambda: rule_numbers.numbers_at(store(), game, target.ordinal)
    )

    built = site_urls()

    def rule(number: str) -> str | None:
        return built.rule(game.slug, number, pinned) if number in numbers else None

    linker = loaded().linker(game.id, game.slug, target.ordinal)
    own = own_names(term) if term else frozenset()
    return Links(linker, term_href(game, pinned), term.slug if term else None, rule if numbers else None, own)


def own_names(term: TermRow) -> frozenset[str]:
    """What a term's own page calls its subject: every name it went by, with and without a qualifier."""
    return loaded().memo(("own-names", term.id), lambda: name_keys(n for n, _ in store().names(term)))


def render_for(game: Game, text: str, version: VersionRow | None = None, anchors: str | None = "p") -> str:
    """Markdown that is not a versioned text (a ruling, an answer) as HTML, linked as of ``version``."""
    return render_rules(text, links_for(game, version), anchors=anchors)


def written_in_caps(blocks: list[BlockRow]) -> bool:
    """Whether a revision is written in ALL CAPS: the build prepared its blocks in sentence case too
    (``graph/inline.py``), having asked ``is_all_caps`` of its opening once."""
    return bool(blocks) and blocks[0].inline_cased is not None


def display_names(game: Game) -> list[str]:
    """Proper names to keep capitalised when showing ALL CAPS text: cards, heroes, villains, places."""
    return loaded().memo(("display-names", game.slug), lambda: [c["name"] for c in ruling_rows.cards(store(), game)])


class TermLink(NamedTuple):
    """A term a page lists ("Referenced by"), its link made here: the template only writes it (a macro
    call per link cost more than the rest of a page listing a hundred; a tuple is the cheapest to make)."""

    slug: str
    name: str  # as the graph has it (the API's)
    href: str
    label: str  # as shown: a name's emphasis markup is not text


def term_links(game: Game, rows: list[tuple[str, str]], version: VersionRow | None = None) -> list[TermLink]:
    """Links to terms given as (slug, name): their latest text, or their text at ``version`` (a page pinned to an
    old version lists terms of then, some of which a later version removed)."""
    built = site_urls()
    pinned = answers.pin(version) if version else None
    return [TermLink(slug, name, built.term(game.slug, slug, pinned), plain_text(name)) for slug, name in rows]


def pinned_path(endpoint: str, version: VersionRow, **values) -> str:
    """The version-pinned path of a page (``…/v/1.4/…``), or the plain one for a game whose documents
    name no version (no invented ``/v/1/`` in citations and copied links)."""
    if version.stated:
        return url_for(endpoint + "_pinned", version=version.label, **values)
    return url_for(endpoint, **values)


_QUALIFIER = re.compile(r"\s*\(.*\)$")  # "Attack (Enemy Activation)": a see-also name's qualifier


@dataclass(frozen=True)
class Step:
    """One version in a term's or a rule's timeline (``macros.html`` ``timeline``), its links made here: a
    call from a template costs about 4 µs (Jinja's ``Context.call``), and a timeline line made three."""

    version: str
    date: str | None
    href: str | None  # the text in force then (None: not in that version, as a rule in the version removing it)
    words: str  # what the version did ("amended in 1.4"); "" for a rule's version that left it as it was
    diff: str | None  # from the revision before, when there is one
    here: bool  # the revision the page shows


class Pin(NamedTuple):
    """One version of the game in a term page's version picker, its list item written here: the picker
    of a term is the same on each of its pages but for the version shown, so its items are made once per
    build and term (made by the template, they cost 8% of a term page's instructions)."""

    label: str
    item: Markup  # the <li>, linked where the term is defined then, marked where it changed
    shown: Markup  # the same, marked as the version the page shows


_PIN = Markup('<li><a href="{href}" title="{date}"{current}>{label}{changed}</a></li>')
_ABSENT = Markup('<li><span class="absent">{label}<span class="sr"> ({why})</span></span></li>')
_CHANGED = Markup('<span aria-hidden="true">\u2022</span><span class="sr"> (changed)</span>')
_CURRENT = Markup(' aria-current="page"')


class Pins:
    """A term's version picker items, made once per build: joined as the unpinned page shows them, and
    joined with the version shown marked for a pinned page."""

    def __init__(self, pins: list[Pin]):
        self.pins = pins
        self.unpinned = Markup("").join(pin.item for pin in pins)

    def showing(self, label: str) -> Markup:
        return Markup("").join(pin.shown if pin.label == label else pin.item for pin in self.pins)


def _pins(game: Game, term: TermRow, versions: list[VersionRow], revisions: list[RevisionRow]) -> list[Pin]:
    """Every version of the game, linked where the term is defined, marked where it changed."""
    built, revised = site_urls(), {r.ordinal: r for r in revisions}
    pins, current = [], None
    for version in versions:
        current = revised.get(version.ordinal, current)
        changed = _CHANGED if version.ordinal in revised else ""
        if current is None or current.removed:
            item = _ABSENT.format(label=version.label, why="removed" if changed else "not defined")
            pins.append(Pin(version.label, item, item))
            continue
        href, date = built.term(game.slug, term.slug, version.label), version.date or ""
        item, shown = (
            _PIN.format(href=href, date=date, current=mark, label=version.label, changed=changed)
            for mark in ("", _CURRENT)
        )
        pins.append(Pin(version.label, item, shown))
    return pins


@dataclass
class TermPage:
    game: Game
    term: TermRow
    version: VersionRow  # the version asked for (latest when not pinned)
    pinned: bool
    revision: RevisionRow
    next_revision: RevisionRow | None
    original: str | None  # the ALL CAPS source text, when the page shows it in sentence case
    revisions: list[RevisionRow]
    blocks: list[BlockRow]  # the revision's text, as the page renders it
    html: str  # the text, rendered ("" when it has none: every block renders as an element)
    definition: dict | None  # for entries that only say "See: X"
    pointers: list[tuple[str, TermRow | None, str | None]]  # what "See: A, B" points at (name, term, anchor)
    see_also: list[tuple[TermRow, str | None]]
    referenced_by: list[TermLink]
    rulings: list[dict]
    aliases: list[str]
    subdefs: list[dict]
    notes: list[str]
    also: list[dict]  # the same term's text in other documents of this version (of lower precedence)
    url: str
    citation: dict
    latest: VersionRow
    versions: list[VersionRow]  # every version of the game, in order

    @property
    def pins(self) -> Markup:
        """The version picker's items (``Pins``), the version shown marked when the page is pinned."""
        key = ("pins", self.term.id, site_urls().base)
        pins = loaded().memo(key, lambda: Pins(_pins(self.game, self.term, self.versions, self.revisions)))
        return pins.showing(self.version.label) if self.pinned else pins.unpinned

    @cached_property
    def description(self) -> str:
        """The page's meta description (asked twice by the page, never by the API)."""
        if self.revision.text.strip():
            return self.revision.summary
        if self.definition:
            return excerpt(f"{self.definition['name']}: " + re.sub(r"<[^>]+>", " ", self.definition["html"]))
        return f"{self.revision.name} in {self.game.name}"

    @property
    def timeline(self) -> list[Step]:
        """Each revision, linked (not the one removing the term: that version has no page for it), with a diff
        from the one before it (none for the first)."""
        built, game, slug = site_urls(), self.game.slug, self.term.slug
        return [
            Step(
                r.version,
                r.date,
                None if r.removed else built.term(game, slug, r.version),
                change_words(r),
                built.diff(game, slug, before.version, r.version) if before else None,
                r.id == self.revision.id,
            )
            for before, r in zip([None, *self.revisions], self.revisions, strict=False)
        ]

    @property
    def history_url(self) -> str:
        return site_urls().history(self.game.slug, self.term.slug)

    @property
    def removed(self) -> RevisionRow | None:
        """The revision of the latest version removing the term, if it did (no current text to point to)."""
        last = self.revisions[-1] if self.revisions else None
        return last if last is not None and last.removed else None

    @property
    def crumbs(self) -> list[str | tuple[str, str]]:
        return section_crumbs(self.game, self.term.path, self.version.label if self.pinned else None)


def section_crumbs(game: Game, path: list[str], version: str | None = None) -> list[str | tuple[str, str]]:
    """Where a term sits, outermost first, as breadcrumbs: each section linked to its page (its current one,
    which every section has, pinned or not), a document's title to the rules read whole at ``version``
    (the latest when None); a name with no page of its own stays text."""
    sections = loaded().memo(
        ("sections", game.id), lambda: {(*t.path, t.name): t for t in store().terms(game, ("section",))}
    )
    built = site_urls()
    crumbs: list[str | tuple[str, str]] = []
    for depth, name in enumerate(path):
        section = sections.get(tuple(path[: depth + 1]))
        if section is not None:
            crumbs.append((name, built.term(game.slug, section.slug)))
        elif depth == 0:
            crumbs.append((name, built.version(game.slug, version or store().versions(game)[-1].label)))
        else:
            crumbs.append(name)
    return crumbs


@dataclass
class HistoryView:
    """What a history page shows: a term's revisions, or a numbered rule's steps (``rulepages``)."""

    name: str  # what the page is the history of
    url: str  # its latest page
    path: list  # the crumbs before it (names, or (name, link) pairs)
    entries: list[dict]  # each version, newest last: heading, version, date, words, url, diff, source...
    numbers: list[tuple[str, str]]  # (number, the version first printing it) of a renumbered rule


def term_history(game: Game, term: TermRow) -> HistoryView:
    """A term's revisions, each with what it did, its text as that version linked it and the diff from the one
    before (a note such as "Text of Comprehensive Rules 2009-07-11." is said of the text shown above it)."""
    st = store()
    built = site_urls()
    entries = []
    rows = answers.history(st, game, term)
    revisions = st.revisions(term)
    versions = {v.ordinal: v for v in st.versions(game)}
    blocks = st.blocks_of([r.id for r in revisions])
    for i, (row, revision) in enumerate(zip(rows, revisions, strict=True)):
        before = rows[i - 1] if i else None
        diff = built.diff(game.slug, term.slug, before["version"], row["version"]) if before else None
        heading = row["name"]
        words = change_words(row)
        shown = blocks[revision.id]
        links = links_for(game, versions.get(revision.ordinal), term)
        html = render_blocks(shown, links, id_prefix=f"v{revision.version}--", cased=written_in_caps(shown))
        entries.append(
            {**row, "heading": heading, "words": words, "diff": diff, "diff_from": before and before["version"]}
            | {"html": html}
        )
    return HistoryView(term.name, latest_url(game, term, revisions), [], entries, [])


def latest_url(game: Game, term: TermRow, revisions: list[RevisionRow]) -> str:
    """A term's latest page: its current text, or, when the latest version removed it, the last text it had
    (the current page would be a 404)."""
    built = site_urls()
    if revisions and revisions[-1].removed:
        last = next((r for r in reversed(revisions) if not r.removed), None)
        if last is not None:
            return built.term(game.slug, term.slug, last.version)
    return built.term(game.slug, term.slug)


@dataclass
class DiffView:
    """What a diff page links: what it is the diff of, its two texts' pages and its history."""

    name: str
    url: str
    path: list
    links: list[tuple[str, str]]  # (label, link)
    versions: list[VersionRow]


def term_diff_view(game: Game, term: TermRow, data: dict) -> DiffView:
    """The pages a diff links: each side's text (not a side at which the term is removed: no page) and the
    term's history."""
    built, st = site_urls(), store()
    versions, revisions = st.versions(game), st.revisions(term)
    ordinals = {v.label: v.ordinal for v in versions}

    def has_page(side: str) -> bool:  # the term is defined at that version (a label the game lacks: left to it)
        return side not in ordinals or answers.defined_at(revisions, ordinals[side]) is not None

    links = [
        (f"v{side}", built.term(game.slug, term.slug, side)) for side in (data["from"], data["to"]) if has_page(side)
    ]
    links.append(("history", built.history(game.slug, term.slug)))
    return DiffView(term.name, latest_url(game, term, revisions), [], links, versions)


def term_named(game: Game, name: str, ordinal: int | None = None) -> tuple[TermRow | None, str | None]:
    """``Store.find_term`` once per build: the names pages point at (see also, "See:") recur on every
    version of a page and across pages, and each look-up is three queries."""
    return loaded().memo(("named", game.id, name, ordinal), lambda: store().find_term(game, name, ordinal))


REFERENCED_BY = ("mentions", "see-also", "redirect")  # the edges a term page lists as "Referenced by"


def term_page(game: Game, sheet: TermSheet, version: VersionRow | None) -> TermPage | None:
    """A term's page (its text in force at ``version``, the latest when None) from its sheet
    (``lookup.term_sheet_or_404`` with ``REFERENCED_BY``); None when it is not in force then."""
    st = store()
    versions = st.versions(game)
    latest = versions[-1]
    target = version or latest
    term = sheet.term
    revisions = sheet.revisions
    revision, after = answers.in_force(revisions, target.ordinal)
    if revision is None or revision.removed:
        return None
    pinned = version is not None
    subdefs = sheet.subdefs[revision.id]
    pin = target if pinned else None
    blocks = sheet.blocks[revision.id]
    caps = written_in_caps(blocks)
    html = render_blocks(blocks, links_for(game, pin, term), cased=caps)
    definition = None
    if not revision.text.strip() and revision.redirect:
        key = ("definition", revision.id, pin.ordinal if pin else None)
        definition = loaded().memo(key, lambda: pointed_definition(game, revision, pin, target))
    see_also = []
    for name in revision.see_also:
        found_term, anchor = term_named(game, _QUALIFIER.sub("", name))
        if found_term is not None and found_term.id != term.id:
            see_also.append((found_term, anchor))
    redirects, pointers = [], []
    for name in revision.redirect:
        found_term, anchor = term_named(game, name, target.ordinal)  # the term of that name then
        pointers.append((name, found_term, anchor))
        if found_term is not None:
            redirects.append(found_term)
    notes = list(revision.notes) + target.term_notes
    for found_term in redirects:
        if found_term.id != term.id and all(found_term.id != other.id for other, _ in see_also):
            see_also.append((found_term, None))
    url = absolute(site_urls().term(game.slug, term.slug, answers.pin(target)))
    return TermPage(
        game=game,
        term=term,
        version=target,
        pinned=pinned,
        revision=revision,
        next_revision=after,
        original=revision.text if caps else None,
        revisions=revisions,
        blocks=blocks,
        html=html,
        definition=definition,
        pointers=pointers,
        see_also=see_also,
        referenced_by=term_links(game, sheet.referrers(target.ordinal), pin),
        rulings=ruling_rows.rulings_about(st, term) if sheet.ruling_ids else [],
        aliases=[a for a in aliases_among(term, sheet.names) if a.casefold() != revision.name.casefold()],
        subdefs=subdefs,
        notes=notes,
        also=[
            {**other, "html": render_for(game, other["text"], pin, anchors=None) if other.get("text") else ""}
            for other in revision.source.get("also", [])
        ],
        url=url,
        citation=citation(revision.name, game, target, url),
        latest=latest,
        versions=versions,
    )


def pointed_definition(
    game: Game, revision: RevisionRow, version: VersionRow | None, target: VersionRow
) -> dict | None:
    """The definition an entry that only says "See: X" shows: X as of ``target``, rendered as of ``version``
    (latest when None).

    Its markdown is parsed and rendered afresh (a millisecond), the same on every page, API answer and
    pinned version pointing at it: term pages ask for it once per build and version (``Loaded.memo``).
    """
    found = answers.resolved_definition(store(), game, revision, target.ordinal)
    if not found:
        return None
    html = render_for(game, found["text"], version, anchors=None)
    return {"term": found["term"], "anchor": found["anchor"], "name": found["name"], "html": html}


def ruling_view(game: Game, ruling: dict, anchors: str = "p") -> dict:
    """A ruling ready to show: ALL CAPS text in sentence case (once), rendered, citable.

    ``anchors`` prefixes its paragraph ids; a page showing several rulings gives each its own.
    """
    caps = bool(ruling["caps"])
    names = display_names(game) if caps else []
    shown = sentence_case(ruling["text"], names) if caps else ruling["text"]
    view = dict(ruling)
    view["display_title"] = sentence_case(ruling["title"], names) if caps else ruling["title"]
    view["html"] = render_for(game, shown, anchors=anchors)
    view["original"] = ruling["text"] if caps else None
    view["description"] = excerpt(shown)
    view["terms"] = ruling_rows.terms_of_ruling(store(), ruling["id"])
    path = url_for("site.ruling", game=game.slug, slug=ruling["slug"])
    view["url"] = absolute(path)
    view["citation"] = citation(view["display_title"], game, None, view["url"])
    view["crumbs"] = ruling_crumbs(game, ruling)
    return view


def ruling_crumbs(game: Game, ruling: dict) -> list[str | tuple[str, str]]:
    """Where a ruling sits: its section (the game home's rulings) and its group, linked to the card or deck
    of that name when it has a page (Sentinels' "Ra")."""
    built = site_urls()
    crumbs: list[str | tuple[str, str]] = []
    section, group = ruling.get("section"), ruling.get("group")
    if section:
        crumbs.append((section, built.game(game.slug) + "#rulings"))
    if group and group != section:
        card = next((c for c in ruling.get("cards", []) if c["name"] == group), None)
        crumbs.append((group, built.card(game.slug, card["slug"])) if card else group)
    return crumbs


_EDGES = re.compile(r"^(\s*)(.*?)(\s*)$", re.S)


def diff_html(ops: list[dict]) -> str:
    """Insertions and deletions inline, as <ins>/<del>; everything escaped.

    Line ends stay newlines (a ``.diff`` keeps them: ``white-space: pre-wrap``), never doubled by a <br>,
    and the spaces and line ends an insertion or deletion starts or ends with are left outside its mark:
    a marked paragraph end would stretch a coloured bar over the blank line between paragraphs."""
    from html import escape

    out = []
    for op in ops:
        if op["op"] not in ("insert", "delete"):
            out.append(escape(op["text"]))
            continue
        before, text, after = _EDGES.match(op["text"]).groups()  # type: ignore[union-attr]
        tag = "ins" if op["op"] == "insert" else "del"
        if text:
            out.append(f"{before}<{tag}>{escape(text)}</{tag}>{after}")
        elif tag == "ins":  # only spaces or line ends inserted (a paragraph split): shown; deleted ones are not
            out.append(before)
    return "".join(out)


LINKIFY_CPU_SECONDS = 0.5  # CPU time linking one post may take (200 misspelled names take about 0.2 s)


def linkify_view(text: str, fmt: str) -> dict:
    """A linkified post (``graph.linkify.linkify_post``), linked to this site; linking stops past
    ``LINKIFY_CPU_SECONDS`` of CPU (413): 2,000 misspelled names took half a second."""
    deadline.limit_cpu(LINKIFY_CPU_SECONDS)
    return linkify_post(store(), game(), text, fmt, base_url())
