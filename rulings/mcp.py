"""``rulings mcp``: the service's answers as the tools and resources of a Model Context Protocol server on
stdin/stdout, so that an AI assistant quotes a rule as printed, pinned to its version, instead of
paraphrasing it from memory (docs/mcp.md).

Each tool is a front end over the function the CLI and the JSON API call (``graph.answers``,
``graph.compare``, ``graph.cite``, ``graph.linkify``, ``index.search``): one answer, three front ends.
A tool's text is the answer as ``rulings ... --json`` prints it; a question the service cannot answer
(``unknown-term`` with suggestions, ``unknown-version``, ``before-first-version``...) is a tool error
carrying the CLI's ``{status, message, ...}``, never a crash of the server. Built on the official SDK
(``mcp``, the ``rulings[mcp]`` extra), which also keeps stray output off the protocol stream: while it
serves, the process's stdout is the stream's private copy and file descriptor 1 writes to stderr.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Literal, TypeAlias

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.types import CallToolResult, Resource, TextContent, ToolAnnotations
from pydantic import Field

from . import __version__
from .build import ensure_built
from .errors import NotFound, RulingsError
from .graph import answers, compare, rules
from .graph.cite import FORMATS as CITE_FORMATS
from .graph.cite import cite as cite_answer
from .graph.linkify import FORMATS as LINK_FORMATS
from .graph.linkify import linkify_post
from .graph.store import Store
from .index.filters import KINDS as SEARCH_KINDS
from .index.search import Searcher
from .markup import plain_text
from .settings import Settings
from .urls import Urls

MAX_NAME = 100  # characters of a term name or rule number (the JSON API's limit, ``web.lookup``)
MAX_LABEL = 40  # ... of a version label or a date

# The arguments, as the tools' JSON schemas describe them to a model.
GameArg = Annotated[
    str,
    Field(
        description="The game's slug or alias, e.g. marvel-champions (mc); an unknown one answers with the list",
        min_length=1,
        max_length=MAX_NAME,
    ),
]
TermArg = Annotated[
    str,
    Field(
        description="A glossary term (any name, alias or slug, any case) or a numbered rule such as 702.19b",
        min_length=1,
        max_length=MAX_NAME,
    ),
]
VersionArg = Annotated[
    str | None,
    Field(description="A rules version label such as 1.4, or 'latest' (the default)", max_length=MAX_LABEL),
]
FromArg = Annotated[
    str, Field(validation_alias="from", description="The earlier version label", min_length=1, max_length=MAX_LABEL)
]
ToArg = Annotated[str, Field(description="The later version label", min_length=1, max_length=MAX_LABEL)]
# Made from the tuples the CLI and API check against, so the three front ends accept the same values (the
# tools' JSON schemas list them); mypy cannot read a Literal built at run time, so it sees plain strings.
if TYPE_CHECKING:
    SearchKind: TypeAlias = str
    LinkFormat: TypeAlias = str
    CiteFormat: TypeAlias = str
else:
    SearchKind = Literal[tuple(sorted(SEARCH_KINDS))]
    LinkFormat = Literal[LINK_FORMATS]
    CiteFormat = Literal[CITE_FORMATS]

MARKDOWN = "text/markdown"
TERM_URI = "rulings://{game}/terms/{slug}"  # the site's URLs, less the host (``urls.py``)
PINNED_TERM_URI = "rulings://{game}/v/{version}/terms/{slug}"
RULE_URI = "rulings://{game}/rules/{number}"
PINNED_RULE_URI = "rulings://{game}/v/{version}/rules/{number}"

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


class CurrentBuild:
    """The build the tools answer from, found as every CLI command finds it (``build.ensure_built``: built
    first when missing or older than the corpus); looked for again at most every ``CHECK_EVERY`` seconds
    (a look costs about 1.4 ms on the bundled corpus), and opened afresh when it changed."""

    CHECK_EVERY = 1.0

    def __init__(self, settings: Settings):
        self.settings = settings
        self._lock = threading.Lock()  # tools run on worker threads; one of them builds, the others wait
        self._checked = float("-inf")
        self._store: Store | None = None
        self._searcher: Searcher | None = None

    def store(self) -> Store:
        with self._lock:
            return self._current()

    def searcher(self) -> Searcher:
        with self._lock:
            store = self._current()
            if self._searcher is None:
                self._searcher = Searcher(store.build)
            return self._searcher

    def _current(self) -> Store:
        if self._store is None or time.monotonic() >= self._checked + self.CHECK_EVERY:
            build = ensure_built(self.settings)
            self._checked = time.monotonic()
            if self._store is None or self._store.build != build:
                self._store, self._searcher = Store(build), None
        return self._store


def as_json(data) -> str:
    """An answer's text: as ``rulings ... --json`` prints it (less the final newline)."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def reply(compute: Callable[[], object]) -> CallToolResult:
    """The tool result of an answer, or the tool error of a question the service cannot answer."""
    try:
        data = compute()
    except RulingsError as error:
        return CallToolResult(content=[TextContent(type="text", text=as_json(error.to_dict()))], is_error=True)
    return CallToolResult(content=[TextContent(type="text", text=as_json(data))])


INSTRUCTIONS = """\
Exact rules texts of tabletop card games, version by version, with their sources. Quote the text an \
answer gives rather than paraphrasing it; say which rules version it is from (`in_force`, and `version` \
for when the text last changed); when `complete` is false, say that the exact text is not fully known, \
and read `notes`. Every `url` is a path on the rulings site at {base}; `cite` gives a ready link.{games}"""


def instructions(build: CurrentBuild, base_url: str) -> str:
    """What the server tells a client when it connects: how to use the answers, and the games there are."""
    try:
        games = build.store().games()
    except RulingsError:  # no build, and none could be made: the tools will say why
        games = []
    listed = "; ".join(f"{g.slug}" + (f" ({', '.join(g.aliases)})" if g.aliases else "") for g in games)
    return INSTRUCTIONS.format(base=base_url, games=f" Games: {listed}." if listed else "")


def create_server(settings: Settings, base_url: str) -> MCPServer:
    """The server: six tools and each game's term and rule pages as resources."""
    build = CurrentBuild(settings)
    site = Urls(base_url)
    server = RulingsServer(
        build,
        site,
        name="rulings",
        title="Rulings: rules references for card games",
        version=__version__,
        instructions=instructions(build, site.base),
        log_level="WARNING",
    )
    add_tools(server, build, site)
    add_resources(server, build, site)
    return server


def add_tools(server: MCPServer, build: CurrentBuild, site: Urls) -> None:
    @server.tool(annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(description="A few words, as a player would type them; typos are fine")],
        game: Annotated[str | None, Field(description="Only this game (slug or alias)", max_length=MAX_NAME)] = None,
        kind: Annotated[
            SearchKind | None, Field(description="Only terms, sub-definitions, sections or rulings")
        ] = None,
        version: Annotated[
            str | None, Field(description="Search the texts of this version", max_length=MAX_LABEL)
        ] = None,
        limit: Annotated[int, Field(description="How many hits", ge=1, le=100)] = 10,
    ) -> CallToolResult:
        """Find the glossary entries, rules and rulings that answer a question, best first, each with its URL."""

        def answer():
            found = answers.require_game(build.store(), game).slug if game else None
            return build.searcher().search(query, game=found, kind=kind, version=version, limit=limit).as_dict()

        return reply(answer)

    @server.tool(annotations=READ_ONLY)
    def applies(
        game: GameArg,
        term: Annotated[
            str | None,
            Field(
                description="A term (name, alias or slug) or a rule number; omit it to ask which version was in force",
                max_length=MAX_NAME,
            ),
        ] = None,
        version: VersionArg = None,
        date: Annotated[
            str | None,
            Field(description="YYYY-MM-DD: the version in force that day (instead of version)", max_length=MAX_LABEL),
        ] = None,
    ) -> CallToolResult:
        """The exact text of a rule or term as in force at a version or on a date, with its source and pinned URL."""
        return reply(lambda: answers.applies(build.store(), game, term, version=version, date=date))

    @server.tool(annotations=READ_ONLY)
    def diff(game: GameArg, term: TermArg, from_: FromArg, to: ToArg) -> CallToolResult:
        """Word-level diff of one term or rule between two versions (ops: equal, insert, delete)."""
        return reply(lambda: compare.diff(build.store(), game, term, from_, to))

    @server.tool(annotations=READ_ONLY)
    def changes(game: GameArg, from_: FromArg, to: ToArg) -> CallToolResult:
        """Every term added, removed, changed or renamed between two versions of a game's rules."""
        return reply(lambda: compare.changes(build.store(), game, from_, to))

    @server.tool(annotations=READ_ONLY)
    def cite(
        game: GameArg,
        term: TermArg,
        version: VersionArg = None,
        format: Annotated[CiteFormat, Field(description="Markdown or forum BBCode")] = "markdown",
        paragraph: Annotated[
            str | None,
            Field(description="A paragraph's anchor (from `paragraphs`) to link and quote it", max_length=MAX_NAME),
        ] = None,
    ) -> CallToolResult:
        """A ready citation of a term or rule (or one paragraph of it, quoted) linking its version-pinned page."""
        return reply(lambda: cite_answer(build.store(), game, term, version, format, paragraph, site.base))

    @server.tool(annotations=READ_ONLY)
    def linkify(
        game: GameArg,
        text: Annotated[str, Field(description="A post whose [[term]] or [[term@1.2]] mentions become links")],
        format: Annotated[LinkFormat, Field(description="The post's markup")] = "markdown",
    ) -> CallToolResult:
        """Turn the [[term]] mentions of a forum post into links to the terms' pages."""

        def answer():
            store = build.store()
            return linkify_post(store, answers.require_game(store, game), text, format, site.base)

        return reply(answer)


class RulingsServer(MCPServer):
    """``resources/list`` names every glossary term of every game in the build being served (it changes
    with the build; rules and pinned versions are read through the templates)."""

    def __init__(self, build: CurrentBuild, site: Urls, **options):
        super().__init__(**options)
        self._build, self._site = build, site

    async def list_resources(self) -> list[Resource]:
        try:
            store = self._build.store()
        except RulingsError:
            return []
        listed = []
        for game in store.games():
            for term in store.terms(game, ("entry", "keyword")):
                uri = TERM_URI.format(game=game.slug, slug=term.slug)
                listed.append(Resource(uri=uri, name=term.name, title=f"{term.name} ({game.name})", mime_type=MARKDOWN))
        return listed


def add_resources(server: MCPServer, build: CurrentBuild, site: Urls) -> None:
    """A term's or a numbered rule's text as in force now or at a version: Markdown with its source and link."""

    def read(game: str, name: str, version: str | None, rule: bool) -> str:
        try:
            store = build.store()
            found = answers.require_game(store, game)
            exists = rules.is_rule_number(store, found, name) if rule else store.term_by_slug(found, name)[0]
            if not exists:  # a URI names one page: no guessing at a typo, as a question's answer may
                raise NotFound(f"no {'rule' if rule else 'term'} {name!r} in {found.name}")
            return resource_text(answers.applies(store, found.slug, name, version=version), found.name, site)
        except NotFound as error:
            raise ResourceNotFoundError(error.message) from error
        except RulingsError as error:
            raise ResourceError(error.message) from error

    @server.resource(TERM_URI, name="term", description="A glossary term's text as in force now", mime_type=MARKDOWN)
    def term(game: str, slug: str) -> str:
        return read(game, slug, None, rule=False)

    @server.resource(PINNED_TERM_URI, name="pinned term", description="... pinned to a version", mime_type=MARKDOWN)
    def term_pinned(game: str, version: str, slug: str) -> str:
        return read(game, slug, version, rule=False)

    @server.resource(RULE_URI, name="rule", description="A numbered rule as in force now", mime_type=MARKDOWN)
    def rule(game: str, number: str) -> str:
        return read(game, number, None, rule=True)

    @server.resource(PINNED_RULE_URI, name="pinned rule", description="... pinned to a version", mime_type=MARKDOWN)
    def rule_pinned(game: str, version: str, number: str) -> str:
        return read(game, number, version, rule=True)


def resource_text(answer: dict, game_name: str, site: Urls) -> str:
    """An ``applies`` answer as a page to attach to a conversation: name, version, source, text, notes, link."""
    source = answer["source"] or {}
    where = ", ".join(
        str(p) for p in (source.get("title"), f"line {source['line']}" if source.get("line") else None) if p
    )
    lines = [
        f"# {answer.get('name') or answer['term']}",
        "",
        f"{game_name}, rules version {answer['in_force']}; text from {answer['version']} "
        f"({answer['date'] or 'undated'}), {answer['change']}" + (f"; source: {where}" if where else ""),
    ]
    if answer["superseded_by"]:
        lines.append(f"Superseded in {answer['superseded_by']['version']} ({answer['superseded_by']['date']}).")
    if not answer["complete"]:
        lines.append("The exact text of this version is not fully known.")
    lines += ["", plain_text(answer["text"]), ""]
    lines += [f"- {note}" for note in answer["notes"]]
    lines += ["", f"Link: {site.base}{answer['url']}", ""]
    return "\n".join(lines)


def run(settings: Settings, base_url: str) -> None:
    """Serve on stdin/stdout until the client closes stdin."""
    with stdout_to_stderr():  # a build before serving (and its processes) writes nowhere near the stream
        server = create_server(settings, base_url)
    server.run("stdio")  # the SDK keeps file descriptor 1 off the stream while it serves


@contextmanager
def stdout_to_stderr():
    """File descriptor 1 (what this process and its children print) writes to stderr for a while."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
