"""The OpenAPI document for /api (kept next to the routes it describes)."""

from __future__ import annotations

from .. import __version__

_STR = {"type": "string"}
_ERROR = {
    "type": "object",
    "properties": {
        "status": _STR,
        "code": {"type": "integer"},
        "message": _STR,
        "nearby": {"type": "array", "items": {"type": "object"}, "description": "a rule number's: {number, url}"},
    },
}
_NEGATIVE = {
    "type": "object",
    "required": ["status", "message"],
    "properties": {
        "status": {"enum": ["not-defined", "unknown-term", "unknown-version", "before-first-version", "unknown-game"]},
        "code": {"type": "integer"},
        "message": _STR,
        "suggestions": {"type": "array", "items": _STR},
        "first_defined": {"type": ["object", "null"]},
        "removed_in": {"type": ["object", "null"]},
        "renumbered": {"type": "object", "description": "a rule number's: {number, url} of its rule at the version"},
    },
}
_VERSION_REF = {"type": ["object", "null"], "properties": {"version": _STR, "date": {"type": ["string", "null"]}}}
_APPLIES = {
    "type": "object",
    "required": [
        "status",
        "game",
        "term",
        "slug",
        "in_force",
        "version",
        "text",
        "complete",
        "change",
        "source",
        "superseded_by",
        "url",
    ],
    "properties": {
        "status": {"const": "ok"},
        "game": _STR,
        "term": _STR,
        "slug": _STR,
        "in_force": _STR,
        "version": _STR,
        "date": {"type": ["string", "null"]},
        "text": _STR,
        "complete": {"type": "boolean"},
        "change": _STR,
        "source": {
            "type": "object",
            "description": "document, title, file, line; also: the same term's text in other documents of the "
            "version, of lower precedence",
        },
        "introduced_in": {"type": ["string", "null"], "description": "null when the term was only first seen"},
        "first_seen": _STR,
        "inferred": {"type": "boolean", "description": "no document dates this change: at the latest here"},
        "superseded_by": _VERSION_REF,
        "notes": {
            "type": "array",
            "items": _STR,
            "description": "first, when the term was asked by a near miss: the name it was taken for",
        },
        "url": _STR,
    },
}
_HIT = {
    "type": "object",
    "properties": {k: _STR for k in ("title", "game", "kind", "slug", "url", "snippet")}
    | {
        "aliases": {"type": "array", "items": _STR},
        "score": {"type": "number"},
        "number": {"type": ["string", "null"]},
        "marks": {
            "type": "array",
            "description": "[start, end] of the query's words in the snippet",
            "items": {"type": "array", "items": {"type": "integer"}},
        },
    },
}
_OPS = {
    "type": "array",
    "items": {"type": "object", "properties": {"op": {"enum": ["equal", "insert", "delete"]}, "text": _STR}},
}


def _param(name: str, where: str = "path", required: bool = True, description: str = "") -> dict:
    return {"name": name, "in": where, "required": required, "schema": _STR, "description": description}


def _get(summary: str, params: list[dict], schema: dict, negative: bool = False) -> dict:
    responses = {
        "200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
        "400": {"description": "Bad request", "content": {"application/json": {"schema": _ERROR}}},
        "404": {
            "description": "Not found" + (" (or a negative answer)" if negative else ""),
            "content": {"application/json": {"schema": _NEGATIVE if negative else _ERROR}},
        },
    }
    return {"get": {"summary": summary, "parameters": params, "responses": responses}}


def spec(server: str = "") -> dict:
    game = _param("game", description="game slug or alias, e.g. marvel-champions or mc")
    slug, version, span = _param("slug"), _param("version"), _param("span", description="FROM..TO, e.g. 1.1..1.4")
    number = _param("number", description="a rule, section or subrule number, e.g. 702, 702.19, 702.19b")
    obj = {"type": "object"}
    paths = {
        "/api/games": _get("All games", [], {"type": "array", "items": obj}),
        "/api/{game}": _get("A game: versions, documents, counts", [game], obj),
        "/api/{game}/terms": _get(
            "The glossary (optionally as of a version)",
            [game, _param("version", "query", False), _param("all", "query", False)],
            {"type": "array", "items": obj},
            True,
        ),
        "/api/{game}/terms/{slug}": _get("A term, latest version", [game, slug], obj),
        "/api/{game}/v/{version}/terms/{slug}": _get("A term pinned to a version", [game, version, slug], obj, True),
        "/api/{game}/terms/{slug}/history": _get("A term's revisions", [game, slug], obj),
        "/api/{game}/v/{version}/": _get(
            "The whole document as it stood at a version, in order (paged)",
            [game, version, _param("offset", "query", False), _param("limit", "query", False, "1-1000, default 200")],
            obj,
            True,
        ),
        "/api/{game}/rules/{number}": _get("A numbered rule, latest version", [game, number], _APPLIES, True),
        "/api/{game}/v/{version}/rules/{number}": _get(
            "A numbered rule as in force at a version", [game, version, number], _APPLIES, True
        ),
        "/api/{game}/rules/{number}/history": _get(
            "A numbered rule's texts over time, followed through its renumberings: the rule printed under the "
            "number in the latest version (else in the latest version printing it), each step with its number",
            [game, number],
            {
                "type": "object",
                "properties": {
                    "numbers": {"type": "array", "items": obj, "description": "{number, since} in order"},
                    "steps": {"type": "array", "items": obj},
                },
            },
            True,
        ),
        "/api/{game}/rules/{number}/diff/{span}": _get(
            "Word diff of a numbered rule between two versions: the rule printed under the number at the end "
            "of the range (else at its start), followed through its renumberings",
            [game, number, span],
            {"type": "object", "properties": {"ops": _OPS}},
            True,
        ),
        "/api/{game}/terms/{slug}/diff/{span}": _get(
            "Word diff of a term between two versions",
            [game, slug, span],
            {"type": "object", "properties": {"ops": _OPS}},
            True,
        ),
        "/api/{game}/changes/{span}": _get(
            "Glossary terms added, removed, changed and renamed between two versions, with counts, known or "
            "inferred, and each changed term's word redline (ops); for a game of numbered rules, rules: each "
            "chapter, section and rule added, removed, changed (with its redline and the subrules it changed) or "
            "renumbered unchanged (moved), followed by lineage, with counts; matter: front and back matter of a "
            "numbered rules document (not glossary terms). format=markdown gives the report as Markdown to post "
            "to a forum; a range that runs backwards is a 400",
            [game, span, _param("format", "query", False, "json (default) or markdown")],
            obj,
            True,
        ),
        "/api/{game}/applies": _get(
            "Which version of a term or rule applies (by date or version); without a term, which version was in force",
            [
                game,
                _param("term", "query", False),
                _param("date", "query", False, "YYYY-MM-DD"),
                _param("version", "query", False),
            ],
            _APPLIES,
            True,
        ),
        "/api/search": _get(
            "Ranked full-text search",
            [
                _param("q", "query"),
                _param("game", "query", False),
                _param("kind", "query", False),
                _param("version", "query", False),
                _param("limit", "query", False),
                _param("partial", "query", False, "1: the last word is still being typed (search as you type)"),
            ],
            {
                "type": "object",
                "properties": {
                    "hits": {"type": "array", "items": _HIT},
                    "did_you_mean": {"type": ["string", "null"]},
                    "suggestions": {"type": "array", "items": obj},
                },
            },
        ),
        "/api/complete": _get(
            "Term names completing what is typed (earlier words spelling-corrected)",
            [_param("q", "query"), _param("game", "query", False)],
            {"type": "array", "items": obj},
        ),
        "/api/{game}/rulings/{slug}": _get("A ruling", [game, slug], obj),
        "/api/{game}/cards/{slug}": _get("All rulings on a card", [game, slug], obj),
        "/api/{game}/linkify": _get(
            "Turn [[term]] / [[term@1.2]] mentions into links (a link made for a near miss of one name has a note)",
            [game, _param("text", "query"), _param("format", "query", False, "markdown | bbcode | html")],
            obj,
        ),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rulings",
            "version": __version__,
            "description": "Rules references, rulings and rule versions for card games.",
        },
        "servers": [{"url": server or "/"}],
        "paths": paths,
    }
