"""The Magic: The Gathering game as a user adds it: a game.toml in the repository, the published
documents copied beside it byte for byte by ``rulings/ingest/assemble.py`` (``make corpus-magic``)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from rulings.ingest.manifest import discover_games, load_manifest

from .conftest import CORPUS, MAGIC_EDITIONS, ROOT
from .shared import SHARED

MANIFEST_DIR = ROOT / "docs" / "corpora" / "magic-the-gathering"
MAGIC = SHARED / "corpora" / "magic-the-gathering" if SHARED else None


def assemble(out, source_dir, *more):
    """``make corpus-magic`` as the Makefile runs it (``--only quick.txt``: ``make corpus-magic-quick``)."""
    command = [sys.executable, "-m", "rulings.ingest.assemble", str(out), "--game", f"{MANIFEST_DIR}={source_dir}"]
    return subprocess.run([*command, *more], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.needs_shared
def test_assembled_corpus_is_the_bundled_games_plus_magic_byte_for_byte(tmp_path):
    out = tmp_path / "corpus-magic"
    run = assemble(out, MAGIC)
    assert run.returncode == 0, run.stderr
    games = [p.name for p in discover_games(out)]
    assert games == sorted([p.name for p in discover_games(CORPUS)] + ["magic-the-gathering"])
    manifest = load_manifest(out / "magic-the-gathering")
    assert (manifest.name, manifest.aliases) == ("Magic: The Gathering", ["mtg"])
    assert sorted(doc.file for doc in manifest.documents) == sorted(p.name for p in MAGIC.iterdir())  # all 86
    versions = [doc.version for doc in manifest.documents]
    assert len(versions) == 86 and versions == sorted(versions)
    for doc in manifest.documents:
        assert doc.path.read_bytes() == (MAGIC / doc.file).read_bytes()
        label = re.search(r"\d{4}-\d{2}-\d{2}", doc.file).group(0)
        label = "2004-06-01" if label == "2006-06-01" else label  # the document states June 1, 2004
        assert (doc.kind, doc.title, doc.version, str(doc.date)) == ("reference", "Comprehensive Rules", label, label)
    assert [doc.file for doc in manifest.documents if doc.incomplete] == ["comprehensive-rules-2013-02-01.txt"]


@pytest.mark.needs_shared
def test_the_quick_game_is_the_seven_editions_of_quick_txt(tmp_path):
    out = tmp_path / "corpus-magic-quick"
    run = assemble(out, MAGIC, "--only", str(MANIFEST_DIR / "quick.txt"))
    assert run.returncode == 0, run.stderr
    manifest = load_manifest(out / "magic-the-gathering")
    assert [doc.file for doc in manifest.documents] == MAGIC_EDITIONS
    assert sorted(p.name for p in (out / "magic-the-gathering").iterdir()) == sorted([*MAGIC_EDITIONS, "game.toml"])
    assert (manifest.vocabulary["edh"], manifest.variant_words) == (["commander"], ["option"])
    assert MAGIC_EDITIONS[0] == "comprehensive-rules-2020-01-22.txt" and len(MAGIC_EDITIONS) == 7


def test_assembling_refuses_a_document_the_manifest_does_not_list(tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("# two\ncomprehensive-rules-2020-01-22.txt\ncomprehensive-rules-1999-01-01.txt\n")
    out = tmp_path / "corpus-magic"
    run = assemble(out, tmp_path, "--only", str(listed))
    assert run.returncode == 3 and not out.exists()
    assert "--only names comprehensive-rules-1999-01-01.txt, not a document of this game" in run.stderr


def test_assembling_refuses_missing_documents_and_keeps_the_previous_corpus(tmp_path):
    out = tmp_path / "corpus-magic"
    (out / "kept").mkdir(parents=True)
    run = assemble(out, tmp_path / "nowhere")
    assert run.returncode != 0
    assert "comprehensive-rules-2003-03-15.txt is not in" in run.stderr
    assert [p.name for p in out.iterdir()] == ["kept"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus-magic"]  # no staging left behind


def test_assembling_refuses_a_document_named_by_a_path_and_a_missing_bundled_folder(tmp_path, capsys):
    from rulings.ingest.assemble import main

    game, source = tmp_path / "moon-base", tmp_path / "documents"
    game.mkdir()
    source.mkdir()
    (tmp_path / "escape.txt").write_text("outside")
    (game / "game.toml").write_text('name = "Moon Base"\n\n[[documents]]\nfile = "../escape.txt"\nkind = "rulebook"\n')
    out = tmp_path / "out"
    assert main([str(out), "--bundled", str(CORPUS), "--game", f"{game}={source}"]) == 3
    assert "game.toml: error: '../escape.txt': a document is named by a plain file name" in capsys.readouterr().err
    assert not out.exists() and (tmp_path / "escape.txt").read_text() == "outside"
    assert main([str(out), "--bundled", str(tmp_path / "none"), "--game", f"{game}={source}"]) == 3
    assert "none: error: --bundled: no such folder of games" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["documents", "escape.txt", "moon-base"]
