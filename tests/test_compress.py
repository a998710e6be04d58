"""Responses gzipped for clients that ask (``web/compress.py``), with validators and 304s kept right."""

from __future__ import annotations

import gzip
import os

import pytest

from rulings.web.compress import accepts_gzip, gzip_etag, identity_etags

from .conftest import CORPUS
from .server import running_server

TERM = "/marvel-champions/terms/enemy-attacks"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_a_term_page_is_gzipped_when_the_client_accepts_it(client):
    plain = client.get(TERM)
    packed = client.get(TERM, headers=GZIP)
    assert plain.headers.get("Content-Encoding") is None
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data  # the same page
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data) / 3
    assert plain.headers["Vary"] == packed.headers["Vary"] == "Accept-Encoding"
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'  # another representation, its own tag


def test_the_answer_cache_never_hands_gzip_to_a_client_that_did_not_ask(client):
    client.get("/marvel-champions/terms/surge", headers=GZIP)  # cached (identity) by the first asker
    again = client.get("/marvel-champions/terms/surge")
    assert again.headers.get("Content-Encoding") is None and b"<h1>Surge</h1>" in again.data


@pytest.mark.parametrize("header", ["gzip;q=0, br", "identity", "br", ""])
def test_no_gzip_unless_asked_for(client, header):
    answer = client.get(TERM, headers={"Accept-Encoding": header})
    assert answer.headers.get("Content-Encoding") is None and b"<h1>" in answer.data
    assert answer.headers["Vary"] == "Accept-Encoding"


def test_json_scripts_and_style_are_gzipped_a_small_answer_and_a_head_are_not(client):
    for path in ("/api/marvel-champions/terms/enemy-attacks", "/static/app.js", "/static/style.css"):
        answer = client.get(path, headers=GZIP)
        assert answer.headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(answer.data) == client.get(path).data, path
    small = client.get("/robots.txt", headers=GZIP)
    assert len(small.data) < 1024 and small.headers.get("Content-Encoding") is None
    head = client.head(TERM, headers=GZIP)
    assert head.headers.get("Content-Encoding") is None and head.data == b""


def test_a_304_answers_a_gzipped_copy_with_its_own_tag_and_a_plain_copy_with_its_own(client):
    packed_tag = client.get(TERM, headers=GZIP).headers["ETag"]
    plain_tag = client.get(TERM).headers["ETag"]
    again = client.get(TERM, headers={**GZIP, "If-None-Match": packed_tag})
    assert again.status_code == 304 and again.headers["ETag"] == packed_tag and again.data == b""
    assert again.headers["Vary"] == "Accept-Encoding"
    plain = client.get(TERM, headers={"If-None-Match": plain_tag})
    assert plain.status_code == 304 and plain.headers["ETag"] == plain_tag
    # a gzip tag from a client that no longer accepts gzip: not the copy it would get, so the page itself
    changed_mind = client.get(TERM, headers={"If-None-Match": packed_tag})
    assert changed_mind.status_code == 200 and changed_mind.headers.get("Content-Encoding") is None


def test_accept_encoding_and_etags_are_read_as_http_says():
    def asks(header):
        return accepts_gzip({"HTTP_ACCEPT_ENCODING": header})

    assert asks("gzip") and asks("br, gzip;q=0.5") and asks("*") and asks("GZIP")
    assert not asks("gzip;q=0") and not asks("br") and not asks("") and not asks("*;q=0")
    assert gzip_etag('"b.1"') == '"b.1-gzip"' and gzip_etag('W/"b.1"') == 'W/"b.1-gzip"'
    assert identity_etags('"b.1-gzip", W/"b.2-gzip", "b.3"') == '"b.1", W/"b.2", "b.3"'


def test_rulings_serve_sends_a_term_page_gzipped(store_dir):
    """Over a real socket (waitress): what a browser gets."""
    import http.client
    from urllib.parse import urlsplit

    with running_server(dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(CORPUS))) as url:
        where = urlsplit(url)
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
        conn.request("GET", TERM, headers=GZIP)
        answer = conn.getresponse()
        body = answer.read()
        assert answer.status == 200 and answer.getheader("Content-Encoding") == "gzip"
        assert b"<h1>Attack (Enemy Activation)</h1>" in gzip.decompress(body)
        conn.close()


def test_a_gzipped_body_is_kept_by_its_etag_and_the_kept_ones_are_bounded():
    from rulings.web.cache import Bounded
    from rulings.web.compress import Compress

    page = b"<p>" + b"a rule of the game " * 200 + b"</p>"
    calls = []

    def app(environ, start_response):
        calls.append(environ.get("HTTP_IF_NONE_MATCH"))
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"), ("ETag", '"b.1"')])
        return [page]

    wrapped = Compress(app)
    bodies, sent = [], []
    for _ in range(2):
        environ = {"HTTP_ACCEPT_ENCODING": "gzip", "REQUEST_METHOD": "GET"}
        bodies.append(b"".join(wrapped(environ, lambda s, h, e=None: sent.append(h))))
        assert ("ETag", '"b.1-gzip"') in sent[-1] and ("Content-Encoding", "gzip") in sent[-1]
    assert bodies[0] is bodies[1] and gzip.decompress(bodies[0]) == page  # gzipped once
    kept: Bounded[str, bytes] = Bounded(192, len)  # a body over 12 bytes (a sixteenth) is never kept
    for n in range(25):
        kept.put(f'"b.{n}"', bytes(10))
    assert kept.held <= 192 and kept.get('"b.0"') is None and kept.get('"b.24"') == bytes(10)
    kept.put('"huge"', bytes(13))
    assert kept.get('"huge"') is None


@pytest.mark.bench
def test_the_page_weight_bench_still_measures(monkeypatch, capsys):
    from .benches import load_bench

    page_weight = load_bench(monkeypatch, "page_weight")
    rows = page_weight.main(["/marvel-champions/terms/enemy-attacks", "/static/style.css"], repeat=1)
    assert [r["page"] for r in rows] == ["/marvel-champions/terms/enemy-attacks", "/static/style.css"]
    assert all(r["gzip"] < r["plain"] / 2 for r in rows), rows
    assert "enemy-attacks" in capsys.readouterr().out
