"""Accessibility as a test: axe-core in Debian's Chromium on every page type, phone and desktop, light and dark.

axe-core is vendored (``tests/fixtures/axe-core``, MPL-2.0, from the npm registry): nothing is fetched when the
tests run. The page's Content-Security-Policy forbids injected scripts, so the browser context bypasses it for
axe alone (``bypass_csp``); the page's own script (``static/app.js``) runs as for a reader, so the controls it
adds (the ¶ menu buttons, previews) are checked too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import magic_corpus
from .server import running_server
from .test_browser import browser, server  # noqa: F401  (the shared Chromium and rulings serve)

AXE = Path(__file__).parent / "fixtures" / "axe-core" / "axe.min.js"
SIZES = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
}
THEMES = ("light", "dark")

# One page of each type the bundled corpus has (its state after a reader's usual first action, where one matters).
PAGES = {
    "home": "/",
    "game home": "/marvel-champions/",
    "term": "/marvel-champions/terms/enemy-attacks#p-if-a-villain-is",
    "pinned term": "/marvel-champions/v/1.1/terms/dash",
    "history": "/marvel-champions/terms/dash/history",
    "diff": "/marvel-champions/terms/dash/diff/1.1..1.4",
    "change report": "/marvel-champions/changes/1.3..1.4",
    "search": "/search?q=damage",
    "whole edition": "/marvel-champions/v/1.5/",
    "applies": "/marvel-champions/applies?term=dash&date=2020-03-01",
    "linkify": "/marvel-champions/link",
    "ruling": "/sentinels-of-the-multiverse/rulings/ra-flame-barrier",
    "card": "/marvel-champions/cards/pepper-potts",
    "not found": "/marvel-champions/terms/no-such-term",
}
# A numbered game's pages (Magic, two editions from ../shared): a targeted subrule, a rule's 404, its history and
# diff, the rules index, a change report of numbered rules.
MAGIC_PAGES = {
    "rule, a subrule targeted": "/magic-the-gathering/rules/702.19#702.19b",
    "pinned rule": "/magic-the-gathering/v/2020-01-22/rules/702.19",
    "rule not found": "/magic-the-gathering/rules/702.19z",
    "magic term": "/magic-the-gathering/terms/trample",
    "rules index": "/magic-the-gathering/rules",
    "rule history": "/magic-the-gathering/rules/702.19/history",
    "rule diff": "/magic-the-gathering/rules/702.19/diff/2020-01-22..2020-04-17",
    "numbered change report": "/magic-the-gathering/changes/2020-01-22..2020-04-17",
}


def violations(browser, url: str, size: str, theme: str, open_details: bool = False) -> list[str]:  # noqa: F811
    """axe-core's violations on ``url`` (WCAG 2.x A/AA and best practices), one line each: rule, node, summary."""
    context = browser.new_context(**SIZES[size], color_scheme=theme, bypass_csp=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        if open_details:  # the redlines of a change report, folded until tapped
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.flatMap(
                v => v.nodes.map(n => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.split('\\n')[1] || ''}`))"""
        )
        assert not errors, errors
        return found
    finally:
        context.close()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("name", sorted(PAGES))
def test_axe_finds_no_violation(browser, server, name, size, theme):  # noqa: F811
    found = violations(browser, server + PAGES[name], size, theme, open_details=(name == "change report"))
    assert found == [], "\n".join(found)


@pytest.fixture(scope="module")
def magic_server(tmp_path_factory):
    """Magic with its first two editions of the quick set, served (rule pages, a numbered game's 404)."""
    from rulings.build import build
    from rulings.settings import Settings

    from .conftest import MAGIC_DOCS, MISSING

    if MAGIC_DOCS is None or not MAGIC_DOCS.is_dir():
        pytest.skip(MISSING)
    root = tmp_path_factory.mktemp("magic-a11y")
    corpus = magic_corpus(root / "corpus", 2)
    build(Settings.resolve(corpus, root / "store"), progress=lambda _: None)
    with running_server(dict(os.environ, RULINGS_STORE=str(root / "store"), RULINGS_CORPUS=str(corpus))) as url:
        yield url


@pytest.mark.needs_shared
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("name", sorted(MAGIC_PAGES))
def test_axe_finds_no_violation_on_a_numbered_game(browser, magic_server, name, size, theme):  # noqa: F811
    found = violations(browser, magic_server + MAGIC_PAGES[name], size, theme, open_details="report" in name)
    assert found == [], "\n".join(found)
