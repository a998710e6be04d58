"""One error model: every negative answer and error, through every CLI command and the web.

The contract (docs/reference.md): exit statuses 0 answered, 1 negative answer, 2 usage error, 3 corpus cannot be
built, 4 no build; ``{"status", "message", ...}`` under ``--json``; ``{"status", "code",
"message"}`` from the API with the HTTP status; an HTML page with the same status otherwise.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.errors import BadRequest, CorpusError, NotFound, RulingsError, StoreError, Unanswerable
from rulings.settings import Settings
from rulings.web import create_app

from .conftest import CORPUS, assert_clean_exit, write_game


def test_each_error_carries_status_message_http_status_and_exit_code():
    cases = [
        (Unanswerable("unknown-term", "no term 'x'", suggestions=["X-Ray"]), "unknown-term", 404, 1),
        (NotFound("No ruling 'x'."), "error", 404, 1),
        (BadRequest("bad date"), "error", 400, 2),
        (CorpusError("corpus/g/game.toml", "bad", line=3), "error", 500, 3),
        (StoreError("no build"), "error", 503, 4),
    ]
    for error, status, http_status, exit_code in cases:
        assert isinstance(error, RulingsError)
        assert (error.status, error.http_status, error.exit_code) == (status, http_status, exit_code)
        assert error.to_dict()["status"] == status and error.to_dict()["message"] == error.message
    assert cases[0][0].to_dict() == {"status": "unknown-term", "message": "no term 'x'", "suggestions": ["X-Ray"]}
    assert cases[3][0].to_dict() == {
        "status": "error",
        "message": "corpus/g/game.toml:3: error: bad",
        "path": "corpus/g/game.toml",
        "line": 3,
    }


# -- every CLI command with --json: the JSON shape and the exit status ------------------------
NEGATIVE = [
    (("applies", "nope", "dash"), "unknown-game", 1),
    (("diff", "nope", "dash", "1.1", "1.4"), "unknown-game", 1),
    (("changes", "nope", "1.1", "1.4"), "unknown-game", 1),
    (("terms", "nope"), "unknown-game", 1),
    (("applies", "mc", "quickstr"), "unknown-term", 1),  # a one-letter typo is answered instead (test_names.py)
    (("diff", "mc", "no such term", "1.1", "1.4"), "unknown-term", 1),
    (("applies", "mc", "dash", "--version", "9.9"), "unknown-version", 1),
    (("diff", "mc", "dash", "1.1", "9.9"), "unknown-version", 1),
    (("changes", "mc", "1.1", "v7"), "unknown-version", 1),
    (("terms", "mc", "--version", "9.9"), "unknown-version", 1),
    (("applies", "mc", "dash", "--date", "2019-07-31"), "before-first-version", 1),
    (("changes", "mc", "2019-01-01", "1.4"), "before-first-version", 1),
    (("applies", "mc", "Hinder X", "--version", "1.3"), "not-defined", 1),
    (("applies", "mc", "dash", "--date", "2020-13-45"), "error", 2),
    (("applies", "mc", "dash", "--date", "2020-01-01", "--version", "1.1"), "error", 2),
    (("diff", "mc", "dash", "1.1", "2020-99-01"), "error", 2),
    (("search", "stun", "--game", "nope"), "unknown-game", 1),  # like every command naming a game
    (("search", "stun", "--game", "mc", "--version", "9.9"), "unknown-version", 1),  # not "no matches"
    (("search", "stun", "--version", "9.9"), "unknown-version", 1),  # no game has it
]


@pytest.mark.parametrize("args,status,exit_code", NEGATIVE, ids=[" ".join(a) for a, _, _ in NEGATIVE])
def test_cli_json_negative_answers_and_errors(cli, args, status, exit_code):
    data, code = cli.json(*args)
    assert (data["status"], code) == (status, exit_code), data
    assert data["message"]


def test_cli_negative_answers_carry_what_helps(cli):
    data, _ = cli.json("applies", "nope", "dash")
    assert data["games"] == ["marvel-champions", "sentinels-of-the-multiverse", "vs-system-2pcg"]
    assert "Quickstrike" in cli.json("diff", "mc", "quickstr", "1.1", "1.4")[0]["suggestions"]
    data, _ = cli.json("terms", "mc", "--version", "9.9")
    assert data["versions"] == ["1.0", "1.1", "1.2", "1.3", "1.4", "1.4.2", "1.5"]


def test_cli_without_json_says_it_in_one_line(cli):
    result = cli("diff", "nope", "dash", "1.1", "1.4")
    assert result.exit_code == 1 and result.output.startswith("unknown-game: unknown game 'nope' (known: ")
    result = cli("applies", "mc", "quickstr")
    assert result.exit_code == 1 and "did you mean: Quickstrike" in result.output
    result = cli("search", "stun", "--game", "nope")
    assert result.exit_code == 1 and result.stdout.startswith("unknown-game: unknown game 'nope' (known: ")


def run(tmp_path, *args: str):
    result = CliRunner().invoke(main, ["--corpus", str(tmp_path / "corpus"), "--store", str(tmp_path / "store"), *args])
    assert_clean_exit(result)
    return result


BROKEN_TOML = '[game]\nname = "Tiny"\n[[documents]]\nfile = "missing.txt"\nkind = "rulebook"\ntitle = "Rules"\n'


@pytest.mark.parametrize("command", [("build",), ("stats",), ("terms", "tiny"), ("applies", "tiny", "apple")])
def test_a_corpus_that_cannot_be_built_is_exit_3_with_the_file_and_line(tmp_path, command):
    write_game(tmp_path / "corpus", "tiny", BROKEN_TOML, {})
    result = run(tmp_path, *command, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    manifest = str(tmp_path / "corpus" / "tiny" / "game.toml")  # where --corpus has it, not "corpus/..."
    assert data["status"] == "error" and data["path"] == manifest and data["line"] == 4
    assert "file 'missing.txt' does not exist" in data["message"]
    human = run(tmp_path, *command)
    assert human.exit_code == 3 and human.stderr.startswith(f"{manifest}:4: error: ")  # one "error:", not two


def test_version_from_the_package():
    result = CliRunner().invoke(main, ["--version"])
    from rulings import __version__

    assert (result.exit_code, result.output) == (0, f"rulings, version {__version__}\n")


# -- the web: one handler, JSON under /api, a page elsewhere ----------------------------------
@pytest.mark.parametrize(
    "path,status,code",
    [
        ("/api/marvel-champions/applies?term=quickstr", "unknown-term", 404),
        ("/api/marvel-champions/applies?term=dash&version=9.9", "unknown-version", 404),
        ("/api/marvel-champions/terms/dash/diff/1.1..9.9", "unknown-version", 404),
        ("/api/marvel-champions/changes/2019-01-01..1.4", "before-first-version", 404),
        ("/api/marvel-champions/v/1.0/terms/hinder-x", "not-defined", 404),
        ("/api/marvel-champions/terms?version=9.9", "unknown-version", 404),
        ("/api/search?q=stun&game=marvel-champions&version=9.9", "unknown-version", 404),
        ("/api/search?q=stun&version=9.9", "unknown-version", 404),
        ("/api/nope/terms", "error", 404),
        ("/api/marvel-champions/rulings/nope", "error", 404),
        ("/api/marvel-champions/applies?term=dash&date=2020-13-45", "error", 400),
        ("/api/no/such/route", "error", 404),
    ],
)
def test_api_errors_have_one_shape(client, path, status, code):
    response = client.get(path)
    data = response.get_json()
    assert (response.status_code, data["status"], data["code"]) == (code, status, code)
    assert data["message"]


def test_the_api_and_the_cli_say_the_same_not_defined(client, cli):
    api = client.get("/api/marvel-champions/v/1.0/terms/hinder-x").get_json()
    via_cli, _ = cli.json("applies", "marvel-champions", "Hinder X", "--version", "1.0")
    assert {**via_cli, "code": 404} == api


def test_html_errors_are_pages_with_the_status(client):
    response = client.get("/marvel-champions/changes/2019-01-01..1.4")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "before the first version" in response.get_data(as_text=True)
    response = client.get("/marvel-champions/applies?term=dash&date=2020-13-45")
    assert response.status_code == 400 and "bad date" in response.get_data(as_text=True)


def test_no_build_is_a_503(tmp_path):
    client = create_app(Settings.resolve(CORPUS, tmp_path / "empty-store")).test_client()
    response = client.get("/api/games")
    assert response.status_code == 503 and response.get_json()["status"] == "error"
    assert "no build in" in response.get_json()["message"]
    assert client.get("/").status_code == 503


def test_a_crash_shows_no_detail(store_dir):
    def crash():
        raise ValueError("secret detail")

    app = create_app(Settings.resolve(CORPUS, store_dir))
    app.add_url_rule("/api/crash", view_func=crash)
    app.add_url_rule("/crash", view_func=crash)
    client = app.test_client()
    response = client.get("/api/crash")
    assert response.status_code == 500
    assert response.get_json() == {"status": "error", "code": 500, "message": "internal error"}
    page = client.get("/crash").get_data(as_text=True)
    assert "Something went wrong." in page and "secret detail" not in page and "Traceback" not in page
