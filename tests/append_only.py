"""The append-only harness: record what the service states about versions 1..N, add edition N+1,
rebuild, and find every recorded answer that changed.

Recorded for every version up to N: ``applies`` for every term (by slug and by name) and every rule
number, the article of every pinned term page and of the whole document as it stood, and
``changes`` between consecutive versions. What may legitimately differ after a later edition is
only what points forward: a ``superseded_by`` that was null (the text was current) may now name
the new version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulings.errors import RulingsError
from rulings.graph import answers, compare, rule_numbers
from rulings.graph.store import Store
from rulings.settings import Settings
from rulings.web import create_app

ARTICLE = re.compile(r"<article[^>]*>(.*?)</article>", re.S)
REFERENCED_BY = re.compile(r"<h2>Referenced by</h2>(.*?)</section>", re.S)
# What a pinned answer may say about later versions: where its text was next changed, and the list of
# versions that changed it (a new edition may add to both). Everything else is about its own version.
FORWARD = ("superseded_by", "versions")


@dataclass(frozen=True)
class Questions:
    """What to ask both builds: the first build's terms (by slug and by name) and rule numbers."""

    slugs: list[str]
    unnumbered: list[str]  # slugs of the terms that have term pages (numbered rules have rule pages)
    names: list[str]
    numbers: list[str]


def questions(store_dir: Path, game_slug: str) -> Questions:
    store = _store(store_dir)
    game = store.game(game_slug)
    assert game is not None, game_slug
    terms = store.terms(game, ("entry", "keyword", "section", "rule"))
    numbers = set().union(*(rule_numbers.numbers_at(store, game, v.ordinal) for v in store.versions(game)))
    return Questions(
        [t.slug for t in terms], [t.slug for t in terms if not t.number], [t.name for t in terms], sorted(numbers)
    )


def _store(store_dir: Path) -> Store:
    return Store((store_dir / "current").resolve())


def record(store_dir: Path, game_slug: str, asked: Questions, through: str | None = None) -> dict[str, object]:
    """Every answer to ``asked`` about the versions up to ``through`` (default: all versions of the build)."""
    store = _store(store_dir)
    client = create_app(Settings.resolve(None, store_dir)).test_client()
    game = store.game(game_slug)
    assert game is not None, game_slug
    versions = store.versions(game)
    if through is not None:
        versions = versions[: [v.label for v in versions].index(through) + 1]
    out: dict[str, object] = {}
    for version in versions:
        label = version.label
        for slug in asked.slugs:
            out[f"applies {slug} @{label}"] = _answer(answers.applies, store, game.slug, slug, version=label)
        for name in asked.names:
            out[f"applies name {name!r} @{label}"] = _answer(answers.applies, store, game.slug, name, version=label)
        for slug in asked.unnumbered:
            out[f"page {slug} @{label}"] = _page(client, f"/{game.slug}/v/{label}/terms/{slug}")
        for number in asked.numbers:
            out[f"rule {number} @{label}"] = _answer(answers.applies, store, game.slug, number, version=label)
        out[f"document @{label}"] = _page(client, f"/{game.slug}/v/{label}/")
        out[f"version @{label}"] = _answer(answers.applies, store, game.slug, None, version=label)
    for before, after in zip(versions, versions[1:], strict=False):
        out[f"changes {before.label}..{after.label}"] = _answer(
            compare.changes, store, game.slug, before.label, after.label
        )
    return out


def _answer(ask, *args, **kwargs) -> dict:
    """An answer, or the negative answer every channel shows (``to_dict()``)."""
    try:
        return ask(*args, **kwargs)
    except RulingsError as no:
        return no.to_dict()


def _page(client, url: str) -> tuple[int, str]:
    response = client.get(url)
    match = ARTICLE.search(response.get_data(as_text=True))
    return response.status_code, match.group(1) if match else ""


def changed(before: dict[str, object], after: dict[str, object]) -> list[str]:
    """The keys whose recorded answer is not the same after the rebuild (see module docstring)."""
    return [key for key, old in before.items() if not _same(old, after.get(key))]


def _same(old, new) -> bool:
    if isinstance(old, dict) and isinstance(new, dict) and "superseded_by" in old and old["superseded_by"] is None:
        new = {**new, "superseded_by": None}  # the text was current; the new edition may supersede it
    return old == new


def pinned_pages(store_dir: Path, game_slug: str, labels: list[str]) -> dict[str, object]:
    """Every pinned term and rule page of the versions ``labels``, HTML (its article and its "Referenced
    by") and JSON (its answer without the forward pointers ``FORWARD``), keyed by URL."""
    store = _store(store_dir)
    client = create_app(Settings.resolve(None, store_dir)).test_client()
    game = store.game(game_slug)
    assert game is not None, game_slug
    out: dict[str, object] = {}
    for version in (v for v in store.versions(game) if v.label in labels):
        paths = [f"terms/{t.slug}" for t in store.terms(game, ("entry", "keyword", "section")) if not t.number]
        paths += [f"rules/{n}" for n in sorted(rule_numbers.numbers_at(store, game, version.ordinal)) if "." in n]
        for path in paths:
            url = f"/{game.slug}/v/{version.label}/{path}"
            response = client.get(url)
            html = response.get_data(as_text=True)
            parts = [m.group(1) for pattern in (ARTICLE, REFERENCED_BY) if (m := pattern.search(html))]
            out[url] = (response.status_code, parts)
            api = client.get(f"/api{url}")
            data = api.get_json(silent=True) or {}
            out[f"/api{url}"] = (api.status_code, {k: v for k, v in data.items() if k not in FORWARD})
    return out
