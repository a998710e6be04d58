"""Instructions per cold page, counted by valgrind's callgrind: a figure the machine's load does not move.

    python bench/page_instructions.py [--pages 100] [--against REV]

Each side (this checkout; with ``--against``, REV in a temporary git worktree) builds the bundled
corpus, then, under callgrind, asks for ``--pages`` term pages of Marvel Champions and as many API
term answers, each once to warm up and once measured, the answer cache off. Callgrind counts only
inside ``functools.reduce``, which only the measured loop calls: start-up, the build's opening and
the warming are left out. It prints each side's instructions per page and the ratio.

Timed benchmarks (``http_load.py --compare``) say what a page costs on the machine as it is, and
move by a fifth from one quarter of an hour to the next here; this says whether a change made the
work smaller, to a tenth of a percent. Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.util
import io
import os
import re
import subprocess
import sys
import tempfile
from functools import reduce
from pathlib import Path

BENCH = Path(__file__).resolve().parent
GAME = "marvel-champions"
KINDS = {"term page": "term", "API term JSON": "api"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100, help="pages of each kind (default 100)")
    parser.add_argument("--against", metavar="REV", help="count side by side with the code of this git revision")
    parser.add_argument("--measure", nargs=3, metavar=("CODE", "STORE", "KIND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        code, store, kind = args.measure
        measure(Path(code), Path(store), kind, args.pages)
    else:
        compare(args.against, args.pages)


def compare(revision: str | None, pages: int) -> dict[str, dict[str, float]]:
    """Instructions per page of each kind, for this checkout and ``revision``; printed, and returned."""
    from common import ROOT, checkout_of

    counted: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="rulings-instructions-") as scratch:
        if revision is None:
            counted["this checkout"] = count(ROOT, Path(scratch) / "this", pages)
        else:
            with checkout_of(revision) as other:
                counted["this checkout"] = count(ROOT, Path(scratch) / "this", pages)
                counted[revision] = count(other, Path(scratch) / "other", pages)
    for name, found in counted.items():
        print(f"{name}: " + ", ".join(f"{kind} {n / 1e6:.3f}M instructions" for kind, n in found.items()))
    if revision is not None:
        for kind in KINDS:
            ratio = counted["this checkout"][kind] / counted[revision][kind]
            print(f"ratio {kind} (this checkout / {revision}): {ratio:.3f}")
    return counted


def count(code: Path, scratch: Path, pages: int) -> dict[str, float]:
    """The bundled corpus built by the package in ``code``, then each kind of page counted under callgrind."""
    store = scratch / "store"
    env = dict(os.environ, PYTHONPATH=str(code), RULINGS_CACHE_MIB="0")
    run = dict(env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)  # not in a checkout: -m imports it
    built = subprocess.run(
        [sys.executable, "-m", "rulings", "--corpus", str(code / "corpus"), "--store", str(store), "build"], **run
    )
    if built.returncode:
        sys.exit(f"the build by {code} failed:\n{built.stderr}")
    found = {}
    for kind, key in KINDS.items():
        out = scratch / f"callgrind-{key}.out"
        measured = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
             f"--callgrind-out-file={out}", sys.executable, str(BENCH / "page_instructions.py"),
             "--pages", str(pages), "--measure", str(code), str(store), key],
            **run,
        )  # fmt: skip
        totals = re.search(r"^summary: (\d+)", out.read_text(), re.M) if out.exists() else None
        if measured.returncode or totals is None:
            sys.exit(f"callgrind over {code} ({kind}) failed:\n{measured.stderr[-3000:]}")
        found[kind] = int(totals.group(1)) / pages
    return found


class CheckoutData(importlib.abc.MetaPathFinder):
    """The templates and static files of the checkout measured: an editable install maps
    ``rulings.templates`` and ``rulings.static`` to its own repository, whichever ``rulings`` is imported."""

    def __init__(self, code: Path):
        self.folders = {"rulings.templates": code / "templates", "rulings.static": code / "static"}

    def find_spec(self, name, path=None, target=None):
        folder = self.folders.get(name)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(name, folder / "__init__.py", submodule_search_locations=[])


def measure(code: Path, store_dir: Path, kind: str, pages: int) -> None:
    """In the process callgrind watches: ``pages`` answers of ``kind``, asked to warm up, then inside reduce()."""
    sys.path.insert(0, str(code))
    sys.meta_path.insert(0, CheckoutData(code))
    from werkzeug.test import EnvironBuilder

    from rulings.builds import current_build
    from rulings.graph.store import Store
    from rulings.settings import Settings
    from rulings.urls import urls
    from rulings.web import create_app

    app = create_app(Settings.resolve(code / "corpus", store_dir))
    store = Store(current_build(store_dir))
    game = store.game(GAME)
    slugs = [t.slug for t in store.terms(game, ("entry", "keyword"))][:pages]
    paths = [urls.term(GAME, s) if kind == "term" else f"/api/{GAME}/terms/{s}" for s in slugs]
    environs = [EnvironBuilder(path=p, base_url="http://localhost/").get_environ() for p in paths]

    def ask(done: int, environ: dict) -> int:
        body = app(dict(environ, **{"wsgi.input": io.BytesIO()}), lambda status, headers, exc_info=None: None)
        b"".join(body)
        return done + 1  # (the answer cache hands back a list: nothing to close)

    for environ in environs:  # warm: linkers, per-build values, compiled templates, SQLite's page cache
        ask(0, environ)
    assert reduce(ask, environs, 0) == len(paths)  # measured: callgrind counts inside functools.reduce only


if __name__ == "__main__":
    main()
