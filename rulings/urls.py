"""Every URL of the site that is written outside a request: one builder (as Datasette's ``Urls``).

The answers (``url`` fields of the JSON and CLI), the search index, completion, the static
export, linkify, the Atom feed and the benchmarks all build site URLs here; the web layer's
``url_for`` builds the same URLs from its routes, and ``tests/test_urls.py`` checks they agree.
Pages use this builder too for the links they write by the dozen (mentions, see-also, versions:
``web.context.site_urls``), where ``url_for`` would cost tens of microseconds each.
Permalinks depend on these shapes (``tests/golden/urls.txt``): change them never.

``Urls()`` gives paths from the site root; ``Urls("https://rules.example.org")`` absolute URLs.
"""

from __future__ import annotations

from urllib.parse import quote


class Urls:
    def __init__(self, base: str = ""):
        self.base = base.rstrip("/")

    def _path(self, path: str, anchor: str | None = None) -> str:
        return self.base + path + (f"#{anchor}" if anchor else "")

    def home(self) -> str:
        return self._path("/")

    def static(self, filename: str) -> str:
        """A file of ``static/`` (the stylesheet, the scripts)."""
        return self._path(f"/static/{filename}")

    def search(self) -> str:
        return self._path("/search")

    def game(self, game: str) -> str:
        return self._path(f"/{game}/")

    def term(self, game: str, slug: str, version: str | None = None, anchor: str | None = None) -> str:
        """A term's page: the text in force now, or pinned to ``version``; ``anchor`` a paragraph or sub-definition."""
        if version:
            return self._path(f"/{game}/v/{quote(version)}/terms/{slug}", anchor)
        return self._path(f"/{game}/terms/{slug}", anchor)

    def version(self, game: str, version: str, anchor: str | None = None) -> str:
        """The whole document as it stood at a version."""
        return self._path(f"/{game}/v/{quote(version)}/", anchor)

    def rule(self, game: str, number: str, version: str | None = None, anchor: str | None = None) -> str:
        """A numbered rule, section or subrule ("702.19b"), now or pinned to ``version`` (docs/versions.md);
        ``anchor`` a paragraph of it without a number of its own (an example)."""
        if version:
            return self._path(f"/{game}/v/{quote(version)}/rules/{number}", anchor)
        return self._path(f"/{game}/rules/{number}", anchor)

    def rules(self, game: str, version: str | None = None) -> str:
        """The index of numbered rules: chapters and sections, of the latest version or pinned to ``version``."""
        if version:
            return self._path(f"/{game}/v/{quote(version)}/rules")
        return self._path(f"/{game}/rules")

    def rule_history(self, game: str, number: str) -> str:
        """A numbered rule's texts over time, followed through its renumberings."""
        return self._path(f"/{game}/rules/{number}/history")

    def rule_diff(self, game: str, number: str, start: str, end: str) -> str:
        """Word diff of the rule printed under ``number`` at ``end`` (else at ``start``) between two versions."""
        return self._path(f"/{game}/rules/{number}/diff/{quote(start)}..{quote(end)}")

    def reading(self, game: str, version: str, start: str, anchor: str | None = None) -> str:
        """A page of a version's whole text too long for one page, named by the anchor it starts at ("702")."""
        return self._path(f"/{game}/v/{quote(version)}/read/{quote(start)}", anchor)

    def history(self, game: str, slug: str) -> str:
        return self._path(f"/{game}/terms/{slug}/history")

    def diff(self, game: str, slug: str, start: str, end: str) -> str:
        return self._path(f"/{game}/terms/{slug}/diff/{quote(start)}..{quote(end)}")

    def changes(self, game: str, start: str, end: str) -> str:
        return self._path(f"/{game}/changes/{quote(start)}..{quote(end)}")

    def changes_picker(self, game: str) -> str:
        """The change report's version picker (``?from=…&to=…``); in a static export, the report between any
        two versions made in the browser."""
        return self._path(f"/{game}/changes")

    def edition_data(self, game: str, version: str) -> str:
        """A static export's snapshot of one version (``compare.edition_snapshot``), a script."""
        return self._path(f"/{game}/v/{quote(version)}/edition.js")

    def ruling(self, game: str, slug: str) -> str:
        return self._path(f"/{game}/rulings/{slug}")

    def card(self, game: str, slug: str) -> str:
        return self._path(f"/{game}/cards/{slug}")

    def feed(self, game: str) -> str:
        return self._path(f"/{game}/feed.atom")

    def link(self, game: str) -> str:
        """The linkify tool: a forum post's ``[[term]]`` mentions made links."""
        return self._path(f"/{game}/link")

    def robots(self) -> str:
        """What crawlers may read (RFC 9309): at the root of the host, wherever the site is mounted."""
        return self._path("/robots.txt")


urls = Urls()  # paths from the site root
