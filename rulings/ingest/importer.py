"""``rulings import``: turn a folder of rulebooks into corpus games with generated ``game.toml``.

One game per file by default. With grouping, files whose names differ only by
what kind of document they are ("agricola-rulebook.md", "agricola_faq.md") become
one game with several documents. Documents are copied byte for byte (or linked).
Hidden files are left out, and a file the build would refuse (binary, too large,
unreadable) is reported and left out instead of making the whole corpus unbuildable.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from ..errors import CorpusError
from ..text import slugify
from .manifest import MAX_GAME_SLUG, RESERVED_SLUGS
from .source import MAX_DOCUMENT_BYTES, decode

EXTENSIONS = {".md", ".markdown", ".txt", ".text"}
DOC_WORDS = (
    "rulebook",
    "rules",
    "rule",
    "book",
    "faq",
    "reference",
    "glossary",
    "manual",
    "guide",
    "quick",
    "player",
    "aid",
    "summary",
    "variant",
    "general",
    "sheet",
    "cheat",
    "errata",
    "official",
    "v\\d+",
)
KIND_HINTS = (
    ("faq", "faq"),
    ("errata", "faq"),
    ("glossary", "reference"),
    ("reference", "reference"),
    ("player-aid", "player-aid"),
    ("quick", "player-aid"),
    ("cheat", "player-aid"),
    ("summary", "player-aid"),
)


@dataclass
class ImportedGame:
    slug: str
    name: str
    documents: list[tuple[Path, str, str]] = field(default_factory=list)  # (source, kind, title)
    skipped: bool = False


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a TOML basic string is JSON-compatible


def kind_of(stem: str) -> str:
    lowered = stem.lower().replace("_", "-")
    for hint, kind in KIND_HINTS:
        if hint in lowered:
            return kind
    return "rulebook"


def game_key(stem: str) -> str:
    """The game a file is about, from its name: words saying what kind of document it is removed."""
    words = [w for w in re.split(r"[-_\s.]+", stem.lower()) if w]
    kept = [w for w in words if not any(re.fullmatch(d, w) for d in DOC_WORDS)]
    return slugify(" ".join(kept or words))


def title_of(path: Path) -> str | None:
    """The first Markdown H1 of a document (its own title), if any."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in islice(handle, 40):
                match = re.match(r"^#\s+(.+?)\s*#*\s*$", line)
                if match:
                    return re.sub(r"[*_`]", "", match.group(1)).strip()
    except OSError:
        return None
    return None


def game_name(title: str | None, stem: str) -> str:
    name = title or re.sub(r"[-_]+", " ", stem).title()
    name = re.sub(
        r"\s*[-\u2013\u2014:]?\s*(official\s+)?(rule ?book|rules|faq|reference)(\s+v?[\d.]+)?$", "", name, flags=re.I
    )
    return name.strip() or stem


def game_slug(key: str) -> str:
    """A game folder name the manifest accepts: short enough, cut at a word, and not one of the site's own."""
    if len(key) > MAX_GAME_SLUG:
        key = key[: MAX_GAME_SLUG + 1].rsplit("-", 1)[0] or key[:MAX_GAME_SLUG]
    return f"{key}-game" if key in RESERVED_SLUGS else key


def unusable(path: Path) -> str | None:
    """Why the build would refuse this file (binary, too large, unreadable), or None."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            return f"{size / (1024 * 1024):.0f} MiB, over the {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB limit"
        decode(path.read_bytes(), path.name)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    except CorpusError as exc:
        return exc.diagnostic.message
    return None


def plan(source: Path, group: bool = False) -> tuple[list[ImportedGame], list[tuple[Path, str]]]:
    """The games to create, and the files left out with the reason."""
    candidates = sorted(
        p for p in source.iterdir() if p.is_file() and p.suffix.lower() in EXTENSIONS and not p.name.startswith(".")
    )
    games: dict[str, ImportedGame] = {}
    refused = []
    for path in candidates:
        reason = unusable(path)
        if reason:
            refused.append((path, reason))
            continue
        key = game_slug(game_key(path.stem) if group else slugify(path.stem))
        title = title_of(path)
        game = games.setdefault(key, ImportedGame(key, game_name(title, path.stem)))
        game.documents.append((path, kind_of(path.stem), title or path.stem.replace("-", " ")))
    return list(games.values()), refused


def write_game(game: ImportedGame, corpus: Path, link: bool = False) -> None:
    folder = corpus / game.slug
    if (folder / "game.toml").exists():
        game.skipped = True  # never overwrite a manifest someone curated
        return
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["# Generated by `rulings import`; edit freely.", "[game]", f"name = {_toml_string(game.name)}"]
    if link:  # the documents are symlinks out of the corpus: the manifest must allow where they point
        lines.append(f"linked_from = {_toml_string(str(game.documents[0][0].resolve().parent))}")
    lines.append("")
    used: set[str] = set()  # document URL names: "rules.md" and "Rules.txt" would share one
    for path, kind, title in game.documents:
        name = path.name if slugify(path.stem) not in used else f"{path.stem}-{len(used) + 1}{path.suffix}"
        used.add(slugify(Path(name).stem))
        target = folder / name
        if link:
            if target.exists() or target.is_symlink():
                target.unlink()
            os.symlink(path.resolve(), target)
        else:
            shutil.copyfile(path, target)
        lines += [
            "[[documents]]",
            f"file = {_toml_string(name)}",
            f"kind = {_toml_string(kind)}",
            f"title = {_toml_string(title)}",
            "",
        ]
    (folder / "game.toml").write_text("\n".join(lines), encoding="utf-8")


def import_folder(
    source: Path, corpus: Path, group: bool = False, link: bool = False
) -> tuple[list[ImportedGame], list[tuple[Path, str]]]:
    """Create the games of ``source`` in ``corpus``; returns them and the files left out (with why)."""
    corpus.mkdir(parents=True, exist_ok=True)
    games, refused = plan(source, group)
    for game in games:
        write_game(game, corpus, link)
    return games, refused
