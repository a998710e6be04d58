"""The static export of Magic: The Gathering at several numbers of editions, side by side: build and export
time, peak memory, and what the export writes (pages, bytes, change reports, snapshots, the largest page).

    python bench/export_scale.py                    # 7 (the quick game), 30 and 86 editions
    python bench/export_scale.py --editions 7 30    # some of them
    python bench/export_scale.py --against HEAD~3   # the code of another revision (a temporary worktree)

7 is the quick game (docs/corpora/magic-the-gathering/quick.txt); any other N the last N editions of the
manifest (86: all of them). Each build and export runs in a process of its own (``python -m rulings``,
timed by /usr/bin/time for its peak memory), from the code of a checkout: this one by default, its
templates and static files too (an editable install maps them to its own repository otherwise). An export
linear in editions grows by about the same bytes and seconds per edition; one with a change report for
every pair of editions (before issue 31) grew by their square.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, checkout_of

MANIFEST = ROOT / "docs" / "corpora" / "magic-the-gathering" / "game.toml"
BENCH = Path(__file__).resolve().parent


def shared_docs() -> Path:
    sys.path.insert(0, str(ROOT))
    from tests.shared import SHARED

    if SHARED is None:
        sys.exit("../shared is missing: set RULINGS_SHARED")
    return SHARED / "corpora" / "magic-the-gathering"


def corpus(root: Path, editions: int) -> Path:
    """A corpus of Magic alone with ``editions`` editions (7: the quick game's), linked from ../shared."""
    import tomllib

    from rulings.ingest.assemble import cut_manifest, read_list

    docs = shared_docs()
    text = MANIFEST.read_text(encoding="utf-8")
    every = [d["file"] for d in tomllib.loads(text)["documents"]]
    files = read_list(MANIFEST.with_name("quick.txt")) if editions == 7 else every[-editions:]
    game = root / "magic-the-gathering"
    game.mkdir(parents=True)
    text = cut_manifest(text, set(files)) if len(files) < len(every) else text
    (game / "game.toml").write_text(text.replace("[game]\n", f'[game]\nlinked_from = "{docs}"\n', 1))
    for file in files:
        (game / file).symlink_to(docs / file)
    return root


def timed(code: Path, *args: str) -> tuple[float, float]:
    """(wall seconds, peak MiB) of ``python -m rulings ARGS`` run from ``code``."""
    env = dict(os.environ, PYTHONPATH=str(code))
    script = code / "bench" / "export_scale.py"  # the checkout's: its bench/common.py imports the checkout's package
    command = ["/usr/bin/time", "-f", "%e %M", sys.executable, str(script), "--run", str(code)]
    done = subprocess.run([*command, *args], env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"rulings {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    wall, peak = done.stderr.strip().splitlines()[-1].split()
    return float(wall), int(peak) / 1024


def measure(code: Path, editions: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="rulings-export-") as scratch:
        root = Path(scratch)
        source = corpus(root / "corpus", editions)
        store, site = root / "store", root / "site"
        build_s, build_mib = timed(code, "--corpus", str(source), "--store", str(store), "build")
        export_s, export_mib = timed(code, "--corpus", str(source), "--store", str(store), "export", str(site))
        files = [p for p in site.rglob("*") if p.is_file()]
        pages = [p for p in files if p.suffix == ".html"]
        game = site / "magic-the-gathering"
        largest = max(pages, key=lambda p: p.stat().st_size)
        contents = [p / "index.html" for p in (game / "v").iterdir() if (p / "index.html").is_file()]
        return {
            "editions": editions,
            "build s": build_s,
            "build MiB": build_mib,
            "export s": export_s,
            "export MiB": export_mib,
            "pages": len(pages),
            "MB": sum(p.stat().st_size for p in files) / 1e6,
            "reports": sum(1 for p in (game / "changes").iterdir() if p.is_dir()),
            "snapshots MB": sum(p.stat().st_size for p in game.glob("v/*/edition.js")) / 1e6,
            "largest page KB": largest.stat().st_size / 1e3,
            "largest contents KB": max(p.stat().st_size for p in contents) / 1e3,
            "largest": str(largest.relative_to(site)),
        }


def run_rulings(code: Path, args: list[str]) -> None:
    """In the timed process: ``rulings ARGS`` with the checkout's package, templates and static files."""
    from page_instructions import CheckoutData

    sys.path.insert(0, str(code))
    sys.meta_path.insert(0, CheckoutData(code))
    from rulings.cli import main

    main(args, standalone_mode=True)


def report(rows: list[dict]) -> None:
    keys = [k for k in rows[0] if k != "largest"]
    print(" | ".join(keys))
    for row in rows:
        print(" | ".join(f"{row[k]:.1f}" if isinstance(row[k], float) else str(row[k]) for k in keys))
    for row in rows:
        print(f"{row['editions']} editions: largest page {row['largest']}")
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        scale = last["editions"] / first["editions"]
        for key in ("export s", "MB", "pages"):
            print(f"{key}: x{last[key] / first[key]:.1f} for x{scale:.1f} the editions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", type=int, nargs="+", default=[7, 30, 86])
    parser.add_argument("--against", help="measure the code of this revision instead of this checkout")
    parser.add_argument("--run", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_rulings(Path(args.run[0]), args.run[1:])
        return
    rows: list[dict] = []

    def measure_all(code: Path) -> None:
        for editions in args.editions:
            rows.append(measure(code, editions))
            print(rows[-1], flush=True)

    if args.against:
        with checkout_of(args.against) as code:
            measure_all(code)
    else:
        measure_all(ROOT)
    report(rows)


if __name__ == "__main__":
    main()
