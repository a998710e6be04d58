"""Assemble a corpus folder: the bundled games plus games whose documents live outside the repository.

    python -m rulings.ingest.assemble OUT [--bundled corpus] --game MANIFEST_DIR=SOURCE_DIR [--game ...]

``OUT`` gets a copy of ``--bundled`` (default ``corpus/``, the bundled games) and, for each ``--game``, a folder named
after ``MANIFEST_DIR`` holding its ``game.toml`` and every document that manifest lists, copied
byte for byte from ``SOURCE_DIR`` (checked by SHA-256). The result is validated with the same
manifest loader ``rulings build`` uses, written aside and swapped in, so a failure leaves any
previous ``OUT`` as it was. ``make corpus-magic`` uses it for Magic: The Gathering.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tomllib
from pathlib import Path

from ..errors import CorpusError
from .manifest import MANIFEST, discover_games, load_manifest


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def add_game(corpus: Path, manifest_dir: Path, source_dir: Path) -> int:
    """Copy one game's manifest and the documents it lists; return how many documents."""
    manifest = manifest_dir / MANIFEST
    if not manifest.is_file():
        raise CorpusError(str(manifest), "no game manifest here")
    target = corpus / manifest_dir.name
    if target.exists():
        raise CorpusError(str(manifest), f"a game named {target.name} is already in the corpus")
    try:
        listed = tomllib.loads(manifest.read_text("utf-8")).get("documents", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(str(manifest), f"not a readable TOML file ({exc})") from None
    files = [doc["file"] for doc in listed if isinstance(doc, dict) and isinstance(doc.get("file"), str)]
    for file in files:  # every name checked before anything is written
        if Path(file).name != file or file.startswith("."):
            raise CorpusError(str(manifest), f"{file!r}: a document is named by a plain file name")
        if not (source_dir / file).is_file():
            raise CorpusError(str(manifest), f"{file} is not in {source_dir}")
    target.mkdir()
    shutil.copyfile(manifest, target / MANIFEST)
    for file in files:
        shutil.copyfile(source_dir / file, target / file)
        if sha256(source_dir / file) != sha256(target / file):
            raise CorpusError(str(source_dir / file), f"the copy in {target} differs from it")
    return len(files)


def assemble(out: Path, games: list[tuple[Path, Path]], bundled: Path) -> None:
    """Write the corpus aside, validate it, then swap it in (a failure leaves ``out`` untouched)."""
    if not bundled.is_dir():
        raise CorpusError(str(bundled), "--bundled: no such folder of games")
    staging = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        shutil.copytree(bundled, staging)
        for manifest_dir, source_dir in games:
            count = add_game(staging, manifest_dir, source_dir)
            print(f"{manifest_dir.name}: {count} documents from {source_dir}")
        for game_dir in discover_games(staging):
            load_manifest(game_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    old = out.with_name(f".{out.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    print(f"{out}: {len(discover_games(out))} games")


def main(argv: list[str] | None = None) -> int:
    """The exit status: 0, or ``CorpusError``'s (the message, naming the file, on standard error)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the corpus folder to write (replaced)")
    parser.add_argument("--bundled", type=Path, default=Path("corpus"), help="the games to start from")
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="MANIFEST_DIR=SOURCE_DIR",
        help="a folder holding game.toml, and the folder its documents are in",
    )
    args = parser.parse_args(argv)
    games = []
    for spec in args.game:
        manifest_dir, sep, source_dir = spec.partition("=")
        if not sep:
            parser.error(f"--game {spec}: write MANIFEST_DIR=SOURCE_DIR")
        games.append((Path(manifest_dir), Path(source_dir)))
    try:
        assemble(args.out, games, args.bundled)
    except CorpusError as exc:
        print(exc, file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
