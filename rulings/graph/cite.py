"""Ready citations: a version-pinned link with its label, and a paragraph quoted the way the site's copy buttons
quote it (``static/app.js``: ``quote``), for the pages and for the assistants' ``cite`` tool (``rulings/mcp.py``)."""

from __future__ import annotations

from ..errors import BadRequest, Unanswerable
from ..markup import bbcode_text, excerpt, markdown_label, plain_text
from ..urls import Urls
from . import answers
from .rows import BlockRow, Game, VersionRow
from .store import Store

FORMATS = ("markdown", "bbcode")


def citation(title: str, game: Game, version: VersionRow | None, url: str) -> dict:
    """Ready citations of ``url``; the label names the version unless the game has none of its own."""
    source = game.name + (f", v{version.label}" if version and version.stated else "")
    label = f"{title} \u2014 {source}"
    return {
        "markdown": f"[{markdown_label(label)}]({url})",
        "bbcode": f"[url={url}]{bbcode_text(label)}[/url]",
        "label": label,
        "title": title,
        "source": source,  # a quote from another part of the page keeps it ("702.19b — Magic, v2021-02-02")
        "url": url,
    }


def quote(fmt: str, text: str, label: str, url: str) -> str:
    """A quoted paragraph followed by its linked source, as the site's paragraph menu copies it."""
    if fmt == "bbcode":
        return f"[quote]{bbcode_text(text)}[/quote]\n\u2014 [url={url}]{bbcode_text(label)}[/url]"
    lines = [f"> {line}" if line else ">" for line in text.split("\n")]
    return "\n".join(lines) + f"\n>\n> \u2014 [{markdown_label(label)}]({url})"


def cite(
    store: Store,
    game_slug: str,
    name: str,
    version: str | None = None,
    fmt: str = "markdown",
    paragraph: str | None = None,
    base_url: str = "",
) -> dict:
    """The citation of a term or numbered rule as in force at ``version`` (the latest when None).

    The answer is ``answers.applies``'s (the same statuses when it cannot be given), its ``url`` made
    absolute under ``base_url``, with ``citation`` ready to paste in ``fmt``. With ``paragraph`` (an
    anchor of the text) the link points at that paragraph and ``quote`` quotes it; without, the
    answer lists the text's ``paragraphs`` and their anchors.
    """
    if fmt not in FORMATS:
        raise BadRequest(f"format must be one of {', '.join(FORMATS)}")
    if not (name or "").strip():
        raise BadRequest("give the term or rule number to cite")
    answer = answers.applies(store, game_slug, name, version=version)
    game = answers.require_game(store, game_slug)
    target = answers.version_by_label(store, game, answer["in_force"])
    title = f"Rule {answer['number']}" if answer.get("number") else answer["term"]
    blocks = _blocks(store, game, _cited_slug(answer), target)
    block = _paragraph_named(blocks, paragraph, title, target) if paragraph else None
    url = Urls(base_url).base + answer["url"]
    if block is not None:
        url = url.partition("#")[0] + f"#{block.anchor}"
    cited = citation(title, game, target, url)
    out = {key: answer[key] for key in ("status", "game", "term", "in_force", "version", "date", "complete")}
    out.update(source=answer["source"], superseded_by=answer["superseded_by"], notes=answer["notes"])
    if block is not None:
        text = plain_text(block.text)
        label = f"{title}, {cited['source']}"  # the paragraph menu's label (app.js ``citeOf``)
        out.update(paragraph=block.anchor, text=text, quote=quote(fmt, text, label, url))
    else:
        out.update(text=answer["text"], paragraphs=[_opening(b) for b in blocks])
    out.update(format=fmt, citation=cited[fmt], label=cited["label"], url=url)
    return out


def _paragraph_named(blocks: list[BlockRow], anchor: str, title: str, target: VersionRow) -> BlockRow:
    """The paragraph an anchor names, or the ``unknown-paragraph`` answer listing the text's anchors."""
    for block in blocks:
        if block.anchor == anchor.strip().lstrip("#"):
            return block
    known = ", ".join(b.anchor for b in blocks[:20])
    raise Unanswerable(
        "unknown-paragraph",
        f"{title} has no paragraph {anchor!r} in version {target.label} (paragraphs: {known})",
        paragraphs=[b.anchor for b in blocks],
    )


def _cited_slug(answer: dict) -> str:
    """The term whose text the answer's link shows: for an entry that only says "See: X", X's."""
    path = answer["url"].partition("#")[0]
    return path.rsplit("/terms/", 1)[1] if "/terms/" in path else answer["slug"].partition("#")[0]


def _blocks(store: Store, game: Game, slug: str, target: VersionRow) -> list[BlockRow]:
    """The paragraphs of a term's text in force at ``target``, each with its lasting anchor."""
    term, _ = store.term_by_slug(game, slug)
    revision_id = store.revision_at(term.id, target.ordinal) if term else None
    return store.blocks(revision_id) if revision_id is not None else []


def _opening(block: BlockRow) -> dict:
    return {"anchor": block.anchor, "opening": excerpt(block.text, 80)}
