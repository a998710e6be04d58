"""Every edition of the Magic: The Gathering Comprehensive Rules since 2003 (the 86 in ../shared), parsed as the
build parses it, against a reading of each file written here independently of the parser.

The reading is deliberately plain: the file decoded by its byte-order mark (else UTF-8, else Windows-1252) and
split by Python's universal newlines; the numbered body is everything from the last chapter "1." heading before
the first rule line to the last "Glossary" line; the glossary runs from there to the "Credits" after it (to the
end of a file that was cut). The three hard-wrapped editions (README of ../shared/corpora) have each paragraph
broken over lines that end in a space or a broken word; every other edition prints a paragraph a line. Texts are
compared with their white space removed, so the wrapping is checked by the words and line numbers alone.
"""

from __future__ import annotations

import re
import tomllib
from collections import namedtuple
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.ingest.assemble import cut_manifest
from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source
from rulings.text import comparable, name_key

from .conftest import MAGIC_DOCS, MAGIC_MANIFEST

pytestmark = pytest.mark.needs_shared

MANIFEST_FILES = [doc["file"] for doc in tomllib.loads(MAGIC_MANIFEST.read_text("utf-8"))["documents"]]
HARD_WRAPPED = {
    "comprehensive-rules-2003-10-01.txt",
    "comprehensive-rules-2003-12-01.txt",
    "comprehensive-rules-2004-02-01.txt",
}
NUMBERED = re.compile(r"(\d{3})\. ?(\d+[a-z]*)\.?\s*(.*)")  # "100.1. Text", "100.1a Text", "901.4.All", "606. 8b"
HEADING = re.compile(r"(\d{1,3})\. (.+)")  # "1. Game Concepts", "702. Keyword Abilities"

Item = namedtuple("Item", "line number text")  # a numbered line of the body (its first line, if wrapped)


def squashed(text: str) -> str:
    return "".join(text.split())


def letters(text: str) -> str:
    return re.sub(r"\W", "", text)


def file_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        encoding = "utf-16"
    elif data[:3] == b"\xef\xbb\xbf":
        encoding = "utf-8-sig"
    else:
        try:
            data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = "cp1252"
    with open(path, encoding=encoding, errors="replace", newline=None) as handle:
        return [line.rstrip("\n") for line in handle]


def paragraphs(lines: list[str], first: int, wrapped: bool) -> list[tuple[int, str]]:
    """(line number, text) of each paragraph of ``lines`` (line ``first`` onwards): a line each, unless wrapped."""
    out: list[tuple[int, str]] = []
    previous = ""
    for number, line in enumerate(lines, first):
        opens = line[:1].isspace() or line.startswith("Example:")
        runs_on = previous.endswith(" ") or re.search(r"\S[-\u2013\u2014]$", previous)
        if wrapped and out and previous.strip() and line.strip() and runs_on and not opens:
            out[-1] = (out[-1][0], out[-1][1] + " " + line)
        elif line.strip():
            out.append((number, line.strip()))
        previous = line
    return out


class Reading:
    """One edition read without the parser: its headings, numbered lines and glossary."""

    def __init__(self, path: Path):
        self.lines = file_lines(path)
        wrapped = path.name in HARD_WRAPPED
        first_rule = next(i for i, line in enumerate(self.lines) if NUMBERED.fullmatch(line.strip()))
        body = max(i for i in range(first_rule) if self.lines[i].startswith("1. "))
        glossary = max(i for i, line in enumerate(self.lines) if line.strip() == "Glossary")
        credits = [i for i, line in enumerate(self.lines) if line.strip() == "Credits" and i > glossary]
        self.headings: list[tuple[str, str]] = []
        self.items: list[Item] = []
        for number, text in paragraphs(self.lines[body:glossary], body + 1, wrapped):
            if match := NUMBERED.fullmatch(text):
                self.items.append(Item(number, f"{match.group(1)}.{match.group(2)}", match.group(3)))
            elif match := HEADING.fullmatch(text):
                self.headings.append((match.group(1), text))
            elif self.items:  # "Example: …", or a numberless line such as "306.b …": the text of the line above
                self.items[-1] = self.items[-1]._replace(text=self.items[-1].text + " " + text)
        self.terms = self.read_glossary(glossary + 1, credits[0] if credits else len(self.lines))

    def read_glossary(self, start: int, end: int) -> list[tuple[int, str, str]]:
        """(line, term, definition) of each group of lines; an indented group, or a one-line title over one, goes on
        with the term above it (2003-03-15's list of expansion symbols)."""
        text = terms_set_apart("\n".join(self.lines[start:end]))
        groups = [g.strip("\n") for g in re.split(r"\n[ \t]*\n", text) if g.strip()]
        starts, at = [], start
        for group in groups:
            at = next(i for i in range(at, end) if self.lines[i] == group.split("\n")[0])
            starts.append(at + 1)
            at += group.count("\n") + 1
        terms: list[tuple[int, str, str]] = []
        for k, group in enumerate(groups):
            rows = group.split("\n")
            introduces = len(rows) == 1 and k + 1 < len(groups) and groups[k + 1][:1].isspace()
            if terms and (group[:1].isspace() or introduces):
                line, term, text = terms[-1]
                terms[-1] = (line, term, text + " " + group)
            else:
                terms.append((starts[k], rows[0].strip(), " ".join(rows[1:])))
        return terms


def terms_set_apart(glossary: str) -> str:
    """A glossary with a blank line above each term printed without one (2020-06-01: "…Companion.”" then
    "Concede"): a short capitalised line after a sentence's end, over its definition."""
    return re.sub(r"(?:(?<=\.)|(?<=\.[\"\u201d\u2019)]))\n(?=[A-Z][^\n.:;,\u201d)]{0,38}[^\W_]\n\S)", "\n\n", glossary)


EDITIONS = sorted(p.name for p in MAGIC_DOCS.glob("comprehensive-rules-*.txt")) if MAGIC_DOCS else []


def test_the_manifest_lists_every_edition_in_shared():
    assert len(EDITIONS) == 86
    assert sorted(MANIFEST_FILES) == EDITIONS


@pytest.fixture(scope="module", params=EDITIONS or [pytest.param(None, id="needs-shared")])
def edition(request):
    path = MAGIC_DOCS / request.param
    source = read_source(DocumentSpec("magic-the-gathering", path.name, path, "reference", "Comprehensive Rules"))
    return Reading(path), source, parse(source)


def test_read_whole_by_the_comprehensive_rules_parser(edition):
    reading, source, doc = edition
    assert doc.parser == "comprehensive-rules"
    assert source.lines[: len(reading.lines)] == reading.lines  # the same lines, numbered alike
    assert doc.uncovered(source.lines) == []


def test_every_chapter_and_section_with_its_own_name(edition):
    reading, _, doc = edition
    assert [(e.number, e.name) for e in doc.entries if e.kind == "section" and e.number] == reading.headings


def test_every_rule_and_subrule_number_with_its_own_text_and_line(edition):
    reading, _, doc = edition
    printed = [(item.line, item.number, squashed(item.text)) for item in reading.items]
    parsed = [(b.line, b.number, squashed(b.text)) for e in doc.entries for b in e.blocks if b.number]
    titled = [e for e in doc.entries if e.kind == "rule" and e.number not in {b.number for b in e.blocks}]
    parsed += [(e.line, e.number, squashed(e.name)) for e in titled]  # "702.19. Trample": the rule's name
    assert sorted(parsed) == printed
    rules = [item.number for item in reading.items if not item.number[-1].isalpha()]
    assert sorted(e.number for e in doc.entries if e.kind == "rule") == sorted(set(rules))


def test_every_glossary_entry_with_its_own_text(edition):
    reading, _, doc = edition
    entries = [e for e in doc.entries if e.kind == "entry"]
    assert [(e.line, e.name) for e in entries] == [(line, term) for line, term, _ in reading.terms]
    for entry, (_, _, text) in zip(entries, reading.terms, strict=True):
        if entry.blocks or not entry.redirect:
            assert squashed(entry.text) == squashed(text), entry.name
        else:  # "See Landwalk.": the entry refers elsewhere, its target kept apart from its (empty) text
            assert text.startswith("See ") and all(letters(t) in letters(text) for t in entry.redirect), entry.name


def test_the_counts_of_a_few_editions():
    """Known figures, so the independent reading cannot drift with the parser: distinct rule numbers and subrule
    lines as grep counts them in the body, glossary entries."""
    expected = {
        "2003-03-15": (259, 255, 211),
        "2003-10-01": (319, 367, 299),
        "2009-07-11": (648, 824, 408),
        "2013-02-01": (840, 1082, 31),
        "2023-04-14": (1090, 1752, 656),
    }
    for date, counts in expected.items():
        reading = Reading(MAGIC_DOCS / f"comprehensive-rules-{date}.txt")
        rules = {i.number for i in reading.items if not i.number[-1].isalpha()}
        subrules = [i for i in reading.items if i.number[-1].isalpha()]
        assert (len(rules), len(subrules), len(reading.terms)) == counts, date


def test_the_edition_cut_off_is_refused_unless_game_toml_says_so(tmp_path):
    """2013-02-01 ends in its glossary's 31st entry: without its incomplete = "…" the build names it and stops."""
    files = ["comprehensive-rules-2012-10-01.txt", "comprehensive-rules-2013-02-01.txt"]
    text = cut_manifest(MAGIC_MANIFEST.read_text("utf-8"), set(files))
    assert 'incomplete = "the file is cut off in the glossary' in text
    game = tmp_path / "corpus" / "magic-the-gathering"
    game.mkdir(parents=True)
    text = text.replace("[game]\n", f'[game]\nlinked_from = "{MAGIC_DOCS}"\n', 1)
    (game / "game.toml").write_text(re.sub(r"(?m)^incomplete = .*\n", "", text))
    for file in files:
        (game / file).symlink_to(MAGIC_DOCS / file)
    result = CliRunner().invoke(
        main, ["--corpus", str(tmp_path / "corpus"), "--store", str(tmp_path / "store"), "build"]
    )
    assert result.exit_code == 3
    assert (
        "corpus/magic-the-gathering/comprehensive-rules-2013-02-01.txt:4609: error: 31 glossary entries where "
        "Comprehensive Rules 2012-10-01 has 470"
    ) in result.output


# -- the whole history built: every number of every edition answers with that edition's own entry ----------
@pytest.fixture(scope="module")
def history_store(tmp_path_factory):
    """The 86-edition game built as `make corpus-magic` assembles it (the documents linked from ../shared)."""
    from rulings.build import build
    from rulings.builds import current_build
    from rulings.graph.store import Store
    from rulings.settings import Settings

    from .conftest import magic_corpus

    root = tmp_path_factory.mktemp("history")
    build(Settings.resolve(magic_corpus(root / "corpus", editions=None), root / "store"), progress=lambda _: None)
    return Store(current_build(root / "store"))


def same(text: str) -> str:
    return squashed(comparable(text))


def test_every_number_of_every_edition_answers_with_its_own_entry(history_store):
    """Through the built graph (the revisions in force at each version, as pages and answers read them): each
    edition's chapters and sections by number with their names, its rules and subrules with their texts, and
    every glossary entry it prints. Texts are compared as the versions model compares them (``comparable``):
    an edition that prints a rule again with other quotes keeps the earlier revision."""
    store = history_store
    game = store.game("magic-the-gathering")
    documents = tomllib.loads(MAGIC_MANIFEST.read_text("utf-8"))["documents"]
    labels = {doc["file"]: doc["version"] for doc in documents}
    cut = {doc["file"] for doc in documents if doc.get("incomplete")}  # its last line may be half an entry
    versions = {v.label: v for v in store.versions(game)}
    assert sorted(labels.values()) == sorted(versions)
    checked = 0
    for file, label in labels.items():
        reading = Reading(MAGIC_DOCS / file)
        contents = store.contents(versions[label])
        blocks = store.blocks_of([r.id for t, r in contents if t.kind == "rule"])
        headings, numbered = [], []
        for term, revision in contents:
            if term.kind == "section" and revision.number:
                headings.append((revision.number, same(revision.name)))
            elif term.kind == "rule":
                numbered += [(b.number, same(b.text)) for b in blocks[revision.id] if b.number]
                if revision.number not in {b.number for b in blocks[revision.id]}:
                    numbered.append((revision.number, same(revision.name)))  # "702.19. Trample"
        assert sorted(headings) == sorted((number, same(name)) for number, name in reading.headings), label
        assert sorted(numbered) == sorted((i.number, same(i.text)) for i in reading.items), label
        glossary = {name_key(r.name) for t, r in contents if t.kind == "entry"}
        printed = reading.terms[:-1] if file in cut else reading.terms
        assert {name_key(term) for _, term, _ in printed} <= glossary, label
        checked += len(numbered)
    assert checked > 150000
