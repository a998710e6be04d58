"""``game.toml``: what a game's folder holds, validated with errors that point at lines."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CorpusError, Diagnostic
from ..text import slugify

KINDS = ("reference", "rulebook", "faq", "changelog", "player-aid")
CORPUS_LABEL = "corpus"  # how diagnostics name the corpus folder, wherever it is: the same build on any machine
MANIFEST = "game.toml"
MAX_MANIFEST_BYTES = 1024 * 1024
MAX_GAME_SLUG = 64  # every URL of a game starts with its slug
# The site's own first path segments: a game folder named so would be shadowed by them.
RESERVED_SLUGS = frozenset({"api", "search", "static"})


def corpus_label(game: str, file: str) -> str:
    """How a build's diagnostics and reports name a file of the corpus: ``corpus/<game>/<file>``."""
    return f"{CORPUS_LABEL}/{game}/{file}"


def located(label: str, corpus: Path) -> str:
    """A diagnostic's path as a file the user can open: a ``corpus/...`` label made a path inside ``corpus``
    (``--corpus`` may point anywhere)."""
    head, slash, rest = label.partition("/")
    if head != CORPUS_LABEL:
        return label
    return shown(corpus / rest if slash else corpus)


def shown(path: Path) -> str:
    """A path as a message names it: relative to the current folder when it is inside it, else absolute."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class DocumentSpec:
    """One ``[[documents]]`` block."""

    game: str
    file: str
    path: Path
    kind: str
    title: str
    version: str | None = None
    date: dt.date | None = None
    official: bool = True
    furniture: tuple[str, ...] = ()
    series: str | None = None  # editions of one series replace each other whole (default: the kind)
    incomplete: str | None = None  # why this edition is known not to be whole (a file cut short): removes nothing

    @property
    def slug(self) -> str:
        return slugify(Path(self.file).stem)

    @property
    def display_path(self) -> str:
        return corpus_label(self.game, self.file)


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    version: str | None


@dataclass(frozen=True)
class Correction:
    """A misprinted heading in a document, named right without touching the document."""

    file: str
    line: int
    name: str
    was: str


@dataclass
class GameManifest:
    slug: str
    name: str
    aliases: list[str]
    path: Path
    documents: list[DocumentSpec]
    renames: list[Rename] = field(default_factory=list)
    spellings: dict[str, str] = field(default_factory=dict)
    vocabulary: dict[str, list[str]] = field(default_factory=dict)  # what players say -> words the rules use
    link_stop: list[str] = field(default_factory=list)  # names linked only where written as names ("play")
    variant_words: list[str] = field(default_factory=list)  # heading words marking a variant's rules (search)
    versions: list[dict] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    precedence: list[str] = field(default_factory=list)  # documents (files or kinds) whose text wins, first first


def _line_of(text: str, *needles: str) -> int | None:
    """First line mentioning all needles: tomllib does not report positions of values."""
    for number, line in enumerate(text.splitlines(), 1):
        if all(n in line for n in needles):
            return number
    return None


def _line_in_block(text: str, header: str, index: int, *needles: str) -> int | None:
    """The line mentioning ``needles`` inside the ``index``-th ``header`` block (1-based)."""
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines, 1) if line.strip() == header]
    if index > len(starts):
        return _line_of(text, *needles)
    end = starts[index] if index < len(starts) else len(lines) + 1
    for number in range(starts[index - 1], end):
        if all(n in lines[number - 1] for n in needles):
            return number
    return starts[index - 1]


def _as_date(value, where: str, text: str, key: str) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise CorpusError(where, f"{key} must be a date like 2019-11-01, not {value!r}", _line_of(text, key, str(value)))


def _version_label(value, where: str, line: int | None) -> str:
    """A version label as written. A bare number is refused when TOML would change it (1.10 reads as 1.1)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise CorpusError(where, f'write the version as a string, e.g. "{value}": a bare 1.10 reads as 1.1', line)
    label = str(value) if isinstance(value, int) else value
    if not isinstance(label, str) or not re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z.\-]*", label):
        raise CorpusError(where, f"version {value!r} must look like 1.4 or 1.4.2", line)
    return label


def _tables(data: dict, key: str, where: str, text: str) -> list:
    """An optional array of tables (``[[key]]``)."""
    items = data.get(key, [])
    if not isinstance(items, list):
        raise CorpusError(where, f"{key} must be an array of tables: write [[{key}]]", _line_of(text, key))
    return items


def load_manifest(game_dir: Path) -> GameManifest:
    """Read and validate ``game_dir/game.toml``; raise CorpusError naming file and line.

    One validator per table: ``[game]``, ``[[documents]]``, ``[[renames]]``, ``[spellings]``,
    ``[vocabulary]``, ``[links]``, ``[search]``, ``[[versions]]``, ``[[corrections]]``.
    """
    where = corpus_label(game_dir.name, MANIFEST)
    text, data = _read_toml(game_dir / MANIFEST, where)
    slug = game_dir.name
    if slugify(slug) != slug:
        raise CorpusError(where, f"game folder name {slug!r} is not a slug (use {slugify(slug)!r})")
    if slug in RESERVED_SLUGS:
        raise CorpusError(where, f"game folder name {slug!r} is taken by the site's own /{slug}/ URLs; rename it")
    if len(slug) > MAX_GAME_SLUG:
        raise CorpusError(where, f"game folder name is {len(slug)} characters; the limit is {MAX_GAME_SLUG}")
    diagnostics = _unknown_keys(data, where, text)
    name, aliases = _game(data, where, text)
    documents = _documents(data, where, text, game_dir, _linked_from(data.get("game"), game_dir, where, text))
    return GameManifest(
        slug=slug,
        name=name,
        aliases=aliases,
        path=game_dir,
        documents=documents,
        renames=_renames(data, where, text),
        spellings=_spellings(data, where, text),
        vocabulary=_vocabulary(data, where, text),
        link_stop=_link_stop(data, where, text),
        variant_words=_variant_words(data, where, text),
        versions=_versions(data, where, text),
        corrections=_corrections(data, where, text, {d.file for d in documents}),
        precedence=_precedence(data.get("game"), where, text, documents),
        diagnostics=diagnostics,
    )


def not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a document: missing, a folder, or no regular file (a named pipe would
    block the build for ever, a device read without end); None when it is a file."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "does not exist"
    except OSError as exc:
        return f"cannot be read ({(exc.strerror or str(exc)).lower()})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"is {kind}, not a regular file"


# The keys each table reads. Others are welcome (a publisher, an edition, a source URL: README), but one a
# letter or two from a key read here is a typo that would be ignored in silence ("alias" for "aliases").
KNOWN_KEYS = {
    "": ("game", "documents", "renames", "spellings", "vocabulary", "links", "search", "versions", "corrections"),
    "game": ("name", "aliases", "precedence", "linked_from"),
    "documents": ("file", "kind", "title", "version", "date", "official", "furniture", "series"),
    "renames": ("from", "to", "version"),
    "versions": ("label", "date", "parent"),
    "corrections": ("file", "line", "name", "was"),
}


def _unknown_keys(data: dict, where: str, text: str) -> list[Diagnostic]:
    """A warning with a did-you-mean for each key that no table reads but is close to one it does."""
    warnings = []

    def check(table: str, found: dict, label: str, line_of) -> None:
        known = KNOWN_KEYS[table]
        for key in found:
            close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.75) if key not in known else []
            if close:
                message = f"{label}unknown key {key!r} is not read; did you mean {close[0]!r}?"
                warnings.append(Diagnostic("warning", where, line_of(key), message))

    check("", data, "", lambda key: _line_of(text, key))
    if isinstance(data.get("game"), dict):
        check("game", data["game"], "[game] ", lambda key: _line_in_block(text, "[game]", 1, key))
    for table in ("documents", "renames", "versions", "corrections"):
        items = data.get(table)
        for number, item in enumerate(items if isinstance(items, list) else [], 1):
            if isinstance(item, dict):
                header = f"[[{table}]]"
                line_of = lambda key, h=header, n=number: _line_in_block(text, h, n, key)  # noqa: E731
                check(table, item, f"{header} #{number}: ", line_of)
    return warnings


def _read_toml(path: Path, where: str) -> tuple[str, dict]:
    problem = not_a_file(path)
    if problem == "does not exist":
        raise CorpusError(where, "missing manifest: every game folder needs a game.toml")
    if problem:
        raise CorpusError(where, f"the manifest {problem}")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise CorpusError(where, f"a manifest is at most {MAX_MANIFEST_BYTES // 1024} KiB")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(where, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise CorpusError(where, f"TOML syntax error: {exc}", int(match.group(1)) if match else None) from None
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        raise CorpusError(where, "arrays or tables nested too deeply", _deepest_line(text)) from None


def _deepest_line(text: str) -> int | None:
    """The line where brackets (outside strings) first nest deepest: where tomllib gave up."""
    depth, deepest, line_of_deepest, quote = 0, 0, None, None
    for number, line in enumerate(text.splitlines(), 1):
        for char in line:
            if quote:
                quote = None if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "#":
                break
            elif char in "[{":
                depth += 1
                if depth > deepest:
                    deepest, line_of_deepest = depth, number
            elif char in "]}":
                depth -= 1
    return line_of_deepest


def _game(data: dict, where: str, text: str) -> tuple[str, list[str]]:
    """``[game]``: its name and aliases."""
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("name"), str) or not game["name"].strip():
        raise CorpusError(where, '[game] needs a name = "..."', _line_of(text, "[game]"))
    aliases = game.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise CorpusError(where, "[game] aliases must be a list of strings", _line_of(text, "aliases"))
    return game["name"].strip(), list(aliases)


def _precedence(game: dict, where: str, text: str, documents: list[DocumentSpec]) -> list[str]:
    """``[game] precedence``: whose text a term shows when several documents of one version define it.

    Each item names a document by its file or a kind of document, the first winning; what it leaves
    out follows the kind order reference > rulebook > faq > player-aid.
    """
    items = game.get("precedence", [])
    line = _line_of(text, "precedence")
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise CorpusError(where, '[game] precedence must be a list such as ["reference", "rulebook.md"]', line)
    files = {d.file for d in documents}
    for item in items:
        if item not in files and item not in KINDS:
            kinds = ", ".join(KINDS)
            raise CorpusError(
                where, f"[game] precedence: {item!r} is neither a document of this game nor a kind ({kinds})", line
            )
    return list(items)


def _linked_from(game, game_dir: Path, where: str, text: str) -> Path | None:
    """``[game] linked_from``: a folder outside the corpus that the game's documents may link into."""
    value = game.get("linked_from") if isinstance(game, dict) else None
    if value is None:
        return None
    folder = (game_dir / value).resolve() if isinstance(value, str) and value else None
    if folder is None or not folder.is_dir():
        line = _line_of(text, "linked_from")
        raise CorpusError(where, f"linked_from must name an existing folder, not {value!r}", line)
    return folder


def _documents(data: dict, where: str, text: str, game_dir: Path, linked_from: Path | None) -> list[DocumentSpec]:
    """``[[documents]]``: each one checked on its own, then against the others (files, URL names, versions)."""
    docs_data = data.get("documents", [])
    if isinstance(docs_data, dict):
        raise CorpusError(
            where,
            "documents must be an array of tables: write [[documents]], not [documents]",
            _line_of(text, "[documents]"),
        )
    if not isinstance(docs_data, list) or not docs_data:
        raise CorpusError(where, "no [[documents]]: describe at least one document")
    documents: list[DocumentSpec] = []
    for number, doc in enumerate(docs_data, 1):
        spec = _document(doc, number, where, text, game_dir)
        _check_against_earlier(spec, documents, number, where, text)
        outside = _outside(spec.path, game_dir.parent, linked_from)
        if outside:
            line = _line_in_block(text, "[[documents]]", number, "file", spec.file)
            raise CorpusError(where, f"[[documents]] #{number}: file {spec.file!r} {outside}", line)
        documents.append(spec)
    return documents


def _outside(doc_path: Path, corpus: Path, linked_from: Path | None) -> str | None:
    """Why a document may not be read: it must resolve inside the corpus (or ``linked_from``), so a
    symlink cannot publish /etc/passwd."""
    real = doc_path.resolve()
    if real.is_relative_to(corpus.resolve()) or (linked_from and real.is_relative_to(linked_from)):
        return None
    return (
        f"resolves to {real}, outside the corpus; documents must live in the corpus "
        f'(or set [game] linked_from = "{real.parent}" to allow documents linked from there)'
    )


def _document(doc, number: int, where: str, text: str, game_dir: Path) -> DocumentSpec:
    """One ``[[documents]]`` block (the ``number``-th) as a DocumentSpec."""
    label, slug = f"[[documents]] #{number}", game_dir.name

    def line(*needles: str) -> int | None:
        return _line_in_block(text, "[[documents]]", number, *needles)

    if not isinstance(doc, dict):
        raise CorpusError(where, f"{label} must be a table")
    file = doc.get("file")
    if not isinstance(file, str) or not file:
        raise CorpusError(where, f'{label} needs file = "..."', line())
    if "/" in file or "\\" in file or file.startswith("."):
        raise CorpusError(
            where, f"{label}: file {file!r} must be a plain file name in {slug}/", _line_of(text, "file", file)
        )
    kind = doc.get("kind")
    if kind not in KINDS:
        raise CorpusError(where, f"{label}: unknown kind {kind!r} (one of: {', '.join(KINDS)})", line("kind"))
    version = doc.get("version")
    if version is not None:
        version = _version_label(version, where, line("version"))
    official = doc.get("official", True)
    if not isinstance(official, bool):
        raise CorpusError(where, f"{label}: official must be true or false, not {official!r}", line("official"))
    furniture = doc.get("furniture", [])
    if not isinstance(furniture, list) or not all(isinstance(f, str) for f in furniture):
        raise CorpusError(where, f"{label}: furniture must be a list of strings", line("furniture"))
    series = doc.get("series")
    if series is not None and (not isinstance(series, str) or not series.strip()):
        raise CorpusError(where, f'{label}: series must be a name, e.g. series = "rules"', line("series"))
    incomplete = doc.get("incomplete")
    if incomplete is not None and (not isinstance(incomplete, str) or not incomplete.strip()):
        raise CorpusError(
            where,
            f'{label}: incomplete must say why, e.g. incomplete = "the file is cut off in the glossary"',
            line("incomplete"),
        )
    if incomplete is not None and kind in ("changelog", "player-aid"):
        raise CorpusError(
            where,
            f"{label}: incomplete is said of an edition (a reference, rulebook or faq), not of a {kind}",
            line("incomplete"),
        )
    return DocumentSpec(
        game=slug,
        file=file,
        path=game_dir / file,
        kind=kind,
        title=str(doc.get("title") or Path(file).stem.replace("-", " ").title()),
        version=version,
        date=_as_date(doc.get("date"), where, text, "date"),
        official=official,
        furniture=tuple(furniture),
        series=series.strip() if series else None,
        incomplete=incomplete.strip() if incomplete else None,
    )


def _check_against_earlier(spec: DocumentSpec, earlier: list[DocumentSpec], number: int, where: str, text: str) -> None:
    """A document's file is listed once, does not share a URL name, is not a second copy of a
    version, and exists."""
    label, file = f"[[documents]] #{number}", spec.file
    if any(d.file == file for d in earlier):
        raise CorpusError(where, f"{label}: file {file!r} is listed twice", _line_of(text, "file", file))
    same_slug = next((d for d in earlier if d.slug == spec.slug), None)
    if same_slug is not None:
        raise CorpusError(
            where,
            f"{label}: {file!r} and {same_slug.file!r} would share the URL name {spec.slug!r}; rename one of the files",
            _line_of(text, "file", file),
        )
    versioned = spec.version is not None
    same_version = next((d for d in earlier if versioned and (d.kind, d.version) == (spec.kind, spec.version)), None)
    if same_version is not None:
        raise CorpusError(
            where,
            f"{label}: duplicate version {spec.version} for kind {spec.kind} (also {same_version.file})",
            _line_in_block(text, "[[documents]]", number, "version", spec.version),
        )
    problem = not_a_file(spec.path)
    if problem:
        raise CorpusError(
            where,
            f"{label}: file {file!r} {problem}" + (f" in {spec.game}/" if problem == "does not exist" else ""),
            _line_in_block(text, "[[documents]]", number, "file", file),
        )


def _renames(data: dict, where: str, text: str) -> list[Rename]:
    renames = []
    for item in _tables(data, "renames", where, text):
        if not isinstance(item, dict) or not isinstance(item.get("from"), str) or not isinstance(item.get("to"), str):
            raise CorpusError(
                where, '[[renames]] needs from = "old name" and to = "new name"', _line_of(text, "[[renames]]")
            )
        version = item.get("version")
        line = _line_of(text, "to", item["to"])
        renames.append(
            Rename(item["from"], item["to"], _version_label(version, where, line) if version is not None else None)
        )
    return renames


def _spellings(data: dict, where: str, text: str) -> dict[str, str]:
    spellings = data.get("spellings", {})
    if not isinstance(spellings, dict) or not all(isinstance(v, str) for v in spellings.values()):
        raise CorpusError(where, '[spellings] maps "misspelling" = "name"', _line_of(text, "[spellings]"))
    return dict(spellings)


def _vocabulary(data: dict, where: str, text: str) -> dict[str, list[str]]:
    vocabulary = data.get("vocabulary", {})
    if not isinstance(vocabulary, dict) or not all(
        isinstance(v, str) or (isinstance(v, list) and v and all(isinstance(x, str) for x in v))
        for v in vocabulary.values()
    ):
        raise CorpusError(
            where,
            '[vocabulary] maps "what players say" = "rules words" (or a list of them)',
            _line_of(text, "[vocabulary]"),
        )
    return {k: [v] if isinstance(v, str) else list(v) for k, v in vocabulary.items()}


def _link_stop(data: dict, where: str, text: str) -> list[str]:
    """``[links] stop = ["play", "uses"]``: names that are everyday words in the game's prose, so running
    text links them only where it writes them as names (quoted, or capitalised in mid-sentence)."""
    stop = _word_list(data, "links", "stop", where, text, '["play", "uses"]: names linked only where written as names')
    return [" ".join(word.lower().split()) for word in stop]


def _variant_words(data: dict, where: str, text: str) -> list[str]:
    """``[search] variants = ["option"]``: words of the game's headings that mark the rules of a variant or an
    option (beside the play lexicon's "variant"), ranked below the base rules unless a question names them."""
    words = _word_list(data, "search", "variants", where, text, '["option"]: heading words marking a variant\'s rules')
    return [word.strip() for word in words]


def _word_list(data: dict, table: str, key: str, where: str, text: str, usage: str) -> list[str]:
    """``[table] key = [...]``, the table's one key: a list of words (an error at the table's line otherwise)."""
    found = data.get(table, {})
    words = found.get(key, []) if isinstance(found, dict) else None
    if (
        not isinstance(found, dict)
        or set(found) - {key}
        or not isinstance(words, list)
        or not all(isinstance(word, str) and word.strip() for word in words)
    ):
        raise CorpusError(where, f"[{table}] takes {key} = {usage}", _line_of(text, f"[{table}]"))
    return words


def _versions(data: dict, where: str, text: str) -> list[dict]:
    checked = []
    for number, item in enumerate(_tables(data, "versions", where, text), 1):
        if not isinstance(item, dict) or "label" not in item:
            raise CorpusError(where, '[[versions]] needs label = "1.5"', _line_in_block(text, "[[versions]]", number))
        checked.append(
            {
                "label": _version_label(item["label"], where, _line_in_block(text, "[[versions]]", number, "label")),
                "date": _as_date(item.get("date"), where, text, "date"),
                "parent": item.get("parent"),
            }
        )
    return checked


def _corrections(data: dict, where: str, text: str, files: set[str]) -> list[Correction]:
    corrections = []
    for item in _tables(data, "corrections", where, text):
        ok = (
            isinstance(item, dict)
            and isinstance(item.get("file"), str)
            and isinstance(item.get("line"), int)
            and isinstance(item.get("name"), str)
            and isinstance(item.get("was"), str)
        )
        if not ok:
            raise CorpusError(
                where,
                '[[corrections]] needs file, line, was = "heading as printed" and name = "what it should say"',
                _line_of(text, "[[corrections]]"),
            )
        if item["file"] not in files:
            raise CorpusError(
                where,
                f"[[corrections]] names {item['file']!r}, which is not a listed document",
                _line_of(text, "file", item["file"]),
            )
        corrections.append(Correction(item["file"], item["line"], item["name"], item["was"]))
    return corrections


def check_game_names(game_dirs: list[Path]) -> None:
    """Every game's slug and aliases lead to that game alone (``/mc/`` and ``rulings applies mc`` name one
    game): an alias that another game has too, or that is another game's folder name or one of the site's
    own first path segments, is an error naming both manifests. Only ``[game]`` is read: the games an
    incremental build carries over are checked too, at little cost."""
    claimed: dict[str, str] = {game_dir.name: f"the folder name of {shown(game_dir)}" for game_dir in game_dirs}
    for game_dir in game_dirs:
        where = shown(game_dir / MANIFEST)
        try:
            text, data = _read_toml(game_dir / MANIFEST, where)
            _, aliases = _game(data, where, text)
        except CorpusError:
            continue  # the game's own build says what is wrong with its manifest
        line = _line_in_block(text, "[game]", 1, "aliases")
        for alias in aliases:
            name = slugify(alias)
            if name in RESERVED_SLUGS:
                raise CorpusError(where, f"[game] alias {alias!r} is taken by the site's own /{name}/ URLs", line)
            if name == game_dir.name or not name:
                continue
            if name in claimed:
                raise CorpusError(
                    where, f"[game] alias {alias!r} is also {claimed[name]}; /{name}/ can lead to one game only", line
                )
            claimed[name] = f"an alias in {where}" + (f":{line}" if line else "")


def discover_games(corpus_dir: Path) -> list[Path]:
    """Game folders in a corpus, in a stable order."""
    if not corpus_dir.is_dir():
        raise CorpusError(str(corpus_dir), "corpus folder does not exist")
    return sorted(p for p in corpus_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
