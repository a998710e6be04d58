"""Bad documents and manifests: a clear message naming the file (and line), a documented exit
status, no traceback, and the previous build left serving."""

from __future__ import annotations

import codecs
import json

import pytest
from click.testing import CliRunner

from rulings.builds import current_build
from rulings.cli import main

from .conftest import assert_clean_exit, write_game

GOOD_TOML = '[game]\nname = "Tiny"\n[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitle = "Rules"\n'
GOOD_TEXT = "Basics\n\nSome prose.\n\nGlossary\n\nApple: A fruit.\n"


def run(corpus, store, *args):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), *args])
    assert_clean_exit(result)
    return result


@pytest.fixture
def tiny(tmp_path):
    corpus = tmp_path / "corpus"
    write_game(corpus, "tiny", GOOD_TOML, {"rules.txt": GOOD_TEXT})
    store = tmp_path / "store"
    assert run(corpus, store, "build").exit_code == 0
    return corpus, store


def rebuild_fails(corpus, store, expected: str, line: int | None = None):
    before = current_build(store)
    result = run(corpus, store, "build")
    assert result.exit_code == 3, result.output
    assert expected in result.output, result.output
    if line is not None:
        assert f":{line}:" in result.output, result.output
    assert current_build(store) == before  # the previous build keeps serving
    return result


def test_binary_junk(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "rules.txt").write_bytes(bytes(range(256)) * 40)
    rebuild_fails(corpus, store, "tiny/rules.txt: error: binary data")


def test_latin1_and_utf16_are_read(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "rules.txt").write_bytes(GOOD_TEXT.replace("fruit", "fruit caf\u00e9").encode("latin-1"))
    result = run(corpus, store, "build")
    assert result.exit_code == 0 and "Windows-1252" in result.output
    data = json.loads(run(corpus, store, "applies", "tiny", "apple", "--json").output)
    assert "caf\u00e9" in data["text"]
    (corpus / "tiny" / "rules.txt").write_bytes(codecs.BOM_UTF16_LE + GOOD_TEXT.encode("utf-16-le"))
    assert run(corpus, store, "build").exit_code == 0
    (corpus / "tiny" / "rules.txt").write_bytes(GOOD_TEXT.encode("utf-16-le"))  # no byte-order mark
    assert run(corpus, store, "build").exit_code == 0
    assert json.loads(run(corpus, store, "applies", "tiny", "apple", "--json").output)["status"] == "ok"


def test_broken_text_after_a_byte_order_mark_is_an_error_at_its_line(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "rules.txt").write_bytes(codecs.BOM_UTF8 + GOOD_TEXT.encode() + b"Pear: \xff\n")
    rebuild_fails(corpus, store, "tiny/rules.txt:8: error: invalid utf-8-sig text (byte 56)")


def test_empty_document_is_a_warning(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "rules.txt").write_bytes(b"")
    result = run(corpus, store, "build")
    assert result.exit_code == 0
    assert "tiny/rules.txt: warning: empty document" in result.output


def test_huge_document_is_refused(tiny):
    corpus, store = tiny
    with open(corpus / "tiny" / "rules.txt", "wb") as handle:
        handle.write(b"Term: text.\n" * (50 * 1024 * 1024 // 12))
    rebuild_fails(corpus, store, "tiny/rules.txt: error: document is 50 MiB; the limit is 16 MiB")


def test_manifest_naming_a_missing_file(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "game.toml").write_text(GOOD_TOML.replace("rules.txt", "missing.txt"))
    rebuild_fails(corpus, store, "tiny/game.toml:4: error: [[documents]] #1: file 'missing.txt' does not exist")


@pytest.mark.parametrize(
    "toml,message,line",
    [
        (GOOD_TOML.replace('name = "Tiny"', 'name = "Tiny'), "TOML syntax error", 2),
        (GOOD_TOML.replace('kind = "rulebook"', 'kind = "novel"'), "unknown kind 'novel'", 5),
        (GOOD_TOML + 'date = "2020-13-01"\n', "date must be a date like 2019-11-01", 7),
        (
            GOOD_TOML + 'version = "1"\n[[documents]]\nfile = "other.txt"\nkind = "rulebook"\nversion = "1"\n',
            "duplicate version 1 for kind rulebook",
            11,
        ),
        ('[game]\naliases = ["t"]\n[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\n', "[game] needs a name", 1),
        (GOOD_TOML.replace("[[documents]]", "[documents]"), "write [[documents]], not [documents]", 3),
        (GOOD_TOML + '[[renames]]\nfrom = "A"\n', "[[renames]] needs from", 7),
        (
            GOOD_TOML + 'version = "1"\n[[documents]]\nfile = "other.txt"\nkind = "faq"\nversion = "1 .2"\n',
            "version '1 .2' must look like 1.4",
            11,
        ),  # the line of the second document, not the first
        (
            GOOD_TOML + '[[documents]]\nfile = "Rules.md"\nkind = "faq"\n',
            "'Rules.md' and 'rules.txt' would share the URL name 'rules'",
            8,
        ),
        (GOOD_TOML + "version = 1.10\n", 'write the version as a string, e.g. "1.1"', 7),
        (GOOD_TOML + 'official = "false"\n', "official must be true or false", 7),
        ("renames = 5\n" + GOOD_TOML, "renames must be an array of tables", 1),
        (GOOD_TOML + "[[versions]]\ndate = 2020-01-01\n", "[[versions]] needs label", 7),
    ],
)
def test_malformed_manifests(tiny, toml, message, line):
    corpus, store = tiny
    (corpus / "tiny" / "other.txt").write_text(GOOD_TEXT)
    (corpus / "tiny" / "Rules.md").write_text(GOOD_TEXT)
    (corpus / "tiny" / "game.toml").write_text(toml)
    rebuild_fails(corpus, store, message, line)


def test_changelog_problems_are_warnings_with_lines(tmp_path):
    corpus = tmp_path / "corpus"
    toml = GOOD_TOML.replace("version", "x") + (
        'version = "1.0"\ndate = 2020-01-01\n[[documents]]\nfile = "changes.txt"\nkind = "changelog"\n'
    )
    changes = "\n".join(
        [
            "Changes",
            "",
            "Changed from 1.0 -> 1.1",
            "",
            "Apple",
            "",
            "A fruit, and a tasty one.",
            "",
            "Changed from 1.1 -> 1.2 (May 1, 2021)",
            "",
            "p. 2, Apple \u2014 \u201cnot in the text\u201d \u2014> \u201cnew words\u201d",
        ]
    )
    write_game(corpus, "tiny", toml, {"rules.txt": GOOD_TEXT, "changes.txt": changes})
    result = run(corpus, tmp_path / "store", "build")
    assert result.exit_code == 0, result.output
    assert "tiny/changes.txt:3: warning: version 1.1 has no date" in result.output
    assert "tiny/changes.txt:11: warning: patch text \u201cnot in the text\u201d not found" in result.output
    data = json.loads(run(corpus, tmp_path / "store", "applies", "tiny", "apple", "--version", "1.2", "--json").output)
    assert data["complete"] is False and data["version"] == "1.2"
    (corpus / "tiny" / "game.toml").write_text(toml + '[[versions]]\nlabel = "1.1"\ndate = 2020-06-01\n')
    dated = run(corpus, tmp_path / "store", "build")
    assert dated.exit_code == 0 and "no date" not in dated.output  # game.toml gave the date
    assert dated.output.count("patch text \u201cnot in the text\u201d not found") == 1


def test_corrections_that_no_longer_match_are_reported(tmp_path):
    corpus = tmp_path / "corpus"
    toml = GOOD_TOML + '[[corrections]]\nfile = "rules.txt"\nline = 1\nwas = "Something else"\nname = "X"\n'
    write_game(corpus, "tiny", toml, {"rules.txt": GOOD_TEXT})
    result = run(corpus, tmp_path / "store", "build")
    assert result.exit_code == 0
    assert "correction expects \u201cSomething else\u201d here" in result.output


def test_no_corpus_and_no_store(tmp_path):
    result = run(tmp_path / "nothing", tmp_path / "store", "build")
    assert result.exit_code == 3 and "corpus folder does not exist" in result.output
    result = run(tmp_path / "nothing", tmp_path / "store", "terms", "tiny")
    assert result.exit_code == 3


def test_killed_build_leaves_the_previous_one_serving(tiny):
    import os
    import signal
    import subprocess
    import sys
    import time

    corpus, store = tiny
    before = current_build(store)
    (corpus / "tiny" / "rules.txt").write_text(GOOD_TEXT * 3000)  # slow enough to interrupt
    env = dict(os.environ, RULINGS_CORPUS=str(corpus), RULINGS_STORE=str(store))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulings", "build"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 30
    while not list((store / "builds").glob(".tmp-*")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert current_build(store) == before
    assert run(corpus, store, "terms", "tiny", "--json").exit_code == 0  # rebuilds, cleaning up the leftovers
    assert not list((store / "builds").glob(".tmp-*"))
    assert current_build(store) != before


# -- paths: documents stay inside the corpus, game folders fit the site's URLs -------------------


def test_a_document_linked_out_of_the_corpus_is_refused(tiny, tmp_path):
    corpus, store = tiny
    (corpus / "tiny" / "rules.txt").unlink()
    (corpus / "tiny" / "rules.txt").symlink_to("/etc/passwd")
    rebuild_fails(corpus, store, "[[documents]] #1: file 'rules.txt' resolves to /etc/passwd, outside the corpus", 4)


def test_a_game_folder_linked_out_of_the_corpus_is_refused(tiny, tmp_path):
    corpus, store = tiny
    outside = tmp_path / "elsewhere"
    write_game(outside, "far", GOOD_TOML, {"rules.txt": GOOD_TEXT})
    (corpus / "far").symlink_to(outside / "far")
    rebuild_fails(corpus, store, f"resolves to {outside / 'far' / 'rules.txt'}, outside the corpus")


def test_linked_from_allows_documents_linked_from_one_folder(tiny, tmp_path):
    corpus, store = tiny
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "rules.txt").write_text(GOOD_TEXT.replace("Apple", "Cherry"))
    (corpus / "tiny" / "rules.txt").unlink()
    (corpus / "tiny" / "rules.txt").symlink_to(shelf / "rules.txt")
    toml = GOOD_TOML.replace('name = "Tiny"\n', f'name = "Tiny"\nlinked_from = "{shelf}"\n')
    (corpus / "tiny" / "game.toml").write_text(toml)
    assert run(corpus, store, "build").exit_code == 0
    assert json.loads(run(corpus, store, "applies", "tiny", "cherry", "--json").output)["status"] == "ok"
    (corpus / "tiny" / "game.toml").write_text(toml.replace(str(shelf), str(tmp_path / "nowhere")))
    rebuild_fails(corpus, store, "linked_from must name an existing folder", 3)


@pytest.mark.parametrize("name", ["static", "api", "search"])
def test_a_game_folder_named_like_the_sites_own_urls_is_refused(tiny, name):
    corpus, store = tiny
    write_game(corpus, name, GOOD_TOML, {"rules.txt": GOOD_TEXT})
    rebuild_fails(corpus, store, f"{name}/game.toml: error: game folder name {name!r} is taken by the site's own")


def test_a_game_folder_named_like_the_robots_txt_url_is_refused_as_no_slug(tiny):
    corpus, store = tiny
    write_game(corpus, "robots.txt", GOOD_TOML, {"rules.txt": GOOD_TEXT})
    rebuild_fails(corpus, store, "game folder name 'robots.txt' is not a slug (use 'robots-txt')")


def test_reserved_game_names_cover_every_first_segment_of_the_sites_urls(app):
    from rulings.ingest.manifest import RESERVED_SLUGS
    from rulings.text import slugify

    fixed = {rule.rule.strip("/").split("/")[0] for rule in app.url_map.iter_rules()}
    fixed = {segment for segment in fixed if segment and not segment.startswith("<")}
    # A folder whose name is no slug is refused before this check ("robots.txt": "robots-txt"): only slugs need it.
    slugs = {segment for segment in fixed if slugify(segment) == segment}
    assert "robots.txt" in fixed - slugs and slugs <= RESERVED_SLUGS, slugs - RESERVED_SLUGS


def test_a_game_folder_name_longer_than_a_url_can_carry_is_refused(tiny):
    corpus, store = tiny
    name = "a-very-long-game-name-" * 4
    write_game(corpus, name.strip("-"), GOOD_TOML, {"rules.txt": GOOD_TEXT})
    rebuild_fails(corpus, store, "game folder name is 87 characters; the limit is 64")


def test_deeply_nested_toml_is_a_corpus_error_at_its_line(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "game.toml").write_text(GOOD_TOML + "x = " + "[" * 1000 + "]" * 1000 + "\n")
    rebuild_fails(corpus, store, "tiny/game.toml:7: error: arrays or tables nested too deeply", 7)


def test_an_oversized_manifest_is_refused(tiny):
    corpus, store = tiny
    (corpus / "tiny" / "game.toml").write_text(GOOD_TOML + "# padding\n" * 200_000)
    rebuild_fails(corpus, store, "tiny/game.toml: error: a manifest is at most 1024 KiB")


def test_import_leaves_out_hidden_and_unusable_files_and_the_corpus_builds(tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    (books / "apples.md").write_text("# Apples\n\nGlossary\n\nApple: A fruit.\n")
    (books / ".notes.md").write_text("# Private\n")
    (books / "scan.md").write_bytes(bytes(range(256)) * 64)
    (books / "search.md").write_text("# Search\n\nSeeker: One who searches.\n")
    (books / ("the-" * 30 + "end.md")).write_text("# A Long Name\n\nEnd: The last part.\n")
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    result = run(corpus, store, "import", str(books), "--into", str(corpus))
    assert result.exit_code == 0, result.output
    assert "left out scan.md: binary data, not text" in result.output
    assert ".notes" not in result.output and not (corpus / "notes").exists()
    assert sorted(p.name for p in corpus.iterdir()) == ["apples", "search-game", "the-" * 15 + "the"]
    assert run(corpus, store, "build").exit_code == 0


def test_import_with_links_allows_the_folder_the_links_point_into(tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    (books / "apples.md").write_text("# Apples\n\nGlossary\n\nApple: A fruit.\n")
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    assert run(corpus, store, "import", str(books), "--into", str(corpus), "--link").exit_code == 0
    assert (corpus / "apples" / "apples.md").is_symlink()
    assert f"linked_from = {json.dumps(str(books))}" in (corpus / "apples" / "game.toml").read_text()
    assert run(corpus, store, "build").exit_code == 0


def test_export_into_a_folder_that_cannot_be_made_is_one_line(tiny, tmp_path):
    corpus, store = tiny
    (tmp_path / "file").write_text("in the way")
    site = tmp_path / "file" / "site"
    result = run(corpus, store, "export", str(site))
    assert result.exit_code == 5
    expected = f"error: cannot write the export folder {site}: {site.parent} is a file, not a folder"
    assert result.output.strip() == expected
    result = run(corpus, store, "export", str(store / "site"))
    assert result.exit_code == 2 and "it holds or is inside the store" in result.output
