"""``rulings export DIR``: the whole site as static files, browsable from disk or any static host.

Pages are rendered by the same Flask app (in static mode) and written as
``<path>/index.html``; links are rewritten to relative paths so the export also
works from ``file://``. Search runs in the browser (``static/search.js``) from one index file per
game (``search/shards/<game>.js``), loaded by the search page (or once a search box is typed in), never by
every page: an export of 1,678 games stays light to browse. The linkify tool runs in the browser too
(``static/linkify.js``), from the game's names beside its page (``<game>/link/names.js``).
"""

from __future__ import annotations

import ctypes
import errno
import glob
import json
import os
import posixpath
import re
import shutil
from collections import deque
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit

from .errors import BadRequest, write_error
from .graph import answers, name_tables, ruling_rows
from .graph.compare import edition_snapshot
from .graph.rows import Game
from .graph.store import Store
from .index.writer import documents
from .settings import Settings
from .text import LETTERS, QUOTES
from .urls import urls

LINK_NAMES = "names.js"  # a game's names for linkify, beside its link page (templates/link.html loads it)
ATTR = re.compile(r'(\s(?:href|src|action)=")(/(?!/)[^"]*)(")')


def page_file(path: str) -> str:
    """URL path -> file path inside the export ("/a/b" -> "a/b/index.html")."""
    clean = path.split("?", 1)[0].split("#", 1)[0].strip("/")
    if not clean:
        return "index.html"
    if posixpath.splitext(clean)[1] in (".atom", ".xml", ".json", ".css", ".js", ".txt"):
        return clean
    return f"{clean}/index.html"


def relative(from_file: str, url: str) -> str:
    """A site-absolute URL as seen from ``from_file`` (keeps ?query and #anchor)."""
    path, sep_q, query = url.partition("?")
    path, sep_h, anchor = path.partition("#")
    if query and "#" in query:
        query, _, anchor = query.partition("#")
        sep_h = "#"
    target = page_file(path) if not path.startswith("/static/") else path.lstrip("/")
    rel = relative_path(target, posixpath.dirname(from_file) or ".")
    return rel + (f"?{query}" if sep_q else "") + (f"#{anchor}" if sep_h else "")


def relative_path(path: str, start: str) -> str:
    """``posixpath.relpath`` of two paths inside the export, without the two ``getcwd`` calls it makes for
    each of the million links of a 7-edition Magic export (a third of the export's time). Paths climbing
    with ".." (the site makes none) are left to ``posixpath.relpath``."""
    if ".." in path or ".." in start:
        return posixpath.relpath(path, start)
    here = [part for part in posixpath.normpath("/" + start).split("/") if part]
    there = [part for part in posixpath.normpath("/" + path).split("/") if part]
    common = 0
    while common < len(here) and common < len(there) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:]) or "."


def start_pages(store: Store) -> list[str]:
    """The pages to start from, in a stable order (the export also follows every link they hold)."""
    out = [urls.home(), urls.search(), urls.robots()]
    for game in store.games():
        out += [urls.game(game.slug), urls.feed(game.slug), urls.link(game.slug)]
        versions = store.versions(game)
        # Reports between consecutive versions as pages; any other pair is made in the browser from two
        # versions' snapshots (``write_edition_data``), by the picker's page: linear in versions, not quadratic.
        out += [urls.changes(game.slug, before.label, after.label) for before, after in pairwise(versions)]
        if len(versions) > 1:
            out.append(urls.changes_picker(game.slug))
        for term in store.terms(game):
            revisions = store.revisions(term)
            out += [urls.term(game.slug, term.slug), urls.history(game.slug, term.slug)]
            if not term.number:  # a numbered rule's pinned pages are at its numbers, linked from each version's text
                out += [urls.term(game.slug, term.slug, v.label) for v in versions if _defined(revisions, v)]
            for a, b in pairwise(revisions):
                out.append(urls.diff(game.slug, term.slug, a.version, b.version))
            if revisions and revisions[-1].version != versions[-1].label and len(versions) > 1:
                out.append(urls.diff(game.slug, term.slug, revisions[0].version, versions[-1].label))
        out += [urls.ruling(game.slug, r["slug"]) for r in ruling_rows.rulings(store, game)]
        formerly = ruling_rows.former_ruling_slugs(store, game)
        out += [urls.ruling(game.slug, former) for former in formerly]  # redirect pages
        out += [urls.card(game.slug, c["slug"]) for c in ruling_rows.cards(store, game)]
    return out


def _defined(revisions: list, version) -> bool:
    """Whether a term has a text at ``version`` (its pinned page there is a page, not a "not defined" 404)."""
    current, _ = answers.in_force(revisions, version.ordinal)
    return current is not None and not current.removed


def relative_links(html: str, from_file: str) -> str:
    """Every site-absolute link of a page rewritten relative to the page's own file."""
    return ATTR.sub(lambda m: m.group(1) + relative(from_file, m.group(2)) + m.group(3), html)


def linked_pages(html: str) -> list[str]:
    """The site pages an HTML page links to (without query or anchor; not scripts, static files or the API)."""
    out = []
    for match in ATTR.finditer(html):
        path = match.group(2).partition("#")[0].partition("?")[0]
        if not match.group(1).lstrip().startswith("src") and not path.startswith(("/static/", "/api/")):
            out.append(path)
    return out


def search_shard(store: Store, game: Game) -> dict:
    """A game's search index for the browser: what the server's index holds of the texts in force now.

    One document per term, section, sub-definition and ruling, with its whole text (never cut).
    A text of several blocks is written one block a line, with each line's anchor in ``anchors``,
    so a hit can point at the paragraph that answers, as the server's passages do.
    """
    docs: dict[str, dict] = {}
    for doc in documents(store, only=[game.slug]):
        if not doc["latest"]:
            continue
        if doc["kind"] == "passage":
            entry = docs[doc["parent"]]
            if "anchors" not in entry:
                entry["text"], entry["anchors"] = [], []
            entry["text"].append(" ".join(doc["body"].split()))
            entry["anchors"].append(doc["anchor"])
            continue
        path, _, anchor = doc["url"].partition("#")
        entry = {"title": doc["title"], "kind": doc["kind"], "subkind": doc["subkind"]}
        entry["url"] = page_file(path) + (f"#{anchor}" if anchor else "")
        names = [n for n in doc["names"].split(" ; ") if n and n != doc["title"]]
        if names:
            entry["names"] = names
        entry["text"] = " ".join(doc["body"].split())
        docs[doc["id"]] = entry
    for entry in docs.values():
        if isinstance(entry["text"], list):
            entry["text"] = "\n".join(entry["text"])
    return {"game": game.slug, "name": game.name, "docs": list(docs.values())}


def write_search_index(store: Store, target: Path) -> None:
    """``search/shards/<game>.js`` per game, ``search/games.js`` listing them (scripts: they load from file://)."""
    folder = target / "search"
    (folder / "shards").mkdir(parents=True, exist_ok=True)
    games = []
    for game in store.games():
        body = json.dumps(search_shard(store, game), ensure_ascii=False, separators=(",", ":"))
        data = f"(window.RULINGS_SHARDS = window.RULINGS_SHARDS || {{}})[{json.dumps(game.slug)}] = {body};\n"
        (folder / "shards" / f"{game.slug}.js").write_text(data, encoding="utf-8")
        games.append({"slug": game.slug, "name": game.name, "bytes": len(data.encode("utf-8"))})
    listing = json.dumps(games, ensure_ascii=False, separators=(",", ":"))
    (folder / "games.js").write_text(f"window.RULINGS_GAMES = {listing};\n", encoding="utf-8")


def write_edition_data(store: Store, target: Path) -> int:
    """``<game>/v/<version>/edition.js`` for each version of a game with several: its snapshot
    (``compare.edition_snapshot``), from which ``static/changes.js`` makes the report between any two
    versions. Scripts, so they load from file:// too. The bytes written."""
    written = 0
    for game in store.games():
        versions = store.versions(game)
        if len(versions) < 2:
            continue
        revisions = store.revisions_in(game)
        for version in versions:
            body = json.dumps(
                edition_snapshot(store, game, version, revisions), ensure_ascii=False, separators=(",", ":")
            )
            data = (
                f"(window.RULINGS_EDITIONS = window.RULINGS_EDITIONS || {{}})[{json.dumps(version.label)}] = {body};\n"
            )
            out = target / urls.edition_data(game.slug, version.label).lstrip("/")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(data, encoding="utf-8")
            written += len(data.encode("utf-8"))
    return written


REDIRECT_PAGE = (  # {url}: the site path (links are made relative with the page's others); {here}: already relative
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Moved</title>'
    '<meta http-equiv="refresh" content="0; url={here}"><link rel="canonical" href="{url}"></head>'
    '<body><p>This page is at <a href="{url}">{url}</a>.</p></body></html>\n'
)


def redirect_target(response) -> str | None:
    """Where a redirect of the site leads, as a site path (None: elsewhere)."""
    location = urlsplit(response.headers.get("Location", ""))
    if location.scheme or location.netloc or not location.path.startswith("/"):
        return None
    return location.path + (f"#{location.fragment}" if location.fragment else "")


def link_names(store: Store, game: Game) -> dict:
    """What the exported linkify page resolves ``[[mentions]]`` with, as the server's linkify does.

    ``terms``: [name, slug] of every term; ``names``: every name key -> the term's index (or [index, anchor]
    for a sub-definition), as ``Store.find_term`` resolves it; ``printed``: the same by heading key, for the
    printed names that lead elsewhere than their key ("Player Decks"); ``slugs``: the other slugs that lead to a term;
    ``typos``: the (key, term) pairs a near miss is looked for among (``answers.near_miss``); ``versions``:
    each label with its URL; ``fold``: the character tables of ``text.fold``. URLs are paths with ``{slug}``.
    """
    names, slugs, typos = (
        name_tables.name_table(store, game),
        name_tables.slug_table(store, game),
        sorted(store.name_keys(game)),
    )
    printed = name_tables.printed_table(store, game)
    ids = sorted(
        {term_id for term_id, _ in [*names.values(), *printed.values()]}
        | set(slugs.values())
        | {term_id for _, term_id in typos}
    )
    index = {term_id: i for i, term_id in enumerate(ids)}
    terms = [store.term(term_id) for term_id in ids]
    return {
        "game": game.slug,
        "terms": [[term.name, term.slug] for term in terms],
        "names": {key: [index[t], anchor] if anchor else index[t] for key, (t, anchor) in names.items()},
        "printed": {key: [index[t], anchor] if anchor else index[t] for key, (t, anchor) in printed.items()},
        "slugs": {slug: index[t] for slug, t in slugs.items() if slug != terms[index[t]].slug},
        "typos": [[key, index[t]] for key, t in typos],
        "url": urls.term(game.slug, "{slug}"),
        "versions": [[v.label, urls.term(game.slug, "{slug}", v.label)] for v in store.versions(game)],
        "fold": {"quotes": _chars(QUOTES), "letters": _chars(LETTERS)},
    }


def _chars(table: dict[int, str]) -> dict[str, str]:
    return {chr(code): text for code, text in table.items()}


def write_link_names(store: Store, target: Path) -> None:
    """``<game>/link/names.js`` per game: a script, so it loads from file:// too; only the link page loads it."""
    for game in store.games():
        body = json.dumps(link_names(store, game), ensure_ascii=False, separators=(",", ":"))
        out = target / posixpath.dirname(page_file(urls.link(game.slug))) / LINK_NAMES
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(f"window.RULINGS_LINK_NAMES = {body};\n", encoding="utf-8")


PINNED = re.compile(r"/[^/]+/v/[^/]+/")  # a page of one version of a game: /<game>/v/<version>/...


class Pending:
    """The pages left to export, each once, those of one version together: a version's pages share its whole
    text (``reading.version_parts``), which the server keeps for a few versions only (``DOCUMENTS_KEPT``).
    Every page is exported whatever the order; pages of no version come first, then each version's in the
    order it was first linked."""

    def __init__(self, urls: list[str]):
        self._queues: dict[str, deque[str]] = {}
        self._seen: set[str] = set()
        for url in urls:
            self.add(url)

    def add(self, url: str) -> None:
        if url in self._seen:
            return
        self._seen.add(url)
        pinned = PINNED.match(url)
        self._queues.setdefault(pinned.group() if pinned else "", deque()).append(url)

    def pop(self) -> str:
        key = "" if self._queues.get("") else next(iter(self._queues))
        queue = self._queues[key]
        url = queue.popleft()
        if not queue:
            del self._queues[key]
        return url

    def __bool__(self) -> bool:
        return bool(self._queues)


MARKER = ".rulings-export"  # in every export: a folder holding one may be replaced by the next export
BESIDE = ".export-"  # ``.<target name>.export-<pid>``: the folder an export is written into, beside its target


def export(settings: Settings, target: Path, base_url: str = "http://localhost/") -> dict:
    """Write the site beside ``target`` and swap it in: the folder holds the previous site or the new one,
    whole, never half of one (a full disk or a killed export leaves the previous site). A folder that cannot
    be written is one clear WriteError."""
    target = target.resolve()
    for folder, label in ((settings.store, "store"), (settings.corpus, "corpus")):
        if target.is_relative_to(folder) or folder.is_relative_to(target):
            raise BadRequest(f"will not export into {target}: it holds or is inside the {label} ({folder})")
    beside = target.with_name(f".{target.name}{BESIDE}{os.getpid()}")
    try:
        target.mkdir(parents=True, exist_ok=True)  # before any work: a bad folder fails at once
        _refuse_other_files(target)
        _remove_abandoned(target)
        beside.mkdir()
        result = _export(settings, beside, base_url)
        (beside / MARKER).write_text(f"rulings export {base_url}\n", encoding="utf-8")
        swap_in(beside, target)
        return {**result, "target": str(target)}
    except OSError as exc:
        error = write_error("the export folder", target, exc)
        if error is None:
            raise
        raise error from exc
    finally:
        shutil.rmtree(beside, ignore_errors=True)  # a failed export's pages, or the previous site swapped out


def _refuse_other_files(target: Path) -> None:
    """The folder is swapped out whole: it must be new, empty or an earlier export, never a folder of other
    files (a home folder given by mistake would be deleted)."""
    if not target.is_dir() or not any(target.iterdir()):
        return
    earlier = (target / MARKER).is_file() or ((target / "index.html").is_file() and (target / "search").is_dir())
    if not earlier:
        raise BadRequest(
            f"will not export into {target}: it holds files that are not an export, and an export replaces the "
            "folder whole; choose a new or empty folder"
        )


def _remove_abandoned(target: Path) -> None:
    """The folders that killed exports left beside ``target`` (their process is gone)."""
    for folder in target.parent.glob(f".{glob.escape(target.name)}{BESIDE}*"):
        try:
            os.kill(int(folder.name.rsplit("-", 1)[1]), 0)
        except (ValueError, ProcessLookupError):
            shutil.rmtree(folder, ignore_errors=True)
        except PermissionError:
            pass


def swap_in(new: Path, target: Path) -> None:
    """Put the folder ``new`` in the place of ``target``; the previous site, if any, ends up at ``new``.

    One atomic exchange where the kernel offers it (Linux's ``renameat2``): a web server serving ``target``
    sees the old site or the new one. Elsewhere, two renames, the folder missing between them for an instant.
    """
    if not target.exists():
        os.rename(new, target)
        return
    if _exchange(new, target):
        return
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    os.rename(target, old)
    os.rename(new, target)
    os.rename(old, new)


RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (``renameat2(..., RENAME_EXCHANGE)``); False where the system cannot."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # a file system without the exchange
        return False
    raise OSError(code, os.strerror(code), str(b))


def _export(settings: Settings, target: Path, base_url: str) -> dict:
    from .build import ensure_built
    from .web import create_app

    build = ensure_built(settings)
    app = create_app(settings, static_export=True)
    client = app.test_client()
    store = Store(build)
    written, failed = 0, []
    queue = Pending(start_pages(store))
    while queue:
        url = queue.pop()
        response = client.get(url, base_url=base_url)
        file = page_file(url)
        moved = redirect_target(response) if response.status_code in (301, 302, 307, 308) else None
        if moved is not None and file.endswith(".html"):  # a static host redirects nothing: a page that does
            body = REDIRECT_PAGE.format(url=moved, here=relative(file, moved))
        elif response.status_code != 200:
            failed.append((url, response.status_code))
            continue
        else:
            body = response.get_data(as_text=True)
        if file.endswith(".html"):
            for link in linked_pages(body):  # every page a page links to is exported too
                queue.add(link)
            root = posixpath.relpath(".", posixpath.dirname(file) or ".")
            root = "" if root == "." else root + "/"
            body = body.replace(
                '<meta name="rulings-static" content="1">',
                f'<meta name="rulings-static" content="1">\n<meta name="rulings-root" content="{root}">',
                1,
            )
            body = relative_links(body, file)
        out = target / file
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(body, encoding="utf-8")
        written += 1
    assert app.static_folder is not None  # create_app sets it
    shutil.copytree(
        app.static_folder, target / "static", dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.py", "__pycache__")
    )
    write_search_index(store, target)
    write_link_names(store, target)
    data = write_edition_data(store, target)
    return {"pages": written, "failed": failed, "target": str(target), "edition_data_bytes": data}
