"""Blocks cut mid-sentence are joined with their continuation, in time linear in the text."""

from rulings.ingest.model import Block
from rulings.ingest.parsers import common
from rulings.ingest.parsers.common import mend_broken_blocks


def _texts(blocks):
    return [b.text for b in mend_broken_blocks([Block(t, n, "para") for n, t in enumerate(blocks, 1)])]


def test_a_cut_sentence_is_joined_with_its_continuation_only():
    assert _texts(["When a player draws a", "card, they keep it.", "Then play passes."]) == [
        "When a player draws a card, they keep it.",
        "Then play passes.",
    ]
    assert _texts(["A whole sentence.", "lower-case but after a full stop"]) == [
        "A whole sentence.",
        "lower-case but after a full stop",
    ]
    assert _texts(["no full stop here", "and here", "nor here", "Capital starts anew", "then"]) == [
        "no full stop here and here nor here",
        "Capital starts anew then",
    ]


def test_a_long_run_of_unpunctuated_lines_is_read_once(monkeypatch):
    """A word list of lower-case lines without punctuation (1.2 MB took 114 s): each line is asked whether it
    ends a sentence once, never the text joined so far (characters read count, not time)."""
    read = []

    def counting(text: str) -> bool:
        read.append(len(text))
        return ends_sentence(text)

    ends_sentence = common.ends_sentence
    monkeypatch.setattr(common, "ends_sentence", counting)
    lines = [f"item number {n} of a long list" for n in range(3000)]
    mended = _texts(lines)
    assert mended == [" ".join(lines)]
    assert sum(read) <= 2 * sum(len(line) for line in lines)
