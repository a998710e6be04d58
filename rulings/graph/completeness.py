"""Whether each edition reads whole: a snapshot is the whole truth at its version, so one read short is refused.

An edition that yields far fewer numbered rules or glossary entries than the edition before it in its
series (a file cut off, a layout its parser did not understand) would otherwise remove everything it
lacks. The build refuses it, naming the file and the line where its reading stops, unless its
``[[documents]]`` block in game.toml says ``incomplete = "why"``. An edition so declared is a warning:
the walk takes nothing it lacks as removed (``snapshots.apply_edition``), and its last entry, where the
document may be cut mid-text, is not taken as that edition's text of the entry.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import CorpusError
from ..ingest.model import ParsedDocument
from .timeline import Documents, Snapshot, Version

SHORT = 0.8  # fewer than this share of the edition before's count is far fewer (Magic never lost 1% at once)
SMALLEST = 20  # counts below this say too little to judge (a test game of three terms may drop two)
COUNTED = (("numbered rules", ("rule",)), ("glossary entries", ("entry", "keyword")))


def count(doc: ParsedDocument, kinds: tuple[str, ...]) -> int:
    return sum(1 for entry in doc.entries if entry.kind in kinds)


def last_line(doc: ParsedDocument) -> int | None:
    """The last source line any entry of the document was read from: where its reading stops."""
    return max((line for entry in doc.entries for line in entry.lines), default=None)


def shortfall(snapshot: Snapshot, before: Snapshot) -> str | None:
    """What ``snapshot`` has far fewer of than ``before``, or None."""
    for what, kinds in COUNTED:
        now, then = count(snapshot.doc, kinds), count(before.doc, kinds)
        if then >= SMALLEST and now < SHORT * then:
            return f"{now} {what} where {before.spec.title} {before.label} has {then}"
    return None


def check_editions(documents: Documents, versions: list[Version], warn: Callable[[str, int | None, str], None]) -> None:
    """Refuse an edition read far short of the one before it (see module docstring); take declared ones as such."""
    last: dict[str, Snapshot] = {}  # series -> its latest edition read whole
    notes = {version.label: version.notes for version in versions}
    for snapshot in documents.snapshots:
        before = last.get(snapshot.series)
        short = shortfall(snapshot, before) if before is not None and before.label != snapshot.label else None
        spec = snapshot.spec
        if spec.incomplete:
            declared_incomplete(snapshot, short, warn)
            notes[snapshot.label].append(
                f"{spec.title} {snapshot.label} is incomplete ({spec.incomplete}): what it lacks is carried over "
                "from the edition before, never removed."
            )
            continue
        if short:
            raise CorpusError(
                spec.display_path,
                f"{short}: this edition reads as incomplete (a file cut short, or a layout its parser does not read) "
                f"and would remove what it lacks; if it is known to be incomplete, say so in its [[documents]] block "
                f'of game.toml: incomplete = "why"',
                last_line(snapshot.doc),
            )
        last[snapshot.series] = snapshot


def declared_incomplete(snapshot: Snapshot, short: str | None, warn: Callable[[str, int | None, str], None]) -> None:
    """An edition game.toml says is incomplete: a warning, and its last entry (where it may be cut) set aside."""
    spec, doc = snapshot.spec, snapshot.doc
    read = f"{short}; " if short else ""
    warn(
        spec.display_path,
        last_line(doc),
        f"{read}incomplete, as game.toml says ({spec.incomplete}): nothing it lacks is taken as removed",
    )
    if doc.entries:
        cut = doc.entries.pop()
        for line in cut.lines:
            doc.furniture[line] = "the last entry of an incomplete edition, where it may be cut (game.toml: incomplete)"
        warn(
            spec.display_path,
            cut.line,
            f"{cut.name!r}, the last entry of this incomplete edition, may be cut: its text here is not taken "
            "as this edition's",
        )
