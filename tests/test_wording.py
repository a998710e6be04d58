"""What pages say a revision did (rulings/web/wording.py), for a revision row and for an answer about one."""

import dataclasses

import pytest

from rulings.graph.rows import RevisionRow
from rulings.web.wording import change_words, revision_line

ROW = RevisionRow(1, 1, "1.4", "2021-04-21", 3, "Dash", "text", "amended", True, {}, [], [], [])


def revision(**changes) -> RevisionRow:
    return dataclasses.replace(ROW, **changes)


@pytest.mark.parametrize(
    ("change", "inferred", "words"),
    [
        ("introduced", False, "added in 1.4"),
        ("introduced", True, "added at the latest in 1.4"),
        ("amended", False, "amended in 1.4"),
        ("replaced", True, "rewritten at the latest in 1.4"),
        ("patched", True, "changed in 1.4 by a patch"),
        ("reworked", False, "reworked in 1.4 (the changelog says the whole section was reworked)"),
        ("removed", False, "removed in 1.4"),
        ("renamed", False, "renamed in 1.4"),
    ],
)
def test_change_words(change, inferred, words):
    assert change_words(revision(change=change, inferred=inferred), " in 1.4") == words


def test_partly_known_text_says_so():
    assert change_words(revision(complete=False)) == "amended; exact wording partly unknown"


def test_version_line_is_a_sentence_and_reads_answers_alike():
    row = revision(change="replaced")
    assert revision_line(row) == "Rewritten in 1.4 (2021-04-21)."
    answer = {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}  # as the API answers it
    assert revision_line(answer) == revision_line(row)
    assert revision_line(revision(date=None)) == "Amended in 1.4."


def test_unversioned_game_says_nothing_of_versions():
    assert revision_line(ROW, versioned=False) == ""
    assert revision_line(revision(complete=False), versioned=False) == "Exact wording partly unknown."


def test_term_page_timeline(client):
    page = client.get("/marvel-champions/v/1.2/terms/dash").get_data(as_text=True)
    assert '<p class="meta">Amended in 1.2 (2020-02-25); exact wording partly unknown.' in page  # assembled
    assert "<time>2021-04-21</time>: rewritten" in page
    assert 'href="/marvel-champions/terms/dash/diff/1.2..1.4">diff</a>' in page
    history = client.get("/marvel-champions/terms/dash/history").get_data(as_text=True)
    assert (
        '<p class="meta">Amended; exact wording partly unknown; superseded in 1.4.' in history
        and '<p class="meta">Rewritten.' in history
    )
    assert 'href="/marvel-champions/terms/dash/diff/1.0..1.2">Diff from 1.0</a>' in history
