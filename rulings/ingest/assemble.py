"""Assemble a corpus folder: the bundled games plus games whose documents live outside the repository.

    python -m rulings.ingest.assemble OUT [--bundled corpus] --game MANIFEST_DIR=SOURCE_DIR [--game ...] [--only LIST]

``OUT`` gets a copy of ``--bundled`` (default ``corpus/``, the bundled games) and, for each ``--game``, a folder named
after ``MANIFEST_DIR`` holding its ``game.toml`` and every document that manifest lists, copied
byte for byte from ``SOURCE_DIR`` (checked by SHA-256). With ``--only LIST`` (a file naming documents,
one a line), a game keeps only those of its documents, its ``game.toml`` cut to their blocks. The
result is validated with the same manifest loader ``rulings build`` uses, written aside and swapped
in, so a failure leaves any previous ``OUT`` as it was. ``make corpus-magic`` uses it for Magic: The
Gathering's whole history, ``make corpus-magic-quick`` for its seven editions of 2020-2023.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
import tomllib
from pathlib import Path

from ..errors import CorpusError
from .manifest import MANIFEST, discover_games, load_manifest


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_list(path: Path) -> list[str]:
    """The document names a list file gives (``--only``): one a line, blank lines and ``#`` comments aside."""
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(str(path), f"--only: cannot read the list of documents ({exc})") from None
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def cut_manifest(text: str, keep: set[str]) -> str:
    """A game.toml's text with only the ``[[documents]]`` blocks of the files in ``keep``, everything else as
    written (the comment lines right above a block go with it)."""
    lines = text.splitlines(keepends=True)
    starts = []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("["):
            while i and lines[i - 1].lstrip().startswith("#"):
                i -= 1
            starts.append(i)
    kept = [lines[: starts[0]] if starts else lines]
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        block = "".join(lines[start:end])
        file = re.search(r'(?m)^\s*file\s*=\s*"([^"]*)"', block)
        is_document = any(line.strip() == "[[documents]]" for line in lines[start:end])
        if not is_document or (file and file.group(1) in keep):
            kept.append(lines[start:end])
    return "".join(line for part in kept for line in part)


def add_game(corpus: Path, manifest_dir: Path, source_dir: Path, only: list[str] | None = None) -> int:
    """Copy one game's manifest and the documents it lists (those of ``only``, when given); return how many."""
    manifest = manifest_dir / MANIFEST
    if not manifest.is_file():
        raise CorpusError(str(manifest), "no game manifest here")
    target = corpus / manifest_dir.name
    if target.exists():
        raise CorpusError(str(manifest), f"a game named {target.name} is already in the corpus")
    try:
        text = manifest.read_text("utf-8")
        listed = tomllib.loads(text).get("documents", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(str(manifest), f"not a readable TOML file ({exc})") from None
    files = [doc["file"] for doc in listed if isinstance(doc, dict) and isinstance(doc.get("file"), str)]
    if only is not None:
        unknown = [name for name in only if name not in files]
        if unknown:
            raise CorpusError(str(manifest), f"--only names {', '.join(unknown)}, not a document of this game")
        text, files = cut_manifest(text, set(only)), [file for file in files if file in only]
    for file in files:  # every name checked before anything is written
        if Path(file).name != file or file.startswith("."):
            raise CorpusError(str(manifest), f"{file!r}: a document is named by a plain file name")
        if not (source_dir / file).is_file():
            raise CorpusError(str(manifest), f"{file} is not in {source_dir}")
    target.mkdir()
    (target / MANIFEST).write_text(text, encoding="utf-8")
    for file in files:
        shutil.copyfile(source_dir / file, target / file)
        if sha256(source_dir / file) != sha256(target / file):
            raise CorpusError(str(source_dir / file), f"the copy in {target} differs from it")
    return len(files)


def assemble(out: Path, games: list[tuple[Path, Path]], bundled: Path, only: list[str] | None = None) -> None:
    """Write the corpus aside, validate it, then swap it in (a failure leaves ``out`` untouched)."""
    if not bundled.is_dir():
        raise CorpusError(str(bundled), "--bundled: no such folder of games")
    staging = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        shutil.copytree(bundled, staging)
        for manifest_dir, source_dir in games:
            count = add_game(staging, manifest_dir, source_dir, only)
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
    parser.add_argument(
        "--only", type=Path, metavar="LIST", help="a file naming the documents to keep, one a line (the rest left out)"
    )
    args = parser.parse_args(argv)
    games = []
    for spec in args.game:
        manifest_dir, sep, source_dir = spec.partition("=")
        if not sep:
            parser.error(f"--game {spec}: write MANIFEST_DIR=SOURCE_DIR")
        games.append((Path(manifest_dir), Path(source_dir)))
    try:
        assemble(args.out, games, args.bundled, read_list(args.only) if args.only else None)
    except CorpusError as exc:
        print(exc, file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
