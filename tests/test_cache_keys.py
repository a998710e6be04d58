"""An answer is keyed by the query parameters its view reads: a parameter it ignores (``?cb=<random>``, a
cache-buster) is dropped before the view runs and never forces the answer to be computed again."""

import pytest

from rulings.settings import Settings
from rulings.web import create_app
from rulings.web.cache import only_params

from .conftest import CORPUS


@pytest.fixture
def counted(store_dir):
    """A fresh app (its own answers) and how many times the views below were entered."""
    calls = []
    app = create_app(Settings.resolve(CORPUS, store_dir))
    for endpoint in ("site.term", "site.changes", "site.version_page", "site.search"):
        view = app.view_functions[endpoint]

        def wrapped(*args, _view=view, _endpoint=endpoint, **kwargs):
            calls.append(_endpoint)
            return _view(*args, **kwargs)

        wrapped.query_params = getattr(view, "query_params", frozenset())
        app.view_functions[endpoint] = wrapped
    return app.test_client(), calls


@pytest.mark.parametrize(
    "path",
    [
        "/marvel-champions/terms/guard",
        "/marvel-champions/changes/1.0..1.5",
        "/marvel-champions/v/1.4/",
        "/search?q=guard",
    ],
)
def test_a_junk_parameter_is_answered_from_the_cache(counted, path):
    client, calls = counted
    joiner = "&" if "?" in path else "?"
    bodies = {client.get(f"{path}{joiner}cb={n}&utm_source=x{n}").data for n in range(20)}
    assert len(bodies) == 1 and len(calls) == 1, calls
    assert client.get(path).data in bodies and len(calls) == 1  # the URL without them: the same answer


def test_the_parameters_a_view_reads_still_make_their_own_answers(counted):
    client, calls = counted
    guard, dash = client.get("/search?q=guard&cb=1").data, client.get("/search?q=dash&cb=1").data
    assert guard != dash and len(calls) == 2
    assert client.get("/search?cb=2&q=guard").data == guard and len(calls) == 2


def test_a_view_is_given_only_the_parameters_it_reads(client):
    response = client.get("/mc/applies?cb=1&term=dash&date=2020-03-01&x=%3Cscript%3E")
    assert response.status_code == 301
    assert response.headers["Location"] == "/marvel-champions/applies?term=dash&date=2020-03-01"


def test_only_the_parameters_named_are_kept_as_written():
    assert only_params("q=a+b&cb=1&game=mc&q=%C3%A9&x", frozenset({"q", "game"})) == "q=a+b&game=mc&q=%C3%A9"
    assert only_params("c%62=1&%71=x", frozenset({"q"})) == "%71=x"  # names compared decoded
