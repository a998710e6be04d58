"""What a user sees when the current build is damaged or the store cannot be written, and how long
recovery takes: one row per case (bundled corpus, two intact builds to start from).

    python bench/damaged_builds.py

For each kind of damage: the first read command after it (its one warning line, exit status and
time: it answers from the newest intact build), `rulings check`, and the `rulings build` that
replaces the damaged build. Then a full disk and a read-only store (in a private mount namespace,
when `unshare` can make one), and a running server whose index and graph are truncated under it:
how long until it answers from an intact build again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT

from rulings.build import build
from rulings.builds import current_build
from rulings.settings import Settings
from tests.damage import DAMAGE, truncate
from tests.server import free_port, status_of, wait_until_answering

CORPUS = ROOT / "corpus"


def rulings(env: dict, *args: str, prefix: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run([*prefix, sys.executable, "-m", "rulings", *args], env=env, capture_output=True, text=True)
    return done, time.perf_counter() - start


def two_builds(root: Path) -> Path:
    """A store holding two intact builds of the bundled corpus (the second current)."""
    store = root / "template"
    settings = Settings.resolve(CORPUS, store)
    build(settings, progress=lambda _: None)
    build(settings, progress=lambda _: None, incremental=False)
    return store


def copy_of(template: Path, where: Path) -> tuple[Path, dict]:
    """A copy of the template store (times kept, so the checksums' quick check holds) and its environment."""
    shutil.copytree(template, where, symlinks=True)
    return where, dict(os.environ, RULINGS_STORE=str(where), RULINGS_CORPUS=str(CORPUS))


def first_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return (lines[0] if lines else "(nothing)") + (f" (+{len(lines) - 1} lines)" if len(lines) > 1 else "")


def damaged_cases(root: Path, template: Path) -> None:
    print("| damage | first read command: stderr | exit | time | `rulings check` | `rulings build` | build time |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for number, (name, damage) in enumerate(DAMAGE.items()):
        store, env = copy_of(template, root / f"read-{number}")
        damage(current_build(store))
        read, read_s = rulings(env, "terms", "marvel-champions", "--json")
        store, env = copy_of(template, root / f"build-{number}")
        damage(current_build(store))
        check, _ = rulings(env, "check")
        rebuilt, build_s = rulings(env, "build")
        print(
            f"| {name} | `{first_line(read.stderr)}` | {read.returncode} | {read_s:.2f} s | exit {check.returncode} "
            f"| exit {rebuilt.returncode} | {build_s:.2f} s |"
        )


def unwritable_cases(root: Path, template: Path) -> None:
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        print("(no private mount namespaces here: the full-disk and read-only cases are skipped)")
        return
    store, env = copy_of(template, root / "readonly")
    (root / "corpus").mkdir()
    shutil.copytree(CORPUS, root / "corpus" / "c")
    newer = next((root / "corpus" / "c").glob("*/game.toml"))
    os.utime(newer, (time.time(), time.time()))  # the corpus changed since the build: a rebuild is due
    env["RULINGS_CORPUS"] = str(root / "corpus" / "c")
    read_only = f"mount --bind {store} {store}; mount -o remount,bind,ro {store}"
    for label, setup, args in (
        ("read-only store, stale corpus: `rulings terms`", read_only, ("terms", "marvel-champions", "--json")),
        ("read-only store: `rulings build`", read_only, ("build",)),
    ):
        shell = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-euc", f'{setup}; exec "$0" "$@"']
        done, seconds = rulings(env, *args, prefix=tuple(shell))
        print(f"| {label} | `{first_line(done.stderr)}` | {done.returncode} | {seconds:.2f} s |")
    full = root / "full"
    full.mkdir()
    env = dict(os.environ, RULINGS_STORE=str(full), RULINGS_CORPUS=str(CORPUS))
    shell = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-euc"]
    shell.append(f'mount -t tmpfs -o size=2m tmpfs {full}; exec "$0" "$@"')
    done, seconds = rulings(env, "build", prefix=tuple(shell))
    print(f"| full disk (2 MiB): `rulings build` | `{first_line(done.stderr)}` | {done.returncode} | {seconds:.2f} s |")


def server_case(root: Path, template: Path) -> None:
    """Truncate the index and the graph under a running server, keep asking, and time its one warning line."""
    store, env = copy_of(template, root / "server")
    current = current_build(store)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulings", "serve", "--threads", "1", "--port", str(port)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    url, warnings = f"http://127.0.0.1:{port}", []
    reader = threading.Thread(target=lambda: warnings.extend((time.perf_counter(), ln) for ln in proc.stderr))
    reader.start()
    try:
        wait_until_answering(url + "/", proc, timeout=60)
        paths = ["/api/search?q=guard", "/marvel-champions/terms/guard", "/search?q=villain+phase"]
        for path in paths:
            status_of(url + path)
        for segment in (current / "index").glob("*.seg"):
            truncate(segment, keep=0.1)
        truncate(current / "graph.sqlite")
        damaged_at, seen = time.perf_counter(), []
        while time.perf_counter() - damaged_at < 5:
            seen += [status_of(url + path) for path in paths]
    finally:
        proc.terminate()
        proc.wait(10)
        reader.join()
    said = [(at - damaged_at, line.strip()) for at, line in warnings if "is damaged" in line]
    counts = {code: seen.count(code) for code in sorted(set(seen))}
    when = f"{said[0][0]:.2f} s after the damage" if said else "never"
    print(
        f"| index and graph truncated under `rulings serve` | `{said[0][1] if said else '(nothing)'}` "
        f"| answers {counts} (0 = none) | warning {when} |"
    )


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="rulings-damage-"))
    try:
        template = two_builds(root)
        damaged_cases(root, template)
        print()
        print("| case | stderr | exit | time |")
        print("|---|---|---:|---:|")
        unwritable_cases(root, template)
        server_case(root, template)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
