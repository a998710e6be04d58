"""Browser tests: headless Debian Chromium driven by Playwright (never a downloaded browser).

Chromium is found (``RULINGS_CHROMIUM``, ``chromium`` on the PATH, ``/usr/bin/chromium``); without it the
tests skip saying what to install, and fail saying so under CI, where ``.ci/run`` installs it (``system.py``).
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from playwright.sync_api import expect, sync_playwright

from rulings.graph import name_tables

from .conftest import CORPUS, every_name
from .server import running_server
from .system import required

CHROMIUM = os.environ.get("RULINGS_CHROMIUM")  # read before the test session clears RULINGS_* variables
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def server(store_dir):
    with running_server(dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(CORPUS))) as url:
        yield url


def chromium() -> str:
    """Debian's Chromium, found; else the tests skip (fail under CI) saying what to install."""
    candidates = [CHROMIUM, shutil.which("chromium"), "/usr/bin/chromium"]
    return required("Debian's Chromium", candidates, "chromium", ", or set RULINGS_CHROMIUM to a Chromium binary")


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def test_instant_search_as_you_type(page, server):
    page.goto(server + "/marvel-champions/")
    page.keyboard.press("/")  # "/" focuses the search box
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("quickstr")
    first = page.locator("#instant li a").first
    expect(first).to_contain_text("Quickstrike")
    first.click()
    expect(page.locator("h1")).to_have_text("Quickstrike")


def test_a_natural_question_lands_on_the_answering_paragraph(browser, server):
    """On a phone: type a question, tap the first instant result, land on the highlighted paragraph that answers."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + "/marvel-champions/")
    page.locator("#q").type("does a hero exhaust to use a defense ability")
    first = page.locator("#instant li a").first
    expect(first).to_contain_text("Defend")
    expect(first.locator("mark").first).to_be_visible()  # the query's words, marked in the snippet
    first.tap()
    expect(page.locator("h1")).to_have_text("Defend")
    anchor = page.evaluate("location.hash.slice(1)")
    assert anchor, page.url  # the hit points inside the entry, at the paragraph that answers
    paragraph = page.locator(f'[id="{anchor}"]')
    expect(paragraph).to_contain_text("a hero does not exhaust when using such an ability")
    expect(paragraph).to_be_in_viewport()
    highlighted = paragraph.evaluate("node => getComputedStyle(node).backgroundColor")
    assert highlighted not in ("rgba(0, 0, 0, 0)", "transparent"), highlighted
    context.close()


def test_search_form_works_without_instant_results(page, server):
    page.goto(server + "/")
    page.fill("#q", "flame barrier")
    page.keyboard.press("Enter")
    expect(page.locator("ol.hits li a").first).to_have_text("Flame Barrier")


def test_follow_a_cross_link(page, server):
    page.goto(server + "/marvel-champions/terms/player-phase")
    page.locator("article a.term", has_text="hand size").first.click()
    expect(page).to_have_url(server + "/marvel-champions/terms/hand-size")
    expect(page.locator("h1")).to_have_text("Hand Size")
    page.locator("section a.term", has_text="End of Player Phase").first.click()  # a see-also link
    expect(page.locator("h1")).to_have_text("End of Player Phase")


def test_pinned_version_banner_and_diff(page, server):
    page.goto(server + "/marvel-champions/v/1.1/terms/dash")
    banner = page.locator("aside.superseded")
    expect(banner).to_contain_text("superseded in 1.2")
    banner.locator("a.diff-link").click()
    expect(page.locator("h1")).to_contain_text("1.1 → 1.5")
    expect(page.locator(".diff ins").first).to_be_visible()
    expect(page.locator(".diff del").first).to_be_visible()


def test_copy_citation_yields_markdown(browser, server):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server + "/marvel-champions/v/1.2/terms/dash")
    page.get_by_role("button", name="Copy citation (Markdown)").click()
    expected = f"[Dash — Marvel Champions: The Card Game, v1.2]({server}/marvel-champions/v/1.2/terms/dash)"
    expect(page.locator(".cite output.copied")).to_contain_text(expected)
    assert page.evaluate("navigator.clipboard.readText()") == expected
    context.close()


def test_paragraph_anchor_links(page, server):
    page.goto(server + "/marvel-champions/v/1.1/terms/keywords#guard")
    expect(page.locator("#guard")).to_contain_text("While any minions")
    expect(page.locator("#guard .pilcrow")).to_have_attribute("aria-label", "Link or quote this paragraph")


@pytest.mark.parametrize("path", ["/marvel-champions/terms/keywords", "/marvel-champions/terms"])
def test_a_fragment_that_is_no_valid_encoding_breaks_no_script(page, server, path):
    """A forum link cut mid-character ("#%E0"): the page's script still runs (the fixture fails on any error)."""
    page.goto(server + path + "#%E0")
    if path.endswith("keywords"):
        expect(page.locator(".pilcrow").first).to_have_attribute("tabindex", "0")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/marvel-champions/",
        "/marvel-champions/terms/initiating-abilities",
        "/marvel-champions/terms/dash/diff/1.1..1.4",
        "/search?q=damage",
        "/sentinels-of-the-multiverse/rulings/ra-flame-barrier",
        "/vs-system-2pcg/terms/plus1-plus1-and-minus1-minus1-counters",
    ],
)
def test_mobile_viewport_has_no_horizontal_scroll(browser, server, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + path)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
    box = page.locator("#q").bounding_box()
    assert box and box["y"] < 120  # the search box is in reach at the top
    context.close()


def test_static_export_browsed_from_disk(page, exported_site):
    page.goto((exported_site / "marvel-champions" / "index.html").as_uri())
    expect(page.locator("h1")).to_have_text("Marvel Champions: The Card Game")
    page.locator("#glossary a", has_text="Surge").first.click()
    expect(page.locator("h1")).to_have_text("Surge")
    assert page.url.endswith("/marvel-champions/terms/surge/index.html")
    page.fill("#q", "quickstrike")
    expect(page.locator("#instant li a").first).to_contain_text("Quickstrike")
    page.keyboard.press("Enter")
    expect(page.locator("#static-results li a").first).to_have_text("Quickstrike")
    page.locator("#static-results li a").first.click()
    expect(page.locator("h1")).to_have_text("Quickstrike")


def test_without_chromium_the_tests_skip_saying_what_to_install_and_fail_so_under_ci(monkeypatch):
    nowhere = ["/nonexistent/chromium"]
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"apt-get install --no-install-recommends chromium, or set RUL"):
        required("Debian's Chromium", nowhere, "chromium", ", or set RULINGS_CHROMIUM to a Chromium binary")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install --no-install-recommends nginx \(.ci/run ins"):
        required("Debian's nginx", nowhere, "nginx")
    assert required("Python", [None, *nowhere, sys.executable], "python3") == sys.executable


# A post with every kind of mention: a name, an alias, a sub-definition, pins (known and not), a label,
# a typo of one name, an unknown term, and text that is markup.
POST = (
    "Per [[surge]] and [[card ability]], a [[Stunned]] hero… see [[dash@1.2]], [[Dash@v1.4.0]], [[dash@9.9]],\n"
    '[[guard|the <b>guard</b> & "keyword"]], [[Villanous]], [[no <i>such</i> term]]\n'
    "<script>alert('x')</script> [[ Surge ]]"
)


@pytest.mark.parametrize("fmt", ["markdown", "html", "bbcode"])
def test_the_exported_linkify_answers_as_the_server_from_disk(page, exported_site, store, fmt):
    """The exported link page links a post in the browser exactly as the server's linkify does."""
    from rulings.graph.linkify import linkify

    game = store.game("marvel-champions")
    expected = linkify(store, game, POST, fmt, "http://localhost")  # the export's base URL (rulings export's default)
    assert [link["term"] for link in expected["links"]] == [
        "Surge", "Ability", "Status Cards", "Dash (Value)", "Dash (Value)", "Guard", "Villainous", "Surge"
    ]  # fmt: skip
    assert expected["unresolved"] == ["[[dash@9.9]]", "[[no <i>such</i> term]]"]
    page.goto((exported_site / "marvel-champions" / "link" / "index.html").as_uri())
    expect(page.locator("section.linked")).to_be_hidden()
    page.fill("#text", POST)
    page.select_option("#format", fmt)
    page.click("form.linkify button[type=submit]")
    expect(page.locator("section.linked")).to_be_visible()
    assert page.input_value("#linked") == expected["text"]
    expect(page.locator(".unresolved")).to_have_text("Not found: " + ", ".join(expected["unresolved"]))
    expect(page.locator(".truncated")).to_be_hidden()
    assert page.locator("section.linked b, section.linked i, section.linked script").count() == 0  # shown as text
    assert page.url.endswith("/marvel-champions/link/index.html")  # linked in the page, no request made


def test_the_exported_linkify_folds_names_as_the_server_does(page, exported_site):
    """Every character of the Basic Multilingual Plane inside a name gives the name key and slug Python gives."""
    import unicodedata

    from rulings.text import name_key, slugify

    page.goto((exported_site / "marvel-champions" / "link" / "index.html").as_uri())
    chars = [chr(c) for c in range(0x10000) if unicodedata.category(chr(c)) not in ("Cn", "Cs")]
    names = [f"Wa{c}rd's 3{c}" for c in chars] + ["Æmber “Cards”", "STARICON", "Mœbius Straße", "-1/+1 Counters"]
    keys, slugs = page.evaluate(
        "names => [names.map(window.rulingsLinkify.nameKey), names.map(window.rulingsLinkify.slugify)]", names
    )
    assert [n for n, k in zip(names, keys, strict=True) if k != name_key(n)] == []
    assert [n for n, s in zip(names, slugs, strict=True) if s != slugify(n)] == []


def test_the_exported_linkify_cuts_a_long_post_where_the_server_does(page, exported_site, client):
    """The server links the first 20,000 characters (code points: an emoji is one) and says so."""
    post = "\U0001f600" * 10 + "x" * (20_000 - 10 - len("[[surge]]")) + "[[surge]] [[guard]]"
    expected = client.post("/api/marvel-champions/linkify", json={"text": post}).get_json()
    assert expected["truncated"] and expected["text"].endswith("(http://localhost/marvel-champions/terms/surge)")
    page.goto((exported_site / "marvel-champions" / "link" / "index.html").as_uri())
    page.fill("#text", post)
    page.click("form.linkify button[type=submit]")
    expect(page.locator(".truncated")).to_be_visible()
    assert page.input_value("#linked") == expected["text"]


def test_the_exported_linkify_links_a_post_given_in_its_address(page, exported_site, store):
    from rulings.graph.linkify import linkify

    text = "[[Villanous]] or [[keywords]]"
    expected = linkify(store, store.game("marvel-champions"), text, "bbcode", "http://localhost")
    link = exported_site / "marvel-champions" / "link" / "index.html"
    page.goto(link.as_uri() + "?text=%5B%5BVillanous%5D%5D+or+%5B%5Bkeywords%5D%5D&format=BBCode")
    expect(page.locator("#linked")).to_have_value(expected["text"])
    expect(page.locator(".unresolved")).to_be_hidden()


@pytest.mark.parametrize("slug", ["marvel-champions", "vs-system-2pcg", "sentinels-of-the-multiverse"])
def test_the_exported_linkify_takes_every_name_and_typo_as_the_server(page, exported_site, store, slug):
    """Each name of a game, as written and with a letter dropped or two swapped (near misses, ambiguous
    ones, none), and each slug, linked in the browser: the same text, links, notes and unresolved mentions
    as the server's."""
    from rulings.graph.linkify import linkify

    game = store.game(slug)
    names = every_name(store, game)
    dropped = [n[: len(n) // 2] + n[len(n) // 2 + 1 :] for n in names]
    swapped = [n[:2] + n[3] + n[2] + n[4:] for n in names if len(n) > 4]
    post = "\n".join(f"[[{n}]] [[{d}]] [[{d}|{n}]]" for n, d in zip(names, dropped, strict=True))
    post += "\n" + " ".join(f"[[{s}@latest]]" for s in swapped)
    post += "\n" + " ".join(
        f"[[{slug}]]" for slug in name_tables.slug_table(store, game)
    )  # "[[star-icon]]", former slugs
    expected = linkify(store, game, post, "markdown", "http://localhost")
    assert sum("note" in link for link in expected["links"]) > 20 and len(expected["unresolved"]) > 20
    page.goto((exported_site / slug / "link" / "index.html").as_uri())
    answer = page.evaluate("post => window.rulingsLinkify.linkify(post, 'markdown', 'http://localhost')", post)
    assert answer == expected
