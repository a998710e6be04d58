"""Community FAQs in ALL CAPS with source links (the Sentinels "Rules & Clarifications").

Understood layout: bare heading lines; a heading directly followed by another
heading is a container: after a gap of blank lines (or an expansion tag such as
``[ROOK CITY]``) it is a hero / villain / environment, otherwise a section of the
document (whose name says which roster follows: CHARACTERS, VILLAINS, ...).
A heading followed by text is a topic: one ruling, whose ``[URL](url)`` lines
are its sources. Repeated page headers are furniture (named in ``game.toml``).
An official rulebook appended after the FAQ (a "... RULEBOOK" title) is read
as sections, with ``TERM: DEFINITION`` glossary lines as entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text import fold, is_all_caps, slugify, title_case
from ..lexer import TERMINAL, RawBlock, lex_numbered
from ..model import Block, Entry, ParsedDocument, Ruling
from ..source import Source
from .common import clean_name, ends_mid_sentence, to_block

URL_LINE = re.compile(r"^\s*\[?(https?://[^\]\s]+)\]?(?:\((https?://[^)\s]+)\))?\s*$", re.I)
TAG_OPEN = re.compile(r"^\s*[\[(]([A-Z][A-Z ,'&\-]*)\s*$")
TAG_WHOLE = re.compile(r"^\s*[\[(]([A-Z][A-Z0-9 ,'&\-]+)[\])]\s*$")
CONNECTIVE = re.compile(r"^(?:HOWEVER|THEREFORE|THUS|ALSO|BUT|AND|OR|SO|THEN|BECAUSE)\b", re.I)
GLOSSARY_LINE = re.compile(r"^(?:-\s*)?([A-Z][A-Z0-9' \-]{0,40}?)\s*:\**\s+(\S.*)$")
ROSTERS = (
    ("hero", re.compile(r"\b(HEROES|CHARACTERS)\b")),
    ("villain", re.compile(r"\bVILLAINS\b")),
    ("environment", re.compile(r"\bENVIRONMENTS\b")),
)


@dataclass
class _Item:
    kind: str  # heading | tag | url | body
    text: str
    lines: list[int]
    gap: int = 0  # blank lines before it
    raws: list[RawBlock] = field(default_factory=list)


def display_title(heading: str) -> str:
    """``"FLAME BARRIER"`` -> ``Flame Barrier``; inner quotes are kept."""
    text = heading.strip()
    if re.fullmatch(r'"[^"]+"', fold(text)):
        text = text[1:-1]
    return title_case(clean_name(text) if text.endswith(")") else text.strip())


def quoted_cards(heading: str) -> list[str]:
    return [title_case(q.strip(" .")) for q in re.findall(r'"([^"]+)"', fold(heading)) if q.strip(" .")]


class FaqParser:
    """ALL CAPS community FAQ (see module docstring)."""

    name = "faq"

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        items = self.items(source, doc)
        _Walk(doc, source).run(items)
        return doc

    # -- pass 1: lines into items --------------------------------------
    def items(self, source: Source, doc: ParsedDocument) -> list[_Item]:
        lines = source.lines
        furniture = {fold(f).strip().upper() for f in source.spec.furniture}
        title_slug = slugify(source.spec.game)
        blank_run = 0
        gap_across_furniture = 0
        items: list[_Item] = []
        body: list[int] = []

        def flush_body() -> None:
            if body:
                items.append(_Item("body", "", list(body), raws=lex_numbered(lines, body)))
                body.clear()

        number = 0
        while number < len(lines):
            number += 1
            line = lines[number - 1]
            text = line.strip()
            if not text:
                blank_run += 1
                continue
            gap, blank_run = max(blank_run, gap_across_furniture), 0
            if fold(text).upper() in furniture:
                doc.furniture[number] = "running header"
                gap_across_furniture = gap  # furniture neither breaks text nor makes a gap
                continue
            gap_across_furniture = 0
            url = URL_LINE.match(text)
            if url:
                flush_body()
                items.append(_Item("url", url.group(2) or url.group(1), [number], gap))
                continue
            tag = TAG_WHOLE.match(text)
            if (
                not tag
                and TAG_OPEN.match(text)
                and number < len(lines)
                and re.match(r"^\s*[A-Z][A-Z ,'&\-]*[\])]\s*$", lines[number])
            ):
                flush_body()
                items.append(
                    _Item(
                        "tag",
                        f"{TAG_OPEN.match(text).group(1)} {lines[number].strip()[:-1]}",
                        [number, number + 1],
                        gap,
                    )
                )
                number += 1
                continue
            if tag:
                flush_body()
                items.append(_Item("tag", tag.group(1), [number], gap))
                continue
            if self.is_heading(lines, number):
                flush_body()
                if slugify(text).startswith(title_slug) or slugify(text) in ("card-game", "tm"):
                    doc.furniture[number] = "title"
                    continue
                items.append(_Item("heading", text, [number], gap))
                continue
            body.append(number)
        flush_body()
        return items

    @staticmethod
    def is_heading(lines: list[str], number: int) -> bool:
        text = lines[number - 1].strip()
        before = lines[number - 2].strip() if number >= 2 else ""
        after = lines[number].strip() if number < len(lines) else ""
        if before or after or len(text) > 90 or len(text.split()) > 16:
            return False
        if re.fullmatch(r"(?:[A-Z]\.){2,}[A-Z]?", text):  # K.N.Y.F.E.
            return True
        if text.startswith(("-", "\u2022", "*", "|")) or not is_all_caps(text) and not text[:1].isdigit():
            return False
        if re.search(r"[,;:]$", text) or re.search(r"[^.]\.[\"\u201d']?$", text):
            return False
        return not (ends_mid_sentence(text) or CONNECTIVE.match(text))


class _Walk:
    """Pass 2: items into sections, groups, rulings (and rulebook entries)."""

    def __init__(self, doc: ParsedDocument, source: Source):
        self.doc = doc
        self.source = source
        self.section: str | None = None
        self.roster = "general"
        self.group: str | None = None
        self.group_kind = "general"
        self.expansion: str | None = None
        self.pending_tag: str | None = None
        self.ruling: Ruling | None = None
        self.entry: Entry | None = None  # intro or rulebook section being filled
        self.rulebook: str | None = None
        self.subheading: str | None = None

    def run(self, items: list[_Item]) -> None:
        for i, item in enumerate(items):
            following = items[i + 1] if i + 1 < len(items) else None
            getattr(self, f"on_{item.kind}")(item, following)
        self.close()

    def close(self) -> None:
        if self.ruling is not None:
            self.finish_ruling(self.ruling)
            self.doc.rulings.append(self.ruling)
        self.ruling = None
        self.entry = None

    # -- items ---------------------------------------------------------
    def on_tag(self, item: _Item, following) -> None:
        self.close()
        self.pending_tag = title_case(item.text.strip("[]() "))
        for line in item.lines:
            self.doc.furniture.setdefault(line, "expansion tag")

    def on_url(self, item: _Item, following) -> None:
        target = self.ruling or self.entry
        if target is None:
            self.doc.furniture[item.lines[0]] = "link outside any ruling"
            return
        if isinstance(target, Ruling):
            if item.text not in target.sources:
                target.sources.append(item.text)
            target.lines.extend(item.lines)
        else:
            target.blocks.append(Block(f"<{item.text}>", item.lines[0]))
            target.lines.extend(item.lines)

    def on_heading(self, item: _Item, following: _Item | None) -> None:
        text = item.text
        if re.search(r"\bRULE ?BOOK\b", text) and len(text.split()) <= 4:
            self.close()
            self.rulebook = title_case(text)
            self.section = self.rulebook
            self.doc.furniture[item.lines[0]] = "rulebook title"
            return
        container = following is None or following.kind in ("heading", "tag")
        if self.rulebook:
            self.rulebook_heading(item, container)
            return
        if container:
            self.close()
            roster = next(
                (kind for kind, pattern in ROSTERS if pattern.search(text.upper()) and len(text.split()) <= 3), None
            )
            self.subheading = None
            if roster:
                self.roster = roster
            if (item.gap >= 2 or self.pending_tag) and not roster:
                self.group = display_title(text)
                self.group_kind = self.roster
                self.expansion = self.pending_tag
            elif self.group and not roster:
                # A heading between a hero and its topics names the card the next topic is about.
                self.subheading = display_title(text)
            else:
                self.section = display_title(text)
                self.group, self.expansion = None, None
                self.group_kind = "general"
            self.pending_tag = None
            self.doc.furniture[item.lines[0]] = "section heading"
            return
        self.close()
        if self.section is None:  # text before the first section: the document's introduction
            why = "a heading before the first section (the introduction)"
            self.entry = Entry("section", [display_title(text)], item.lines[0], lines=list(item.lines), why=why)
            self.doc.entries.append(self.entry)
            return
        title = display_title(text)
        cards = quoted_cards(text) if self.group else []
        if self.subheading:
            title, cards = f"{self.subheading}: {title}", [self.subheading, *cards]
            self.subheading = None
        self.ruling = Ruling(
            "clarification",
            title,
            item.lines[0],
            group=self.group or self.section,
            group_kind=self.group_kind if self.group else "general",
            section=self.section,
            expansion=self.expansion if self.group else None,
            lines=list(item.lines),
            cards=cards,
            card=cards[0] if cards else None,
        )

    def on_body(self, item: _Item, following) -> None:
        target = self.ruling or self.entry
        # a ruling is shown as written, its bold words kept (an errata's **NON-HERO**)
        blocks = [to_block(raw, emphasis=isinstance(target, Ruling)) for raw in item.raws]
        if target is None:
            for line in item.lines:
                self.doc.furniture[line] = "text outside any section"
            return
        if isinstance(target, Ruling):
            target.text = _join_blocks(target.text, blocks)
            target.lines.extend(item.lines)
        else:
            if self.rulebook and re.match(r"^GLOSSARY\b", target.name.upper()):
                self.glossary_entries(target, item)
                return
            target.blocks = _mend(target.blocks + blocks)
            target.lines.extend(item.lines)

    # -- rulings ---------------------------------------------------------
    @staticmethod
    def finish_ruling(ruling: Ruling) -> None:
        heading = ruling.title.upper()
        body = fold(ruling.text).upper()
        if "ERRATA" in heading or "OFFICIALLY CHANGED TO READ" in body or "OFFICIALLY AMENDED" in body:
            ruling.kind = "errata"
        elif "ENHANCED EDITION" in heading:
            ruling.kind = "note"

    # -- appended rulebook -------------------------------------------------
    def rulebook_heading(self, item: _Item, container: bool) -> None:
        self.close()
        name = display_title(item.text)
        if container and not re.match(r"^GLOSSARY\b", item.text.upper()):
            self.doc.furniture[item.lines[0]] = "rulebook heading without text"
            return
        why = "a heading of the rulebook appended to the FAQ"
        self.entry = Entry("section", [name], item.lines[0], path=[self.rulebook], lines=list(item.lines), why=why)
        self.doc.entries.append(self.entry)

    def glossary_entries(self, section: Entry, item: _Item) -> None:
        current: Entry | None = None
        for raw in item.raws:
            match = GLOSSARY_LINE.match(raw.raw.strip().replace("**", "")) if raw.kind in ("para", "bullet") else None
            if match and len(match.group(1).split()) <= 5:
                why = f"a 'TERM:' line under {section.name!r} of the appended rulebook"
                name = title_case(match.group(1).strip())
                current = Entry(
                    "entry", [name], raw.line, path=[self.rulebook, section.name], lines=list(raw.lines), why=why
                )
                current.blocks.append(Block(match.group(2).strip().replace("**", ""), raw.line))
                whole = GLOSSARY_LINE.match(raw.text.replace("**", ""))
                if raw.text != raw.raw.strip() and whole:  # the paragraph went on over more lines
                    current.blocks[-1].text = whole.group(2)
                self.doc.entries.append(current)
            elif current is not None:
                current.blocks.append(to_block(raw))
                current.lines.extend(raw.lines)
            else:
                section.blocks.append(to_block(raw))
                section.lines.extend(raw.lines)


def _mend(blocks: list[Block]) -> list[Block]:
    """ALL CAPS text cannot be mended on case: join a block that stops mid-sentence with the next."""
    out: list[Block] = []
    for block in blocks:
        if out and out[-1].kind == block.kind == "para" and not TERMINAL.search(out[-1].text):
            out[-1].text = f"{out[-1].text} {block.text}"
            continue
        out.append(block)
    return out


def _join_blocks(text: str, blocks: list[Block]) -> str:
    parts = [text] if text else []
    for block in blocks:
        if parts and block.kind == "para" and not TERMINAL.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {block.text}"
        else:
            parts.append(block.markdown())
    return "\n\n".join(parts)
