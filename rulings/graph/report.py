"""A change report as Markdown: what a maintainer posts to a forum when a new rules version comes out.

Made from ``compare.changes(..., redlines=True)``: the counts, then renamed, changed (each with its
word redline, long unchanged stretches shortened), added and removed terms, every name linked to its
version-pinned page. ``~~struck~~`` is what was deleted, ``**bold**`` what was inserted.
"""

from __future__ import annotations

import re

from ..urls import Urls
from . import rules

CONTEXT = 80  # characters of unchanged text kept on each side of a change


def changes_markdown(report: dict, game_name: str, urls: Urls) -> str:
    game, start, end = report["game"], report["from"], report["to"]
    counts = report["counts"]
    numbered = report.get("rules")
    out = [
        f"## {game_name}: what changed from {start} to {end}",
        "",
        ("Glossary: " if numbered else "") + " · ".join(f"{n} {key}" for key, n in counts.items()),
    ]
    if numbered:
        out.append("Rules: " + " · ".join(f"{numbered['counts'][key]} {RULE_WORDS[key]}" for key in RULE_ORDER))
    if any(t.get("inferred") for t in report["terms"]):
        out.append("*inferred*: no document dates the change; it happened at the latest in that version.")

    def link(name: str, slug: str, version: str) -> str:
        return f"[{_escape(name)}]({urls.term(game, slug, version)})"

    if report["renamed"]:
        out += ["", "### Renamed", ""]
        out += [
            f"- {_escape(r['from'])} → {link(r['to'], r['slug'], end)} (in {r['version']}{_inferred(r)})"
            for r in report["renamed"]
        ]
    changed = [t for t in report["terms"] if t["kind"] == "changed"]
    if changed:
        out += ["", "### Changed"]
        for item in changed:
            was = f" (was {_escape(item['was'])})" if item.get("was") else ""
            unknown = "; exact wording partly unknown" if not item["complete"] else ""
            out += ["", f"#### {link(item['term'], item['slug'], end)}{was}", ""]
            diff = urls.diff(game, item["slug"], start, end)
            out.append(f"Changed in {item['version']}{_inferred(item)}{unknown} · [diff]({diff})")
            out += ["", *redline(item.get("ops", []))]
    for kind, version in (("added", end), ("removed", start)):
        items = [t for t in report["terms"] if t["kind"] == kind]
        if items:
            out += ["", f"### {kind.capitalize()}", ""]
            out += [f"- {link(t['term'], t['slug'], version)} (in {t['version']}{_inferred(t)})" for t in items]
    if numbered:
        out += _rules_markdown(numbered, game, start, end, urls)
    return "\n".join(out) + "\n"


RULE_ORDER = ("changed", "moved", "added", "removed")
RULE_WORDS = {"changed": "changed", "moved": "renumbered", "added": "added", "removed": "removed"}


def _rules_markdown(numbered: dict, game: str, start: str, end: str, urls: Urls) -> list[str]:
    """Numbered rules: each changed one with its redline, then the renumbered, added and removed ones."""

    def link(number: str, name: str, version: str) -> str:
        return f"[{_escape(rules.heading(number, name))}]({urls.rule(game, number, version)})"

    out = []
    for item in numbered["changed"]:
        if item == numbered["changed"][0]:
            out += ["", f"### Rules changed ({len(numbered['changed'])})"]
        was = f" (was {item['was']})" if item.get("was") else ""
        out += ["", f"#### {link(item['number'], item['name'], end)}{was}", ""]
        diff = urls.rule_diff(game, item["number"], start, end)
        out.append(f"Changed in {item['version']} · [diff]({diff})")
        out += ["", *redline(item.get("ops", []))]
    if numbered["moved"]:
        out += ["", f"### Rules renumbered, words unchanged ({len(numbered['moved'])})", ""]
        out += [f"- {item['from']} → {link(item['to'], item['name'], end)}" for item in numbered["moved"]]
    for kind, version in (("added", end), ("removed", start)):
        if numbered[kind]:
            out += ["", f"### Rules {kind} ({len(numbered[kind])})", ""]
            out += [f"- {link(item['number'], item['name'], version)}" for item in numbered[kind]]
    return out


def redline(ops: list[dict]) -> list[str]:
    """A word diff as quoted Markdown lines: deletions struck, insertions bold, long equal runs cut."""
    lines: list[str] = [""]
    for i, op in enumerate(ops):
        text = op["text"]
        if op["op"] == "equal":
            text = _shorten(text, first=i == 0, last=i == len(ops) - 1)
        for n, piece in enumerate(text.split("\n")):
            if n:
                lines.append("")
            lines[-1] += _escape(piece) if op["op"] == "equal" else _mark(piece, "~~" if op["op"] == "delete" else "**")
    return [f"> {line}".rstrip() for line in lines if line.strip()] or ["> (no wording change)"]


def _mark(text: str, marker: str) -> str:
    """``**word**`` around the words only: Markdown ignores a marker next to a space."""
    match = re.fullmatch(r"(\s*)(.*?)(\s*)", text, re.S)
    lead, core, trail = match.groups()
    return f"{lead}{marker}{_escape(core)}{marker}{trail}" if core else text


def _shorten(text: str, first: bool, last: bool) -> str:
    """An unchanged stretch cut to the words around the changes next to it."""
    if len(text) <= 2 * CONTEXT + 20:
        return text
    head = "" if first else text[:CONTEXT].rsplit(" ", 1)[0] + " "
    tail = "" if last else " " + text[-CONTEXT:].split(" ", 1)[-1]
    return f"{head}…{tail}"  # one ellipsis for what is left out; the spaces next to the changes kept


def _inferred(item: dict) -> str:
    return ", inferred" if item.get("inferred") else ""


def _escape(text: str) -> str:
    return re.sub(r"([\[\]*_~`\\])", r"\\\1", text)
