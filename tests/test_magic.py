"""Magic: The Gathering's seven Comprehensive Rules editions, each a complete snapshot of numbered rules.

Every numbered rule of every edition is checked against the published document read independently
here; formatting-only differences between editions are never reported as changes.
"""

from __future__ import annotations

import re

import pytest

from rulings.graph import answers, compare, rules
from rulings.ingest.source import decode
from rulings.text import comparable

from .conftest import MAGIC_DOCS, MAGIC_EDITIONS

pytestmark = pytest.mark.needs_shared  # the seven editions live in ../shared, never in the repository
GAME = "magic-the-gathering"
RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.?\s*(.*)$")
HEADING = re.compile(r"^\d{1,3}\.\s+\S")


def published_rules(path) -> dict[str, str]:
    """Every numbered rule of one published edition, read independently of the parser: a line that
    starts with a rule number, and the lines under it ("Example: ...") up to the next number or heading."""
    text, _ = decode(path.read_bytes(), path.name)
    lines = [line.strip() for line in re.split(r"\r\n|\r|\n", text) if line.strip()]
    body = lines[: len(lines) - lines[::-1].index("Glossary") - 1]  # the rules end where the glossary starts
    out: dict[str, list[str]] = {}
    current = None
    for line in body:
        match = RULE.match(line)
        if match:
            current = match.group(1)
            out[current] = [match.group(2)]
        elif HEADING.match(line):
            current = None
        elif current is not None:
            out[current].append(line)
    return {number: "\n\n".join(parts) for number, parts in out.items()}


def editions(store):
    game = store.game(GAME)
    return game, store.versions(game)


def test_every_numbered_rule_of_every_edition_is_the_published_text(magic_store):
    game, versions = editions(magic_store)
    documents = [MAGIC_DOCS / file for file in MAGIC_EDITIONS]
    assert [v.label for v in versions] == [p.name[20:30] for p in documents]
    numbered = [t for t in magic_store.terms(game, ("section", "rule")) if t.kind == "rule"]
    checked = 0
    for version, document in zip(versions, documents, strict=True):
        published = published_rules(document)
        stored = {}
        for term in numbered:
            revision, _ = answers.in_force(magic_store.revisions(term), version.ordinal)
            stored.update(rules.numbered_texts(magic_store, term, revision))
        assert stored.keys() == published.keys(), version.label
        for number, text in published.items():
            assert comparable(stored[number]) == comparable(text), (version.label, number)
        checked += len(published)
    assert checked > 17000  # about 2,600 numbers an edition


def test_a_subrule_as_in_force_on_a_date(magic_cli):
    data, code = magic_cli.json("applies", GAME, "702.19b", "--date", "2021-06-01")
    assert code == 0 and data["status"] == "ok"
    published = published_rules(MAGIC_DOCS / "comprehensive-rules-2021-02-02.txt")["702.19b"]
    assert comparable(data["text"]) == comparable(published)
    assert data["in_force"] == "2021-02-02" and data["url"] == f"/{GAME}/v/2021-02-02/rules/702.19b"
    assert (data["version"], data["superseded_by"]["version"]) == ("2020-04-17", "2023-04-14")  # when it changed
    before = published_rules(MAGIC_DOCS / "comprehensive-rules-2020-01-22.txt")["702.19b"]
    assert "any remaining damage" in before and "any excess damage" in data["text"]


def test_a_subrule_diffs_by_its_number(magic_cli):
    data, code = magic_cli.json("diff", GAME, "702.19b", "2020-01-22", "2021-02-02")
    assert code == 0 and data["changed"] is True and data["to_revision"] == "2020-04-17"
    deleted = "".join(op["text"] for op in data["ops"] if op["op"] == "delete")
    inserted = "".join(op["text"] for op in data["ops"] if op["op"] == "insert")
    assert "remaining" in deleted and "excess" in inserted
    same, _ = magic_cli.json("diff", GAME, "702.19b", "2020-04-17", "2022-11-18")
    assert same["changed"] is False


def alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def test_changes_of_the_companion_era_are_real_changes_only(magic_store):
    game, versions = editions(magic_store)
    report = compare.changes(magic_store, GAME, "2020-01-22", "2020-06-01")
    added = {r["number"]: r for r in report["rules"]["added"]}
    assert added["702.138"]["name"] == "Companion" and "702.138c" in added["702.138"]["text"]
    changed = {r["number"]: r for r in report["rules"]["changed"]}
    special = changed["116.2"]["subrules"]  # the {3} special action: inserted as 116.2g, the old 116.2g re-lettered
    assert special["added"] == ["116.2g"] and ["116.2g", "116.2h"] in special["moved"] and not special["changed"]
    assert "103.1b" in changed["103.1"]["subrules"]["added"]
    assert "Companion" in report["added"]
    by_label = {v.label: v for v in versions}
    old = published_rules(MAGIC_DOCS / "comprehensive-rules-2020-01-22.txt")
    new = published_rules(MAGIC_DOCS / "comprehensive-rules-2020-06-01.txt")
    for rule in changed.values():
        for number in rule["subrules"]["changed"]:
            assert number not in old or alnum(old[number]) != alnum(new[number]), number
    assert old["706.2"] != new["706.2"] and alnum(old["706.2"]) == alnum(new["706.2"])  # quotes only
    assert "706.2" not in changed
    later = compare.changes(magic_store, GAME, "2020-04-17", "2020-06-01")
    subrules = {n for r in later["rules"]["changed"] for n in r["subrules"]["changed"]}
    assert {"702.138a", "702.138c"} <= subrules
    assert "116.2g" in {n for r in later["rules"]["changed"] for n in r["subrules"]["added"]}
    assert by_label["2020-06-01"].ordinal > by_label["2020-04-17"].ordinal


def test_glossary_entries_link_the_rules_they_cite(magic_store, magic_client):
    html = magic_client.get(f"/{GAME}/v/2021-02-02/terms/trample").get_data(as_text=True)
    assert "See rule" in html and f'href="/{GAME}/v/2021-02-02/rules/702.19"' in html
    rule = magic_client.get(f"/{GAME}/rules/702.19").get_data(as_text=True)
    assert "Referenced by" in rule and f'href="/{GAME}/terms/trample"' in rule


@pytest.mark.parametrize(
    "url,status,phrase",
    [
        (f"/{GAME}/rules/702.19b", 200, 'id="702.19b"'),
        (f"/{GAME}/v/2021-02-02/rules/702.19b", 200, "any excess damage"),
        (f"/{GAME}/v/2020-01-22/rules/702.19b", 200, "any remaining damage"),
        (f"/{GAME}/v/2021-06-01/rules/702.19b", 302, ""),  # a date, not a label: the version in force then
        (f"/{GAME}/rules/702", 200, "702.19. Trample"),
        (f"/{GAME}/rules/7", 200, "702. Keyword Abilities"),
        (f"/{GAME}/rules/702.19z", 404, "Nearby: 702.19"),
        (f"/{GAME}/v/2020-01-22/rules/702.138", 404, "introduced in 2020-04-17"),
        (f"/{GAME}/v/2021-02-02/", 200, f'href="/{GAME}/v/2021-02-02/read/702#702"'),  # contents: read a page at a time
        (f"/{GAME}/v/2021-02-02/read/702", 200, 'id="702.19b"'),
    ],
)
def test_rule_urls(magic_client, url, status, phrase):
    response = magic_client.get(url)
    assert response.status_code == status, url
    html = response.get_data(as_text=True)
    assert phrase in html or phrase in re.sub(r"<[^>]+>", "", html), url


@pytest.mark.parametrize("typed", ["what happens", "am I allowed"])
def test_a_question_of_common_words_only_is_answered_with_magic_loaded(magic_client, typed):
    """With Magic's large texts every word of these is common: the search still answers (it divided by zero)."""
    assert magic_client.get(f"/api/search?q={typed}&partial=1").status_code == 200


def test_rules_in_the_api(magic_client):
    rule = magic_client.get(f"/api/{GAME}/v/2021-02-02/rules/702.19b").get_json()
    assert (rule["number"], rule["version"], rule["name"]) == ("702.19b", "2020-04-17", "Trample")
    assert [b["anchor"] for b in rule["parts"][0]["blocks"]][:2] == ["702.19a", "702.19b"]
    page = magic_client.get(f"/api/{GAME}/v/2021-02-02/?offset=200&limit=50").get_json()
    assert page["offset"] == 200 and len(page["parts"]) == 50 and page["total"] > 1700
    assert page["next"].endswith("offset=250&limit=50")
