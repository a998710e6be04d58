"""The suite itself: hermetic, and honest about what it did not run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import click
from click.testing import CliRunner

from rulings.settings import Settings
from rulings.web import create_app

from .conftest import ROOT, assert_clean_exit


def run_pytest(cwd, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("RULINGS_") and k != "CI"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=cwd, env={**clean, **env}, capture_output=True, text=True, timeout=300)


def test_no_rulings_variable_reaches_a_test(tmp_path):
    assert not [name for name in os.environ if name.startswith("RULINGS_")]
    assert create_app(Settings.resolve(ROOT / "corpus", tmp_path)).config["BASE_URL"] is None


def test_rulings_variables_in_the_shell_are_cleared_for_the_tests():
    done = run_pytest(
        ROOT,
        "tests/test_hermetic.py::test_no_rulings_variable_reaches_a_test",
        RULINGS_BASE_URL="https://rules.example.org",
        RULINGS_STORE="/nonexistent/store",
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_plain_clone_skips_what_needs_shared_and_says_why(tmp_path):
    clone = tmp_path / "clone"  # the repository's files as a clone has them, with nothing beside it
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout.split("\n")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    done = run_pytest(clone, "tests/test_corpus.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 1 skipped" in done.stdout
    assert "needs ../shared" in done.stdout  # the reason is printed (-rs)
    # CI runs every test: the same skip fails there.
    assert run_pytest(clone, "tests/test_corpus.py", CI="1").returncode != 0


def test_the_clean_exit_check_sees_a_crash():
    @click.command()
    def crash():
        raise ValueError("boom")

    result = CliRunner().invoke(crash)
    assert result.output == ""  # why `"Traceback" not in result.output` could never fail
    try:
        assert_clean_exit(result)
    except AssertionError as error:
        assert "ValueError: boom" in str(error)
    else:
        raise AssertionError("a crash passed the clean exit check")
