"""Digests of a built graph, table by table: proof that a parser change left a corpus's graph as it was.

    python bench/graph_digest.py                      # the bundled corpus
    python bench/graph_digest.py var/corpus-magic     # the bundled games + Magic's seven editions
    python bench/graph_digest.py --against 273ed64    # the same corpus built by another revision too

Each table's rows are read in primary-key order and hashed (SHA-256 of their JSON). ``meta`` and
``diagnostics`` hold when and where the build ran, so they are left out. With ``--against`` the
other revision builds in a temporary worktree and a process of its own, and the tables that differ
are named. Compare with the revision a branch started from (``git merge-base main HEAD``): main moves
on while a branch is made.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from common import ROOT, checkout_of

SKIPPED = {"meta", "diagnostics"}  # build time, paths of the build machine


def table_digests(graph: Path) -> dict[str, str]:
    """SHA-256 of every table's rows in a stable order."""
    conn = sqlite3.connect(f"file:{graph}?mode=ro", uri=True)
    out = {}
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for table in tables:
        if table in SKIPPED or table.startswith("sqlite_"):
            continue
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        order = ", ".join(f'"{c}"' for c in columns)
        digest = hashlib.sha256()
        count = 0
        for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}'):
            digest.update(json.dumps(row, ensure_ascii=False).encode())
            count += 1
        out[table] = f"{digest.hexdigest()[:16]} ({count} rows)"
    conn.close()
    return out


def digests_of(checkout: Path, corpus: Path) -> dict[str, str]:
    """Build ``corpus`` with the code of ``checkout`` in a process of its own, and digest its graph."""
    script = (
        "import json, sys, tempfile; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from rulings.build import build; from rulings.settings import Settings;"
        "r = build(Settings.resolve(Path(sys.argv[2]), Path(tempfile.mkdtemp())), progress=lambda _: None);"
        "print(r.build / 'graph.sqlite')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(checkout), str(corpus)], check=True, capture_output=True, text=True
    )
    return table_digests(Path(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=ROOT / "corpus")
    parser.add_argument("--against", help="a git revision to build the same corpus with, side by side")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    ours = digests_of(ROOT, corpus)
    theirs = None
    if args.against:
        with checkout_of(args.against) as folder:
            theirs = digests_of(folder, corpus)
    print(f"graph of {corpus}" + (f", this checkout against {args.against}" if theirs else ""))
    for table, digest in ours.items():
        if theirs is None:
            print(f"  {table:<14} {digest}")
        else:
            same = "same" if theirs.get(table) == digest else f"DIFFERS (theirs {theirs.get(table)})"
            print(f"  {table:<14} {digest}  {same}")
    if theirs is not None:
        differ = [t for t in ours if theirs.get(t) != ours[t]]
        print("identical" if not differ else f"{len(differ)} tables differ: {', '.join(differ)}")
        raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
