"""Reading on a phone and a desktop (Debian's Chromium): anchored links, definition previews, quoting.

Every test runs at both sizes: a 390×844 phone with touch, a 1280×900 desktop with a mouse.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_browser import browser, server  # noqa: F401  (the shared Chromium and rulings serve)

SIZES = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
}


@pytest.fixture(params=sorted(SIZES))
def reader(request, browser):  # noqa: F811
    context = browser.new_context(**SIZES[request.param], permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.size = request.param
    yield page
    context.close()
    assert not errors, errors


def press(page, locator) -> None:
    """A tap on the phone, a click on the desktop."""
    (locator.tap if page.size == "phone" else locator.click)()


@pytest.mark.parametrize(
    ("path", "anchor", "words"),
    [
        ("/marvel-champions/terms/status-cards", "stunned", "A stunned status card prevents"),
        ("/marvel-champions/terms/keywords", "surge", "After a player reveals a card with surge"),
        ("/marvel-champions/terms/enemy-attacks", "p-if-a-hero-defends", "the amount of damage dealt is reduced"),
    ],
)
def test_an_anchored_link_lands_below_the_sticky_header(reader, server, path, anchor, words):  # noqa: F811
    reader.goto(f"{server}{path}#{anchor}")
    paragraph = reader.locator(f'[id="{anchor}"]')
    expect(paragraph).to_contain_text(words)
    header = reader.locator("header.top").bounding_box()
    box = paragraph.bounding_box()
    assert box["y"] >= header["y"] + header["height"], (box, header)  # not hidden under the header
    assert box["y"] < reader.viewport_size["height"] / 2  # and scrolled to, not left below the fold


def test_a_term_preview_opens_and_closes_by_touch_or_mouse(reader, server):  # noqa: F811
    page = f"{server}/marvel-champions/terms/enemy-attacks"
    reader.goto(page)
    link = reader.locator("#p-to-resolve-an-enemy a.term", has_text="enemy activation")
    preview = reader.locator("#preview")
    if reader.size == "phone":
        link.tap()  # a tap opens the preview and stays on the page
    else:
        link.hover()  # a mouse opens it by hovering
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("There are two types of enemy activations")
    expect(preview.get_by_role("link", name="Open")).to_have_attribute("href", "/marvel-champions/terms/activation")
    assert reader.url == page
    press(reader, preview.get_by_role("button", name="Close the preview"))
    expect(preview).to_have_count(0)
    if reader.size == "phone":
        link.tap()
        expect(preview).to_be_visible()
        reader.locator("h1").tap()  # a tap elsewhere closes it
        expect(preview).to_have_count(0)
        link.tap()
        link.tap()  # a second tap on the open preview's link follows it
    else:
        link.click()  # a click follows the link
    expect(reader.locator("h1")).to_have_text("Activation")


def test_a_term_preview_opens_and_closes_by_keyboard(reader, server):  # noqa: F811
    reader.goto(f"{server}/marvel-champions/terms/enemy-attacks")
    reader.locator("h1").click()
    reader.keyboard.press("Tab")  # the first link of the text after the heading
    reader.keyboard.press("Tab")
    focused = reader.locator("a.term:focus")
    expect(focused).to_have_text("enemy activation")
    preview = reader.locator("#preview")
    expect(preview).to_contain_text("There are two types of enemy activations")
    expect(focused).to_have_attribute("aria-describedby", "preview")
    reader.keyboard.press("Escape")
    expect(preview).to_have_count(0)
    expect(reader.locator("a.term:focus")).to_have_text("enemy activation")  # focus stays where it was
    reader.keyboard.press("Enter")
    expect(reader.locator("h1")).to_have_text("Activation")


def test_the_paragraph_menu_copies_a_version_pinned_markdown_quote(reader, server):  # noqa: F811
    reader.goto(f"{server}/marvel-champions/terms/enemy-attacks")
    press(reader, reader.locator("#p-if-a-villain-is .pilcrow"))
    press(reader, reader.get_by_role("menuitem", name="Copy quote (Markdown)"))
    expected = (
        "> If a villain, or a minion with the villainous keyword, is attacking, give it one facedown boost card from "
        "the encounter deck. (If a minion without the villainous keyword is attacking, skip this step.)\n>\n"
        "> \u2014 [Attack (Enemy Activation), Marvel Champions: The Card Game, v1.5]"
        f"({server}/marvel-champions/v/1.5/terms/enemy-attacks#p-if-a-villain-is)"
    )
    expect(reader.locator(".menu output")).to_contain_text("Copied markdown quote")
    assert reader.evaluate("navigator.clipboard.readText()") == expected
    press(reader, reader.get_by_role("menuitem", name="Copy link"))
    link = f"{server}/marvel-champions/v/1.5/terms/enemy-attacks#p-if-a-villain-is"
    expect(reader.locator(".menu output")).to_contain_text(link)
    reader.keyboard.press("Escape")
    expect(reader.locator(".menu")).to_have_count(0)


def test_two_taps_from_a_term_page_copy_its_citation_pinned_to_a_version(reader, server):  # noqa: F811
    """Guard as of 1.1, cited: one tap on the version picker, one on the citation button."""
    reader.goto(f"{server}/marvel-champions/terms/guard")
    picker = reader.get_by_role("navigation", name="Guard in version")
    expect(picker.get_by_role("link")).to_have_count(7)  # every version of the game
    press(reader, picker.get_by_role("link", name="1.1", exact=True))
    press(reader, reader.get_by_role("button", name="Copy citation (Markdown)"))
    expected = f"[Guard \u2014 Marvel Champions: The Card Game, v1.1]({server}/marvel-champions/v/1.1/terms/guard)"
    expect(reader.locator(".cite output.copied")).to_contain_text(expected)
    assert reader.evaluate("navigator.clipboard.readText()") == expected
    assert reader.url == f"{server}/marvel-champions/v/1.1/terms/guard"
    expect(reader.get_by_role("navigation", name="Guard in version").locator('[aria-current="page"]')).to_have_text(
        "1.1"
    )


def test_selected_words_are_quoted_by_the_citation_button(reader, server):  # noqa: F811
    reader.goto(f"{server}/marvel-champions/v/1.2/terms/dash")
    words = reader.locator("article.rule p").first
    reader.evaluate(
        """node => { const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
           let text = walk.nextNode(); while (text.length < 30) { text = walk.nextNode(); }
           const range = document.createRange(); range.setStart(text, 2); range.setEnd(text, 28);
           const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); }""",
        words.element_handle(),
    )
    selected = reader.evaluate("getSelection().toString().trim()")
    press(reader, reader.get_by_role("button", name="Copy citation (Markdown)"))
    copied = reader.evaluate("navigator.clipboard.readText()")
    anchor = words.get_attribute("id")
    assert copied.startswith(f"> {selected}\n>\n> \u2014 [Dash, Marvel Champions: The Card Game, v1.2]"), copied
    assert copied.endswith(f"({server}/marvel-champions/v/1.2/terms/dash#{anchor})"), copied


def test_paragraph_controls_are_one_tab_stop_and_a_skip_link_leads_to_the_text(reader, server):  # noqa: F811
    reader.goto(f"{server}/marvel-champions/terms/keywords")
    controls = reader.locator(".pilcrow")
    assert controls.count() > 10
    assert reader.locator('.pilcrow[tabindex="0"]').count() == 1
    reader.keyboard.press("Tab")
    skip = reader.locator("a.skip:focus")
    expect(skip).to_have_text("Skip to content")
    reader.keyboard.press("Enter")
    expect(reader.locator("main")).to_be_focused()
    first = controls.first
    first.focus()
    reader.keyboard.press("ArrowDown")
    expect(controls.nth(1)).to_be_focused()
    expect(controls.nth(1)).to_have_attribute("tabindex", "0")
    expect(first).to_have_attribute("tabindex", "-1")


def test_the_change_report_between_two_picked_versions_shows_a_redline(reader, server):  # noqa: F811
    reader.goto(f"{server}/marvel-champions/changes/1.0..1.1")
    reader.locator("#from").select_option("1.3")
    reader.locator("#to").select_option("1.4")
    press(reader, reader.get_by_role("button", name="Compare"))
    expect(reader).to_have_url(f"{server}/marvel-champions/changes/1.3..1.4")
    expect(reader.locator("h1")).to_have_text("Changes 1.3 → 1.4")
    expect(reader.locator("p.counts")).to_contain_text("49 changed · 7 renamed · 55 added · 0 removed")
    expect(reader.locator("#renamed")).to_contain_text("Enemy Attacks → Attack (Enemy Activation)")
    change = reader.locator("details.change", has_text="Attack (Enemy Activation)")
    redline = change.locator(".diff")
    expect(redline).to_be_hidden()  # collapsed until asked for
    press(reader, change.locator("summary"))
    expect(redline.locator("ins").first).to_be_visible()
    expect(redline.locator("del").first).to_be_visible()
    expect(redline).to_contain_text("To resolve an enemy attack")
    expect(change.locator("summary a")).to_have_count(0)  # no link inside the control that opens it (axe-core)
    press(reader, change.get_by_role("link", name="Attack (Enemy Activation) in 1.4"))
    expect(reader).to_have_url(f"{server}/marvel-champions/v/1.4/terms/enemy-attacks")


def test_a_redline_keeps_paragraph_ends_as_the_text_has_them(reader, server):  # noqa: F811
    """Before: every line end drawn twice (a <br> and the kept newline), a blank line between paragraphs as three."""
    reader.goto(f"{server}/marvel-champions/changes/1.3..1.4")
    change = reader.locator("details.change", has_text="Ability").first
    press(reader, change.locator("summary"))
    redline = change.locator(".diff")
    expect(redline).to_be_visible()
    assert redline.locator("br").count() == 0
    line = float(redline.evaluate("n => parseFloat(getComputedStyle(n).lineHeight)"))
    # the tallest gap between two lines of text: one blank line at most, where the text has a paragraph end
    gap = redline.evaluate(
        """n => { const range = document.createRange(); range.selectNodeContents(n);
           const tops = [...range.getClientRects()].map(r => Math.round(r.top)).sort((a, b) => a - b);
           let most = 0; for (let i = 1; i < tops.length; i++) { most = Math.max(most, tops[i] - tops[i - 1]); }
           return most; }"""
    )
    assert gap <= 2.1 * line, (gap, line)


@pytest.mark.parametrize("game", ["marvel-champions", "sentinels-of-the-multiverse"])
def test_a_game_home_is_an_index_not_an_endless_page(reader, server, game):  # noqa: F811
    """Before: 10,892 px (Marvel Champions) and 19,619 px (Sentinels) on a phone, one long column."""
    reader.goto(f"{server}/{game}/")
    height = reader.evaluate("document.documentElement.scrollHeight")
    limit = 4000 if reader.size == "phone" else 12000  # a wide screen opens the glossary's letters
    assert height < limit, height
    jumps = reader.locator("nav.jumps")
    press(reader, jumps.get_by_role("link", name="D", exact=True))
    group = reader.locator("#letter-D")
    expect(group).to_have_attribute("open", "")
    first = group.locator("li a").first
    expect(first).to_be_in_viewport()
    header = reader.locator("header.top").bounding_box()
    assert group.bounding_box()["y"] >= header["y"] + header["height"] - 1  # not under the sticky index
    expect(jumps).to_be_in_viewport()  # the index stays at hand


def test_sentinels_heroes_villains_and_environments_have_their_own_index(reader, server):  # noqa: F811
    reader.goto(f"{server}/sentinels-of-the-multiverse/")
    press(reader, reader.locator(".actions").get_by_role("link", name="Heroes (23)"))
    heroes = reader.locator("#group-heroes details")
    expect(heroes).to_have_attribute("open", "")
    press(reader, heroes.get_by_role("link", name="Ra", exact=True))
    expect(reader.locator("h1")).to_have_text("Ra")
    expect(reader.locator("p.meta .badge").first).to_have_text("hero")


def search_from_disk(page, site, query: str):
    page.goto(f"{(site / 'search' / 'index.html').as_uri()}?{query}")
    results = page.locator("#static-results")
    expect(results.locator("ol.hits")).to_be_visible()
    return results


def test_the_exported_search_finds_a_sub_definition_from_disk(reader, exported_site):
    results = search_from_disk(reader, exported_site, "q=stunned&game=marvel-champions")
    expect(reader.locator("#q2")).to_have_value("stunned")  # the query and filters restored from the URL
    expect(reader.locator("#game")).to_have_value("marvel-champions")
    first = results.locator("li").first
    expect(first.locator("a")).to_have_text("Stunned")
    expect(first.locator("small")).to_have_text("subdefinition · Marvel Champions: The Card Game")
    expect(first.locator("mark").first).to_have_text("stunned")
    press(reader, first.locator("a"))
    expect(reader).to_have_url(re.compile(r"/marvel-champions/terms/status-cards/index\.html#stunned$"))
    paragraph = reader.locator('[id="stunned"]')
    expect(paragraph).to_contain_text("A stunned status card prevents")
    header = reader.locator("header.top").bounding_box()
    assert paragraph.bounding_box()["y"] >= header["y"] + header["height"]  # lands below the sticky header


def test_the_exported_search_corrects_a_misspelled_word_from_disk(reader, exported_site):
    results = search_from_disk(reader, exported_site, "q=quickstirke")
    expect(results.locator(".dym")).to_have_text("Showing results for quickstrike?")
    expect(results.locator("li a").first).to_have_text("Quickstrike")
    # a hit points at the paragraph holding the words, not only at its entry
    results = search_from_disk(reader, exported_site, "q=facedown+boost+card+villainous&game=marvel-champions")
    expect(results.locator("li a", has_text="Attack (Enemy Activation)")).to_have_attribute(
        "href", "../marvel-champions/terms/enemy-attacks/index.html#p-if-a-villain-is"
    )


def test_the_exported_search_filters_by_kind_and_says_when_nothing_matches(reader, exported_site):
    results = search_from_disk(reader, exported_site, "q=damage&kind=ruling")
    expect(reader.locator("#kind")).to_have_value("ruling")
    expect(results.locator("li").first).to_be_visible()
    kinds = results.locator("li small").all_text_contents()
    assert kinds and all(k.startswith("ruling · ") for k in kinds), kinds
    results = search_from_disk(reader, exported_site, "q=zyxwvut")
    expect(results.locator("li")).to_have_text("No matches.")
    # the form answers again from disk, typed on the page (a phone's keyboard, a desktop's)
    reader.fill("#q2", "<b>tough</b>")
    reader.locator("#game").select_option("marvel-champions")
    press(reader, reader.locator("form.filters").get_by_role("button", name="Search"))
    expect(results.locator("li a").first).to_have_text("Tough")
    expect(reader.locator("#q2")).to_have_value("<b>tough</b>")  # shown as typed, never as markup
    expect(results.locator("b")).to_have_count(0)


def test_only_searching_loads_a_games_index_in_the_export(reader, exported_site):
    reader.goto((exported_site / "marvel-champions" / "terms" / "surge" / "index.html").as_uri())
    assert reader.evaluate("typeof window.RULINGS_SHARDS") == "undefined"  # a page alone loads no index
    reader.fill("#q", "quickstrike")
    expect(reader.locator("#instant li a").first).to_contain_text("Quickstrike")
    assert reader.evaluate("Object.keys(window.RULINGS_SHARDS)") == ["marvel-champions"]  # this game's only


def test_the_jump_bar_fits_or_shows_that_it_scrolls(reader, server):  # noqa: F811
    """Before: on a phone, A-K shown and nothing saying more follows; on a desktop, its end clipped."""
    reader.goto(f"{server}/marvel-champions/")
    bar = reader.locator("nav.jumps")
    last = bar.get_by_role("link").last
    fits = bar.evaluate("n => n.scrollWidth <= n.clientWidth")
    if reader.size == "desktop":
        assert fits
        box, width = last.bounding_box(), reader.viewport_size["width"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width  # every jump on the screen
        expect(bar).not_to_have_class(re.compile("more"))
        return
    assert not fits  # 26 letters and the page's parts are wider than a phone
    expect(bar).to_have_class(re.compile(r"\bmore\b"))
    assert "gradient" in bar.evaluate("n => getComputedStyle(n).maskImage || getComputedStyle(n).webkitMaskImage")
    bar.evaluate("n => n.scrollTo(n.scrollWidth, 0)")  # scrolled to its end: nothing more to hint at
    expect(bar).not_to_have_class(re.compile(r"\bmore\b"))
    assert bar.evaluate("n => getComputedStyle(n).maskImage || getComputedStyle(n).webkitMaskImage") == "none"
    press(reader, last)
    expect(reader.locator(f"[id='{last.get_attribute('href')[1:]}']")).to_be_in_viewport()


def test_a_paragraph_selected_whole_is_quoted_without_its_pilcrow(reader, server):  # noqa: F811
    """Before: a triple-clicked paragraph's quote ended in "¶", the text of its menu button."""
    reader.goto(f"{server}/marvel-champions/terms/enemy-attacks")
    paragraph = reader.locator("#p-if-a-villain-is")
    if reader.size == "desktop":
        paragraph.click(click_count=3, position={"x": 4, "y": 6})  # on its first word, not a link: the paragraph
        # is selected, its button with it
    else:  # a long press's "select all" of the paragraph
        paragraph.evaluate("n => getSelection().selectAllChildren(n)")
    assert "villainous keyword" in reader.evaluate("getSelection().toString()")
    press(reader, reader.get_by_role("button", name="Copy citation (Markdown)"))
    copied = reader.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("> If a villain, or a minion with the villainous keyword, is attacking"), copied
    assert "\u00b6" not in copied, copied
    assert copied.endswith("/marvel-champions/v/1.5/terms/enemy-attacks#p-if-a-villain-is)"), copied
    expect(paragraph.locator(".pilcrow")).to_have_attribute("aria-label", "Link or quote this paragraph")


@pytest.mark.parametrize(
    ("path", "crumb", "heading"),
    [
        ("/sentinels-of-the-multiverse/terms/active", "Glossary", "Glossary"),
        ("/marvel-champions/terms/player-decks", "Appendix I: Deck Customization", "Appendix I: Deck Customization"),
        ("/sentinels-of-the-multiverse/rulings/ra-flame-barrier", "Ra", "Ra"),
        ("/vs-system-2pcg/terms/plus1-plus1-and-minus1-minus1-counters", "Rules Reference", "Rules Reference"),
    ],
)
def test_breadcrumbs_navigate(reader, server, path, crumb, heading):  # noqa: F811
    reader.goto(server + path)
    crumbs = reader.get_by_role("navigation", name="Breadcrumbs")
    names = crumbs.evaluate("n => [...n.childNodes].filter(c => c.textContent.trim().replace(/›/g, '').trim())"
                            ".map(c => c.nodeName)")  # fmt: skip
    assert set(names) == {"A"}, names  # every step a link
    press(reader, crumbs.get_by_role("link", name=crumb, exact=True))
    expect(reader.locator("h1")).to_have_text(heading)


def test_which_version_applies_labels_each_field_before_it(reader, server):  # noqa: F811
    """Before: on a phone, a label ended the line of the field before it, its own field on the next line."""
    reader.goto(f"{server}/marvel-champions/applies?term=dash&date=2020-03-01")
    for field in ("term", "date", "version"):
        label = reader.locator(f"form.applies label[for='{field}']").bounding_box()
        box = reader.locator(f"form.applies #{field}").bounding_box()
        same_line = label["y"] < box["y"] + box["height"] and box["y"] < label["y"] + label["height"]
        if same_line:
            assert label["x"] + label["width"] <= box["x"] + 1, field  # on its left
        else:
            assert label["y"] + label["height"] <= box["y"] + 1 and abs(label["x"] - box["x"]) <= 1, field  # above


def test_search_results_start_high_on_a_phone(reader, server):  # noqa: F811
    """Before: the search form took ~250 px; the first result started 335 px down a phone's screen."""
    reader.goto(f"{server}/search?q=damage&game=marvel-champions")
    first = reader.locator("ol.hits li").first
    expect(first).to_be_visible()
    limit = 240 if reader.size == "phone" else 200
    assert first.bounding_box()["y"] < limit, first.bounding_box()
    for name in ("Query", "Game", "Kind", "Version"):  # each filter still named, for a screen reader
        expect(reader.get_by_label(name, exact=True)).to_be_visible()
    expect(reader.locator("#game")).to_have_value("marvel-champions")
    reader.locator("#kind").select_option("ruling")
    press(reader, reader.locator("form.filters").get_by_role("button", name="Search"))
    expect(reader).to_have_url(re.compile(r"kind=ruling"))


def test_whole_edition_contents_are_numbered_once(reader, server):  # noqa: F811
    """The contents' names carry their own numbers ("107. Numbers and Symbols"): the list adds none."""
    reader.goto(f"{server}/marvel-champions/v/1.5/")
    items = reader.locator("nav.toc > ol > li")
    assert items.count() > 10
    styles = items.evaluate_all("nodes => [...new Set(nodes.map(n => getComputedStyle(n).listStyleType))]")
    assert styles == ["none"], styles
