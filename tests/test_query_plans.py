"""No page of a term reads a whole table: every statement a term page or an API term answer runs uses an
index (a scan costs nothing on the bundled corpus and everything at 1,678 games). What a build reads once
(a game's linker) is read by a first request, before the one traced."""

from __future__ import annotations

import pytest

PAGES = [
    "/marvel-champions/terms/defend",
    "/marvel-champions/v/1.1/terms/keywords",
    "/api/marvel-champions/terms/guard",
    "/api/marvel-champions/v/1.2/terms/status-cards",
    "/sentinels-of-the-multiverse/terms/{first}",
    "/vs-system-2pcg/terms/{first}",
]


def statements_of_a_second_request(app, path: str) -> tuple[object, list[str]]:
    """The graph's connection and the statements the second request of ``path`` runs (the first read
    what a build reads once)."""
    client = app.test_client()
    assert client.get(path).status_code == 200
    conn = app.extensions["rulings"].get().store.conn
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        assert client.get(path).status_code == 200
    finally:
        conn.set_trace_callback(None)
    return conn, statements


@pytest.mark.parametrize("path", PAGES)
def test_term_pages_scan_no_table(cold_app, store, path):
    game = path.split("/")[2] if path.startswith("/api/") else path.split("/")[1]
    path = path.format(first=store.terms(store.game(game), ("entry",))[0].slug)
    conn, statements = statements_of_a_second_request(cold_app, path)
    scans = []
    for sql in dict.fromkeys(statements):
        for _, _, _, step in conn.execute("EXPLAIN QUERY PLAN " + sql):
            if step.startswith("SCAN") and "USING" not in step and step != "SCAN CONSTANT ROW":  # no table
                scans.append((step, sql))
    assert statements and not scans


def test_a_term_page_asked_again_looks_up_its_game_and_named_terms_no_more(cold_app):
    """What names resolve to and which game a slug names are read once per build (a build never changes):
    a second request of a page with "See also" names, cache off, asks the graph neither again."""
    path = "/marvel-champions/terms/ability"  # "See also" ten terms by name
    assert b'href="/marvel-champions/terms/triggered-ability"' in cold_app.test_client().get(path).data
    _, statements = statements_of_a_second_request(cold_app, path)
    assert statements  # the page's own text and links are still read
    assert not [sql for sql in statements if "FROM games" in sql or "FROM term_names n JOIN" in sql]
