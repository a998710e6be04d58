"""Cross-references as publishers write them.

"See also: A, B." / "*See also:* A, B" / "**See also** A" / 'See also "Preceding."' are see-also
links; an entry whose whole text is a reference ("See: Keywords", "See X.", 'See "Fight" on page
10.', "See [Form](#form-change-form)") redirects there, to one target or several. A "See X"
sentence inside a text is a see-also link and the text keeps it. Markdown links to anchors of the
same document ("[Form](#form-change-form)") are references too: the link becomes its label (the
site links names itself) and the target is the heading the anchor names.
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass

from ...text import fold, name_key, slugify, strip_markup
from ..model import Entry

ANCHOR_LINK = re.compile(r"\[([^\]\n]{1,80})\]\(#([^)\s]{1,120})\)")
EMPHASIS = re.compile(r"[*_]{1,3}")
OPENING = re.compile(
    r"^\(?\s*(?:see(?P<also>\s+also)?\b\s*(?::|\.(?=\s*[A-Z\"\[]))?"
    r"|(?P<related>related(?:\s+(?:topics?|rules?|entries|terms?|sections?))?\s*:))\s*(?P<rest>.*?)\)?\s*$",
    re.I,
)  # "See also: A", "See: A", "Related Topics: A, B", "Related: A"
SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[\"\u201c(]?[A-Z])|(?<=[.!?][\"\u201d])\s+")
SEE_SENTENCE = re.compile(r"^\(?\s*see(?:\s+also)?\b\s*:?\s+(?P<rest>.+?)[.)]*$", re.I)  # "See Fight."
SEE_ASIDE = re.compile(r"\(\s*see(?:\s+also)?\b\s*:?\s+(?P<rest>[^()]+)\)", re.I)  # "… (see Fight) …"
PAGE = re.compile(
    r"(?:\b(?:on|at|in)[ \t]+)?\(?\b(?:pages?|pp?|pgs?)\b\.?[ \t]*[\dIVXivx][\dIVXivx\-\u2013,& ]*(?:and[ \t]+\d+)?\)?",
    re.I,
)  # "on page 12", "(p. 4)", "pg 7", "pp. 4-5": where it is printed, not what
QUOTED = re.compile(r"[\"\u201c]([^\"\u201c\u201d]{1,60}?)[.,]?[\"\u201d]")
LEAD_WORDS = re.compile(r"^(?:the\s+)?(?:(?:rules?|section|entry|entries|glossary entry)\s+(?:for|on|of)\s+)?", re.I)
WHERE = re.compile(
    r"""(?:^|\s+) (?: below | above | later | earlier | overleaf
        | (?:for|on) \s+ (?:more|further|full|complete)? \s* (?:details|information|info|rules|explanation|examples?)
        | on\ the\ (?:left|right|facing\ page|next\ page|previous\ page|back)
        | in\ (?:the\ )?appendix ) \b .*$""",
    re.I | re.X,
)  # "Setup below for more information" is Setup
SECTION_NUMBER = re.compile(r"\s+\(?\d+(?:\.\d+)+[a-z]?\)?$")  # "Technology 9.0": the title is enough
TRAIL_WORDS = re.compile(r"\s+(?:section|chapter|rules?|entry|box|sidebar|table|chart)$", re.I)
NOT_A_NAME = re.compile(
    r"""^(?: (?:the\s+)? (?:next|previous|following|preceding|facing|opposite|back|last) \s+
             (?:page|section|chapter|step|cover|rules?)s?
        | below | above | later | earlier | right | left | further | details | explanation | next | previous
        | following | more | respectively | rules? | sections? | cards? | chapters?
        | (?:the\s+)? (?:example|diagram|figure|image|illustration|picture|table|box|sidebar|chart)s? (?:\s*\#?\d+)?
        | (?:step|page|phase|chapter|section|rule|appendix|figure|diagram|example|part)s?
          \s* [\dIVX]+ (?:\.\d+)* [a-z]? )$""",
    re.I | re.X,
)  # where to look, not what: "see step 4, below", "see next page"
CITATION = re.compile(
    r"""\b(?: (?:rules?|sections?) \s+ \d+(?:\.\d+)* | \d+\.\d+(?:\.\d+)* ) [a-z]?     # "rule 702.19", "702.153"
        (?:\s*[-\u2013]\s*[a-z])? ,?\s* (?:[\"\u201c][^\"\u201c\u201d]+[\"\u201d]   # ', "Trample"'
        | \?[A-Z][^?\n]*\? )?                                                     # ', ?Trample?'""",
    re.I | re.X,
)  # a numbered rule and its title, cited by number (the graph links numbers); its quotes may have become "?"
MAX_WORDS = 6  # a target longer than this is a sentence ("see how the round ends"), not a name


@dataclass
class Reference:
    kind: str  # see-also | see
    targets: list[str]


LEAD_PREPOSITION = re.compile(r"^(?:for|in|under)\s+")
LIST_SEPARATOR = re.compile(r"\s*[,;]\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+")
RULE_NUMBER = re.compile(r"\d+[A-Za-z]?\d*(?:\.\d+[A-Za-z]?\d*)*")
LETTERS = re.compile(r"[^\W\d_]{3}")


def _targets(rest: str, known: Set[str]) -> list[str]:
    """Names in what follows "See": a name the document has, quoted titles, link labels, or a list
    ("A, B and C")."""
    rest = CITATION.sub(" ", ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', rest))
    plain = PAGE.sub(" ", strip_markup(EMPHASIS.sub("", rest))).strip().rstrip(".;:,").strip()
    if name_key(plain) in known:  # 'See Intervening "If" Clause', "See Active Player, Nonactive Player Order"
        return [plain.strip(' "\u201c\u201d')]
    quoted = [q.strip() for q in QUOTED.findall(rest)]
    if quoted:
        return [q for q in quoted if q and not NOT_A_NAME.match(q)]
    plain = SECTION_NUMBER.sub("", WHERE.sub("", LEAD_PREPOSITION.sub("", plain)))
    out = []
    for part in LIST_SEPARATOR.split(plain):
        part = TRAIL_WORDS.sub("", LEAD_WORDS.sub("", part.strip().strip("\"'").strip())).strip()
        if RULE_NUMBER.fullmatch(part):
            out.append(part)  # a rule number ("see 12A"), which may name a numbered heading
        elif len(part.split()) <= MAX_WORDS and LETTERS.search(part) and not NOT_A_NAME.match(part):
            if part[:1].isupper() or part[:1].isdigit():  # "(see how scoring works)" points, it does not name
                out.append(part)
    return out


def paragraph_reference(text: str, known: Set[str] = frozenset()) -> Reference | None:
    """A paragraph that is only a reference ("See also: A, B", 'See "Fight" on page 10.').

    ``known``: name keys of the document's entries, so a name with a comma in it stays whole.
    """
    plain = ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', text)
    plain = PAGE.sub(" ", EMPHASIS.sub("", plain)).strip()
    match = OPENING.match(plain)
    if not match or not match.group("rest"):
        return None
    rest = match.group("rest")
    if re.search(r"[.!?]\s+[A-Z]", fold(QUOTED.sub("", rest))):  # more sentences follow: text, not a reference
        return None
    targets = _targets(rest, known)
    if not targets:
        return None
    return Reference("see-also" if match.group("also") or match.group("related") else "see", targets)


def sentence_references(text: str, known: Set[str] = frozenset()) -> list[str]:
    """Targets of "See X" sentences and "(see X)" asides inside a text ('… in play. See "Creatures" on page 6.')."""
    out: list[str] = []
    for sentence in SENTENCES.split(text):
        if "see" not in sentence.lower():
            continue  # most sentences refer to nothing
        plain = EMPHASIS.sub("", ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', sentence))
        found = [m.group("rest") for m in SEE_ASIDE.finditer(plain)]  # before pages go: "(see X, p. 16)"
        whole = SEE_SENTENCE.match(PAGE.sub(" ", plain).strip())
        if whole and not found:
            found.append(whole.group("rest"))
        for rest in found:
            out.extend(t for t in _targets(rest, known) if t not in out)
    return out


def link_references(entries: list[Entry], anchors: dict[str, str] | None = None, numbers=None, kinds=None) -> None:
    """Cross-references of a document's entries, read once every entry is known.

    A paragraph that only refers ("See also: A, B", 'See "Fight" on page 10.') becomes links, and an
    entry whose text is nothing else a redirect; "See X" sentences add links and stay; Markdown anchor
    links become their labels. ``anchors`` maps an anchor to its heading's title, ``numbers`` a rule
    number ("8A2") to its heading's title; ``kinds``: only entries of these kinds are read.
    """
    anchors, numbers = anchors or {}, numbers or {}
    read = [e for e in entries if kinds is None or e.kind in kinds]
    known = {name_key(n) for e in read for n in [*e.names, *e.spellings, *(s.name for s in e.subdefs)]}

    def named(targets: list[str]) -> list[str]:
        """Rule numbers become the titles of the headings they number; a number that numbers none is dropped."""
        out = [numbers.get(t.lower(), t) for t in targets]
        return [t for t in out if not re.fullmatch(r"[\d.]+[A-Za-z]?\d*(?:\.\d+)*", t)]

    for entry in read:
        kept = []
        for block in entry.blocks:
            if "](#" not in block.text and "see" not in block.text.lower() and "related" not in block.text.lower():
                kept.append(block)  # most blocks refer to nothing: no need to read them closely
                continue
            text = ANCHOR_LINK.sub(lambda m: f'"{anchors.get(m.group(2), m.group(1))}"', block.text)
            found = paragraph_reference(text, known) if block.kind == "para" else None
            if found and found.kind == "see" and len(entry.blocks) == 1 and not entry.subdefs:
                entry.redirect = named(found.targets)
            elif found:
                entry.see_also.extend(t for t in named(found.targets) if t not in entry.see_also)
            else:
                entry.see_also.extend(t for t in named(sentence_references(text, known)) if t not in entry.see_also)
                block.text = unlink_anchors(block.text)
                kept.append(block)
        entry.blocks = kept


INDEX_TITLE = re.compile(r"^(?:[\w/&' ]+\s)?index$", re.I)  # "Index", "Rules/Terms Index"; not "Index Cards"
INDEX_ROW = re.compile(
    r"^\s*(?:[-*+\u2022]\s+|\|\s*)?(?P<name>[^|]*?[^\W\d_][^|]*?)"
    r"(?:\s*(?:\.{2,}|[\u2014\u2013,:|-]|\s)\s*(?:pp?\.?\s*)?\d[\d,\s\u2013-]*)?\s*\|?\s*$"
)  # "Movement ..... 2", "- Agent Movement — 4", "| Active Stack | 7,20 |", "Line of Sight"


def index_references(entries: list[Entry], lines: list[str]) -> None:
    """An index names the document's topics: each row that names an entry, a section or a sub-definition of
    the document becomes a see-also link of the index's section, in the index's order. Rows that name
    nothing the document has stay text."""
    names: dict[str, str] = {}
    for entry in entries:
        for name in [*entry.names, *entry.spellings, *(s.name for s in entry.subdefs)]:
            names.setdefault(name_key(name), entry.name if name in entry.spellings else name)
    for entry in entries:
        if entry.kind != "section" or not INDEX_TITLE.match(strip_markup(entry.name).strip()):
            continue
        for number in entry.lines[1:]:
            row = INDEX_ROW.match(strip_markup(lines[number - 1]))
            target = names.get(name_key(row["name"])) if row else None
            if target and target != entry.name and target not in entry.see_also:
                entry.see_also.append(target)


def anchor_links(text: str) -> list[tuple[str, str]]:
    """(label, anchor) of every Markdown link to an anchor of the same document."""
    return [(m.group(1).strip(), m.group(2)) for m in ANCHOR_LINK.finditer(text)]


def unlink_anchors(text: str) -> str:
    """ "[Form](#form-change-form)" -> "Form": the site links names itself."""
    return ANCHOR_LINK.sub(lambda m: m.group(1), text)


def anchor_of(title: str) -> str:
    """The anchor Markdown renderers give a heading ("Form, Change Form" -> "form-change-form")."""
    return slugify(title)
