"""``rulings export``: a static site whose every link leads to a page it wrote."""

import re
from pathlib import Path
from urllib.parse import unquote

HREF = re.compile(r'\s(?:href|src)="(?![a-z]+:)([^"#?]+)[^"]*"')  # relative links (no scheme)


def test_every_link_of_the_export_resolves_to_a_file(exported_site: Path):
    pages = list(exported_site.rglob("*.html"))
    assert len(pages) > 3000
    broken = set()
    for page in pages:
        for link in HREF.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / unquote(link)).resolve()
            if not target.is_file():
                broken.add(f"{page.relative_to(exported_site)} -> {link}")
    assert not broken, sorted(broken)[:10]


def test_superseded_pages_link_their_diff_to_the_latest_version(exported_site: Path):
    pinned = exported_site / "marvel-champions" / "v" / "1.1" / "terms" / "confuse" / "index.html"
    assert "diff/1.1..1.5/index.html" in pinned.read_text(encoding="utf-8")
    assert (exported_site / "marvel-champions" / "terms" / "confuse" / "diff" / "1.1..1.5" / "index.html").is_file()
