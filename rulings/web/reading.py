"""View models for reading a version's rules whole: the document in order, with a table of contents.

Shared by the site and the API. Every block is shown with its lasting anchor; on a whole-document
page, where many terms share the page, a term's blocks carry ``<term slug>--<anchor>`` ids (slugs
and anchors never contain "--") and numbered rules their number, which is unique in a version.

A document too long for one page on a phone (Magic's Comprehensive Rules: 3 MB of HTML) is read a
page at a time (``pages``): its whole-version page is then the table of contents, and each chapter is
a page of its own, split at its sections (then at its rules) when it is longer than ``PAGE_TEXT``.
The split depends only on the version's own text, so a page's URL (the anchor it starts at) stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import url_for

from ..graph import rules
from ..graph.rows import BlockRow, Game, RevisionRow, TermRow, VersionRow
from . import views
from .context import absolute, loaded, site_urls, store
from .render import render_blocks


@dataclass
class Part:
    """One term of a document as it stood: its revision in force and its blocks."""

    term: TermRow
    revision: RevisionRow
    blocks: list[BlockRow]
    depth: int  # nesting in the table of contents (sections inside sections)

    @property
    def number(self) -> str | None:
        """The number the version shown prints it under (numbers move between editions)."""
        return self.revision.number or self.term.number

    @property
    def anchor(self) -> str:
        """Where the part starts on a page: its number or slug (a rule's own first block may carry it)."""
        return self.number or self.term.slug

    @property
    def title(self) -> str | None:
        """What a heading shows: "702.19. Trample", a section's name; None for a rule whose first
        block already shows its number and which has no title of its own ("100.1 These Magic rules...")."""
        name = self.revision.name
        untitled = name == f"Rule {self.number}"
        if self.term.kind == "rule":
            if untitled and self.heading_id is None:
                return None
            return f"{self.number}. {'' if untitled else name}".strip()
        return name

    @property
    def heading_id(self) -> str | None:
        """The id of the part's heading, unless its first block already carries the same anchor."""
        return None if any(b.number == self.anchor for b in self.blocks) else self.anchor

    def block_prefix(self) -> str:
        return "" if self.number else f"{self.term.slug}--"


@dataclass
class TocItem:
    part: Part
    children: list[Part] = field(default_factory=list)  # glossary entries under a section


@dataclass
class Document:
    game: Game
    version: VersionRow
    parts: list[Part]
    toc: list[TocItem]
    versions: list[VersionRow]
    citation: dict

    @property
    def previous(self) -> VersionRow | None:
        earlier = [v for v in self.versions if v.ordinal < self.version.ordinal]
        return earlier[-1] if earlier else None

    @property
    def next(self) -> VersionRow | None:
        return next((v for v in self.versions if v.ordinal > self.version.ordinal), None)


def document(game: Game, version: VersionRow) -> Document:
    """The versioned terms in force at ``version`` in document order, with a table of contents."""
    parts, toc = version_parts(game, version)
    path = url_for("site.version_page", version=version.label)  # the only URL of the whole text
    citation = views.citation("Rules", game, version, absolute(path))
    return Document(game, version, parts, toc, store().versions(game), citation)


def version_parts(game: Game, version: VersionRow) -> tuple[list[Part], list[TocItem]]:
    """A version's parts in document order and its table of contents, shared by the pages reading them."""
    return loaded().document((game.slug, version.label), lambda: _parts(version))


def _parts(version: VersionRow) -> tuple[list[Part], list[TocItem]]:
    """A version's parts and contents (each page of a long text reads them all: ``Loaded.document`` keeps them)."""
    st = store()
    contents = st.contents(version)
    blocks = st.blocks_of([revision.id for _, revision in contents])
    sections: dict[str, int] = {}
    parts = []
    for term, revision in contents:
        depth = sum(1 for name in term.path if name in sections) if term.kind == "section" else 0
        if term.kind == "section" and revision.number:  # a chapter or section: nested as its number says
            depth = rules.level(revision.number)
        if term.kind == "section":
            sections[term.name] = depth
        parts.append(Part(term, revision, blocks[revision.id], depth))
    toc: list[TocItem] = []
    for part in parts:
        if part.term.kind == "section":
            toc.append(TocItem(part))
        elif part.term.kind != "rule":
            if not toc:
                toc.append(TocItem(part))
            else:
                toc[-1].children.append(part)
    return parts, toc


def document_html(doc: Document) -> str:
    """Every part rendered (memoized per build and version: a build never changes)."""

    def render() -> str:
        out = []
        for part in doc.parts:
            links = views.links_for(doc.game, doc.version, part.term)
            out.append(render_blocks(part.blocks, links, id_prefix=part.block_prefix()))
        return "\x00".join(out)

    rendered = loaded().memo(("document", doc.game.slug, doc.version.label), render)
    return rendered.split("\x00")


# -- a long document, a page at a time ------------------------------------------------------------
PAGE_TEXT = 80_000  # characters of text (and per block) a page holds at most: about 300 KB of linked HTML
BLOCK_WEIGHT = 40  # what a block costs beside its text: its element, anchor and number


@dataclass(frozen=True)
class Page:
    """One page of a long document: consecutive parts, named by the anchor of the first ("702")."""

    start: str
    first: int  # index of its first part in ``Document.parts``
    end: int  # ... and one past its last
    anchors: tuple[str, ...]  # its parts' anchors and numbered blocks': where an old link to the whole text lands
    title: str  # its first part's name ("702. Keyword Abilities")


def weight(part: Part) -> int:
    return len(part.revision.name) + sum(len(b.text) + BLOCK_WEIGHT for b in part.blocks)


def _breaks(parts: list[Part], level: int) -> list[int]:
    """Where a run of parts may be cut at ``level``: 0 before a top section (a chapter, the glossary), 1
    before a section inside one, 2 before any part."""
    if level >= 2:
        return list(range(len(parts)))
    return [i for i, p in enumerate(parts) if p.term.kind == "section" and p.depth <= level]


def _pack(parts: list[Part], offset: int, level: int, budget: int) -> list[tuple[int, int]]:
    """(first, end) of the pages of a run of parts: the run whole when it fits, else its pieces cut at
    ``level`` packed in order, a piece too long for a page cut at the next level."""
    total = sum(weight(p) for p in parts)
    if total <= budget or level > 2 or len(parts) == 1:
        return [(offset, offset + len(parts))]
    cuts = sorted(set([0, *_breaks(parts, level), len(parts)]))
    out: list[tuple[int, int]] = []
    start, held = None, 0
    for a, b in zip(cuts, cuts[1:], strict=False):
        size = sum(weight(p) for p in parts[a:b])
        if size > budget:
            if start is not None:
                out.append((offset + start, offset + a))
                start, held = None, 0
            out += _pack(parts[a:b], offset + a, level + 1, budget)
        elif start is not None and held + size > budget:
            out.append((offset + start, offset + a))
            start, held = a, size
        else:
            start, held = (a if start is None else start), held + size
    if start is not None:
        out.append((offset + start, offset + len(parts)))
    return out


def pages(doc: Document, budget: int | None = None) -> list[Page]:
    """The pages a document is read in: none when it fits one page; else each top section (a chapter, the
    glossary) a page, or several when it is longer than ``budget`` (``PAGE_TEXT``; memoized per build and
    version)."""
    budget = budget or PAGE_TEXT

    def split() -> list[Page]:
        if sum(weight(p) for p in doc.parts) <= budget:
            return []
        tops = [i for i, p in enumerate(doc.parts) if p.term.kind == "section" and p.depth == 0]
        cuts = sorted(set([0, *tops, len(doc.parts)]))
        out = []
        for a, b in zip(cuts, cuts[1:], strict=False):
            for first, end in _pack(doc.parts[a:b], a, 1, budget):
                shown = doc.parts[first:end]
                anchors = [p.anchor for p in shown]
                anchors += [b.number for p in shown for b in p.blocks if b.number]  # a glossary paragraph: its entry
                out.append(Page(shown[0].anchor, first, end, tuple(dict.fromkeys(anchors)), _title(doc.parts, first)))
        return out

    return loaded().memo(("pages", doc.game.slug, doc.version.label, budget), split)


def _title(parts: list[Part], first: int) -> str:
    """A page's title: its first part's, or when that is no section, the section it continues ("Glossary
    (from Permanently)", "702. Keyword Abilities (from 702.85. Cascade)")."""
    part = parts[first]
    own = part.title or part.revision.name
    if part.term.kind == "section":
        return own
    held = next((p for p in reversed(parts[:first]) if p.term.kind == "section"), None)
    return f"{held.title or held.revision.name} (from {own})" if held is not None else own


@dataclass
class Reading:
    """One page of a long document, with the pages around it."""

    doc: Document
    page: Page
    previous: Page | None
    next: Page | None
    html: list[str]  # its parts, rendered

    @property
    def parts(self) -> list[Part]:
        return self.doc.parts[self.page.first : self.page.end]


def reading_page(doc: Document, start: str) -> Reading | None:
    """The page of ``doc`` starting at the anchor ``start`` (None: no page starts there)."""
    found = pages(doc)
    at = next((i for i, p in enumerate(found) if p.start == start), None)
    if at is None:
        return None
    page = found[at]
    html = []
    for part in doc.parts[page.first : page.end]:
        links = views.links_for(doc.game, doc.version, part.term)
        html.append(render_blocks(part.blocks, links, id_prefix=part.block_prefix()))
    return Reading(doc, page, found[at - 1] if at else None, found[at + 1] if at + 1 < len(found) else None, html)


OPENING = 0.1  # a first page this short, of a page (front matter: an introduction), opens the contents page


def opening(doc: Document) -> Reading | None:
    """The first page of a paged document when it is short enough to open its contents page, as a book's
    introduction comes before its chapters."""
    found = pages(doc)
    if not found or sum(weight(p) for p in doc.parts[found[0].first : found[0].end]) > OPENING * PAGE_TEXT:
        return None
    return reading_page(doc, found[0].start)


def page_links(doc: Document) -> dict[str, str]:
    """anchor -> the URL of the page holding it, for a paged document's table of contents."""
    built = site_urls()
    out: dict[str, str] = {}
    for page in pages(doc):
        url = built.reading(doc.game.slug, doc.version.label, page.start)
        for anchor in page.anchors:
            out.setdefault(anchor, url)
    return out
