"""The ``rulings`` command line (docs/reference.md gives the contract and exit statuses)."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from dataclasses import replace
from typing import Any

import click

from . import __version__
from .build import build as run_build
from .build import ensure_built, quality_reports
from .builds import Damage, intact_build, verify
from .errors import BadRequest, CorpusError, RulingsError, StoreError, Unanswerable
from .graph import answers, build_facts, compare, rules, ruling_rows
from .graph.report import changes_markdown
from .graph.store import Store
from .index.filters import KINDS as SEARCH_KINDS
from .ingest.manifest import located
from .ingest.report import explanation
from .markup import plain_text
from .settings import ServerOptions, Settings
from .urls import Urls


class CliState:
    """What every command shares: where the corpus and store are, the store opened once, JSON mode."""

    def __init__(self, corpus: str | None, store: str | None):
        self.settings = Settings.resolve(corpus, store)
        self.store_option = store  # as given: ``build --corpus`` resolves its own default store
        self.as_json = False  # set by --json (json_option), so errors print as JSON too
        self._store: Store | None = None
        self._searcher = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(ensure_built(self.settings))
        return self._store

    def damaged_build(self) -> StoreError | None:
        """After an unexpected error: the build this command read, when its files fail their checksums
        (every file hashed: a garbled page that broke a query may have left no trace in the files' stat
        fields), said in one error; it is set aside, so the next command answers from an intact build."""
        build = self._store.build if self._store is not None else None
        problems = verify(build, thorough=True) if build is not None else []
        if build is None or not problems:
            return None
        damage = Damage(build, problems)
        fallback = intact_build(self.settings.store, lambda _: None, known=(damage,))
        then = f"the next command answers from build {fallback.name}" if fallback else "run `rulings build`"
        return StoreError(f"{damage}; {then}")

    @property
    def searcher(self):
        from .index.search import Searcher

        if self._searcher is None:
            self._searcher = Searcher(self.store.build)
        return self._searcher


def _remember_json(ctx: click.Context, _param, value: bool) -> bool:
    state = ctx.find_object(CliState)
    assert state is not None  # made by ``main`` for every command
    state.as_json = value
    return value


def _given(_ctx: click.Context, param: click.Parameter, value):
    """An option given an empty value is refused, not taken as left out: ``--date "$DAY"`` with ``DAY`` unset
    would otherwise answer for today's version, and ``--store ""`` build into the current folder."""
    if isinstance(value, str) and not value.strip():
        raise click.BadParameter("must not be empty (leave the option out instead)", param=param)
    return value


def json_option(help: str = "Print JSON (a negative answer or an error too: {status, message, ...})."):
    return click.option("--json", "as_json", is_flag=True, help=help, callback=_remember_json)


def _emit(data, as_json: bool, human) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        human(data)


def _human_error(error: RulingsError) -> None:
    if isinstance(error, Unanswerable):  # a negative answer is an answer: stdout, "status: message"
        click.echo(f"{error.status}: {error.message}")
        if error.extra.get("suggestions"):
            click.echo("did you mean: " + ", ".join(error.extra["suggestions"]))
    elif isinstance(error, CorpusError):  # "path:line: error: message", as compilers say it
        click.echo(error.message, err=True)
    else:
        click.echo(f"error: {error.message}", err=True)


class RulingsGroup(click.Group):
    """Every error of the service ends a command the same way: its JSON shape under ``--json``,
    otherwise one clean line; then the error's documented exit status. An unexpected error while
    reading a build is first taken for damage to its files: when they fail their checksums, that is
    the one line (and the build is set aside for the next command), never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RulingsError as error:
            self.fail_with(ctx, error)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception:
            state = ctx.find_object(CliState)
            damaged = state.damaged_build() if state is not None else None
            if damaged is None:
                raise  # a fault of the code, not of the build: its traceback is the report
            self.fail_with(ctx, damaged)

    @staticmethod
    def fail_with(ctx, error: RulingsError):
        state = ctx.find_object(CliState)
        if state is not None and state.as_json:
            click.echo(json.dumps(error.to_dict(), ensure_ascii=False, indent=2))
        else:
            _human_error(error)
        sys.exit(error.exit_code)


@click.group(cls=RulingsGroup)
@click.version_option(__version__, prog_name="rulings")
@click.option("--corpus", type=click.Path(file_okay=False), callback=_given, help="Corpus folder (default: ./corpus).")
@click.option(
    "--store",
    type=click.Path(file_okay=False),
    callback=_given,
    help="Where builds live (default: ./var/store; another corpus its own, ./var/corpus-magic: ./var/store-magic).",
)
@click.pass_context
def main(ctx: click.Context, corpus: str | None, store: str | None) -> None:
    """Rules references, rulings and rule versions for card games."""
    ctx.obj = CliState(corpus, store)


@main.command()
@click.option(
    "--corpus", "corpus_override", type=click.Path(file_okay=False), callback=_given, help="Corpus folder to build."
)
@click.option("--full", is_flag=True, help="Rebuild every game, not just the changed ones.")
@click.option(
    "--explain",
    "explain",
    metavar="FILE",
    callback=_given,
    help="Then show how FILE was read: every entry and why, every warning.",
)
@json_option("Print the build report as JSON (an error too: {status, message, ...}).")
@click.pass_obj
def build(obj: CliState, corpus_override: str | None, full: bool, explain: str | None, as_json: bool) -> None:
    """Parse the corpus and build graph + index; swap in atomically.

    Prints one line per document it parsed (entries, cross-references, lines not placed, warnings);
    --explain FILE shows that document's report in full.
    """
    settings = Settings.resolve(corpus_override or obj.settings.corpus, obj.store_option)
    report = run_build(settings, incremental=not full)
    assert report is not None  # it returns None only when asked to build just when stale
    explained = _explained(report.build, explain) if explain else None
    data = report.as_dict()
    if as_json:
        click.echo(json.dumps(explained or data, indent=2, ensure_ascii=False))
        return
    for warning in report.diagnostics:  # "file:line: warning: message", the file where --corpus has it
        if warning.level == "warning":
            click.echo(replace(warning, path=located(warning.path, settings.corpus)), err=True)
    for suggestion in data["suggestions"]:
        click.echo(f"suggestion: {suggestion}", err=True)
    for merge in data["merges"]:  # "file:line: merge: why a name was taken for a term printed under another"
        click.echo(merge, err=True)
    for document in report.documents:
        click.echo(document.summary())
    counts = data["counts"]
    click.echo(
        f"built {counts.get('games', 0)} games, {counts.get('documents', 0)} documents, "
        f"{counts.get('terms', 0)} terms, {counts.get('rulings', 0)} rulings, "
        f"{counts.get('versions', 0)} versions"
        + (
            f" ({counts['rebuilt_games']} games rebuilt, the rest carried over)"
            if counts.get("incremental")
            else f", {counts.get('indexed', 0)} index entries"
        )
        + f" in {report.seconds:.2f} s -> {report.build}"
    )
    if explained:
        click.echo("")
        click.echo("\n".join(explanation(explained)))


def _explained(build_dir, file: str) -> dict:
    """The quality report of the document ``file`` names (its corpus path, game/file, or file name)."""
    documents = [d for docs in quality_reports(build_dir).values() for d in docs]
    wanted = file.replace("\\", "/").strip("/")
    parts = wanted.split("/")
    found: list[dict] = []
    for tail in ("/".join(parts[-2:]), parts[-1]):  # game/file as the corpus has it, then the file's name
        found = found or [d for d in documents if d["path"].endswith("/" + tail)]
    if len(found) != 1:
        names = sorted(d["path"] for d in documents)
        close = [n for n in names if wanted.rsplit("/", 1)[-1].lower() in n.lower()][:10]
        why = "names several documents" if found else "is no document of the corpus"
        raise BadRequest(f"--explain {file} {why}" + (f"; did you mean {', '.join(close)}?" if close else ""))
    return found[0]


@main.command()
@click.argument("game")
@click.option("--version", "version", callback=_given, help="Only terms defined in this version.")
@click.option("--all", "include_sections", is_flag=True, help="Include document sections.")
@json_option()
@click.pass_obj
def terms(obj: CliState, game: str, version: str | None, include_sections: bool, as_json: bool) -> None:
    """List a game's glossary terms."""
    data = answers.terms_listing(obj.store, game, version, include_sections)

    def human(rows):
        for row in rows:
            extra = f" -> {row['redirect']}" if row["redirect"] else ""
            aliases = f" ({', '.join(row['aliases'])})" if row["aliases"] else ""
            click.echo(f"{row['name']}{aliases}{extra}  [{', '.join(row['versions'])}]")

    _emit(data, as_json, human)


def _human_applies(d: dict) -> None:
    if "term" not in d:  # which version was in force
        later = f"; superseded by {d['superseded_by']['version']}" if d["superseded_by"] else "; still current"
        click.echo(f"{d['in_force']} ({d['date'] or 'undated'}) was in force{later}\n{d['url']}")
        return
    click.echo(f"{d['term']} \u2014 as in force in {d['in_force']}")
    source = d["source"]
    click.echo(
        f"text from {d['version']} ({d['date'] or 'undated'}), {d['change']}; "
        f"source: {source.get('title')}, line {source.get('line')}"
    )
    if d["superseded_by"]:
        click.echo(f"superseded in {d['superseded_by']['version']} ({d['superseded_by']['date']})")
    if not d["complete"]:
        click.echo("note: the exact text of this version is not fully known")
    click.echo("")
    for paragraph in plain_text(d["text"]).split("\n"):
        click.echo(textwrap.fill(paragraph, 88) if paragraph.strip() else "")
    for note in d["notes"]:
        click.echo(f"\n* {note}")
    click.echo(f"\n{d['url']}")


@main.command()
@click.argument("game")
@click.argument("term", required=False)
@click.option("--version", "version", callback=_given, help="A version label, e.g. 1.2.")
@click.option("--date", "date", callback=_given, help="A date, YYYY-MM-DD: the version in force that day.")
@json_option()
@click.pass_obj
def applies(obj: CliState, game: str, term: str | None, version: str | None, date: str | None, as_json: bool) -> None:
    """Which text of TERM (a name, alias, slug or rule number) applies at a version or on a date.

    Without TERM: which version was in force.
    """
    data = answers.applies(obj.store, game, term, version=version, date=date)
    _emit(data, as_json, _human_applies)


def _human_diff(d: dict) -> None:
    click.echo(f"{d['term']}: {d['from']} -> {d['to']}" + ("" if d["changed"] else " (unchanged)"))
    marks = {"equal": ("", ""), "insert": ("{+", "+}"), "delete": ("[-", "-]")}
    color = {"insert": "green", "delete": "red"}
    out = []
    for op in d["ops"]:
        left, right = marks[op["op"]]
        piece = f"{left}{op['text']}{right}"
        out.append(click.style(piece, fg=color.get(op["op"])) if op["op"] in color else piece)
    click.echo("".join(out))


@main.command()
@click.argument("game")
@click.argument("term")
@click.argument("start", metavar="FROM")
@click.argument("end", metavar="TO")
@json_option()
@click.pass_obj
def diff(obj: CliState, game: str, term: str, start: str, end: str, as_json: bool) -> None:
    """Word-level diff of TERM between two versions."""
    data = compare.diff(obj.store, game, term, start, end)
    _emit(data, as_json, _human_diff)


def base_url_option():
    """Where the site lives, for the links a command writes (RULINGS_BASE_URL, else a local server)."""
    return click.option(
        "--base-url",
        default=lambda: os.environ.get("RULINGS_BASE_URL", "http://127.0.0.1:5000"),
        show_default="RULINGS_BASE_URL or http://127.0.0.1:5000",
    )


@main.command()
@click.argument("game")
@click.argument("start", metavar="FROM")
@click.argument("end", metavar="TO")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="markdown: a report to post to a forum, with each changed term's word redline and links.",
)
@base_url_option()
@json_option()
@click.pass_obj
def changes(obj: CliState, game: str, start: str, end: str, fmt: str, base_url: str, as_json: bool) -> None:
    """Terms added, removed, changed and renamed between two versions (and numbered rules by number)."""
    if fmt == "markdown" and not as_json:
        data = compare.changes(obj.store, game, start, end, redlines=True)
        name = answers.require_game(obj.store, game).name
        click.echo(changes_markdown(data, name, Urls(base_url)), nl=False)
        return
    data = compare.changes(obj.store, game, start, end)

    def human(d):
        click.echo(f"{d['game']}: {d['from']} -> {d['to']}")
        for kind in ("added", "changed", "removed"):
            click.echo(f"\n{kind} ({len(d[kind])}):")
            for name in d[kind]:
                click.echo(f"  {name}")
        if d["renamed"]:
            click.echo(f"\nrenamed ({len(d['renamed'])}):")
            for pair in d["renamed"]:
                click.echo(f"  {pair['from']} -> {pair['to']}")
        numbered = d.get("rules")
        if numbered:
            for kind in ("changed", "moved", "added", "removed"):
                click.echo(f"\nrules {'renumbered' if kind == 'moved' else kind} ({len(numbered[kind])}):")
                for item in numbered[kind]:
                    was = f"{item.get('from') or item.get('was')} -> " if item.get("from") or item.get("was") else ""
                    click.echo(f"  {was}{rules.heading(item['number'], item['name'])}")
        if d.get("matter"):
            matter = "; ".join(f"{k} {', '.join(v)}" for k, v in d["matter"].items() if v)
            click.echo(f"\nfront and back matter (not glossary terms): {matter}")

    _emit(data, as_json, human)


@main.command()
@click.argument("query")
@click.option("--game", callback=_given, help="Only this game (slug or alias).")
@click.option(
    "--kind",
    type=click.Choice(sorted(SEARCH_KINDS), case_sensitive=False),
    help="What to search: terms, sub-definitions, sections or rulings (errata, faq...).",
)
@click.option("--version", "version", callback=_given, help="Search the texts of this version.")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True)
@json_option()
@click.pass_obj
def search(
    obj: CliState, query: str, game: str | None, kind: str | None, version: str | None, limit: int, as_json: bool
) -> None:
    """Ranked full-text search; the defining entry first."""
    game_slug = answers.require_game(obj.store, game).slug if game else None  # unknown: exit 1, like every command
    results = obj.searcher.search(query, game=game_slug, kind=kind, version=version, limit=limit)
    if as_json:
        click.echo(json.dumps([h.as_dict() for h in results.hits], ensure_ascii=False, indent=2))
        return
    if results.did_you_mean:
        click.echo(("showing results for: " if results.corrected else "did you mean: ") + results.did_you_mean)
    if not results.hits:
        click.echo(results.message or "no matches")
    for i, hit in enumerate(results.hits, 1):
        click.echo(f"{i:>2}. {hit.title}  [{hit.game}, {hit.kind}]  {hit.url}")
        click.echo(textwrap.indent(textwrap.fill(hit.as_dict()["snippet"], 84), "     "))


@main.command()
@click.option("--host", default=ServerOptions.host, show_default=True, help="Address to listen on.")
@click.option("--port", default=ServerOptions.port, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--threads", default=ServerOptions.threads, show_default=True, type=click.IntRange(1, 256),
    help="Requests worked on at once.",
)  # fmt: skip
@click.option(
    "--connection-limit", default=ServerOptions.connection_limit, show_default=True, type=click.IntRange(1, 100_000),
    help="Open connections, idle ones included; more wait in the backlog.",
)  # fmt: skip
@click.option(
    "--channel-timeout", default=ServerOptions.channel_timeout, show_default=True, type=click.IntRange(1, 3600),
    help="Seconds before an idle connection or an unfinished request is closed.",
)  # fmt: skip
@click.option(
    "--backlog", default=ServerOptions.backlog, show_default=True, type=click.IntRange(1, 65535),
    help="Connections the kernel queues while the limit is reached.",
)  # fmt: skip
@click.option(
    "--time-limit", default=ServerOptions.time_limit, show_default=True, type=click.FloatRange(0.1, 600),
    help="Seconds of graph queries and index searches one request may take (then a 503).",
)  # fmt: skip
@click.pass_obj
def serve(obj: CliState, **options) -> None:
    """Serve the site and the JSON API with waitress (production WSGI server)."""
    from .web import create_app
    from .web.serve import addresses, create

    app = create_app(obj.settings)
    server = create(app, ServerOptions(**options))  # a bad address fails before any build
    ensure_built(obj.settings)
    current = app.extensions["rulings"]
    current.open_now()  # the first request pays for no opening...
    current.watch()  # ...nor does the first one after a new build
    click.echo(f"serving {obj.settings.store} on {' and '.join(addresses(server))}", err=True)
    server.run()


@main.command()
@click.argument("game")
@click.option(
    "--format", "fmt", type=click.Choice(["markdown", "bbcode", "html"]), default="markdown", show_default=True
)
@base_url_option()
@click.pass_obj
def linkify(obj: CliState, game: str, fmt: str, base_url: str) -> None:
    """Read a post on stdin, write it with [[term]] mentions linked."""
    from .graph.linkify import linkify as run_linkify

    found = answers.require_game(obj.store, game)
    result = run_linkify(obj.store, found, sys.stdin.read(), fmt, base_url)
    click.echo(result["text"], nl=False)
    for missing in result["unresolved"]:
        click.echo(f"warning: no term for {missing}", err=True)


@main.command()
@base_url_option()
@click.pass_obj
def mcp(obj: CliState, base_url: str) -> None:
    """Serve AI assistants: a Model Context Protocol server on stdin/stdout (tools search, applies, diff,
    changes, cite, linkify; docs/mcp.md). Needs the MCP SDK: pip install 'rulings[mcp]'."""
    try:
        from .mcp import run
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "mcp":
            raise
        raise RulingsError("rulings mcp needs the MCP SDK: pip install 'rulings[mcp]'") from None
    try:
        run(obj.settings, base_url)
    except KeyboardInterrupt:  # the client stopped the server
        pass


@main.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--base-url",
    default="http://localhost/",
    show_default=True,
    help="Absolute URL the site will live at (used in citations and feeds).",
)
@click.pass_obj
def export(obj: CliState, directory: str, base_url: str) -> None:
    """Write the whole site as static files into DIRECTORY."""
    from pathlib import Path

    from .export import export as run_export

    result = run_export(obj.settings, Path(directory), base_url)
    for url, code in result["failed"]:
        click.echo(f"warning: {url} answered {code}; not exported", err=True)
    click.echo(f"exported {result['pages']} pages to {result['target']}")


@main.command("import")
@click.argument("source", type=click.Path(exists=True, file_okay=False))
@click.option(
    "--into",
    "corpus",
    type=click.Path(file_okay=False),
    help="Corpus folder to create games in (default: the --corpus folder).",
)
@click.option(
    "--group",
    is_flag=True,
    help="One game for files that differ only by document kind (agricola-rulebook.md + agricola_faq.md).",
)
@click.option("--link", is_flag=True, help="Symlink the documents instead of copying them.")
@click.pass_obj
def import_(obj: CliState, source: str, corpus: str | None, group: bool, link: bool) -> None:
    """Create one game (with a generated game.toml) per rulebook file in SOURCE."""
    from pathlib import Path

    from .ingest.importer import import_folder

    target = Path(corpus) if corpus else obj.settings.corpus
    games, refused = import_folder(Path(source), target, group=group, link=link)
    for path, reason in refused:
        click.echo(f"left out {path.name}: {reason}", err=True)
    created = [g for g in games if not g.skipped]
    for game in games:
        if game.skipped:
            click.echo(f"skipped {game.slug}: it already has a game.toml", err=True)
    documents = sum(len(g.documents) for g in created)
    click.echo(f"imported {len(created)} games ({documents} documents) into {target}; run `rulings build`")


@main.command()
@click.option("--all", "every", is_flag=True, help="Check every build in the store, not only the current one.")
@json_option()
@click.pass_obj
def check(obj: CliState, every: bool, as_json: bool) -> None:
    """Verify a build's files against the checksums it recorded (exit 1 when one is damaged)."""
    from .builds import build_info, current_build, finished_builds

    current = current_build(obj.settings.store)
    builds = finished_builds(obj.settings.store) if every else [current] if current else []
    if not builds:
        raise StoreError(f"no build in {obj.settings.store}; run `rulings build`")
    data = [
        {
            "build": build.name,
            "current": build == current,
            "files": len(build_info(build).get("files") or {}),
            "problems": verify(build, thorough=True),
        }
        for build in builds
    ]

    def human(rows):
        for row in rows:
            label = f"build {row['build']}" + (" (current)" if row["current"] else "")
            if row["problems"]:
                click.echo(f"{label}: damaged: " + "; ".join(row["problems"]))
            elif row["files"]:
                click.echo(f"{label}: intact ({row['files']} files match their checksums)")
            else:
                click.echo(f"{label}: no checksums recorded (built by an older version); rebuild to record them")

    _emit(data, as_json, human)
    if any(row["problems"] for row in data):
        sys.exit(1)  # a negative answer: a build is damaged


@main.command()
@json_option()
@click.pass_obj
def stats(obj: CliState, as_json: bool) -> None:
    """Counts of what the current build holds."""
    store = obj.store
    data: dict[str, Any] = {
        "build": store.build.name,
        "counts": build_facts.counts(store),
        "games": [],
    }
    for game in store.games():
        data["games"].append(
            {
                "slug": game.slug,
                "name": game.name,
                "documents": len(store.documents(game)),
                "versions": [v.label for v in store.versions(game)],
                "terms": len(store.terms(game, ("entry", "keyword"))),
                "sections": len(store.terms(game, ("section",))),
                "rulings": len(ruling_rows.rulings(store, game)),
                "cards": len(ruling_rows.cards(store, game)),
                "furniture_lines": build_facts.furniture_count(store, game),
            }
        )
    data["diagnostics"] = build_facts.diagnostics(store)

    def human(d):
        click.echo(f"build {d['build']}")
        for g in d["games"]:
            click.echo(
                f"{g['slug']}: {g['terms']} terms, {g['sections']} sections, {g['rulings']} rulings, "
                f"{g['cards']} cards, versions {', '.join(g['versions'])}"
            )

    _emit(data, as_json, human)
