"""Hostile requests get clean 4xx answers; nothing a document says can run in a page."""

import pytest

from rulings.graph import store as store_module
from rulings.settings import Settings

from .conftest import CORPUS, wsgi_get

HOSTILE_PAGES = [
    "/marvel-champions/terms/../../etc/passwd",
    "/marvel-champions/terms/%2e%2e%2f%2e%2e%2fetc",
    "/marvel-champions/v/..%2F..%2F/terms/dash",
    "/marvel-champions/terms/" + "a" * 5000,
    "/marvel-champions/v/1.1/terms/<script>",
    "/<script>alert(1)</script>/",
    "/marvel-champions/terms/dash/diff/..",
    "/marvel-champions/terms/dash/diff/1.1..<x>",
    "/marvel-champions/changes/1.1..1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1",
    "/marvel-champions/cards/%00",
    "/marvel-champions/rulings/%ff%fe",
    "/marvel-champions/terms/ability%0A",
    "/api/marvel-champions/v/1.0%0A/terms/ability",
    "/marvel-champions/terms/ability/diff/1.0%0A..1.5",
]


@pytest.mark.parametrize("url", HOSTILE_PAGES)
def test_hostile_urls_are_clean_404s(client, url):
    response = client.get(url)
    assert 400 <= response.status_code < 500, url
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and "<script>alert" not in body


@pytest.mark.parametrize(
    "query",
    [
        "q=" + "x" * 10_000,
        "q=%00%01%02",
        "q=guard)(*&^%25",
        'q="unterminated',
        "q=guard&limit=-5",
        "q=guard&limit=100000",
        "q=guard&version=<script>",
        "q=a+OR+b+AND+NOT+c",
        "q=%E2%80%AE%E2%80%8B",
    ],
)
def test_hostile_searches(client, query):
    for base in ("/search?", "/api/search?"):
        response = client.get(base + query)
        assert response.status_code in ((200, 400, 404) if "version=" in query else (200, 400))  # 404: unknown-version
        assert "Traceback" not in response.get_data(as_text=True)
    data = client.get("/api/search?" + query).get_json()
    assert data is not None and len(data.get("query", "")) <= 200


@pytest.mark.parametrize(
    "url,status",
    [
        ("/api/marvel-champions/applies?term=dash&date=not-a-date", 400),
        ("/api/marvel-champions/applies?term=dash&date=2020-02-30", 400),
        ("/api/marvel-champions/applies?term=dash&version=1.1&date=2020-01-01", 400),
        ("/api/marvel-champions/applies?term=" + "x" * 500, 400),
        ("/api/marvel-champions/applies?term=dash&version=../../", 404),
        ("/api/marvel-champions/applies?term=zzzz", 404),
        ("/api/marvel-champions/linkify?format=exe&text=x", 400),
        ("/marvel-champions/applies?term=dash&version=9", 404),
        ("/marvel-champions/applies?term=dash&date=2020-01-01xyz", 400),
        ("/marvel-champions/applies?term=" + "x" * 500, 400),
        ("/search?q=guard&kind=bogus", 400),
        ("/api/search?q=guard&kind=bogus", 400),
        ("/search?q=guard&game=nope", 400),
        ("/api/complete?q=gu&game=nope", 400),
        ("/api/complete?q=gu&limit=x", 400),
    ],
)
def test_bad_parameters(client, url, status):
    response = client.get(url)
    assert response.status_code == status, url
    assert "Traceback" not in response.get_data(as_text=True)


def test_oversized_post_is_refused(client):
    response = client.post("/marvel-champions/link", data={"text": "x" * 200_000})
    assert response.status_code == 413


@pytest.mark.parametrize(
    "body",
    [
        '"text"',
        "[1, 2]",
        '{"text": "x", "format": 5}',
        '{"text": 5}',
        "null",
        "{",
        "[" * 1000 + "]" * 1000,  # 2 KB that sent the JSON parser past Python's recursion limit
        '{"text": "\\ud800"}',  # a lone surrogate: no UTF-8 answer can hold it
        '{"text": "[[guard]]", "format": "\\udfff"}',
        '{"text": "a\\ud83d"}',
    ],
)
def test_linkify_refuses_malformed_json_bodies(client, body):
    response = client.post("/api/marvel-champions/linkify", data=body, content_type="application/json")
    assert response.status_code == 400, body
    assert response.get_json()["status"] == "error"


def test_linkify_says_when_it_cut_the_post(client):
    short = client.post("/api/marvel-champions/linkify", json={"text": "[[guard]] " + "x" * 19_990}).get_json()
    assert short["truncated"] is False and short["links"]
    long = client.post("/api/marvel-champions/linkify", json={"text": "[[guard]] " + "x" * 19_991}).get_json()
    assert long["truncated"] is True and len(long["text"]) < 20_100
    page = client.post("/marvel-champions/link", data={"text": "[[guard]] " + "x" * 30_000}).get_data(as_text=True)
    assert "Only the first 20,000 characters were linked" in page


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", ".", "a" * 64, "xn--a.example"])
@pytest.mark.parametrize("url", ["/", "/marvel-champions/terms/guard", "/static/style.css", "/nope/", "/api/games"])
def test_a_host_header_that_is_no_host_name_is_a_clean_400(app, host, url):
    response = wsgi_get(app, url, host)
    assert response.status_code == 400, (host, url)
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "Traceback" not in response.get_data(as_text=True)


def test_the_host_check_reads_a_long_header_once():
    """Label by label: one regex over the whole name backtracked exponentially (22 letters and a
    "!" took half a second, 40 would take days: a Host header that stopped a thread)."""
    from rulings.web.security import is_host

    assert not is_host("a" * 50_000 + "!")
    assert not is_host(("a" * 30 + ".") * 300 + "!")
    assert is_host("rules.example.org:8080") and is_host("[::1]:5000") and is_host("localhost")


@pytest.mark.parametrize("base_url", [None, "https://rules.example.org"])
def test_the_trailing_slash_redirect_never_names_the_requests_host(app, client, base_url):
    app.config["BASE_URL"] = base_url
    try:
        response = client.get("/mc?x=1", headers={"Host": "evil.example"})
    finally:
        app.config["BASE_URL"] = None
    assert response.status_code == 308 and response.headers["Location"] == "/mc/?x=1"
    assert "evil.example" not in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")


@pytest.mark.parametrize("date", ["20200101", "2020-W09-7", "2020-060", "2020-03-01T00:00"])
def test_only_calendar_dates_written_yyyy_mm_dd(client, cli, date):
    response = client.get(f"/api/marvel-champions/applies?term=dash&date={date}")
    assert response.status_code == 400 and "use YYYY-MM-DD" in response.get_json()["message"]
    result = cli("applies", "marvel-champions", "dash", "--date", date)
    assert result.exit_code == 2 and "use YYYY-MM-DD" in result.output


def test_linkify_takes_a_json_object(client):
    response = client.post("/api/marvel-champions/linkify", json={"text": "[[guard]]", "format": "BBCode"})
    assert response.status_code == 200
    assert response.get_json()["text"].startswith("[url=")
    brackets = client.post("/api/marvel-champions/linkify", json={"text": "[" * 1000})  # deep only in looks
    assert brackets.status_code == 200 and brackets.get_json()["text"] == "[" * 1000


def test_canonical_links_ignore_a_forged_host_when_the_base_url_is_set(app, client):
    forged = client.get("/marvel-champions/terms/guard", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert 'rel="canonical" href="http://evil.example/' in forged  # no base URL configured: the host is all we know
    app.config["BASE_URL"] = "https://rules.example.org"
    try:
        page = client.get("/marvel-champions/terms/guard", headers={"Host": "evil.example"}).get_data(as_text=True)
    finally:
        app.config["BASE_URL"] = None
    assert 'rel="canonical" href="https://rules.example.org/marvel-champions/v/1.5/terms/guard"' in page
    assert "evil.example" not in page


def test_linkify_output_is_escaped_in_html(client):
    data = client.get("/api/marvel-champions/linkify?format=html&text=<img src=x onerror=1> [[guard]]").get_json()
    assert data["text"].startswith("&lt;img src=x onerror=1&gt; <a href=")


def test_content_security_policy_on_every_kind_of_answer(client):
    for url in ("/", "/nope/", "/api/games", "/marvel-champions/feed.atom", "/static/style.css"):
        assert "default-src 'none'" in client.get(url).headers["Content-Security-Policy"]


def test_work_past_the_time_limit_is_a_503(store_dir, monkeypatch):
    """Graph queries (SQLite's progress handler) and index searches stop at the request's time limit."""
    from rulings.web import create_app

    monkeypatch.setenv("RULINGS_CACHE_MIB", "0")  # every answer computed, none from an earlier test
    monkeypatch.setattr(store_module, "PROGRESS_EVERY", 100)  # the bundled corpus's queries are all short
    app = create_app(Settings.resolve(CORPUS, store_dir))
    client = app.test_client()
    limit = app.config["TIME_LIMIT"]
    app.config["TIME_LIMIT"] = 1e-9  # spent before any work starts
    try:
        search = client.get("/api/search?q=guard")
        listing = client.get("/api/marvel-champions/terms")  # hundreds of queries, some long
    finally:
        app.config["TIME_LIMIT"] = limit
    assert search.status_code == 503 and search.headers["Retry-After"] == "1"
    assert "needed more than the 1e-09 s one may take" in search.get_json()["message"]
    assert listing.status_code == 503
    assert client.get("/api/search?q=guard").status_code == 200  # the next request has its own time


def test_a_fault_past_the_time_limit_is_still_a_logged_500(store_dir, monkeypatch, caplog):
    """Only the index's and SQLite's own stops answer 503; any other error is a fault, whenever it happens."""
    from rulings.web import create_app
    from rulings.web.state import Loaded

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(Loaded, "search", broken)
    app = create_app(Settings.resolve(CORPUS, store_dir))
    app.config["TIME_LIMIT"] = 1e-9
    response = app.test_client().get("/api/search?q=guard")
    assert response.status_code == 500 and "Retry-After" not in response.headers
    assert "unhandled error on /api/search" in caplog.text


def test_values_shared_by_later_requests_are_computed_without_the_time_limit():
    from rulings import deadline

    deadline.start(1e-9)
    try:
        assert deadline.expired()
        with deadline.suspended():
            assert not deadline.expired() and deadline.remaining() is None
        assert deadline.expired()  # the request's own limit is back
    finally:
        deadline.clear()


def test_a_search_asked_by_many_threads_at_once_is_computed_once(monkeypatch):
    """Eight clients asking the same costly search at once: one computes it, the others wait for it."""
    import threading

    from rulings import deadline
    from rulings.web.state import Recent

    recent, calls, results = Recent(16), [], []
    release, all_waiting, waiting = threading.Event(), threading.Event(), []
    remaining = deadline.remaining

    def waits(*args):  # a thread that finds the search being computed asks for its time limit, then waits
        waiting.append(1)
        if len(waiting) == 7:
            all_waiting.set()
        return remaining(*args)

    monkeypatch.setattr(deadline, "remaining", waits)

    def compute():
        calls.append(1)
        assert release.wait(30)  # computing until the seven others wait for it
        return "hits"

    threads = [threading.Thread(target=lambda: results.append(recent.get_or_compute("q", compute))) for _ in range(8)]
    for thread in threads:
        thread.start()
    assert all_waiting.wait(30) and len(calls) == 1
    release.set()
    for thread in threads:
        thread.join()
    assert results == ["hits"] * 8 and len(calls) == 1


def test_a_search_that_failed_is_computed_again_and_a_waiter_keeps_its_own_time_limit():
    import threading

    from whoosh.searching import TimeLimit

    from rulings import deadline
    from rulings.web.state import Recent

    recent, started, release = Recent(16), threading.Event(), threading.Event()

    def out_of_time():
        started.set()
        release.wait(30)  # until the other request has run out of its own time
        raise TimeLimit

    failed = []

    def first():
        try:
            recent.get_or_compute("q", out_of_time)
        except TimeLimit:
            failed.append(True)

    thread = threading.Thread(target=first)
    thread.start()
    started.wait()
    deadline.start(0.05)  # this request's own limit ends before the other computation does
    try:
        with pytest.raises(TimeLimit):
            recent.get_or_compute("q", lambda: "never")
    finally:
        deadline.clear()
        release.set()
    thread.join()
    assert failed == [True]
    assert recent.get_or_compute("q", lambda: "hits") == "hits"  # not kept as failed: computed afresh
    assert recent.get_or_compute("q", lambda: "again") == "hits"
