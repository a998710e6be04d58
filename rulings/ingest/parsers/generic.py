"""Any rulebook in Markdown or plain text, read from its outline (``outline.py``).

The fallback for documents no family parser claims, and the parser behind ``rulings import``.
Every heading is a section, nested by level. A glossary is found by its shape, not its name:
sub-headings that are names in alphabetical order, a run of definition paragraphs
(``**Term:** text``, ``Term: text``, see ``definitions.py``) in alphabetical order, or either under
a heading that says it is a glossary. An entry holds everything under its heading, or up to the
next definition; its sub-headings are sub-definitions. List items and numbered steps are never
terms, except in a glossary made of nothing but a list. FAQ layouts and card headings become
rulings (``questions.py``), cross-references links (``references.py``). Every entry says why it
was made (``Entry.why``), and every line is accounted for.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...markup import excerpt
from ...text import name_key, strip_markup, term_names, title_case
from ..lexer import RawBlock
from ..model import Entry, ParsedDocument, Ruling, SubDefinition
from ..source import Source
from .common import extract_subdefinitions, mend_broken_blocks, number_steps, to_block
from .definitions import (
    DIVIDER,
    EXAMPLE,
    GLOSSARY_RUN,
    HOW_TO,
    Definition,
    alphabetical,
    credits_title,
    definition,
    document_part,
    glossary_lines,
    glossary_title,
    look_up_names,
    sort_key,
    term_like,
    variant_of,
)
from .outline import Section, outline
from .questions import (
    CARD_NOTES,
    ERRATA,
    Card,
    answer_label,
    bold_line,
    cards_named,
    question,
    question_title,
    rulings_title,
)
from .references import anchor_of, index_references, link_references
from .strays import gather_glossaries

NUMBER = r"\d+[A-Za-z]?\d*(?:\.\d+[A-Za-z]?\d*)*"
NUMBERED = re.compile(
    rf"^(?P<number>{NUMBER})[.)]?\s+(?P<title>[^\W\d].*)$|^(?P<title2>[^\W\d].*?)\s*\((?P<number2>\d+(?:\.\d+)+)\)$"
)  # "8A. Castling", "Phase One (2.1)": a title with the number of its rule
# "**1.3.1 Regions.** Borders delineate…": a paragraph of the rules run in under its number and title
RUN_IN_NUMBERED = re.compile(r"^(?P<m>\*\*|__)(?P<number>\d+(?:\.\d+)+)\.?\s+(?P<title>[^\W\d][^*_]{0,70}?)[.:]?(?P=m)")
HEADING_RUN = 5  # sub-headings in alphabetical order that make a glossary without a title saying so
STEPS = re.compile(r"\b(?:following|these|the)\s+(?:\w+\s+)?steps\b|\bin (?:the following |this )?order\s*[:.]", re.I)
FIELD_HEADINGS = 3  # headings under which one name is defined again and again: a template's field
NOTES_GROUP = re.compile(r"^(?:general|other|misc(?:ellaneous)?)\b|\bcards$", re.I)
NOTE_TITLE = 80  # characters of a listed clarification's text that title it
DEFINITION_LIST = 2  # emphasised definitions one after another that make a definition list in any section
# Sections whose labelled paragraphs are not look-up entries: worked examples, the callouts of a card's
# picture ("Card Anatomy"), the steps and options of setting up or of a turn, phase or round, notes.
NOT_LOOKUP = re.compile(
    r"\bexamples?\b|\banatomy\b|\bset[- ]?up\b|\bsetting up\b|\bpreparation\b|\bturns?\b|\bphases?\b|\brounds?\b"
    r"|\bnotes\b",
    re.I,
)


@dataclass
class Context:
    """What the headings above the section being read say about it."""

    path: list[str] = field(default_factory=list)  # their titles
    glossary: str | None = None  # the one that says it is a glossary
    rulings: str | None = None  # the one that says it holds rulings (FAQ, clarifications, errata)
    pack: str | None = None  # the pack or product heading that cards are listed under


def names_of(title: str) -> list[str]:
    """Display names of a term from its heading as printed."""
    out: list[str] = []
    for name in term_names(title):
        if title_case(name) not in out:
            out.append(title_case(name))
    return out


def definition_list(
    raws: list[RawBlock], found: list[tuple[RawBlock, Definition]]
) -> list[tuple[RawBlock, Definition]]:
    """Definitions of one section ("**Recruit:** …" then "**Farm:** …"), whatever their order: the look-up
    lists of a learn-to-play book. Emphasised names with their text on the same line: paragraphs with
    whatever text between them, list items of one list (nothing but nested items between two); a name
    alone or a plain "Term: text" (a label, a table's line) never makes one, nor do names a section
    repeats (the fields of a template: "Condition:", "Effect:" under each power) or names that are not
    look-up names (``look_up_names``)."""
    position = {id(raw): n for n, raw in enumerate(raws)}
    runs: list[list[tuple[RawBlock, Definition]]] = []
    for raw, d in found:
        if d.style not in ("bold", "italic") or not d.text or raw.number or raw.depth or HOW_TO.match(d.term):
            continue  # ... "How a Hero Searches": a topic put as a question, the text is what to do
        if runs:
            last_raw, last = runs[-1][-1]
            between = raws[position[id(last_raw)] + 1 : position[id(raw)]]
            one_list = all(b.kind == "bullet" and b.depth > 0 for b in between)
            if last.listed == d.listed and (one_list or not d.listed):
                runs[-1].append((raw, d))
                continue
        runs.append([(raw, d)])
    printed = Counter(sort_key(d.term) for run in runs for _, d in run)
    return [
        pair
        for run in runs
        if len(run) >= DEFINITION_LIST
        and not announced_steps(raws, position[id(run[0][0])])
        and not numbered_series(run)
        and look_up_names([d.term for _, d in run])
        and sum(printed[sort_key(d.term)] > 1 for _, d in run) * 2 < len(run)  # "Condition:", "Effect:" each time
        for pair in run
    ]


def notes_group(title: str) -> bool:
    """ "General", "Other Questions", "Event Cards": a heading that groups notes, never a card's name."""
    return bool(NOTES_GROUP.search(strip_markup(title).strip()))


def under_item(raw: RawBlock) -> bool:
    """A block set inside a list item: nested in it, or a paragraph indented under it ("  *Example: …*")."""
    return raw.depth > 0 or raw.raw[:1].isspace()


def printed_text(raw: RawBlock) -> bool:
    """A card's text as a FAQ prints it under the card's name: one line, all of it in italics or quotes."""
    one_line = raw.kind == "para" and len(raw.lines) == 1
    return one_line and bool(re.fullmatch(r"(\*|_)[^*_]+\1|[\"\u201c].+[\"\u201d]", raw.raw.strip()))


def said_topic(title: str) -> bool:
    """ "Where to Place Checkpoints", "Make Sure Density is Maintained": advice put as a clause, not a name."""
    return bool(HOW_TO.match(title) or re.search(r"\s(?:is|are|isn't|aren't)\s", title))


def announced_steps(raws: list[RawBlock], first: int) -> bool:
    """A list the paragraph before it announces as steps ("take the following steps, in order:"): a
    procedure, whose items are what to do, not names to look up."""
    return first > 0 and raws[first - 1].kind == "para" and bool(STEPS.search(raws[first - 1].text))


def numbered_series(run: list[tuple[RawBlock, Definition]]) -> bool:
    """ "Strength 1, 2, or 3", "Strength 4": the values of one thing, not names of several."""
    firsts = {d.term.split()[0].lower() for _, d in run}
    return len(firsts) == 1 and all(re.search(r"\d", d.term) for _, d in run)


def demote_repeats(entries: list[Entry], loose: set[int]) -> None:
    """A run of terms that repeats another run's names (a rules summary printed twice, a setup list of the
    countries a later chapter defines) is read once: the smaller run, or the later of two alike, is kept
    as sections, so no term is doubled. Definition lists (``loose``: their ids) alike under three headings
    or more ("Core Action:" and "Bonus:" under each action, "Move:" under each character) are the fields
    of a template, not names to look up: all of them are kept as sections."""
    runs: list[list[Entry]] = []
    for entry in entries:
        if entry.kind != "entry":
            continue
        if runs and runs[-1][-1].path == entry.path:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    keys = [{name_key(e.name) for e in run} for run in runs]
    alike = [[j for j in range(len(runs)) if j != i and repeated(keys[i], keys[j])] for i in range(len(runs))]
    templates = {
        i
        for i, others in enumerate(alike)
        if len(others) >= 2 and all(id(e) in loose for k in (i, *others) for e in runs[k])
    }
    for i in templates:
        for entry in runs[i]:
            entry.kind = "section"
            entry.why += f"; kept as a section: its run's names are defined under {len(alike[i]) + 1} headings"
    pairs = [(earlier, later) for later in range(len(runs)) for earlier in range(later)]
    for i, j in pairs:
        if i in templates or j in templates or j not in alike[i]:
            continue
        smaller = i if len(runs[i]) < len(runs[j]) else j
        kept = runs[j if smaller == i else i][0]
        for entry in runs[smaller]:
            if entry.kind == "entry":
                entry.kind = "section"
                entry.why += f"; kept as a section: its run repeats the terms from line {kept.line}"


def template_fields(root: Section, lines: list[str]) -> set[str]:
    """Names (keys) a document defines under three sibling headings or more ("**Instant Effect** -" under
    each location of a location glossary, "**Construction:**" and "**Function:**" under each module):
    fields each heading fills in, read as that heading's text, never as terms of their own. (A mode
    restated under the rules it changes, under headings of different parents, is not one.)"""
    headings: dict[tuple[str, int], set[int]] = defaultdict(set)
    for parent in root.walk():
        for node in parent.children:
            for raw in node.blocks:
                defined = definition(raw, lines)
                if defined:
                    headings[(name_key(defined.term), id(parent))].add(id(node))
    return {key for (key, _), nodes in headings.items() if len(nodes) >= FIELD_HEADINGS}


def repeated(keys: set[str], other: set[str]) -> bool:
    """Whether two runs of terms name the same things: two names or more, and half of the shorter run."""
    shared = keys & other
    return len(shared) >= 2 and len(shared) * 2 >= min(len(keys), len(other))


def demote_doubles(entries: list[Entry], loose: set[int]) -> None:
    """A term of a definition list (``loose``: their ids) whose name another term of the document has (a
    mode restated under the rule it changes, an action listed again in a summary) is that term mentioned
    again: it is kept as a section, so the document has one term of the name, a glossary's own if there is
    one, else the first."""
    terms = [e for e in entries if e.kind == "entry"]
    owners: dict[str, Entry] = {}
    for entry in terms:
        if id(entry) not in loose:
            owners.setdefault(name_key(entry.name), entry)
    for entry in terms:
        owner = owners.setdefault(name_key(entry.name), entry)
        if owner is not entry and id(entry) in loose:
            entry.kind = "section"
            entry.why += f"; kept as a section: the term at line {owner.line} has its name"


class GenericParser:
    """Sections, glossaries, rulings and cross-references from any Markdown or plain-text rulebook."""

    name = "generic"

    def __init__(self, glossaries: bool = True):
        self.glossaries = glossaries  # a player aid's "ATK : Basic Attack" bullets are not a glossary

    def parse(self, source: Source) -> ParsedDocument:
        doc = ParsedDocument()
        root = outline(source.lines, source.spec.title)
        if self.glossaries:
            gather_glossaries(root)
        walk = _Walk(doc, source, self.glossaries, root, template_fields(root, source.lines))
        walk.section(root, Context(rulings=source.spec.title if source.spec.kind == "faq" else None))
        walk.finish_rulings()
        demote_repeats(doc.entries, walk.loose)
        demote_doubles(doc.entries, walk.loose)
        link_references(doc.entries, walk.anchors, walk.numbers)
        index_references(doc.entries, source.lines)
        return doc


class _Walk:
    """One pass over the outline, writing entries and rulings in document order."""

    def __init__(self, doc: ParsedDocument, source: Source, glossaries: bool, root: Section, fields: set[str]):
        self.doc, self.lines, self.glossaries = doc, source.lines, glossaries
        self.fields = fields  # names of a template's fields (``template_fields``): text, not terms
        self.faq = source.spec.kind == "faq"
        self.anchors = {anchor_of(s.title): s.title for s in root.walk() if s.line}
        numbered = (NUMBERED.match(s.title) for s in root.walk() if s.line)
        self.numbers = {(m["number"] or m["number2"]).lower(): m.group(0) for m in numbered if m}  # "see 8A2"
        self.card_lines: list[int] = []  # a card heading's lines, given to the first ruling about the card
        self.listed: set[int] = set()  # the ids of the blocks chosen as definitions of a definition list
        self.loose: set[int] = set()  # the ids of the terms those blocks opened (``demote_doubles``)

    # -- sections ---------------------------------------------------------------
    def section(self, node: Section, context: Context) -> None:
        """A heading and what is under it: a section (with the terms and rulings written in it), a
        question, or a card of a FAQ; then its sub-headings, glossary entries or sections in turn."""
        leaf_in_faq = bool(node.line and not node.children and context.rulings)
        if leaf_in_faq and question_title(node.title):
            self.question_heading(node, context)
            return
        cards = self.card_heading(node, context) if leaf_in_faq else []
        if leaf_in_faq and not cards and (self.listed_notes(node, context) or self.topic_heading(node, context)):
            return
        divider = bool(node.line and DIVIDER.match(node.title) and context.glossary)
        inner = context if divider or cards else self.inner(node, context)
        entry = self.section_entry(node, context)
        first = len(self.doc.entries)
        self.card_lines = [node.line] if cards else []
        where = (context.path[-1] if context.path else node.title) if cards else entry.name
        own = self.read(node.blocks, where, inner, bool(inner.glossary), cards)
        if (divider or cards) and not own:  # "## A" of a glossary, a card's heading: not sections of the rules
            if divider:
                self.doc.furniture[node.line] = "letter divider of a glossary"
        else:
            entry.lines.extend(n for raw in own for n in raw.lines)
            self.fill(entry, own)
            if node.line or entry.lines:
                self.doc.entries.insert(first, entry)
        terms = self.heading_terms(node, bool(inner.glossary), bool(inner.rulings)) if self.glossaries else {}
        for child in node.children:
            if id(child) in terms:
                self.heading_term(child, inner, terms[id(child)])
            else:
                self.section(child, inner)

    def card_heading(self, node: Section, context: Context) -> list[Card]:
        """The cards a heading of a FAQ names: with a set or number, any heading under a pack heading whose text
        is questions or a list, and any heading under one that says it holds notes on cards ("Card
        Clarifications: Role Cards" > "### Agent")."""
        cards = cards_named(node.title)
        if cards or not node.blocks:
            return cards
        if notes_group(node.title):
            return []
        asks = any(question(b, True) for b in node.blocks)
        if CARD_NOTES.search(context.rulings or "") and not asks and not self.names_cards(node):
            return [Card(title_case(node.title), None, None)]
        if context.pack is None:
            return []
        listed = node.blocks[1:] if printed_text(node.blocks[0]) else node.blocks  # "*Draw two cards.*", notes
        if (listed and all(b.kind == "bullet" for b in listed)) or asks:
            return [Card(title_case(node.title), None, None)]
        return []

    def names_cards(self, node: Section) -> bool:
        """Whether a heading's text names cards of its own ("**War Hawks #09** — …", "**Collector:** …"): then
        the heading groups them. A template's field ("Role Special Action:" under each card) names none."""
        for raw in node.blocks:
            defined = definition(raw, self.lines)
            if bold_line(raw) or (defined is not None and name_key(defined.term) not in self.fields):
                return True
        return False

    def inner(self, node: Section, context: Context) -> Context:
        """The context of what is under ``node``."""
        if node.line is None:
            return context
        says_glossary = glossary_title(node.title)
        return Context(
            path=[*context.path, title_case(node.title)],
            glossary=None
            if document_part(node.title) or EXAMPLE.search(node.title)  # an example under a glossary: not its entries
            else context.glossary or (node.title if says_glossary else None),
            rulings=context.rulings or (node.title if rulings_title(node.title) else None),
            pack=node.title if context.rulings else context.pack,
        )

    @staticmethod
    def section_entry(node: Section, context: Context) -> Entry:
        if node.line is None:
            return Entry("section", [node.title], 1, why="the text before the document's first heading")
        why = f"a level-{node.level} heading" if node.raw.lstrip().startswith("#") else "a title line on its own"
        entry = Entry(
            "section", [title_case(node.title)], node.line, path=list(context.path), lines=[node.line], why=why
        )
        numbered = NUMBERED.match(node.title)
        if numbered:  # "8A. Castling" is also Castling
            entry.spellings.append(title_case(numbered["title"] or numbered["title2"]))
        return entry

    # -- glossaries of headings -----------------------------------------------------
    def heading_terms(self, node: Section, titled: bool, rulings: bool = False) -> dict[int, str]:
        """The sub-headings of ``node`` that are glossary entries (by id), each with why. Under a heading that
        says it holds rulings ("Examples & Clarifications"), sub-headings in alphabetical order are the cards
        or topics the rulings are about, not a glossary."""
        candidates = [
            c
            for c in node.children
            if not DIVIDER.match(c.title)
            and not self.is_group(c, titled)
            and not document_part(c.title)
            and not EXAMPLE.search(c.title)  # "### Movement Example" among the entries: a section of its own
        ]
        names = [c for c in candidates if term_like(c.title, plain=False) and not question_title(c.title)]
        if not names or len(names) < 0.8 * len(candidates):
            return {}  # mostly not names: chapters, steps, questions
        candidates = names
        if titled:
            why = f"a sub-heading of {node.title!r}, under a heading that says it is a glossary"
        elif (
            not rulings
            and len(candidates) >= HEADING_RUN
            and sum(1 for c in candidates if c.children) * 4 <= len(candidates)  # most with sections: chapters
            and sum(1 for c in candidates if said_topic(c.title)) * 3 < len(candidates)
            and alphabetical([c.title for c in candidates], HEADING_RUN)
        ):
            why = f"one of {len(candidates)} sub-headings of {node.title!r} in alphabetical order"
        else:
            return {}
        return {id(c): why for c in candidates}

    @staticmethod
    def is_group(section: Section, titled: bool) -> bool:
        """A heading of a glossary that groups entries rather than being one: it has no text of its own,
        or several sub-headings ("Icons" over "Color Icons", "Tokens"...). Its sub-headings are read in turn."""
        return titled and bool(section.children) and (not section.blocks or len(section.children) >= 3)

    def heading_term(self, node: Section, context: Context, why: str) -> None:
        """A glossary entry: a heading and everything under it, its sub-headings as sub-definitions."""
        entry = Entry("entry", names_of(node.title), node.line, path=list(context.path), lines=node.lines(), why=why)
        self.keep_printed(entry, node.title)
        raws = list(node.blocks)
        for sub in list(node.walk())[1:]:
            text = " ".join(b.text for b in sub.blocks)
            entry.subdefs.append(SubDefinition(title_case(sub.title), text, sub.line))
            raws.append(RawBlock("para", f"**{sub.title}**", [sub.line], raw=sub.raw))
            raws.extend(sub.blocks)
        self.fill(entry, raws)
        self.doc.entries.append(entry)

    @staticmethod
    def keep_printed(entry: Entry, printed: str) -> None:
        """The heading as printed answers for the term too, when its names differ from it."""
        if printed not in entry.names:
            entry.spellings.append(printed)

    # -- a section's own blocks: text, definitions, questions, cards ------------------
    def read(self, raws: list[RawBlock], where: str, context: Context, in_glossary: bool, cards: list[Card] = ()):
        """Terms, rulings and the section's own text (returned) from one section's blocks."""
        if in_glossary:
            raws = [piece for raw in raws for piece in glossary_lines(raw, self.lines)]
        defined = [(raw, d) for raw in raws if (d := definition(raw, self.lines, in_glossary))]
        notes = {id(raw): d for raw, d in defined if context.rulings and d.text}  # "**Card:** note"
        terms = {k: v for k, v in self.definition_terms(raws, defined, context, in_glossary).items() if k not in notes}
        in_faq = self.faq or bool(context.rulings)
        body: list[RawBlock] = []
        term: tuple[Entry, list[RawBlock]] | None = None
        ruling: Ruling | None = None
        opened: list[tuple[Entry, list[RawBlock]]] = []
        for raw in raws:
            asked = question(raw, in_faq)
            label = bold_line(raw)
            named = cards_named(label) if label and context.rulings else []
            if asked:
                term, ruling = None, self.new_ruling("faq", asked.question, raw, where, context, cards)
                ruling.question, ruling.answer = asked.question, asked.answer or None
            elif ruling is not None and ruling.kind == "faq" and ruling.answer is None and answer_label(raw):
                ruling.answer = answer_label(raw)
                ruling.lines.extend(raw.lines)
            elif named:
                self.unused_card()
                term, ruling, cards = None, None, named
                self.card_lines = list(raw.lines)
            elif id(raw) in notes and not cards:  # "**Cellar** – …": a note on the card it names
                # ("**Award Ceremony (r138)** — Should read: …"); under a card's heading, a label of its note
                term, ruling = None, self.card_note(raw, notes[id(raw)], where, context)
            elif id(raw) in terms and term is not None and variant_of(terms[id(raw)][0].term, term[0].name):
                term[1].append(raw)  # "**Clash PLUS:** …" after "**Clash:** …": a sub-definition of it
                term[0].lines.extend(raw.lines)
            elif numbered := RUN_IN_NUMBERED.match(raw.raw.strip()):
                ruling, term = None, self.numbered_paragraph(raw, numbered, context)
                opened.append(term)
            elif id(raw) in terms:
                defined, why = terms[id(raw)]
                ruling = None
                entry = Entry("entry", names_of(defined.term), raw.line, path=list(context.path), why=why)
                if id(raw) in self.listed:
                    self.loose.add(id(entry))
                self.keep_printed(entry, defined.term)
                entry.lines.extend(raw.lines)
                first = [RawBlock(raw.kind, defined.text, list(raw.lines), raw=raw.raw)] if defined.text else []
                term = (entry, first)
                opened.append(term)
                self.doc.entries.append(entry)
            elif term is not None:
                term[1].append(raw)
                term[0].lines.extend(raw.lines)
            elif ruling is not None:
                self.add_to_ruling(ruling, raw)
            elif cards:  # text under a card's name is a clarification of that card
                ruling = self.new_ruling("clarification", "", raw, where, context, cards)
                self.add_to_ruling(ruling, raw, first=True)
            else:
                body.append(raw)
        for entry, entry_raws in opened:
            self.fill(entry, entry_raws)
        self.unused_card()
        return body

    def numbered_paragraph(self, raw: RawBlock, numbered: re.Match, context: Context) -> tuple[Entry, list[RawBlock]]:
        """A section of the rules opened by a paragraph run in under its number ("**1.3.1 Regions.** …"): the
        paragraphs after it belong to it, until the next such paragraph or definition."""
        title = title_case(f"{numbered['number']} {numbered['title'].strip()}")
        why = "a paragraph run in under its number and title: a section of the rules"
        entry = Entry("section", [title], raw.line, path=list(context.path), lines=list(raw.lines), why=why)
        head = strip_markup(numbered.group(0)).strip()
        rest = raw.text[len(head) :].strip() if raw.text.startswith(head) else raw.text
        self.doc.entries.append(entry)
        return entry, [RawBlock(raw.kind, rest, list(raw.lines), raw=raw.raw)] if rest else []

    def definition_terms(
        self, raws: list[RawBlock], found: list[tuple[RawBlock, Definition]], context: Context, in_glossary: bool
    ) -> dict:
        """Which of a section's definitions open glossary entries (by block id), each with its definition and why."""
        if not self.glossaries or (context.path and credits_title(context.path[-1])):
            return {}
        found = [(r, d) for r, d in found if name_key(d.term) not in self.fields]
        paragraphs = [(r, d) for r, d in found if not d.listed]
        listed = [(r, d) for r, d in found if d.listed and r.depth == 0 and not r.number]
        if in_glossary and (paragraphs or listed):
            chosen = paragraphs or listed
            shape = "paragraph" if paragraphs else "list item"
            why = f"a definition {shape} under {context.glossary!r}, a heading that says it is a glossary"
        elif not context.rulings and len(paragraphs) >= GLOSSARY_RUN and alphabetical([d.term for _, d in paragraphs]):
            chosen = paragraphs
            why = f"one of {len(paragraphs)} definition paragraphs in alphabetical order"
        elif (
            not context.rulings
            and not NOT_LOOKUP.search(context.path[-1] if context.path else "")
            and not (context.path and document_part(context.path[-1]))
            and (chosen := definition_list(raws, found))
        ):
            where = f" under {context.path[-1]!r}" if context.path else ""
            why = f"one of {len(chosen)} definitions of a section{where}"
            self.listed.update(id(r) for r, _ in chosen)
        else:
            return {}
        return {id(r): (d, why) for r, d in chosen}

    # -- rulings ---------------------------------------------------------------------
    def card_note(self, raw: RawBlock, defined: Definition, where: str, context: Context) -> Ruling:
        """A definition in a rulings section as a note on the cards it names with their numbers, else on the one
        it names ("**Rage Drake:** …")."""
        cards = cards_named(defined.term) or [Card(title_case(defined.term), None, None)]
        ruling = self.new_ruling("clarification", "", raw, where, context, cards)
        ruling.text = defined.text
        return ruling

    def new_ruling(self, kind: str, title: str, raw: RawBlock, where: str, context: Context, cards=()) -> Ruling:
        """A ruling opened by ``raw``; about ``cards`` when given (titled with their names if untitled)."""
        ruling = Ruling(kind, title, raw.line, section=where, group=where, group_kind="general", lines=list(raw.lines))
        if cards:
            first = cards[0]
            ruling.card, ruling.cards = first.name, [c.name for c in cards]
            ruling.card_set, ruling.card_number = first.card_set, first.number
            ruling.group, ruling.group_kind, ruling.expansion = first.name, "card", context.pack
            ruling.title = title or " / ".join(ruling.cards)
            ruling.lines[:0], self.card_lines = self.card_lines, []
        self.doc.rulings.append(ruling)
        return ruling

    def unused_card(self) -> None:
        """A card heading no ruling followed is kept as furniture, not lost."""
        for line in self.card_lines:
            self.doc.furniture[line] = "card heading without a ruling"
        self.card_lines = []

    @staticmethod
    def add_to_ruling(ruling: Ruling, raw: RawBlock, first: bool = False) -> None:
        text = to_block(raw).markdown()
        if ruling.kind == "faq":
            if not ruling.answer and raw.kind == "bullet":
                text = raw.text  # "- Yes." under a bold question is the answer, not a list
            ruling.answer = f"{ruling.answer}\n\n{text}" if ruling.answer else text
        else:
            ruling.text = f"{ruling.text}\n\n{text}" if ruling.text else text
        if not first:
            ruling.lines.extend(raw.lines)

    def question_heading(self, node: Section, context: Context) -> None:
        """A heading that asks: the text under it is the answer."""
        where = context.path[-1] if context.path else node.title
        asked = question_title(node.title)
        ruling = self.new_ruling("faq", asked, RawBlock("heading", node.title, [node.line]), where, context)
        ruling.question = asked
        for raw in node.blocks:
            self.add_to_ruling(ruling, raw)

    def listed_notes(self, node: Section, context: Context) -> bool:
        """A heading that says it holds clarifications, or groups them ("General", "Event Cards"), over a list
        of them (after a line that introduces it, if any): each item is a ruling of its own, titled by its
        first words, grouped under the heading. Under any other heading a list is the rules' own text."""
        blocks = node.blocks
        intro = blocks[:1] if blocks and blocks[0].kind == "para" and blocks[0].text.rstrip().endswith(":") else []
        items = blocks[len(intro) :]
        tops = [b for b in items if b.kind == "bullet" and b.depth == 0]
        if not tops or items[0] is not tops[0] or any(b.kind != "bullet" and not under_item(b) for b in items):
            return False  # a list, its items' own lines and examples indented under them
        if not (rulings_title(node.title) or notes_group(node.title)):
            return False
        if any(question(b, True) for b in tops):
            return False
        self.doc.furniture[node.line] = "a heading over a list of clarifications"
        for raw in intro:
            for line in raw.lines:
                self.doc.furniture[line] = "the line that introduces a list of clarifications"
        group = title_case(node.title)
        ruling: Ruling | None = None
        for raw in items:
            if (raw.depth or raw.kind != "bullet") and ruling is not None:
                self.add_to_ruling(ruling, raw)
                continue
            noted = definition(raw, self.lines)  # "- **Turks:** This ability can be used more than once."
            if noted and noted.text:
                ruling = self.card_note(raw, noted, group, context)
            else:
                ruling = self.new_ruling("clarification", excerpt(raw.text, NOTE_TITLE), raw, group, context)
                self.add_to_ruling(ruling, raw, first=True)
        return True

    def topic_heading(self, node: Section, context: Context) -> bool:
        """A heading under "Special Situations and Clarifications" that opens with a plain paragraph ("### Red
        lines", then how red lines work): a clarification of that topic, titled by the heading. Not when its
        text asks questions or notes cards by name: those are read as such."""
        if not re.search(r"[^\W\d_]{3}", node.title):
            return False  # "6.2.0.A": a numbered paragraph of the rules, no topic
        if not node.blocks or node.blocks[0].kind != "para":
            return False  # steps or a list under the heading: a section of the rules ("### Setup", "1. …")
        if any(question(b, True) or definition(b, self.lines) for b in node.blocks):
            return False
        where = context.path[-1] if context.path else node.title
        ruling = self.new_ruling("clarification", title_case(node.title), RawBlock("heading", node.title, [node.line]),
                                 where, context)  # fmt: skip
        for raw in node.blocks:
            self.add_to_ruling(ruling, raw)
        return True

    def finish_rulings(self) -> None:
        """Each ruling's text; errata named as such."""
        for ruling in self.doc.rulings:
            if ruling.kind == "faq":
                ruling.text = f"**Q:** {ruling.question}\n\n**A:** {ruling.answer or ''}".strip()
            elif ERRATA.search(f"{ruling.section or ''} {ruling.text}"):
                ruling.kind = "errata"

    # -- an entry's text and its links ----------------------------------------------------
    def fill(self, entry: Entry, raws: list[RawBlock]) -> None:
        entry.blocks = mend_broken_blocks([to_block(r) for r in raws if r.kind != "heading"])
        number_steps(entry.blocks)
        extract_subdefinitions(entry, raws)
        self.variants(entry, raws)

    def variants(self, entry: Entry, raws: list[RawBlock]) -> None:
        """Definitions of an entry's stronger forms inside it ("**Clash PLUS:** …") as its sub-definitions."""
        named = {s.name.lower() for s in entry.subdefs}
        for raw in raws:
            found = definition(raw, self.lines, in_glossary=True)
            if found and variant_of(found.term, entry.name) and title_case(found.term).lower() not in named:
                entry.subdefs.append(SubDefinition(title_case(found.term), found.text, raw.line))
                named.add(title_case(found.term).lower())
