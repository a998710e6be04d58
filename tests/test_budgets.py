"""No request that is cheap to send may cost the server much: every view stops at the time limit, a post to
link is bounded by the names it looks up and its CPU time, and the costly kinds of request share a budget
of the server's CPU (a 429 past it) while pages keep answering."""

import random
import string
import time

import pytest

from rulings.errors import Busy
from rulings.graph import linkify as linkify_module
from rulings.graph import ruling_rows
from rulings.settings import Settings
from rulings.web import budget, create_app, views

from .conftest import CORPUS


@pytest.fixture
def cold_app_factory(store_dir, monkeypatch):
    """Apps over the session's build, each with its own (empty) answers, opened caches and budgets."""
    monkeypatch.setenv("RULINGS_CACHE_MIB", "0")
    return lambda: create_app(Settings.resolve(CORPUS, store_dir))


def misspelled(count: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return " ".join("[[" + "".join(rng.choice(string.ascii_lowercase) for _ in range(9)) + "]]" for _ in range(count))


def every_view_url(store) -> dict[str, str]:
    game = store.game("marvel-champions")
    ruling, card = ruling_rows.rulings(store, game)[0]["slug"], ruling_rows.cards(store, game)[0]["slug"]
    urls = {
        "site.home": "/",
        "site.game_home": "/marvel-champions/",
        "site.search": "/search?q=guard",
        "site.term": "/marvel-champions/terms/guard",
        "site.term_pinned": "/marvel-champions/v/1.1/terms/guard",
        "site.version_page": "/marvel-champions/v/1.4/",
        "site.rule": "/marvel-champions/rules/1",
        "site.rule_pinned": "/marvel-champions/v/1.4/rules/1",
        "site.rules_index": "/marvel-champions/rules",
        "site.rules_index_pinned": "/marvel-champions/v/1.4/rules",
        "site.rule_history": "/marvel-champions/rules/1/history",
        "site.rule_diff": "/marvel-champions/rules/1/diff/1.1..1.4",
        "site.rule_diff_between": "/marvel-champions/rules/1/diff?from=1.1&to=1.4",
        "site.reading_page": "/marvel-champions/v/1.4/read/1",
        "site.history": "/marvel-champions/terms/guard/history",
        "site.diff": "/marvel-champions/terms/dash/diff/1.1..1.4",
        "site.changes": "/marvel-champions/changes/1.3..1.4",
        "site.changes_between": "/marvel-champions/changes?from=1.1&to=1.4",
        "site.applies": "/marvel-champions/applies?term=dash&date=2020-03-01",
        "site.ruling": f"/marvel-champions/rulings/{ruling}",
        "site.card": f"/marvel-champions/cards/{card}",
        "site.link": "/marvel-champions/link?text=[[guard]]",
        "site.feed": "/marvel-champions/feed.atom",
        "api.game_list": "/api/games",
        "api.game_summary": "/api/marvel-champions",
        "api.terms": "/api/marvel-champions/terms",
        "api.term": "/api/marvel-champions/terms/guard",
        "api.term_pinned": "/api/marvel-champions/v/1.1/terms/guard",
        "api.history": "/api/marvel-champions/terms/guard/history",
        "api.diff": "/api/marvel-champions/terms/dash/diff/1.1..1.4",
        "api.changes": "/api/marvel-champions/changes/1.3..1.4",
        "api.applies": "/api/marvel-champions/applies?term=dash&date=2020-03-01",
        "api.version_document": "/api/marvel-champions/v/1.4/",
        "api.rule": "/api/marvel-champions/rules/1",
        "api.rule_pinned": "/api/marvel-champions/v/1.4/rules/1",
        "api.rule_history": "/api/marvel-champions/rules/1/history",
        "api.rule_diff": "/api/marvel-champions/rules/1/diff/1.1..1.4",
        "api.search": "/api/search?q=guard",
        "api.complete": "/api/complete?q=gu",
        "api.ruling": f"/api/marvel-champions/rulings/{ruling}",
        "api.card": f"/api/marvel-champions/cards/{card}",
        "api.link": "/api/marvel-champions/linkify?text=[[guard]]",
    }
    return urls


def test_every_view_stops_at_the_time_limit(cold_app_factory, store):
    """With the request's time spent before its view starts, every view that reads the build answers 503:
    each statement checks the limit before it runs (queries too short for SQLite's progress handler, such as
    a post's look-ups, ran on past it)."""
    urls = every_view_url(store)
    endpoints = {rule.endpoint for rule in cold_app_factory().url_map.iter_rules()}
    assert endpoints - set(urls) == {"static", "api.openapi", "site.robots"}  # every view is tried (these read nothing)
    answered = {}
    for endpoint, url in urls.items():
        app = cold_app_factory()  # nothing read yet: each view reads the build afresh
        app.config["TIME_LIMIT"] = 1e-9
        answered[endpoint] = app.test_client().get(url).status_code
    assert {endpoint: status for endpoint, status in answered.items() if status != 503} == {}


def test_a_post_stops_at_the_time_limit_between_look_ups(cold_app_factory, monkeypatch):
    looked_up = []

    def slow_near_miss(*args):
        looked_up.append(args[2])
        time.sleep(0.005)
        return None

    monkeypatch.setattr(linkify_module, "near_miss", slow_near_miss)
    app = cold_app_factory()
    app.config["TIME_LIMIT"] = 0.05
    response = app.test_client().post("/api/marvel-champions/linkify", json={"text": misspelled(150)})
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert 0 < len(looked_up) < 150


def test_a_post_naming_too_many_names_is_refused_before_any_look_up(cold_app_factory, monkeypatch):
    looked_up = []
    monkeypatch.setattr(linkify_module, "near_miss", lambda *args: looked_up.append(args) or None)
    client = cold_app_factory().test_client()
    post = misspelled(1_400)  # the post: 20,000 characters of typos
    response = client.post("/api/marvel-champions/linkify", json={"text": post})
    assert response.status_code == 413 and looked_up == []
    assert len(post) < linkify_module.MAX_LINKIFY_CHARS
    assert "A post may link at most 200 different names; this one names more." in response.get_json()["message"]
    page = client.post("/marvel-champions/link", data={"text": post})
    assert page.status_code == 413 and "Link it in parts" in page.get_data(as_text=True)
    again = client.post("/api/marvel-champions/linkify", json={"text": "[[guard]] " * 1_500})  # one name, 1,500 times
    assert again.status_code == 200 and len(again.get_json()["links"]) == 1_500


def test_a_post_stops_past_its_cpu_allowance(cold_app_factory, monkeypatch):
    monkeypatch.setattr(views, "LINKIFY_CPU_SECONDS", 0.001)
    response = cold_app_factory().test_client().post("/api/marvel-champions/linkify", json={"text": misspelled(150)})
    assert response.status_code == 413
    assert "more work than one request may make" in response.get_json()["message"]


def test_a_kind_past_its_budget_is_refused_while_pages_answer(cold_app_factory, monkeypatch):
    monkeypatch.setitem(budget.BUDGETS, "linkify", budget.Budget(share=1e-6, burst=1e-4, said="posts to link"))
    client = cold_app_factory().test_client()
    first = client.post("/api/marvel-champions/linkify", json={"text": misspelled(20)})
    assert first.status_code == 200  # admitted: the bucket held a little; linking spent more than it held
    refused = client.post("/api/marvel-champions/linkify", json={"text": "[[guard]]"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json() | {"retry_after": 0} == {
        "status": "busy",
        "code": 429,
        "message": refused.get_json()["message"],
        "retry_after": 0,
    }
    assert "busy with other posts to link" in refused.get_json()["message"]
    form = client.post("/marvel-champions/link", data={"text": "[[guard]]"})
    assert form.status_code == 429 and "try again in" in form.get_data(as_text=True)
    assert client.get("/marvel-champions/terms/guard").status_code == 200  # pages have no part in it
    assert client.get("/api/search?q=guard").status_code == 200  # nor other kinds
    assert client.get("/marvel-champions/link").status_code == 200  # the empty form costs a page


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_budget_refills_at_its_share_and_holds_its_slots():
    clock = Clock()
    spending = budget.Spending("search", budget.Budget(share=0.5, burst=1.0, slots=2), threads=4, clock=clock)
    spending.admit()
    spending.admit()
    with pytest.raises(Busy):  # both slots at work
        spending.admit()
    spending.spent(0.2)
    spending.admit()  # a slot free again, 0.8 s left
    spending.spent(2.8)  # a costly one: 2 s owed
    spending.spent(0.0)
    with pytest.raises(Busy) as busy:
        spending.admit()
    assert busy.value.retry_after == 4  # 2 s owed at half a second a second
    clock.now += 4.1
    spending.admit()
    assert budget.Spending("x", budget.Budget(1, 1, slots=2), threads=8).slots == 4  # two for every four threads
