"""`rulings mcp`: started as a subprocess and driven by the MCP SDK's own client, as an assistant's host would.

The tools answer what the CLI answers (the text of `rulings applies --json`, byte for byte), their links
are pages the site serves, a question the service cannot answer is a tool error with the CLI's status,
and no input (unknown game, a 10,000-character query, wrong types, stdin closed mid-request) crashes
the server or writes anything but protocol messages on stdout.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from .conftest import CORPUS, ROOT

BASE = "https://rules.example.org"
TOOLS = {"search", "applies", "diff", "changes", "cite", "linkify"}


def server_command(store: Path, corpus: Path = CORPUS) -> list[str]:
    return [sys.executable, "-m", "rulings", "--corpus", str(corpus), "--store", str(store), "mcp", "--base-url", BASE]


class Server:
    """One ``rulings mcp`` process and an SDK client session with it, run on an event loop in a thread of
    its own, so that each test calls it like a function (the process starts once per module)."""

    def __init__(self, command: list[str], errlog: Path):
        self.errlog = open(errlog, "w")  # noqa: SIM115 (closed by stop)
        self.params = StdioServerParameters(command=command[0], args=command[1:])
        self.connected = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.done = asyncio.run_coroutine_threadsafe(self._connect(), self.loop)

    async def _connect(self):
        self._stop = asyncio.Event()
        async with stdio_client(self.params, errlog=self.errlog) as (read, write):
            async with ClientSession(read, write) as session:
                self.session = session
                self.initialized = await session.initialize()
                self.connected.set()
                await self._stop.wait()

    def __call__(self, method: str, *args, timeout: float = 60):
        """``session.<method>(*args)``, awaited on the session's loop."""
        return asyncio.run_coroutine_threadsafe(getattr(self.session, method)(*args), self.loop).result(timeout)

    def tool(self, name: str, arguments: dict):
        return self("call_tool", name, arguments)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self._stop.set)
        try:
            self.done.result(30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.errlog.close()


def start(command: list[str], errlog: Path) -> Server:
    """A server that has answered ``initialize`` (within two minutes: it may build the store first)."""
    server = Server(command, errlog)
    deadline = time.monotonic() + 120
    while not server.connected.wait(0.05):
        if server.done.done():
            server.done.result()  # raises what stopped it
            raise RuntimeError("rulings mcp stopped before it answered initialize: " + errlog.read_text())
        if time.monotonic() > deadline:
            raise TimeoutError("rulings mcp did not answer initialize")
    return server


@pytest.fixture(scope="module")
def server(store_dir, tmp_path_factory):
    errlog = tmp_path_factory.mktemp("mcp") / "stderr.txt"
    running = start(server_command(store_dir), errlog)
    yield running
    running.stop()
    assert "Traceback" not in errlog.read_text()  # no crash, even on the bad input the tests sent


def text(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


def answer(result) -> dict:
    assert not result.is_error, text(result)
    return json.loads(text(result))


def refusal(result) -> dict:
    """A tool error carrying the CLI's JSON error (``{status, message, ...}``)."""
    assert result.is_error, text(result)
    return json.loads(text(result))


def site_path(url: str) -> str:
    return url.removeprefix(BASE)


def test_initialize_names_the_server_and_the_games(server):
    info = server.initialized
    assert info.server_info.name == "rulings"
    assert "marvel-champions (mc)" in info.instructions and "vs-system-2pcg" in info.instructions
    assert BASE in info.instructions  # where the `url` paths of the answers live


def test_tools_list_has_the_six_tools_with_schemas_and_one_line_descriptions(server):
    tools = {tool.name: tool for tool in server("list_tools").tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and "\n" not in tool.description and len(tool.description) < 120
        assert tool.input_schema["type"] == "object"
        assert tool.annotations.read_only_hint is True
    required = {name: set(tool.input_schema.get("required", [])) for name, tool in tools.items()}
    assert required == {
        "search": {"query"},
        "applies": {"game"},
        "diff": {"game", "term", "from", "to"},
        "changes": {"game", "from", "to"},
        "cite": {"game", "term"},
        "linkify": {"game", "text"},
    }
    assert tools["cite"].input_schema["properties"]["format"]["enum"] == ["markdown", "bbcode"]
    assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 100


APPLIES_QUESTIONS = [
    {"game": "mc", "term": "guard"},
    {"game": "marvel-champions", "term": "Guard", "version": "1.3"},
    {"game": "mc", "term": "excess damage", "version": "1.4.2"},
    {"game": "mc", "term": "attack", "date": "2020-03-01"},
    {"game": "mc", "date": "2020-03-01"},  # which version was in force
    {"game": "sotm", "term": "villain"},
    {"game": "mc", "term": "gaurd"},  # unknown-term, with suggestions
    {"game": "mc", "term": "guard", "version": "9.9"},  # unknown-version
    {"game": "mc", "term": "guard", "date": "2000-01-01"},  # before-first-version
    {"game": "mc", "term": "excess damage", "version": "1.3"},  # not-defined
    {"game": "nope", "term": "guard"},  # unknown-game
]


def _cli_args(question: dict) -> list[str]:
    args = ["applies", question["game"], *([question["term"]] if "term" in question else [])]
    for option in ("version", "date"):
        if option in question:
            args += [f"--{option}", question[option]]
    return [*args, "--json"]


@pytest.mark.parametrize("question", APPLIES_QUESTIONS, ids=lambda q: "-".join(q.values()))
def test_applies_text_is_the_cli_json_byte_for_byte(server, cli, question):
    result = server.tool("applies", question)
    printed = cli(*_cli_args(question))
    assert text(result) + "\n" == printed.output
    assert result.is_error == (printed.exit_code != 0)


def test_applies_answers_carry_version_date_complete_source_and_a_pinned_url_the_site_serves(server, client):
    data = answer(server.tool("applies", {"game": "mc", "term": "excess damage"}))
    # the 1.4.2 patch determines the text (issue 32): its text is complete
    assert (data["in_force"], data["version"], data["date"], data["complete"]) == ("1.5", "1.4.2", "2021-05-18", True)
    assert data["source"]["file"] == "rules-reference-changelog.txt" and data["source"]["line"]
    assert data["url"] == "/marvel-champions/v/1.5/terms/excess-damage"
    assert client.get(data["url"]).status_code == 200


def test_negative_answers_are_tool_errors_with_the_cli_statuses(server):
    unknown = refusal(server.tool("applies", {"game": "mc", "term": "gaurd"}))
    assert unknown["status"] == "unknown-term" and unknown["suggestions"] == ["Guard"]
    assert refusal(server.tool("applies", {"game": "mc", "term": "guard", "version": "9.9"}))["status"] == (
        "unknown-version"
    )
    before = refusal(server.tool("applies", {"game": "mc", "term": "guard", "date": "2000-01-01"}))
    assert before["status"] == "before-first-version"
    assert before["first_version"] == {"version": "1.0", "date": "2019-08-01"}
    game = refusal(server.tool("applies", {"game": "nope", "term": "guard"}))
    assert game["status"] == "unknown-game" and "marvel-champions" in game["games"]
    bad_date = refusal(server.tool("applies", {"game": "mc", "term": "guard", "date": "01/03/2020"}))
    assert bad_date == {"status": "error", "message": "bad date '01/03/2020': use YYYY-MM-DD"}


def test_search_finds_the_entry_with_a_url_the_site_serves(server, client):
    data = answer(server.tool("search", {"query": "can a minion with guard be attacked", "game": "mc", "limit": 3}))
    first = data["hits"][0]
    assert (first["title"], first["game"], first["url"]) == (
        "Guard",
        "marvel-champions",
        "/marvel-champions/terms/guard",
    )
    assert len(data["hits"]) <= 3
    for hit in data["hits"]:
        assert client.get(hit["url"]).status_code == 200, hit["url"]


def test_search_refuses_an_unknown_game_and_truncates_a_10000_character_query(server):
    assert refusal(server.tool("search", {"query": "guard", "game": "nope"}))["status"] == "unknown-game"
    long = answer(server.tool("search", {"query": "guard " * 1666 + "ab"}))
    assert long["truncated"] is True and long["hits"][0]["title"] == "Guard"


def test_diff_and_changes_answer_as_the_cli_does_with_urls_the_site_serves(server, cli, client):
    diff = server.tool("diff", {"game": "mc", "term": "guard", "from": "1.3", "to": "1.4"})
    assert text(diff) + "\n" == cli("diff", "mc", "guard", "1.3", "1.4", "--json").output
    data = answer(diff)
    assert data["changed"] is True and {op["op"] for op in data["ops"]} == {"equal", "insert", "delete"}
    assert data["url"] == "/marvel-champions/terms/guard/diff/1.3..1.4" and client.get(data["url"]).status_code == 200

    changes = server.tool("changes", {"game": "mc", "from": "1.3", "to": "1.4"})
    assert text(changes) + "\n" == cli("changes", "mc", "1.3", "1.4", "--json").output
    data = answer(changes)
    assert data["counts"] == {"added": 55, "changed": 49, "renamed": 7, "removed": 0}  # Player Deck, Encounter Deck new
    assert client.get(data["url"]).status_code == 200

    assert refusal(server.tool("diff", {"game": "mc", "term": "guard", "from": "1.3", "to": "7"}))["status"] == (
        "unknown-version"
    )
    assert refusal(server.tool("diff", {"game": "mc", "term": "nothing-at-all", "from": "1.3", "to": "1.4"}))[
        "status"
    ] == ("unknown-term")
    assert refusal(server.tool("changes", {"game": "nope", "from": "1.3", "to": "1.4"}))["status"] == "unknown-game"


def test_cite_gives_a_ready_citation_of_the_pinned_page_and_quotes_a_paragraph(server, client):
    data = answer(server.tool("cite", {"game": "mc", "term": "guard", "version": "1.4"}))
    url = f"{BASE}/marvel-champions/v/1.4/terms/guard"
    assert data["citation"] == f"[Guard \u2014 Marvel Champions: The Card Game, v1.4]({url})"
    assert (data["url"], data["version"], data["date"], data["complete"]) == (url, "1.4", "2021-04-21", True)
    assert data["source"]["file"] == "rules-reference-changelog.txt"
    anchor = data["paragraphs"][0]["anchor"]
    page = client.get(site_path(url))
    assert page.status_code == 200 and f'id="{anchor}"'.encode() in page.data

    quoted = answer(server.tool("cite", {"game": "mc", "term": "guard", "format": "bbcode", "paragraph": anchor}))
    assert quoted["url"] == f"{BASE}/marvel-champions/v/1.5/terms/guard#{anchor}"
    assert quoted["citation"] == f"[url={quoted['url']}]Guard \u2014 Marvel Champions: The Card Game, v1.5[/url]"
    label = "Guard, Marvel Champions: The Card Game, v1.5"  # as the paragraph menu of the page labels a quote
    assert quoted["quote"] == f"[quote]{quoted['text']}[/quote]\n\u2014 [url={quoted['url']}]{label}[/url]"
    assert quoted["text"].startswith("While a minion with the guard keyword is engaged with a player")

    missing = refusal(server.tool("cite", {"game": "mc", "term": "guard", "paragraph": "p-nowhere"}))
    assert missing["status"] == "unknown-paragraph" and anchor in missing["paragraphs"]
    assert refusal(server.tool("cite", {"game": "mc", "term": "gaurd"}))["status"] == "unknown-term"
    wrong_format = server.tool("cite", {"game": "mc", "term": "guard", "format": "html"})
    assert wrong_format.is_error and "format" in text(wrong_format)


def test_linkify_links_mentions_to_pages_the_site_serves(server, client):
    data = answer(server.tool("linkify", {"game": "mc", "text": "Does [[Guard]] stop [[Overkill@1.3]]? [[Nope]]"}))
    assert data["text"].startswith(f"Does [Guard]({BASE}/marvel-champions/terms/guard) stop [Overkill (v1.3)](")
    assert data["unresolved"] == ["[[Nope]]"] and data["truncated"] is False
    for link in data["links"]:
        assert client.get(site_path(link["url"]).partition("#")[0]).status_code == 200
    assert refusal(server.tool("linkify", {"game": "nope", "text": "[[Guard]]"}))["status"] == "unknown-game"


@pytest.mark.parametrize(
    "name, arguments",
    [
        ("applies", {"game": "mc", "term": 5}),
        ("applies", {"term": "guard"}),  # no game
        ("applies", {"game": "mc", "term": "x" * 10_000}),
        ("search", {"query": "guard", "limit": "ten"}),
        ("search", {"query": "guard", "limit": 1000}),
        ("search", {"query": ["guard"]}),
        ("diff", {"game": "mc", "term": "guard", "from": 1.3, "to": 1.4}),
        ("linkify", {"game": "mc", "text": None}),
        ("cite", {"game": {"slug": "mc"}, "term": "guard"}),
        ("cite", {"game": "mc", "term": "   "}),
        ("no-such-tool", {}),
    ],
)
def test_wrong_types_are_tool_errors_and_the_server_goes_on(server, name, arguments):
    result = server.tool(name, arguments)
    assert result.is_error and text(result)
    assert answer(server.tool("applies", {"game": "mc", "term": "guard"}))["term"] == "Guard"


def test_terms_are_resources_now_and_pinned(server, client):
    templates = {t.uri_template for t in server("list_resource_templates").resource_templates}
    assert templates == {
        "rulings://{game}/terms/{slug}",
        "rulings://{game}/v/{version}/terms/{slug}",
        "rulings://{game}/rules/{number}",
        "rulings://{game}/v/{version}/rules/{number}",
    }
    listed = {str(r.uri): r for r in server("list_resources").resources}
    assert {"rulings://marvel-champions/terms/guard", "rulings://vs-system-2pcg/terms/stun-stunned"} <= set(listed)
    assert listed["rulings://marvel-champions/terms/guard"].mime_type == "text/markdown"

    pinned = server("read_resource", "rulings://mc/v/1.3/terms/guard").contents[0]
    assert pinned.mime_type == "text/markdown"
    assert pinned.text.startswith("# Guard\n\nMarvel Champions: The Card Game, rules version 1.3; text from 1.0")
    assert "cannot attack villains without this keyword" in pinned.text
    link = pinned.text.rsplit("Link: ", 1)[1].strip()
    assert link == f"{BASE}/marvel-champions/v/1.3/terms/keywords#guard"
    assert client.get(site_path(link).partition("#")[0]).status_code == 200

    for uri in ("rulings://mc/terms/gaurd", "rulings://nope/terms/guard", "rulings://mc/v/9.9/terms/guard"):
        with pytest.raises(MCPError):
            server("read_resource", uri)


def _protocol_lines(stdout: bytes) -> list[dict]:
    """Every line on stdout is a JSON-RPC message: nothing else ever reaches the stream."""
    lines = stdout.decode().splitlines()
    messages = [json.loads(line) for line in lines]
    assert all(m.get("jsonrpc") == "2.0" for m in messages)
    return messages


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _lines(*messages: dict) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def test_stdin_closed_mid_request_ends_the_server_cleanly_and_stdout_holds_only_the_protocol(tmp_path):
    """The store is missing: the build made before serving writes nothing on stdout either."""
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "applies", "arguments": {"game": "mc", "term": "guard"}}}  # fmt: skip
    half = json.dumps(call).encode()[:40]  # the request is cut off: stdin closes in its middle
    process = subprocess.run(
        server_command(tmp_path / "store"), input=_lines(INITIALIZE, INITIALIZED) + b"not json\n" + half,
        capture_output=True, timeout=300,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr.decode()
    messages = _protocol_lines(process.stdout)
    assert messages[0]["id"] == 1 and messages[0]["result"]["serverInfo"]["name"] == "rulings"
    assert b"Traceback" not in process.stderr
    assert (tmp_path / "store" / "current").exists()


def test_a_server_whose_store_is_missing_builds_it_then_follows_the_corpus(corpus_copy, tmp_path):
    """A corpus changed while the server runs is built before the next answer, as every CLI command does."""
    store, errlog = tmp_path / "store", tmp_path / "stderr.txt"
    running = start(server_command(store, corpus_copy), errlog)
    try:
        assert (store / "current").exists()
        assert answer(running.tool("applies", {"game": "mc", "term": "guard"}))["version"] == "1.4"
        manifest = corpus_copy / "marvel-champions" / "game.toml"
        manifest.write_text(manifest.read_text().replace('aliases = ["mc"]', 'aliases = ["mc", "marvel"]'))
        time.sleep(1.1)  # CurrentBuild.CHECK_EVERY
        assert answer(running.tool("applies", {"game": "marvel", "term": "guard"}))["game"] == "marvel-champions"
    finally:
        running.stop()
    assert "Traceback" not in errlog.read_text()


def test_the_latency_bench_runs_small():
    """bench/mcp_latency.py, with one start-up and two calls of each tool (its figures are not asserted)."""
    bench = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "mcp_latency.py"), "--starts", "1", "--calls", "2"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert bench.returncode == 0, bench.stderr
    assert "spawn -> first tool call answered" in bench.stdout
    for tool in TOOLS:
        assert bench.stdout.count(f"  {tool} ") == 3, tool  # through the SDK, as JSON lines, in-process
