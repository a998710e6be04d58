"""Definitions as publishers write them, and when a run of them is a glossary.

A definition opens a paragraph: ``**Term:** text``, ``**Term**: text``, ``**Term** - text``,
``*Term:* text``, ``**Term** (aside): text``, ``**Term: text** text``, ``**TERM** Text`` (a name in capitals),
``**Term**`` alone on its line (the text follows), or a plain ``Term: text``
(held to a stricter idea of a name). Whether openers are glossary entries depends on where they
stand: in a section whose title says it is a glossary, or in a run long enough and alphabetical
enough that it can only be one. Lines of a list, labels set line under line ("**Chains 1-6**:
draw one fewer card." four lines in a row) and credit lines ("Game Design: Richard Garfield") are
never terms; a glossary set line under line, its names in alphabetical order, is read line by line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text import FUNCTION_WORDS, NOT_TERMS, fold, strip_markup
from ..lexer import RawBlock
from .references import unlink_anchors

EMPHASIS = r"(?P<m>\*\*\*|\*\*|__|\*|_)"
SEPARATOR = r"(?::|\.(?=[\s*_]|$)|\s?[\u2014\u2013=]|\s-(?=\s))"  # "Term:", "Term.", "Term \u2014", "Term =", "Term -"
NAME = r"(?P<term>(?:\\[*_]|[^*_])+?)"  # emphasis marks may stand in a name escaped: "**\\* (asterisk):**"
INSIDE = re.compile(rf"^{EMPHASIS}{NAME}\s*{SEPARATOR}\s*(?P=m)\s*(?P<rest>.*)$")  # **Term:** text
AFTER = re.compile(rf"^{EMPHASIS}{NAME}\s*(?P=m)\s*{SEPARATOR}\s*(?P<rest>.*)$")  # **Term** - text
ASIDE = re.compile(  # **Term** (an aside): text
    rf"^{EMPHASIS}{NAME}\s*(?P=m)\s*(?P<aside>\([^()]{{1,100}}\))\s*{SEPARATOR}\s*(?P<rest>.*)$"
)
ALONE = re.compile(rf"^(?P<m>\*\*\*|\*\*|__){NAME}(?P=m)\s*$")  # **Term**
ALONE_ASIDE = re.compile(  # **BRAKES** (*Cost: 2*), the text on the lines below
    rf"^(?P<m>\*\*\*|\*\*|__){NAME}(?P=m)\s*(?P<aside>\([^()]{{1,60}}\))\s*$"
)
RUNNING = re.compile(r"^(?P<m>\*\*|__)(?P<term>[^*_:]{1,60}?):\s+(?P<rest>[^*_].*)$")  # **CHEST: Take a token** if…
CAPITALS = re.compile(  # **MOVE** Move…
    r"^(?P<m>\*\*|__)(?P<term>[A-Z][A-Z0-9 '\u2019&/+-]{1,40})(?P=m)\s+(?P<rest>[A-Z].*)$"
)
DEFINES = re.compile(  # **Influence** represents the strength of your army…
    r"^(?P<m>\*\*|__)(?P<term>[A-Z][^*_:]{0,40}?)(?P=m)\s+(?P<rest>(?:represents?|means|refers to|denotes|stands for"
    r"|indicates|is an?|are the)\s.*)$"
)
PLAIN = re.compile(r"^(?P<term>[A-Z0-9\"\u201c+][^:]{0,58}?)\s*:\s+(?P<rest>\S.*)$")  # Term: text
LIST_MARK = re.compile(r"^\s*(?:[-*+\u2022\u00b7]\s+|\d{1,3}[.)]\s+)")
NUMBERED_LABEL = re.compile(
    r"^(?:step|phase|round|turn|stage|part|chapter|page|rule|section|example|figure|diagram)\s*\d"
    r"|^(?:step|phase|round|stage|part|chapter|act|level|option|mode|action)\s+"
    r"(?:[IVX]+|[A-Za-z]|one|two|three|four|five|six|seven|eight|nine|ten)(?:$|[\s:.,)])",
    re.I,
)  # "Step 2", "Example 1", "Phase IV", "Action B", "Round Two": a place in a sequence, not a name
# "End-of-game example", "Example of Rail Movement": a worked case (not "evil.example/", a web address)
EXAMPLE = re.compile(r"(?<![\w./])examples?(?![\w./])", re.I)
ORDINAL = re.compile(
    r"""^(?: (?:\d+|[IVX]+|[A-Za-z]) [.)]\s                           # "1. Select Decks", "II. Setup", "a) Draw"
        | \d+ (?:\.\d+)+ \.? \s                                    # "1.3.1 Regions": a numbered paragraph
        | \(?[$\u20ac\u00a3]?\d+ (?:\s*[-/\u2013]\s*\d+)? \)? \s* (?:[-:/\u2013\u2014)]\s*)?
          (?!(?:st|nd|rd|th)\b)[^\W\d]                                  # "1 - Flip", "$5 \u2013 Jane"
        | [A-Z] \s* [:/\u2013\u2014-] \s                                # "A: Yard", "B / Office"
        | [A-Z]{1,2} \d{1,3} (?:\s|$) )""",  # "S1", "A1 Alphabetical"
    re.X,
)  # a step or a key, not a name
CREDIT_TITLES = re.compile(r"credits|acknowledg|thanks|playtest|designer|about the|contributors", re.I)
# The parts a document has around its rules (contents, components, credits): headings that are never a
# glossary's entries, even under a heading (or a document title) that says "Glossary".
DOCUMENT_PARTS = re.compile(
    r"^(?:table of contents|contents|index|components?(?: overview| list)?|quick (?:search|reference)\b.*"
    r"|(?:[\w ]+ )?credits|acknowledg\w*)$",
    re.I,
)
NAME_WORD = re.compile(
    r"^(?:[A-Z\u00c0-\u00de][\w'\u2019\-]*\.?|[A-Z]\.(?:[A-Z]\.)*|van|von|de|der|la|le|du|III|II|Jr\.?)$"
)
DIVIDER = re.compile(r"^[A-Z](?:\s*[-\u2013\u2014&]\s*[A-Z])?$")  # "A", "A-C": a glossary's letter dividers
SHORT_RUN_IN = 4  # words of a name set alone on its line with a full stop ("**Passing.**"); longer is a sentence
GLOSSARY_RUN = 5  # openers that make a glossary by their order alone
# Words that open a sentence ("When: …", "Then, …"): not terms in running text, but a glossary may define them.
LEAD_INS = frozenset({"and", "or", "but", "if", "when", "then", "additionally", "however", "otherwise", "therefore"})
LABELS = frozenset({"attention", "optional", "variant", "clarification", "errata", "designer note", "faq"})
# Labels of a line that points elsewhere ("Related Topics: Attack"): never a term, in a glossary or not.
POINTERS = re.compile(r"^(?:see(?:\s+also)?|related(?:\s+(?:topics?|rules?|entries|terms?|sections?))?)$", re.I)
NAME_LIST = re.compile(r"\s*[,;]\s*(?:and\s+|or\s+)?")
SENTENCE_INSIDE = re.compile(r"[^\W\d_]{2}[.!?;]\s+[\"\u201c]?[^\W\d_]{2}")  # "Setup. Place…", not "max. X"
# "Setup \u2014 pg. 2", "Movement ..... 7": a line of a table of contents
PAGE_REFERENCE = re.compile(r"(?:\bp(?:g|age)?s?\.?\s*|\.{3,}\s*)\d+\s*$", re.I)
HOW_TO = re.compile(r"^(?:how|what|why|where|who|which)\s+\S+\s+\S", re.I)  # "How a Hero Searches": a topic, said


@dataclass
class Definition:
    """A paragraph (or list item) that opens with a term."""

    term: str  # as printed, emphasis removed
    text: str  # the definition's text in this block (may be empty: it follows in the next one)
    style: str  # bold | italic | bold-alone | plain
    listed: bool  # the opener is a list item


def _opening_line(raw: RawBlock) -> tuple[str, bool]:
    """The block's first line without its list mark, and whether it had one."""
    line = raw.raw.strip()
    mark = LIST_MARK.match(line)
    return (line[mark.end() :].strip(), True) if mark else (line, raw.kind == "bullet")


def term_like(term: str, plain: bool, in_glossary: bool = False) -> bool:
    """A name, not a sentence, label or number: short, capitalised (when plain), no inner sentence end, more
    than one letter. ``in_glossary``: words that open sentences elsewhere ("Then", "When") may be names."""
    bare = fold(term).strip().strip('"').strip()
    words = bare.split()
    names = NAME_LIST.split(bare)  # "Leak, Tempers Flare, Accident": several names, one definition
    longest = max(len(n.split()) for n in names)
    if not words or len(bare) > 60 * len(names) or longest > (5 if plain else 8) or len(names) > 8:
        return False
    lowered = bare.lower()
    if lowered in NOT_TERMS and not (in_glossary and lowered in LEAD_INS) or POINTERS.match(bare) or lowered in LABELS:
        return False
    if NUMBERED_LABEL.match(bare) or bare.endswith(("?", "!")) or ORDINAL.match(bare) or EXAMPLE.search(bare):
        return False  # "Step 2", a question, "1. Setup", "Combat Example": a place in a sequence, a worked case
    if len(re.sub(r"[\W_]", "", bare)) < 2 or re.fullmatch(r"[IVX]+\.?", bare):  # "B", "C.", "II": labels
        return False
    if not plain and ": " in bare:  # "Loot: Jungle Spear": a label and what it labels
        return False
    if SENTENCE_INSIDE.search(bare) or not re.search(r"[^\W\d_]", bare):  # "V.A.T.S. Dice", "max. X" are names
        return False
    if PAGE_REFERENCE.search(bare) or bare.startswith("("):
        return False  # a contents line, an aside
    if plain:
        if words[0].lower() in FUNCTION_WORDS or not (bare[0].isupper() or bare[0].isdigit()):
            return False
        if '"' in bare or bare.count("(") != bare.count(")"):
            return False
    return True


def credit_line(text: str) -> bool:
    """ "Richard Garfield", "Brad Andres, Skaff Elias, and Nate French": people's names, not a definition."""
    text = strip_markup(text).strip().rstrip(".")
    if re.match(r"^(?:see|use|refer)\b", text, re.I):
        return False
    groups = [g for g in re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+with\s+|\s*&\s*", text) if g.strip()]
    if not groups or len(text.split()) > 40:
        return False
    return all(2 <= len(g.split()) <= 4 and all(NAME_WORD.match(w) for w in g.split()) for g in groups)


def line_list(raw: RawBlock, lines: list[str]) -> bool:
    """Several lines in one paragraph that each open with a label: a table set as lines, not a definition.
    A name with an aside over labelled lines ("**BRAKES** (*Cost: 2*)" over "Text: …") is a definition."""
    if len(raw.lines) < 2 or ALONE_ASIDE.match(lines[raw.lines[0] - 1].strip()):
        return False
    return all(re.match(r"^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)|^\s*[A-Z][^:]{0,30}:\s", lines[n - 1]) for n in raw.lines)


def glossary_lines(raw: RawBlock, lines: list[str]) -> list[RawBlock]:
    """A glossary set line under line with no blank line between its entries ("**Action:** …" then
    "**Build:** …"): one paragraph per line, when every line opens a definition and the names are in
    alphabetical order. Labels of a numbered series ("**Chains 1-6**: …") stay one paragraph."""
    if not line_list(raw, lines):
        return [raw]
    pieces = [RawBlock("para", strip_markup(lines[n - 1]), [n], raw=lines[n - 1]) for n in raw.lines]
    found = [definition(piece, lines) for piece in pieces]
    if not all(found) or not alphabetical([d.term for d in found if d], 3, strict=False):
        return [raw]
    return pieces


def definition(raw: RawBlock, lines: list[str], in_glossary: bool = False) -> Definition | None:
    """The definition a paragraph or list item opens, if it opens one (``in_glossary``: see ``term_like``)."""
    if raw.kind not in ("para", "bullet"):
        return None
    line, listed = _opening_line(raw)
    if line[:1] not in ("*", "_") and ":" not in line[:64]:
        return None  # neither emphasis nor a colon near the start: most paragraphs, quickly
    if line_list(raw, lines):
        return None
    patterns = (
        (INSIDE, "bold"), (AFTER, "bold"), (ASIDE, "bold"), (ALONE, "bold-alone"), (ALONE_ASIDE, "bold"),
        (RUNNING, "bold"), (CAPITALS, "bold"), (DEFINES, "bold"),
    )  # fmt: skip
    for pattern, style in (*patterns, (PLAIN, "plain")):
        match = pattern.match(line)
        if not match:
            continue
        if style == "bold" and match.group("m") in ("*", "_"):
            style = "italic"
        term = printed_name(match.group("term"))
        if not term_like(term, plain=style == "plain", in_glossary=in_glossary):
            return None
        rest = match.group("rest") if "rest" in pattern.groupindex else ""
        if pattern is INSIDE and not rest and emphasised_sentence(line, term):
            return None
        if pattern is ASIDE or pattern is ALONE_ASIDE:
            rest = f"{match.group('aside')} {rest}"  # "(previously earned as a bonus) Benefit of 2 points."
        if pattern is ALONE_ASIDE and len(raw.lines) < 2:
            style = "bold-alone"  # "- **Map Boards (2)** (printed on both sides)": a label and its aside
        if style == "plain" and credit_line(rest):
            return None
        return Definition(term, _text_after(raw, line, rest), style, listed)
    return None


def emphasised_sentence(line: str, term: str) -> bool:
    """ "*Draw two cards, then discard two cards.*": a whole line set in italics or bold that ends as a
    sentence ends (a card's text, flavour, a rule stressed) is not a name over its text; a short one
    ("**Passing.**") may be."""
    return bool(re.search(r"[.!]\s*(?:\*\*\*|\*\*|__|\*|_)\s*$", line)) and len(term.split()) > SHORT_RUN_IN


def printed_name(term: str) -> str:
    """A term as printed, without its emphasis, link ("[Active player](#active-player)") or escapes ("\\*")."""
    return re.sub(r"\\([*_\[\]#])", r"\1", strip_markup(unlink_anchors(term))).strip()


def _text_after(raw: RawBlock, first_line: str, rest: str) -> str:
    """The definition's text: the rest of the first line and the lines the block went on over."""
    first = strip_markup(first_line)
    text = raw.text
    tail = text[len(first) :].strip() if text.startswith(first) else ""
    return " ".join(p for p in (strip_markup(rest), tail) if p).strip()


def sort_key(name: str) -> str:
    """How a glossary orders a name: letters and digits only, case and accents ignored."""
    return re.sub(r"[^a-z0-9 ]", "", fold(name).lower().replace("/", " ")).strip()


def alphabetical(names: list[str], least: int = GLOSSARY_RUN, strict: bool = True) -> bool:
    """Names in alphabetical order. ``strict`` (no heading says Glossary, the order alone must tell): whole
    names compared, one step back allowed in every twelve. Otherwise (lines of a glossary already titled
    so) publishers' looser order: two first letters, one step back in six. Either way at least three
    first letters: "The Crab Clan", "The Crane Clan"... are chapters, not a glossary."""
    keys = [sort_key(n) if strict else sort_key(n)[:2] for n in names]
    if len(keys) < least or len({k[:1] for k in keys}) < 3:
        return False
    if sum(1 for n in names if re.search(r"\d", n)) * 3 > len(names):
        return False  # "Variant 1", "Variant 2"...: a numbered series, sorted by its numbers
    steps = list(zip(keys, keys[1:], strict=False))
    ascending = sum(1 for a, b in steps if a <= b)
    return ascending >= len(steps) - len(steps) // (12 if strict else 6)


GLOSSARY_TITLE = re.compile(
    r"^\W*glossary\b|\b(?:glossary|glossaries|definitions|terms|keywords|terminology|lexicon|index of terms)\W*$", re.I
)  # "Glossary", "Glossary of Terms", "Key Terms", "Icon Guide and Additional Terms"; not "Other Terms and Concepts"
VARIANT = re.compile(r"^(?P<base>.+?)\s+(?:plus|\+|ii|iii|advanced|improved|upgraded|greater)$", re.I)
QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def glossary_title(title: str) -> bool:
    """A heading that names a glossary as a whole ("Keywords", "Game Terms"), not one that mentions terms."""
    title = fold(strip_markup(title)).strip()
    return bool(GLOSSARY_TITLE.search(title)) and not credits_title(title)


def variant_of(name: str, base: str) -> bool:
    """ "Clash PLUS" of "Clash", "Blast Off Plus (Action)" of "Blast Off (Action)": a keyword's stronger form."""
    match = VARIANT.match(QUALIFIER.sub("", fold(name)).strip())
    return match is not None and sort_key(match["base"]) == sort_key(QUALIFIER.sub("", fold(base)))


NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    "|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final"
)
SERIAL_WORD = re.compile(rf"^(?:[a-z]?\d+[a-z]?|[a-z]|{NUMBER_WORDS})$")  # "2", "c1", "A01a", "B", "Two", "First"
NAME_FIELD = re.compile(r"^(?:[\w\u2019']+\s+){0,2}?(?:name|title)\b", re.I)  # "Hero's Name, Race…", "Title"
CLAUSE = re.compile(  # a lower-case finite verb after the first word: "Reactors produce Plutonium"
    r"^[^(\"\u201c]+?\s(?:is|are|was|were|has|have|had|can|cannot|can't|may|must|will|does|do|produces?|gives?"
    r"|gains?|takes?|gets?|costs?|scores?|moves?|becomes?|provides?|allows?|lets?|counts?|earns?|wins?|loses?"
    r"|returns?|requires?|needs?)\s+[^(]"
)
GERUND = re.compile(r"^[A-Za-z]{2,}ing$")
SECTION_WORDS = frozenset(
    {"setup", "set up", "gameplay", "game play", "goal", "goals", "scoring", "special rules", "ties", "overview",
     "end of the game", "game end", "winning", "how to win", "victory", "preparation", "components", "rules"}
)  # fmt: skip
CHAPTER_OPENERS = frozenset({"setup", "gameplay", "scoring", "preparation", "overview", "cleanup"})  # "Setup Changes"
# Where a thing is on a board or a card ("Front", "Back"; "Left column", "Top row"): the parts of a layout.
POSITION = re.compile(r"^(?:front|back|left|right|top|bottom|middle|center|centre|upper|lower)(?:\s+\w+)?$")


def serial_names(names: list[str]) -> bool:
    """ "Round One", "Round Two"; "First tiebreaker", "Second tiebreaker"; "Action A", "Action B"; "c1",
    "c2": places in a sequence told apart by a number or a letter, not the names of several things."""
    rests = set()
    for name in names:
        words = sort_key(name).split()
        if not any(SERIAL_WORD.match(w) for w in words):
            return False
        rests.add(" ".join(w for w in words if not SERIAL_WORD.match(w)))
    return len(names) >= 2 and len(rests) == 1


def look_up_names(names: list[str]) -> bool:
    """Whether the names of a definition list outside any glossary name things a player looks up. Not a
    card's anatomy (its callouts name a name or title field: "Hero's Name", "Title", "Cost"), a numbered
    series, the parts of a layout ("Front", "Back"), or chapters set in bold ("Setup", "Gameplay", "Special
    Rules", "Advanced Variant")."""
    if any(NAME_FIELD.match(n) for n in names) or serial_names(names) or procedures(names) or clauses(names):
        return False
    if all(POSITION.match(sort_key(n)) for n in names):
        return False
    chapters = sum(1 for n in names if chapter_name(sort_key(n)))
    return chapters * 2 < len(names)


def chapter_name(key: str) -> bool:
    """ "Setup", "Gameplay Adjustments", "Cleanup Phase", "Solo Variant": a chapter set in bold, not a thing."""
    return key in SECTION_WORDS or key.endswith(" variant") or key.split()[0] in CHAPTER_OPENERS


def procedures(names: list[str]) -> bool:
    """ "Hiring workers", "Firing workers"; "Building a new factory", "Closing down a factory": most names
    are things to do, put as gerunds, not things to look up (a single word such as "Building" may be a
    noun; "Starting Player" stands among nouns)."""
    doing = sum(1 for n in names if len(words := n.split()) >= 2 and GERUND.match(words[0]))
    return doing * 2 > len(names)


def clauses(names: list[str]) -> bool:
    """ "Mines produce Yellowcake", "Suicide is illegal", "If a Curse is on the space": most names are said as
    clauses, a subject and its verb (a lower-case copula, modal or verb of play inside the name), not things
    to look up ("The Gift of Speed", "Has Been Revealed" as a title stand among names)."""
    said = sum(1 for n in names if CLAUSE.search(strip_markup(n)))
    return said * 2 > len(names)


def credits_title(title: str) -> bool:
    return bool(CREDIT_TITLES.search(title))


def document_part(title: str) -> bool:
    """A heading of the document's furniture (contents, components, credits), never a glossary entry."""
    return bool(DOCUMENT_PARTS.match(fold(strip_markup(title)).strip()))
