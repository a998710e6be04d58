"""`rulings mcp` as an assistant's host sees it: start-up to the first answered tool call, and each tool's
round trip, through the MCP SDK's own client over stdio, on a store of the bundled corpus built beforehand.

    python bench/mcp_latency.py [--starts 5] [--calls 60]

Start-up is timed from spawning the process to the answer of ``initialize`` and then of a first ``applies``
call (medians of ``--starts`` processes); beside it, the time Python takes to import the SDK alone, which is
most of it. Each tool is then called ``--calls`` times in one session with varied arguments (medians and
p99 of the round trip): through the SDK's client, as JSON lines written and read by hand (the server's
share), and computed in-process (the answer's own cost), so each layer's share shows.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, built_store, summary
from mcp import ClientSession, StdioServerParameters, stdio_client

from rulings.graph import answers, compare
from rulings.graph.cite import cite
from rulings.graph.linkify import linkify_post
from rulings.index.search import Searcher

QUERIES = ["guard", "can I attack with a stunned ally", "excess damage", "retaliate", "how does surge work", "villian"]


def calls(store) -> dict[str, list[dict]]:
    """Varied arguments for each tool: Marvel Champions terms at each version, searches, ranges."""
    game = store.game("marvel-champions")
    terms = [t.name for t in store.terms(game, ("entry", "keyword"))]
    labels = [v.label for v in store.versions(game)]
    pairs = list(itertools.product(terms, labels))
    step = max(1, len(pairs) // 200)
    spread = pairs[::step]
    return {
        "applies": [{"game": "mc", "term": t, "version": v} for t, v in spread],
        "search": [{"query": q, "game": g} for q in QUERIES for g in ("mc", None)],
        "diff": [{"game": "mc", "term": t, "from": "1.1", "to": "1.4"} for t in terms],
        "changes": [{"game": "mc", "from": a, "to": b} for a, b in itertools.combinations(labels, 2)],
        "cite": [{"game": "mc", "term": t} for t in terms],
        "linkify": [{"game": "mc", "text": f"Does [[{a}]] change [[{b}@1.3]]?"} for a, b in itertools.pairwise(terms)],
    }


def in_process(store, build_dir) -> dict:
    """The same answers without the protocol: what the tools' front end adds shows beside them."""
    searcher = Searcher(build_dir)
    game = store.game("marvel-champions")
    return {
        "applies": lambda a: answers.applies(store, a["game"], a["term"], version=a["version"]),
        "search": lambda a: searcher.search(a["query"], game=a["game"] and "marvel-champions").as_dict(),
        "diff": lambda a: compare.diff(store, a["game"], a["term"], a["from"], a["to"]),
        "changes": lambda a: compare.changes(store, a["game"], a["from"], a["to"]),
        "cite": lambda a: cite(store, a["game"], a["term"], base_url="http://127.0.0.1:5000"),
        "linkify": lambda a: linkify_post(store, game, a["text"], "markdown", "http://127.0.0.1:5000"),
    }


def server(store_dir: Path) -> StdioServerParameters:
    args = ["-m", "rulings", "--corpus", str(ROOT / "corpus"), "--store", str(store_dir), "mcp"]
    return StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT))


async def start_up(store_dir: Path) -> tuple[float, float]:
    """Milliseconds from spawning ``rulings mcp`` to the answer of ``initialize``, and of a first tool call."""
    started = time.perf_counter()
    async with stdio_client(server(store_dir)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        initialized = time.perf_counter()
        result = await session.call_tool("applies", {"game": "mc", "term": "guard"})
        answered = time.perf_counter()
        assert not result.is_error, result
    return (initialized - started) * 1000, (answered - started) * 1000


async def round_trips(store_dir: Path, work: dict[str, list[dict]], count: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    async with stdio_client(server(store_dir)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for tool, arguments in work.items():
            await session.call_tool(tool, arguments[0])  # the first call of a tool opens what it reads
            samples = []
            for args in itertools.islice(itertools.cycle(arguments), count):
                begin = time.perf_counter()
                result = await session.call_tool(tool, args)
                samples.append((time.perf_counter() - begin) * 1000)
                assert not result.is_error or tool in ("applies", "diff"), (tool, args, result)
            out[tool] = samples
    return out


def raw_round_trips(store_dir: Path, work: dict[str, list[dict]], count: int) -> dict[str, list[float]]:
    """The same calls written as JSON lines on the server's stdin and read back from its stdout: the server's
    share of a round trip, without the SDK client's."""
    params = server(store_dir)
    process = subprocess.Popen([params.command, *params.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    ids = itertools.count(1)

    def ask(method: str, params: dict | None = None) -> dict:
        message = {"jsonrpc": "2.0", "id": next(ids), "method": method, **({"params": params} if params else {})}
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    ask("initialize", hello)
    process.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    out: dict[str, list[float]] = {}
    for tool, arguments in work.items():
        ask("tools/call", {"name": tool, "arguments": arguments[0]})
        samples = []
        for args in itertools.islice(itertools.cycle(arguments), count):
            begin = time.perf_counter()
            assert "result" in ask("tools/call", {"name": tool, "arguments": args})
            samples.append((time.perf_counter() - begin) * 1000)
        out[tool] = samples
    process.stdin.close()
    process.wait(30)
    return out


def import_floor(runs: int) -> list[float]:
    """Milliseconds to start Python and import the SDK's server and nothing else."""
    out = []
    for _ in range(runs):
        begin = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import mcp.server.mcpserver"], check=True)
        out.append((time.perf_counter() - begin) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=5, help="processes started for the start-up figure")
    parser.add_argument("--calls", type=int, default=60, help="calls of each tool in one session")
    options = parser.parse_args()

    store, build_dir = built_store()
    store_dir = build_dir.parent.parent  # <store>/builds/<id>
    work = calls(store)

    starts = [asyncio.run(start_up(store_dir)) for _ in range(options.starts)]
    floor = import_floor(options.starts)
    print(f"start-up, median of {options.starts} processes (the store built beforehand):")
    print(f"  spawn -> initialize answered        {statistics.median(s[0] for s in starts):8.1f} ms")
    print(f"  spawn -> first tool call answered   {statistics.median(s[1] for s in starts):8.1f} ms")
    print(f"  python -c 'import mcp.server.mcpserver' {statistics.median(floor):5.1f} ms (the SDK's import alone)")

    trips = asyncio.run(round_trips(store_dir, work, options.calls))
    print(f"\nper call, {options.calls} calls of each tool in one session, through the SDK's client:")
    for tool, samples in trips.items():
        print(summary(f"  {tool}", samples))
    raw = raw_round_trips(store_dir, work, options.calls)
    print("\nthe same calls as JSON lines on the server's stdin, read back from its stdout (no SDK client):")
    for tool, samples in raw.items():
        print(summary(f"  {tool}", samples))
    local = in_process(store, build_dir)
    print("\nthe same answers in-process (no protocol):")
    for tool, arguments in work.items():
        samples = []
        for args in itertools.islice(itertools.cycle(arguments), options.calls):
            begin = time.perf_counter()
            try:
                local[tool](args)
            except Exception:  # noqa: S112 (a negative answer costs its time too)
                pass
            samples.append((time.perf_counter() - begin) * 1000)
        print(summary(f"  {tool}", samples))


if __name__ == "__main__":
    main()
