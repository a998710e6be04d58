"""Definition previews (rulings/web/previews.py): one inert template per term a page links, its text escaped."""

import re

from rulings.web.previews import Preview


def test_a_preview_is_written_once_and_escaped():
    preview = Preview('x"y', "<Swarm>", "Keyword & more", "Deal 1 <b>damage</b>.")
    assert str(preview.html) == (
        '<template data-term="x&#34;y"><p class="preview-head"><strong>&lt;Swarm&gt;</strong> '
        "<small>Keyword &amp; more</small></p><p>Deal 1 &lt;b&gt;damage&lt;/b&gt;.</p></template>"
    )
    assert preview.html is preview.html  # kept with the preview, which a build keeps


def test_a_term_page_carries_one_preview_per_term_it_links(client):
    page = client.get("/marvel-champions/terms/enemy-attacks").get_data(as_text=True)
    templates = re.findall(r'<template data-term="([^"]+)">', page)
    linked = set(re.findall(r'<a [^>]*data-term="([^"]+)"', page))
    assert len(templates) == len(set(templates)) == len(linked) > 5 and set(templates) == linked
    villain = '<template data-term="villain"><p class="preview-head"><strong>Villain</strong> <small>Glossary</small>'
    assert villain in page
