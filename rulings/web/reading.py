"""View models for reading a version's rules whole: the document in order, with a table of contents.

Shared by the site and the API. Every block is shown with its lasting anchor; on a whole-document
page, where many terms share the page, a term's blocks carry ``<term slug>--<anchor>`` ids (slugs
and anchors never contain "--") and numbered rules their number, which is unique in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import url_for

from ..graph.store import BlockRow, Game, RevisionRow, TermRow, VersionRow
from . import views
from .context import absolute, loaded, store
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
    st = store()
    contents = st.contents(version)
    blocks = st.blocks_of([revision.id for _, revision in contents])
    sections: dict[str, int] = {}
    parts = []
    for term, revision in contents:
        depth = sum(1 for name in term.path if name in sections) if term.kind == "section" else 0
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
    path = url_for("site.version_page", version=version.label)  # the only URL of the whole text
    citation = views.citation("Rules", game, version, absolute(path))
    return Document(game, version, parts, toc, st.versions(game), citation)


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
