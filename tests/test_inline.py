"""Texts prepared at build time (graph/inline.py) show exactly what rendering them afresh would show,
at every version: the links a version allows are picked from mentions found once for all versions."""

from __future__ import annotations

import pytest

from rulings.graph.inline import loads, prepare_block
from rulings.graph.mentions import Linker, Target, game_linker
from rulings.text import is_all_caps
from rulings.web.render import Links, assemble


def links(linker: Linker, self_slug: str | None = None) -> Links:
    return Links(linker, lambda target: f"/t/{target.slug}", self_slug, lambda number: f"/r/{number}")


def test_a_linker_picks_from_the_candidates_of_a_wider_linker_what_it_finds_itself():
    wide = Linker([(name, Target(name.lower().replace(" ", "-"), None, name)) for name in
                   ("Villain", "Villain Phase", "Phase", "Main Scheme", "Scheme", "Attack")])  # fmt: skip
    narrow = Linker([(name, Target(name.lower(), None, name)) for name in ("Villain", "Phase", "Scheme")])
    text = "During the villain phase, the main scheme and each SCHEME's attacks: villain-phase, villain/phase."
    candidates = wide.candidates(text)
    assert narrow.pick(text, candidates) == narrow.find(text)
    assert wide.pick(text, candidates) == wide.find(text)
    assert [text[m.start : m.end] for m in narrow.find(text)] == ["villain", "phase", "scheme", "SCHEME"]
    assert [text[m.start : m.end] for m in wide.find(text)] == [
        "villain phase", "main scheme", "SCHEME", "attacks", "villain-phase", "villain/phase"
    ]  # fmt: skip


@pytest.fixture(scope="module")
def versions_and_blocks(store):
    """Every game's versions and every block of every revision, with whether its revision is ALL CAPS."""
    out = []
    for game in store.games():
        ordinals = [v.ordinal for v in store.versions(game)]
        revisions = store.q(
            "SELECT r.id, r.text FROM revisions r JOIN terms t ON t.id = r.term_id WHERE t.game_id = ?", game.id
        )
        blocks = store.blocks_of([rid for rid, _ in revisions])
        caps = {rid: is_all_caps(text[:400]) for rid, text in revisions}
        out.append((game, ordinals, [(b, caps[b.revision_id]) for rid in blocks for b in blocks[rid]]))
    return out


def test_every_block_shows_at_every_version_what_rendering_it_afresh_shows(store, versions_and_blocks):
    compared = 0
    for game, ordinals, blocks in versions_and_blocks:
        for ordinal in ordinals:
            linker = game_linker(store.conn, game.id, ordinal)
            for block, _ in blocks:
                value, stored = loads([block.inline])[0]
                fresh_value, fresh = prepare_block(block.text, block.kind, linker)
                assert value == fresh_value
                for own, afresh in zip(stored, fresh, strict=True):
                    assert assemble(own, links(linker, "guard")) == assemble(afresh, links(linker, "guard"))
                    compared += 1
    assert compared > 8_000  # paragraphs x versions


def test_all_caps_sources_are_prepared_in_sentence_case_too(versions_and_blocks):
    for _, _, blocks in versions_and_blocks:
        for block, caps in blocks:
            assert (block.inline_cased is not None) == caps
            if caps:
                shown = "".join(p if isinstance(p, str) else p[0] for p in loads([block.inline_cased])[0][1][0])
                assert not is_all_caps(shown) or len(shown) < 12, shown
    assert any(caps for _, _, blocks in versions_and_blocks for _, caps in blocks)


def test_links_inside_markdown_links_and_markup_are_kept_apart():
    linker = Linker([("Guard", Target("guard", None, "Guard")), ("Defend", Target("defend", None, "Defend"))])
    value, [pieces] = prepare_block("**Guard** lets you [defend](https://example.org) & guard.", "para", linker)
    assert value is None
    html = assemble(pieces, links(linker))
    assert html == (
        '<strong><a href="/t/guard" class="term" data-term="guard">Guard</a></strong> lets you '
        '<a href="https://example.org">defend</a> &amp; guard.'
    )
    assert (
        assemble(pieces, None)
        == '<strong>Guard</strong> lets you <a href="https://example.org">defend</a> &amp; guard.'
    )
    step_value, [step] = prepare_block("3. Draw a card (see rule 702.19).", "step", linker)
    assert (
        step_value == "3"
        and assemble(step, links(linker)) == 'Draw a card (see rule <a href="/r/702.19" class="term">702.19</a>).'
    )
