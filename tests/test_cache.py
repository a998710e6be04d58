"""Answers cached per build: validators and 304s, the build each answer came from, bounded memory,
and a new build warmed in the background and swapped in without ever serving another build's answer."""

from __future__ import annotations

import http.client
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from rulings.build import build
from rulings.settings import Settings
from rulings.web import create_app
from rulings.web.cache import Answer, Answers, Key

from .conftest import CORPUS, write_game
from .server import running_server

TOML = '[game]\nname = "Tiny"\n[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitle = "Rules"\n'


def rules(orchard: str) -> str:
    return f"Basics\n\nSome prose.\n\nGlossary\n\nApple: A fruit from orchard {orchard}.\n\nPear: Another fruit.\n"


@pytest.fixture
def tiny(tmp_path) -> Settings:
    """A one-game corpus, built once ("orchard one"); rebuild it with ``rebuild(settings, "two")``."""
    write_game(tmp_path / "corpus", "tiny", TOML, {"rules.txt": rules("one")})
    settings = Settings.resolve(tmp_path / "corpus", tmp_path / "store")
    build(settings, progress=lambda _: None)
    return settings


def rebuild(settings: Settings, orchard: str) -> str:
    (settings.corpus / "tiny" / "rules.txt").write_text(rules(orchard))
    return build(settings, progress=lambda _: None).build.name


def test_a_repeated_request_with_its_etag_is_a_304(client):
    first = client.get("/marvel-champions/terms/guard")
    etag, build_id = first.headers["ETag"], first.headers["X-Rulings-Build"]
    assert first.status_code == 200 and etag.startswith(f'"{build_id}.')
    again = client.get("/marvel-champions/terms/guard", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag and again.headers["X-Rulings-Build"] == build_id
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    assert client.get("/marvel-champions/terms/defend", headers={"If-None-Match": etag}).status_code == 200
    assert client.get("/marvel-champions/terms/guard", headers={"If-None-Match": '"another"'}).status_code == 200
    assert client.get("/marvel-champions/terms/guard", headers={"If-None-Match": "*"}).status_code == 200


def test_pinned_pages_are_kept_longer_than_current_ones(client):
    pinned = ("/marvel-champions/v/1.1/terms/guard", "/api/marvel-champions/v/1.1/terms/guard")
    current = ("/marvel-champions/terms/guard", "/api/marvel-champions/terms/guard", "/search?q=guard", "/")
    assert {client.get(p).headers["Cache-Control"] for p in pinned} == {"public, max-age=3600"}
    assert {client.get(p).headers["Cache-Control"] for p in current} == {"public, no-cache"}


def test_every_answer_says_the_build_it_came_from_and_only_200s_are_cacheable(client, store):
    build_id = store.build.name
    answers = [
        client.get("/marvel-champions/terms/no-such-term"),
        client.get("/api/search?q=guard&limit=x"),
        client.post("/marvel-champions/link", data={"text": "[[guard]]"}),
        client.get("/mc/terms/guard"),
        client.get("/api/games"),
    ]
    assert [a.status_code for a in answers] == [404, 400, 200, 301, 200]
    assert {a.headers["X-Rulings-Build"] for a in answers} == {build_id}
    assert [("ETag" in a.headers) for a in answers] == [False, False, False, False, True]


def test_a_known_answer_is_the_answer_computed(app):
    loaded = app.extensions["rulings"].get()
    client = app.test_client()
    path = "/search?q=defend&game=marvel-champions&x=1"
    first = client.get(path)
    environ = dict(client.get(path).request.environ, QUERY_STRING="q=defend&game=marvel-champions")
    assert loaded.answers.get(Key.of(environ)).body == first.data  # keyed by the parameters the view reads
    second = client.get("/search?game=marvel-champions&x=2&q=defend")  # the same query, another order
    assert second.data == first.data and second.headers["ETag"] == first.headers["ETag"]
    head = client.head(path)
    assert head.data == b"" and head.headers["Content-Length"] == str(len(first.data))


def test_without_the_cache_answers_are_the_same(store_dir, monkeypatch, app):
    from tests.conftest import CORPUS

    monkeypatch.setenv("RULINGS_CACHE_MIB", "0")
    cold = create_app(Settings.resolve(CORPUS, store_dir)).test_client()
    path = "/marvel-champions/terms/guard"
    answer = cold.get(path)
    assert answer.data == app.test_client().get(path).data and "ETag" in answer.headers
    assert len(cold.application.extensions["rulings"].get().answers) == 0


def test_a_bad_cache_size_is_one_clear_error(store_dir, monkeypatch):
    from rulings.errors import BadRequest
    from tests.conftest import CORPUS

    monkeypatch.setenv("RULINGS_CACHE_MIB", "lots")
    with pytest.raises(BadRequest, match="RULINGS_CACHE_MIB must be a whole number of MiB, not 'lots'"):
        create_app(Settings.resolve(CORPUS, store_dir))


def test_spellings_of_one_search_share_one_answer(app):
    loaded = app.extensions["rulings"].get()
    first = loaded.search("guard  keyword", game="marvel-champions")
    assert loaded.search(" guard keyword\t", game="marvel-champions") is first
    assert loaded.search("guard keyword", game="marvel-champions", kind="Term") is not first
    client = app.test_client()
    assert client.get("/api/search?q=guard+keyword").json == client.get("/api/search?q=guard%20%20keyword").json


def test_answers_are_bounded_least_recently_used_first_out():
    answers = Answers(max_bytes=16 * 1000)
    keys = [Key("http://h", f"/p{i}", ()) for i in range(40)]
    for key in keys:
        answers.put(key, Answer("200 OK", [], b"x" * 700))
        answers.get(keys[0])  # kept: used all along
        assert answers._bytes <= answers.max_bytes
    assert answers.get(keys[0]) is not None and answers.get(keys[-1]) is not None
    assert answers.get(keys[1]) is None and 0 < len(answers) < 40
    answers.put(Key("http://h", "/huge", ()), Answer("200 OK", [], b"x" * 2000))  # over a sixteenth: not kept
    assert answers.get(Key("http://h", "/huge", ())) is None


def test_a_new_build_is_warmed_in_the_background_then_swapped_in(tiny):
    app = create_app(tiny)
    client = app.test_client()
    current = app.extensions["rulings"]
    hot = ["/tiny/terms/apple", "/api/search?q=orchard", "/tiny/"]
    first = [client.get(path) for path in hot]
    old_build = first[0].headers["X-Rulings-Build"]
    assert "orchard one" in first[0].get_data(as_text=True)
    new_build = rebuild(tiny, "two")
    current.swapped.clear()
    during = client.get("/tiny/terms/apple")  # sees the move, starts the swap, answers from what it has
    assert during.headers["X-Rulings-Build"] == old_build and "orchard one" in during.get_data(as_text=True)
    assert current.swapped.wait(30)
    fresh = current.get()
    assert fresh.build.name == new_build
    assert "searcher" in fresh.__dict__  # the index was opened before the swap
    assert {k.path for k in fresh.answers.hottest(10)} >= {"/tiny/terms/apple", "/api/search", "/tiny/"}
    after = client.get("/tiny/terms/apple", headers={"If-None-Match": first[0].headers["ETag"]})
    assert after.status_code == 200 and after.headers["X-Rulings-Build"] == new_build
    assert "orchard two" in after.get_data(as_text=True) and after.headers["ETag"] != first[0].headers["ETag"]


def test_a_swap_under_load_never_serves_an_answer_of_another_build(tiny):
    """Clients keep asking while a rebuild is published: every answer carries the build it was computed
    from and says what that build says, and once a client has seen the new build it never sees the old."""
    paths = ["/tiny/terms/apple", "/api/tiny/terms/apple", "/search?q=apple", "/api/search?q=apple"]
    env = dict(os.environ, RULINGS_STORE=str(tiny.store), RULINGS_CORPUS=str(tiny.corpus))
    seen: dict[int, list[tuple[int, str, str]]] = {}
    stop = threading.Event()
    old_build = Path(os.readlink(tiny.store / "current")).name
    asked = threading.Barrier(5, timeout=30)  # the four clients, each with a round of old answers, and the test
    switched = [threading.Event() for _ in range(4)]  # a client got an answer of another build

    def client(number: int, url: str) -> None:
        conn = http.client.HTTPConnection(url.removeprefix("http://").split(":")[0], int(url.rsplit(":", 1)[1]))
        mine = seen.setdefault(number, [])
        while not stop.is_set():
            for path in paths:
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read().decode()
                orchard = "one" if "orchard one" in body else "two" if "orchard two" in body else "?"
                mine.append((response.status, response.headers["X-Rulings-Build"], orchard))
            if len(mine) == len(paths):
                asked.wait()
            if mine[-1][1] != old_build:
                switched[number].set()

    with running_server(env, (sys.executable, "-m", "rulings", "serve", "--threads", "4")) as url:
        threads = [threading.Thread(target=client, args=(n, url)) for n in range(4)]
        for thread in threads:
            thread.start()
        asked.wait()  # every client has answers of the old build
        new_build = rebuild(tiny, "two")
        moved = [event.wait(20) for event in switched]
        stop.set()
        for thread in threads:
            thread.join()
    assert moved == [True] * 4
    says = {old_build: "one", new_build: "two"}
    for answers in seen.values():
        assert {status for status, _, _ in answers} == {200}
        assert all(says[build_id] == orchard for _, build_id, orchard in answers)
        builds = [build_id for _, build_id, _ in answers]
        switched = builds.index(new_build)
        assert builds[0] == old_build and set(builds[switched:]) == {new_build}


def test_clients_asking_one_page_at_once_cost_one_computation(store_dir):
    """A page being computed is waited for by the other requests for it, not computed again (a link posted
    to a forum, a new build)."""
    app = create_app(Settings.resolve(CORPUS, store_dir))
    view, entered = app.view_functions["site.changes"], []

    def slow(*args, **kwargs):
        entered.append(1)
        time.sleep(0.3)
        return view(*args, **kwargs)

    app.view_functions["site.changes"] = slow
    client_statuses = []

    def ask():
        client_statuses.append(app.test_client().get("/marvel-champions/changes/1.0..1.5?cb=x").status_code)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert client_statuses == [200] * 6 and len(entered) == 1
