"""Text rules every layer shares: names, slugs, casing, word comparison and the word lists.

The bottom of the package: the parsers, the graph, the index and the site all import it, and it
imports nothing of theirs. Kept free of any document-family knowledge.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

# -- vocabulary: the one place word lists live -------------------------------------------
# Words a title keeps in lower case ("In Play and Out of Play").
SMALL_WORDS = frozenset(
    """
    a an the and or of to in on for from by with into as at vs vs. per nor but
    """.split()
)
# Words a cut line can end on ("...trigger when a"), and that are never worth linking on their own.
FUNCTION_WORDS = frozenset(
    """
    a an the to of or and by with for in on at from that this is are be was were may can will would its
    their your his her than when if as more into not no which who any each all
    """.split()
)
# Labels that open a paragraph ("Note: ...", "Q: ...", "See also: ...") and are never glossary terms.
NOT_TERMS = frozenset(
    {"note", "example", "examples", "for example", "exception", "important", "tip", "step", "q", "a", "question",
     "answer", "see", "see also", "and", "or", "but", "if", "when", "then", "additionally", "however", "otherwise",
     "therefore", "remember", "reminder", "hint", "hints", "tips", "warning", "caution", "clarification",
     "please note", "nb", "n.b", "notes", "general notes"}
)  # fmt: skip
# Upper-case words that stay upper case in a title.
ACRONYMS = frozenset(
    """
    ATK THW DEF REC SCH HP XP KO OK FAQ AKA USA UK TV RPG EU PDF II III IV VI VII VIII IX XI X
    """.split()
)
_VOWELS = set("AEIOUY")

# A sub-definition written on one line: "Guard \u2014 While ...".
SUBDEF_PLAIN = re.compile(r"^([A-Z][\w'\-/ ()\u201c\u201d\"]{1,40}?)\s+[\u2014\u2013]\s+(\S.*)$")

QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
    }
)
# Letters Unicode does not decompose into a base letter and a mark (NFKD leaves them whole).
LETTERS = str.maketrans(
    {
        "\u00c6": "AE", "\u00e6": "ae", "\u0152": "OE", "\u0153": "oe", "\u00d8": "O", "\u00f8": "o",
        "\u00df": "ss", "\u1e9e": "SS", "\u0141": "L", "\u0142": "l", "\u0110": "D", "\u0111": "d",
        "\u00d0": "D", "\u00f0": "d", "\u00de": "Th", "\u00fe": "th", "\u0131": "i", "\u0126": "H",
        "\u0127": "h", "\u0166": "T", "\u0167": "t", "\u014a": "N", "\u014b": "n",
    }
)  # fmt: skip


def _replacer(table: dict[int, str]):
    """``text.translate(table)`` for a table of a few characters: a regular expression finds them, and
    only they are looked up, where ``str.translate`` looks up every character of the text (ten times as
    long on a paragraph of a rulebook)."""
    chars = {chr(code): to for code, to in table.items()}
    found = re.compile("[" + "".join(re.escape(c) for c in chars) + "]")
    return lambda text: found.sub(lambda match: chars[match.group()], text)


_STRAIGHTEN = _replacer(QUOTES)
_SPELL_OUT = _replacer(LETTERS)


def straightened(text: str) -> str:
    """Quotes, apostrophes and dashes straightened, character for character (same length).

    An ASCII text has none of them: it is returned as it is."""
    return text if text.isascii() else _STRAIGHTEN(text)


def fold(text: str) -> str:
    """The comparison form of a text, never for display: quotes, apostrophes and dashes straightened,
    accents dropped, ligatures and letters such as \u00c6 spelled out ("\u00c6mber" -> "AEmber")."""
    text = straightened(text)
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKD", _SPELL_OUT(text))
    return "".join(c for c in text if not unicodedata.combining(c))


_SIGNED_PLUS = re.compile(r"(?<![a-z0-9])\+(?=\d)")
_SIGNED_MINUS = re.compile(r"(?<![a-z0-9])-(?=\d)")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """A URL slug that is the same for the same name on every build."""
    text = fold(text).lower()
    text = _SIGNED_PLUS.sub("plus", text)
    text = _SIGNED_MINUS.sub("minus", text)
    text = _NOT_SLUG.sub("-", text).strip("-")
    return text or "untitled"


_LATEX_LETTER = re.compile(r"\$\\[a-z]+\{\\[a-z]+\{(\w)\}\}\\xspace\$")  # $\ensuremath{\mathbf{Q}}\xspace$
_LATEX = re.compile(r"\$([^$]*)\$")
_LATEX_EMPTY = re.compile(r"\\\(\s*\\\)")
_UNDERLINE = re.compile(r"</?u>")
_HEADING_MARK = re.compile(r"^\s*#+\s*")
_BLANKS = re.compile(r"[ \t]+")


def strip_markup(text: str, keep_strong: bool = False) -> str:
    """Remove markdown emphasis/heading marks and OCR'd LaTeX from a line (each looked for only when
    its mark is there: every line of every document passes here). ``keep_strong``: paired ``**`` stay."""
    if "$" in text:
        text = _LATEX.sub(r"\1", _LATEX_LETTER.sub(r"\1:", text))
    if "\\(" in text:
        text = _LATEX_EMPTY.sub("", text)
    if "<" in text:
        text = _UNDERLINE.sub("", text)
    if "**" in text and not (keep_strong and text.count("**") % 2 == 0):
        text = text.replace("**", "")
    text = text.replace("__", "")
    if "#" in text:
        text = _HEADING_MARK.sub("", text)
    return _BLANKS.sub(" ", text).strip()


_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_AUTOLINK = re.compile(r"<(https?://[^>]+)>")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?![\w*])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!])")
_LIST_MARKER = re.compile(r"(?m)^[ \t]*(?:[-*+\u2022\u00b7]|\d{1,2}[.)])[ \t]+")


def comparable(text: str) -> str:
    """The form two texts are compared in: texts with equal forms are the same text.

    Texts that differ only in formatting are the same text, so a new edition that re-typesets a rule
    makes no new revision and no reported change: Markdown emphasis and links are stripped, curly
    quotes, apostrophes and dashes folded (double quotes dropped: whether a phrase is quoted is
    typography), bullet glyphs and list markers removed, and whitespace, line wraps and paragraph
    breaks collapsed. Words, case and all other punctuation count.
    """
    text = _AUTOLINK.sub(r"\1", _LINK.sub(r"\1", text or ""))
    text = _EMPHASIS.sub(r"\1", text.replace("**", "").replace("__", ""))
    text = _LIST_MARKER.sub("", _ESCAPE.sub(r"\1", fold(text)))
    text = text.replace('"', "").replace("\u2022", " ").replace("\u00b7", " ")
    return " ".join(text.split())


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """Identity key for a term name: case, quotes, punctuation and plurals ignored."""
    words = re.findall(r"[a-z0-9]+", fold(name).lower().replace("'s", ""))
    return " ".join(_singular(w) for w in words)


def heading_key(name: str) -> str:
    """A name as printed, for "the same heading": case, quotes and punctuation set aside, plurals not
    ("Player Deck" and "Player Decks" are two headings; ``name_key`` makes them one name)."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(name).lower()))


def clean_name(name: str) -> str:
    """Drop symbol-only parentheses OCR left in names ("PER PLAYER(\u2663)")."""
    name = re.sub(r"\(\s*[^\w\s]*\s*\)", "", name)
    return re.sub(r"\s+", " ", name).strip(" .:")


def split_qualifier(name: str) -> tuple[str, str | None]:
    """``Keywords (Uses)`` -> ("Keywords", "Uses"); a name without a final parenthesis -> (name, None)."""
    match = re.fullmatch(r"(.+?)\s*\(([^)]+)\)", name.strip())
    return (match.group(1), match.group(2)) if match else (name, None)


def base_key(name: str) -> str:
    """Looser key: also drops parenthetical qualifiers and trailing variables (Retaliate X)."""
    name = re.sub(r"\([^)]*\)", " ", fold(name))
    name = re.sub(r"\s+[XY]\b", " ", name, flags=re.I)
    return name_key(name)


def is_all_caps(text: str) -> bool:
    letters = list(filter(str.isalpha, text))
    return len(letters) >= 2 and sum(map(str.isupper, letters)) / len(letters) > 0.9


def _cap_word(word: str, first: bool) -> str:
    core = "".join(c for c in word if c.isalpha())
    abbreviation = word.endswith(".") and len(core) <= 3
    if core.upper() in ACRONYMS or (
        len(core) > 1 and core.isupper() and not (set(fold(core)) & _VOWELS) and not abbreviation
    ):
        return word
    lower = word.lower()
    if not first and lower in SMALL_WORDS:
        return lower
    # Capitalise each hyphen/slash/period separated part (ALL-PURPOSE -> All-Purpose); what follows an
    # apostrophe stays lower case (PLAYER’S -> Player’s).
    return re.sub(r"[^\W\d_](?:[^\W\d_]|['\u2019])*", lambda m: m.group(0)[0].upper() + m.group(0)[1:], lower)


def title_case(text: str) -> str:
    """Display form of an ALL CAPS heading: "IN PLAY AND OUT OF PLAY" -> "In Play and Out of Play"."""
    if not is_all_caps(text):
        return text
    words = text.split()
    return " ".join(_cap_word(w, i == 0 or words[i - 1].endswith((":", "(", "-"))) for i, w in enumerate(words))


def split_names(heading: str) -> list[str]:
    """Names in a multi-name heading: "DEFEND, DEFENSE" / "SUSTAINED DAMAGE; DAMAGE SUSTAINED"."""
    parts = [p.strip() for p in re.split(r"\s*[,;]\s*", heading) if p.strip()]
    return parts or [heading.strip()]


QUOTED = re.compile(r"[\"\u201c\u201d]([^\"\u201c\u201d]+)[\"\u201c\u201d]")
WORD_FORM = re.compile(r"^the\s+(?:word|words|term|terms|keyword|keywords|phrase|phrases)\s+(?=[\"\u201c])", re.I)
# A printed copy count is not part of a name: "20× Walls", "Aluminum Factory (2x)".
COPY_COUNT = re.compile(r"^\d+\s*[x×]\s+(?=[A-Z])|\s*\((?:\d+\s*[x×]|[x×]\s*\d+)\)$", re.I)
# Nor is a page reference: "Advanced Skill (p. 19)", "ANIMALS Action (page 11-13)", "Block (see p. 18)".
PAGE_ASIDE = re.compile(r"\s*\((?:see\s+)?(?:p|pp|pg|pgs|page|pages)\.?\s*\d+(?:\s*[-–,&]\s*\d+)*\)$", re.I)
ABBREVIATED = re.compile(r"^(.+?)\s*\(([A-Z][A-Z0-9&.]{1,7})\)$")
_SEPARATOR = re.compile(r"\s*[,;]\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+(?=[\"\u201c])")


def _split_outside(text: str) -> list[str]:
    """Split at commas, semicolons (and "and" before a quote), never inside parentheses or quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for match in _SEPARATOR.finditer(text):
        head = text[start : match.start()]
        depth = head.count("(") - head.count(")")
        quoted = len(QUOTED.sub("", fold(head)).split('"')) % 2 == 0
        if depth <= 0 and not quoted:
            parts.append(head)
            start = match.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _is_abbreviation(name: str, letters: str) -> bool:
    """ "VP" for "Victory Points": the letters start the name and follow in its order."""
    name, letters = fold(name).lower(), re.sub(r"[^a-z0-9]", "", fold(letters).lower())
    if len(letters) < 2 or not name.startswith(letters[0]):
        return False
    at = 0
    for letter in letters:
        at = name.find(letter, at) + 1
        if at == 0:
            return False
    return True


def _sides(name: str) -> list[str]:
    """ "Exhaust / Exhausted" -> both sides; "+1/+1", "1/2" and "Accuracy (Weapon/Attack Profile)" stay whole."""
    sides = [s.strip() for s in re.split(r"\s*/\s*", name)] if "/" in name and "(" not in name else [name]
    return sides if len(sides) > 1 and all(re.search(r"[^\W\d_]{2}", s) for s in sides) else [name]


def _and_abbreviation(name: str) -> list[str]:
    """ "Victory Points (VP)" -> the name and its abbreviation; a qualifier ("Assault (X)") stays."""
    match = ABBREVIATED.match(name)
    if match and _is_abbreviation(match.group(1), match.group(2)):
        return [match.group(1).strip(), match.group(2)]
    return [name]


def term_names(heading: str) -> list[str]:
    """Every name a glossary heading gives its term, the one to show first.

    "Ability, Card Ability" and "A; B" name each part; "Exhaust / Exhausted" each side; "Victory
    Points (VP)" the name and its abbreviation; '"If You Do" and "In Order To"' and 'The word "may"'
    what the quotes hold; "20× Walls", "Biolab (2x)" and "Draw (p. 12)" the name without its copy count
    or page. Qualifiers ("Attack (Enemy Activation)", "Assault (X)") are part of a name.
    """
    heading = re.sub(r"\s+", " ", heading).strip().rstrip(":").strip()
    heading = PAGE_ASIDE.sub("", COPY_COUNT.sub("", WORD_FORM.sub("", heading))) or heading
    out: list[str] = []
    for part in _split_outside(heading):
        quoted = QUOTED.fullmatch(part)
        for side in _sides(quoted.group(1).strip() if quoted else part):
            for name in _and_abbreviation(side):
                name = name.strip(" .,;:")
                if name and quoted:
                    name = name[0].upper() + name[1:]  # 'The word "may"' is the term May
                if name and name not in out:
                    out.append(name)
    return out or [heading]


def vocabulary(lines: Iterable[str]) -> set[str]:
    """Lower-case words seen in running text, used to repair OCR'd headings."""
    words: dict[str, int] = {}
    for line in lines:
        for word in re.findall(r"[a-z]{2,}", fold(line).lower()):
            words[word] = words.get(word, 0) + 1
    return {w for w, n in words.items() if n >= 2}


def repair_run_together(word: str, vocab: set[str]) -> str:
    """Split a word OCR ran together ("STARICON") when both halves are known words."""
    lower = word.lower()
    if len(lower) < 6 or not lower.isalpha() or lower in vocab:
        return word
    for cut in range(3, len(lower) - 2):
        left, right = lower[:cut], lower[cut:]
        if left in vocab and right in vocab:
            return f"{word[:cut]} {word[cut:]}"
    return word


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text).lower())


def similarity(a: str, b: str) -> float:
    """Word-sequence similarity in [0, 1] (difflib ratio over folded words)."""
    from difflib import SequenceMatcher

    wa, wb = words(a), words(b)
    if not wa or not wb:
        return 0.0
    return SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def containment(part: str, whole: str) -> float:
    """Share of ``part``'s words that appear, in order, inside ``whole``."""
    from difflib import SequenceMatcher

    wp, ww = words(part), words(whole)
    if not wp:
        return 0.0
    matcher = SequenceMatcher(None, wp, ww, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(wp)
