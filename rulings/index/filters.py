"""What a search is limited to (a game, a kind of text, a version) as a Whoosh query on the index's fields,
and the kinds a searcher may name ("rules", "faq", "keyword": ``KINDS``, offered by the CLI, the API and MCP)."""

from __future__ import annotations

from whoosh import query as Q

KINDS = {
    "term": "term",
    "terms": "term",
    "entry": "term",
    "definition": "subdefinition",
    "subdefinition": "subdefinition",
    "keyword": "subdefinition",
    "section": "section",
    "sections": "section",
    "ruling": "ruling",
    "rulings": "ruling",
    "faq": "ruling",
    "errata": "ruling",
    "clarification": "ruling",
    "rule": "rule",
    "rules": "rule",
    "glossary": "glossary",
}
CATEGORIES = ("rule", "glossary")  # kinds searched by what people call them (the index's ``category``)


def filter_query(game: str | None, kind: str | None, version: str | None) -> Q.Query | None:
    """Every part of the search's scope as one query (None: the whole index)."""
    parts: list[Q.Query] = []
    if game:
        parts.append(Q.Term("game", game))
    if kind:
        kind = kind.lower()
        # an entry of that kind, or a passage of one (a passage's subkind is its entry's kind)
        if KINDS[kind] in CATEGORIES:
            parts.append(Q.Term("category", KINDS[kind]))
        else:
            parts.append(Q.Or([Q.Term("kind", KINDS[kind]), Q.Term("subkind", KINDS[kind])]))
        if kind in ("errata", "faq", "clarification"):
            parts.append(Q.Term("subkind", kind))
    if version:
        parts.append(Q.Term("versions", version))
    if not parts:
        return None
    return Q.And(parts) if len(parts) > 1 else parts[0]
