"""Fuzzing the inputs a client controls: the API's JSON bodies and query strings, and the Host
header. Whatever comes in, the answer is a clean 2xx, 3xx or 4xx with the security headers:
never a 5xx, never a traceback."""

from __future__ import annotations

import json
import urllib.parse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import wsgi_get

# Any code point, lone surrogates included (JSON can spell them: "\ud800").
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=60)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4), max_leaves=20
)
LINKIFY_OBJECTS = st.fixed_dictionaries(
    {},
    optional={
        "text": JSON_VALUES | st.sampled_from(["[[guard]]", "[[guard@1.1|g]] and [[nope]]", "[[" * 50]),
        "format": JSON_VALUES | st.sampled_from(["markdown", "BBCode", "html", "exe"]),
    },
)
BODIES = (
    JSON_VALUES.map(json.dumps)
    | LINKIFY_OBJECTS.map(json.dumps)
    | st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 6000))
    | st.builds(lambda n: '{"text": ' * n + "1" + "}" * n, st.integers(1, 3000))
    | ANY_TEXT
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def clean(response) -> None:
    status = response.status_code
    assert status < 500, (status, response.get_data(as_text=True)[:300])
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "Traceback" not in response.get_data(as_text=True)


@FUZZ
@given(body=BODIES)
def test_linkify_json_bodies(client, body):
    data = body.encode("utf-8", "surrogatepass")
    clean(client.post("/api/marvel-champions/linkify", data=data, content_type="application/json"))


QUERY_ENDPOINTS = [
    ("/api/search", ("q", "game", "kind", "version", "limit")),
    ("/api/complete", ("q", "game", "limit")),
    ("/api/marvel-champions/applies", ("term", "date", "version")),
    ("/api/marvel-champions/terms", ("version", "all")),
    ("/api/marvel-champions/linkify", ("text", "format")),
    ("/search", ("q", "game", "kind", "version", "limit")),
    ("/marvel-champions/applies", ("term", "date", "version")),
]
QUERY_VALUES = ANY_TEXT | st.sampled_from(["guard", "1.1", "2020-03-01", "-1", "99999", "faq", "mc", "[[guard]]"])


@FUZZ
@given(
    endpoint=st.sampled_from(QUERY_ENDPOINTS),
    values=st.lists(QUERY_VALUES, min_size=5, max_size=5),
    present=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_api_query_strings(client, endpoint, values, present):
    path, names = endpoint
    query = {name: value for name, value, keep in zip(names, values, present, strict=False) if keep}
    encoded = "&".join(
        f"{name}={urllib.parse.quote(value.encode('utf-8', 'surrogatepass'))}" for name, value in query.items()
    )
    clean(client.get(f"{path}?{encoded}"))


LABEL = st.from_regex(r"[a-z0-9\-]{0,70}", fullmatch=True)
HOSTS = (
    st.lists(LABEL, min_size=1, max_size=5).map(".".join)
    | st.builds(lambda host, port: f"{host}:{port}", st.lists(LABEL, min_size=1, max_size=3).map(".".join), ANY_TEXT)
    | st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=80)
    | st.sampled_from(["[::1]", "[::1]:5000", "[zz::]", "a..b", "a" * 64 + ".example", ".", ":", "@", "xn--"])
).filter(lambda host: "\n" not in host and "\r" not in host)  # no server passes a line break on

PAGES = ["/", "/marvel-champions/terms/guard", "/static/style.css", "/api/games", "/mc", "/nope/"]


@FUZZ
@given(host=HOSTS, path=st.sampled_from(PAGES))
def test_host_headers(app, host, path):
    clean(wsgi_get(app, path, host))
