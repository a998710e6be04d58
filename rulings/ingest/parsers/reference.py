"""Rules references: markdown-ish OCR of a glossary-style rules book.

Layout understood (Marvel Champions RR v1.1 and books like it): a title page
with the document's own change notes, front-matter sections, a ``GLOSSARY``
of headed entries in alphabetical order, appendices (one of them may be a
card FAQ of ``CARD (SET, NUMBER)`` headings with ``Q:``/``A:`` pairs), and
an index. Heading levels are OCR noise, so meaning comes from the region a
heading is in and what it looks like, not from its level.
"""

from __future__ import annotations

import re

from ...text import base_key, is_all_caps, strip_markup, title_case, vocabulary
from ..lexer import RawBlock, lex
from ..model import Block, ChangeNote, Entry, ParsedDocument, Ruling
from ..source import Source
from .common import (
    SEE,
    SEE_ALSO,
    extract_subdefinitions,
    heading_names,
    mend_broken_blocks,
    number_steps,
    sentence_like,
    split_targets,
    to_block,
)

CHANGE_NOTE = re.compile(
    r"^pages?\s+([\d\-\u2013, ]+?)\s*:\s*(added|expanded|changed|clarified|updated|removed)\b"
    r"[^\"\u201c]*[\"\u201c]([^\"\u201d]+)[\"\u201d]",
    re.I,
)
VERSION = re.compile(r"^version\s+(\d+(?:\.\d+)*)$", re.I)
CARD_HEADING = re.compile(r"^(.+?)\s*\(([^(),]+),\s*([^()]+)\)$")
QUESTION = re.compile(r"^Q\s*[:.]\s*(.*)$")
ANSWER = re.compile(r"^A\s*[:.]\s*(.*)$")


def prefer_spelling(name: str, text: str) -> str:
    """Use the text's spelling of a name the heading misspelled ("JENNIFER WALTER" / "Walters")."""
    words = name.split()
    if not words:
        return name
    pattern = r"\b" + r"\s+".join(re.escape(w) for w in words) + r"[a-z]{0,2}\b"
    for match in re.finditer(pattern, text, re.I):
        found = match.group(0)
        if found[:1].isupper() and not found.isupper():
            return found
    return name


class ReferenceParser:
    """Glossary-style rules reference (see module docstring)."""

    name = "reference"

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        blocks = lex(source.lines)
        vocab = vocabulary(b.text for b in blocks if b.kind != "heading")
        state = _State(doc, vocab)
        for i, raw in enumerate(blocks):
            following = blocks[i + 1] if i + 1 < len(blocks) else None
            state.feed(raw, following)
        state.finish()
        split_redirect_headings(doc)
        return doc


def split_redirect_headings(doc: ParsedDocument) -> None:
    """ "TOUGH, TOUGHNESS - See: Keywords, Status Cards" is two redirects, one per name.

    When each name of a multi-name redirect is a sub-definition of a different
    target (Toughness under Keywords, Tough under Status Cards), the heading is
    split so every name points where its own definition is.
    """
    by_name = {base_key(n): e for e in doc.entries for n in e.names}
    out = []
    for entry in doc.entries:
        if len(entry.redirect) >= 2 and len(entry.names) >= 2 and not entry.blocks:
            pairs = []
            for name in entry.names:
                target = next(
                    (
                        t
                        for t in entry.redirect
                        if (e := by_name.get(base_key(t))) is not None
                        and any(base_key(s.name) == base_key(name) for s in e.subdefs)
                    ),
                    None,
                )
                pairs.append((name, target))
            targets = [t for _, t in pairs]
            if all(targets) and len(set(targets)) == len(targets):
                for name, target in pairs:
                    out.append(
                        Entry(
                            entry.kind,
                            [name],
                            entry.line,
                            redirect=[target],
                            path=list(entry.path),
                            lines=list(entry.lines) if name == entry.names[0] else [],
                            why=f"one name of the redirect heading at line {entry.line}, pointing where it is defined",
                        )
                    )
                continue
        out.append(entry)
    doc.entries[:] = out


class _State:
    """Walks the blocks once, switching region on the headings that open them."""

    def __init__(self, doc: ParsedDocument, vocab: set[str]):
        self.doc = doc
        self.vocab = vocab
        self.region = "title"  # title | front | glossary | appendix | faq | index
        self.titled = False  # the title page has shown its title (or its version line)
        self.entry: Entry | None = None
        self.raws: list[RawBlock] = []
        self.appendix: str | None = None
        self.card: tuple[str, str | None, str | None, list[int]] | None = None
        self.ruling: Ruling | None = None

    # -- entries -------------------------------------------------------
    def open_entry(self, kind: str, names: list[str], raw: RawBlock, path: list[str], why: str) -> None:
        self.close_entry()
        self.entry = Entry(kind, names, raw.line, path=path, lines=list(raw.lines), why=why)
        printed = heading_names(raw.text, split=False)[0]
        if printed not in names:
            self.entry.spellings.append(printed)

    def close_entry(self) -> None:
        entry, raws = self.entry, self.raws
        self.entry, self.raws = None, []
        if entry is None:
            return
        body: list[Block] = []
        for raw in raws:
            see_also, see = SEE_ALSO.match(raw.text), SEE.match(raw.text)
            if see_also and raw.kind == "para":
                entry.see_also.extend(split_targets(see_also.group(1)))
            elif see and raw.kind == "para" and not body and raw is raws[-1]:
                entry.redirect = split_targets(see.group(1))
            else:
                body.append(to_block(raw))
        entry.blocks = mend_broken_blocks(body)
        number_steps(entry.blocks)
        extract_subdefinitions(entry, [r for r in raws if not SEE_ALSO.match(r.text)])
        if not entry.blocks and not entry.redirect and not entry.see_also and entry.path:
            # A heading with nothing under it in an appendix is a figure label.
            for line in entry.lines:
                self.doc.furniture[line] = "figure label"
            return
        self.doc.entries.append(entry)

    def add_body(self, raw: RawBlock) -> None:
        assert self.entry is not None
        self.entry.lines.extend(raw.lines)
        self.raws.append(raw)

    def drop(self, raw: RawBlock, why: str) -> None:
        for line in raw.lines:
            self.doc.furniture[line] = why

    def finish(self) -> None:
        self.close_ruling()
        self.drop_unused_card()
        self.close_entry()

    def drop_unused_card(self) -> None:
        """A card heading no question followed is kept as furniture, not lost."""
        if self.card and self.card[3]:
            for line in self.card[3]:
                self.doc.furniture[line] = "card heading without questions"
            self.card = (*self.card[:3], [])

    # -- the walk ------------------------------------------------------
    def feed(self, raw: RawBlock, following: RawBlock | None) -> None:
        heading = raw.text if raw.kind == "heading" else None
        if heading is not None:
            upper = heading.upper()
            if upper == "INDEX":
                self.close_ruling()
                self.drop_unused_card()
                self.close_entry()
                self.region = "index"
            elif upper == "GLOSSARY":
                self.close_entry()
                self.region = "glossary"
                self.open_entry("section", ["Glossary"], raw, [], "the GLOSSARY heading")
                return
            elif upper.startswith("APPENDIX") and self.region != "index":
                self.close_ruling()
                self.drop_unused_card()
                self.close_entry()
                self.appendix = heading_names(heading, split=False)[0]
                self.appendix = re.sub(r"\bFaq\b", "FAQ", self.appendix)
                if re.search(r"\bFAQ\b|QUESTIONS", upper):
                    self.region = "faq"
                    self.drop(raw, "appendix heading")
                    return
                self.region = "appendix"
                self.open_entry("section", [self.appendix], raw, [], "an APPENDIX heading")
                return
        if self.region == "index":
            self.drop(raw, "index and back matter")
        elif self.region == "faq":
            self.feed_faq(raw)
        elif self.region == "title":
            self.feed_title(raw)
        else:
            self.feed_body(raw, following)

    def feed_title(self, raw: RawBlock) -> None:
        note = CHANGE_NOTE.match(raw.text)
        if note:
            action = note.group(2).lower()
            self.doc.change_notes.append(
                ChangeNote(action, note.group(3).strip(), note.group(1).strip(), raw.line, list(raw.lines))
            )
            return
        version = VERSION.match(raw.text)
        if version:
            self.doc.version_label = version.group(1)
            self.titled = True
            self.drop(raw, "title page")
            return
        if raw.kind == "heading" and not sentence_like(raw.text) and len(raw.text.split()) <= 6:
            if self.titled:  # the first heading after the title opens the front matter
                self.region = "front"
                self.feed_body(raw, None)
                return
            self.titled = True
        self.drop(raw, "title page")

    def feed_body(self, raw: RawBlock, following: RawBlock | None) -> None:
        if raw.kind == "heading" and not sentence_like(raw.text):
            if self.region == "glossary":
                why = "a heading between GLOSSARY and the next APPENDIX or INDEX heading"
                self.open_entry("entry", heading_names(raw.text, self.vocab), raw, [], why)
            else:
                names = heading_names(raw.text, split=False)
                if names[0].startswith("The ") and len(names[0].split()) > 2:
                    names.append(names[0][4:])
                path = [self.appendix] if self.appendix else []
                self.open_entry("section", names, raw, path, f"a heading outside the glossary ({self.region})")
            return
        if self.entry is None:
            self.drop(raw, "text before the first section")
            return
        if raw.kind == "para" and self.is_caption(raw):
            self.drop(raw, "figure caption")
            return
        if raw.kind == "heading":  # a body sentence OCR turned into a heading
            raw = RawBlock("para", raw.text, raw.lines, raw=raw.raw)
        self.add_body(raw)

    def is_caption(self, raw: RawBlock) -> bool:
        """Labels of pictures sit in the text as short ALL CAPS lines ("STAR ICON", "HAZARD")."""
        text = strip_markup(raw.text)
        return len(raw.lines) == 1 and is_all_caps(text) and len(text.split()) <= 4 and not re.search(r"[.:;,]$", text)

    # -- card FAQ ------------------------------------------------------
    def close_ruling(self) -> None:
        if self.ruling is not None:
            ruling = self.ruling
            ruling.text = f"**Q:** {ruling.question}\n\n**A:** {ruling.answer or ''}".strip()
            if self.card:
                ruling.card = prefer_spelling(self.card[0], f"{ruling.question} {ruling.answer}")
            self.doc.rulings.append(ruling)
        self.ruling = None

    def feed_faq(self, raw: RawBlock) -> None:
        text = strip_markup(raw.text)
        question = QUESTION.match(text)
        answer = ANSWER.match(text)
        card = CARD_HEADING.match(text) if raw.kind == "heading" else None
        if question:
            self.close_ruling()
            self.ruling = Ruling(
                "faq",
                question.group(1).strip(),
                raw.line,
                question=question.group(1).strip(),
                section=self.appendix,
                lines=list(raw.lines),
            )
            if self.card:
                name, card_set, number, heading_lines = self.card
                self.ruling.card, self.ruling.card_set, self.ruling.card_number = name, card_set, number
                self.ruling.group, self.ruling.group_kind = name, "card"
                if heading_lines:
                    self.ruling.lines.extend(heading_lines)
                    self.card = (name, card_set, number, [])
        elif answer and self.ruling is not None:
            self.ruling.answer = answer.group(1).strip()
            self.ruling.lines.extend(raw.lines)
        elif card:
            self.close_ruling()
            self.drop_unused_card()
            name = title_case(card.group(1).strip())
            self.card = (name, title_case(card.group(2).strip()), card.group(3).strip(), list(raw.lines))
        elif self.ruling is not None and self.ruling.answer is not None:
            self.ruling.answer = f"{self.ruling.answer}\n\n{text}"
            self.ruling.lines.extend(raw.lines)
        elif self.ruling is not None:  # a question that runs over two paragraphs
            self.ruling.question = f"{self.ruling.question}\n\n{text}"
            self.ruling.lines.extend(raw.lines)
        else:
            self.drop(raw, "unrecognised FAQ line")
