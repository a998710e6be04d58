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
from dataclasses import dataclass

from ...text import fold, slugify, strip_markup

ANCHOR_LINK = re.compile(r"\[([^\]\n]{1,80})\]\(#([^)\s]{1,120})\)")
EMPHASIS = re.compile(r"[*_]{1,3}")
OPENING = re.compile(r"^\(?\s*see(?P<also>\s+also)?\b\s*(?::|\.(?=\s*[A-Z\"\[]))?\s*(?P<rest>.*?)\)?\s*$", re.I)
SENTENCE = re.compile(
    r"(?:(?<=[.!?)\"\u201d])\s+|\()(?:[Ss]ee)(?P<also>\s+also)?\s*:?\s+(?P<rest>[^.()]*(?:\.(?=\w)[^.()]*)*)"
)
PAGE = re.compile(
    r"""\s* (?: ,?\s* \b(?:on|at|in) \s+ )?         # "on", "at", "in"
        \(?\s* \b(?:pages?|pp?|pgs?)\b \.?\s*      # "page", "p.", "pp.", "pg"
        [\dIVXivx] [\dIVXivx\-\u2013,&\ ]* (?:and\s+\d+)? \)? \s*""",
    re.I | re.X,
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
        | (?:step|page|phase|chapter|section|rule|appendix|figure|diagram|example|part) \s* [\dIVX]+ [a-z]? )$""",
    re.I | re.X,
)  # where to look, not what: "see step 4, below", "see next page"
MAX_WORDS = 6  # a target longer than this is a sentence ("see how the round ends"), not a name


@dataclass
class Reference:
    kind: str  # see-also | see
    targets: list[str]


def _targets(rest: str) -> list[str]:
    """Names in what follows "See": quoted titles, link labels, or a list ("A, B and C")."""
    rest = ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', rest)
    quoted = [q.strip() for q in QUOTED.findall(rest)]
    if quoted:
        return [q for q in quoted if q and not NOT_A_NAME.match(q)]
    rest = PAGE.sub(" ", strip_markup(EMPHASIS.sub("", rest))).strip().rstrip(".;:")
    rest = SECTION_NUMBER.sub("", WHERE.sub("", re.sub(r"^(?:for|in|under)\s+", "", rest)))
    out = []
    for part in re.split(r"\s*[,;]\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", rest):
        part = TRAIL_WORDS.sub("", LEAD_WORDS.sub("", part.strip().strip("\"'").strip())).strip()
        if re.fullmatch(r"\d+[A-Za-z]?\d*(?:\.\d+[A-Za-z]?\d*)*", part):
            out.append(part)  # a rule number ("see 12A"), which may name a numbered heading
        elif len(part.split()) <= MAX_WORDS and re.search(r"[^\W\d_]{3}", part) and not NOT_A_NAME.match(part):
            if part[:1].isupper() or part[:1].isdigit():  # "(see how scoring works)" points, it does not name
                out.append(part)
    return out


def paragraph_reference(text: str) -> Reference | None:
    """A paragraph that is only a reference ("See also: A, B", 'See "Fight" on page 10.')."""
    plain = ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', text)
    plain = PAGE.sub(" ", EMPHASIS.sub("", plain)).strip()
    match = OPENING.match(plain)
    if not match or not match.group("rest"):
        return None
    rest = match.group("rest")
    if re.search(r"[.!?]\s+[A-Z]", fold(QUOTED.sub("", rest))):  # more sentences follow: text, not a reference
        return None
    targets = _targets(rest)
    if not targets:
        return None
    return Reference("see-also" if match.group("also") else "see", targets)


def sentence_references(text: str) -> list[str]:
    """Targets of "See X" sentences inside a text ('… in play. See "Creatures" on page 6.')."""
    plain = ANCHOR_LINK.sub(lambda m: f'"{m.group(1)}"', text)
    out: list[str] = []
    for match in SENTENCE.finditer(PAGE.sub(" ", EMPHASIS.sub("", plain))):
        for target in _targets(match.group("rest")):
            if target not in out:
                out.append(target)
    return out


def anchor_links(text: str) -> list[tuple[str, str]]:
    """(label, anchor) of every Markdown link to an anchor of the same document."""
    return [(m.group(1).strip(), m.group(2)) for m in ANCHOR_LINK.finditer(text)]


def unlink_anchors(text: str) -> str:
    """ "[Form](#form-change-form)" -> "Form": the site links names itself."""
    return ANCHOR_LINK.sub(lambda m: m.group(1), text)


def anchor_of(title: str) -> str:
    """The anchor Markdown renderers give a heading ("Form, Change Form" -> "form-change-form")."""
    return slugify(title)
