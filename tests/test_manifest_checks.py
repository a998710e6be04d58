"""What a maintainer reads when a manifest or a document is wrong: the file as they can open it, one
``error:``, a did-you-mean for a misspelled key, and what is in the place of a document that is no file."""

import os
import tomllib

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.errors import CorpusError
from rulings.ingest.manifest import _unknown_keys, load_manifest

from .conftest import assert_clean_exit, write_game

TEXT = "Basics\n\nSome prose.\n\nGlossary\n\nApple: A fruit.\n"
TOML = '[game]\nname = "Tiny"\n[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitle = "Rules"\n'


def build(corpus, store, *args):
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "--store", str(store), "build", *args])
    assert_clean_exit(result)
    return result


def test_a_misspelled_key_is_a_warning_with_a_did_you_mean(tmp_path):
    toml = (
        '[game]\nname = "Tiny"\nalias = ["t"]\npublisher = "Someone"\n\n'
        '[[documents]]\nfile = "rules.txt"\nkind = "rulebook"\ntitel = "Rules"\nedition = "2nd"\n\n'
        '[vocabullary]\nhp = "hit points"\n'
    )
    write_game(tmp_path / "corpus", "tiny", toml, {"rules.txt": TEXT})
    manifest = load_manifest(tmp_path / "corpus" / "tiny")
    said = [(d.line, d.message) for d in manifest.diagnostics]
    assert said == [
        (12, "unknown key 'vocabullary' is not read; did you mean 'vocabulary'?"),
        (3, "[game] unknown key 'alias' is not read; did you mean 'aliases'?"),
        (9, "[[documents]] #1: unknown key 'titel' is not read; did you mean 'title'?"),
    ]  # a publisher or an edition is information the manifest may hold: no warning
    result = build(tmp_path / "corpus", tmp_path / "store")
    assert result.exit_code == 0
    assert f"{tmp_path / 'corpus' / 'tiny' / 'game.toml'}:3: warning: [game] unknown key 'alias'" in result.stderr


def test_the_shipped_manifests_read_every_key_they_name():
    from .conftest import CORPUS, MAGIC_MANIFEST

    for game in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        assert load_manifest(game).diagnostics == []
    text = MAGIC_MANIFEST.read_text()  # its documents live in ../shared: its keys are checked alone
    assert _unknown_keys(tomllib.loads(text), "game.toml", text) == []


@pytest.mark.parametrize(
    "make,said",
    [
        (os.mkfifo, "file 'rules.txt' is a named pipe (FIFO), not a regular file"),
        (os.mkdir, "file 'rules.txt' is a folder, not a file"),
        (lambda path: path.symlink_to(path.parent / "gone.txt"), "file 'rules.txt' does not exist in tiny/"),
    ],
)
def test_what_is_in_the_place_of_a_document_is_said(tmp_path, make, said):
    """A named pipe would stop the build for ever (reading it waits for a writer): it is never opened."""
    write_game(tmp_path / "corpus", "tiny", TOML, {})
    make(tmp_path / "corpus" / "tiny" / "rules.txt")
    with pytest.raises(CorpusError) as raised:
        load_manifest(tmp_path / "corpus" / "tiny")
    assert raised.value.message == f"corpus/tiny/game.toml:4: error: [[documents]] #1: {said}"


def test_a_manifest_that_is_a_folder_is_said(tmp_path):
    (tmp_path / "corpus" / "tiny" / "game.toml").mkdir(parents=True)
    with pytest.raises(CorpusError, match="game.toml: error: the manifest is a folder, not a file"):
        load_manifest(tmp_path / "corpus" / "tiny")


def test_build_errors_name_the_file_where_the_corpus_is(tmp_path, monkeypatch):
    """--corpus pointing elsewhere: the error names that file (relative to the current folder when inside it),
    not a corpus/... path that does not exist, and says error: once."""
    corpus = tmp_path / "elsewhere" / "games"
    write_game(corpus, "tiny", TOML.replace("rules.txt", "missing.txt"), {})
    result = build(corpus, tmp_path / "store")
    assert result.exit_code == 3
    assert (
        result.stderr
        == f"{corpus / 'tiny' / 'game.toml'}:4: error: [[documents]] #1: file 'missing.txt' does not exist in tiny/\n"
    )
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = build("games", tmp_path / "store")
    assert result.stderr.startswith("games/tiny/game.toml:4: error: [[documents]] #1: file 'missing.txt'")
    write_game(corpus, "tiny", TOML, {"rules.txt": b"\x00\x01binary"})
    assert build("games", tmp_path / "store").stderr.startswith("games/tiny/rules.txt: error: binary data")
