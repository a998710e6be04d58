"""``rulings export`` writes the site beside its folder and swaps it in: a failed export leaves the previous
site whole, and the folder is only ever replaced when it holds an export."""

import errno
import hashlib
import shutil
from pathlib import Path

import pytest

from rulings import export as export_module
from rulings.errors import BadRequest, WriteError
from rulings.settings import Settings

from .conftest import CORPUS


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def previous(exported_site, tmp_path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(exported_site, site)
    return site


def test_a_failed_export_leaves_the_previous_site(store_dir, previous, monkeypatch):
    before = tree(previous)
    written = []

    def disk_full_after_a_few_pages(html, from_file):
        written.append(from_file)
        if len(written) > 5:
            raise OSError(errno.ENOSPC, "No space left on device", from_file)
        return relative_links(html, from_file)

    relative_links = export_module.relative_links
    monkeypatch.setattr(export_module, "relative_links", disk_full_after_a_few_pages)
    settings = Settings.resolve(CORPUS, store_dir)
    with pytest.raises(WriteError, match="no space left on device"):
        export_module.export(settings, previous, "https://rules.example.org/")  # other links in every page
    assert tree(previous) == before
    assert sorted(p.name for p in previous.parent.iterdir()) == ["site"]  # nothing left beside it


def test_an_export_replaces_an_earlier_one_whole(store_dir, previous):
    (previous / "marvel-champions" / "gone").mkdir()
    (previous / "marvel-champions" / "gone" / "index.html").write_text("a page the corpus no longer has")
    result = export_module.export(Settings.resolve(CORPUS, store_dir), previous, "https://rules.example.org/")
    assert result["target"] == str(previous) and result["pages"] > 1000
    assert not (previous / "marvel-champions" / "gone").exists()
    assert (
        "https://rules.example.org/" in (previous / "marvel-champions" / "terms" / "guard" / "index.html").read_text()
    )
    assert (previous / export_module.MARKER).is_file()
    assert sorted(p.name for p in previous.parent.iterdir()) == ["site"]


def test_a_folder_of_other_files_is_never_replaced(store_dir, tmp_path):
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "thesis.txt").write_text("years of work")
    with pytest.raises(BadRequest, match="it holds files that are not an export"):
        export_module.export(Settings.resolve(CORPUS, store_dir), folder)
    assert [p.name for p in folder.iterdir()] == ["thesis.txt"]


def test_swapping_two_folders_keeps_both(tmp_path):
    new, target = tmp_path / "new", tmp_path / "target"
    new.mkdir()
    target.mkdir()
    (new / "a").write_text("new")
    (target / "a").write_text("old")
    export_module.swap_in(new, target)
    assert (target / "a").read_text() == "new" and (new / "a").read_text() == "old"
