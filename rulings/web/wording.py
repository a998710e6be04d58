"""What a revision did, in the plain words pages show: "amended in 1.4 (2021-05-18)", "changed by a patch".

Python rather than a Jinja macro: a term page says it once per version in its timeline, and a
macro call costs more than the rest of a timeline line.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..graph.rows import RevisionRow

Revision = RevisionRow | Mapping  # a revision, or an answer about one (history, "which version applies")

# "{latest}": " at the latest" when no document dates the change; "{when}": " in 1.4 (2021-05-18)" or nothing.
CHANGE_WORDS = {
    "introduced": "added{latest}{when}",
    "amended": "amended{latest}{when}",
    "replaced": "rewritten{latest}{when}",
    "patched": "changed{when} by a patch",
    "reworked": "reworked{when} (the changelog says the whole section was reworked)",
    "removed": "removed{latest}{when}",
}
PARTLY_UNKNOWN = "; exact wording partly unknown"


def _of(rev: Revision, name: str):
    return rev[name] if isinstance(rev, Mapping) else getattr(rev, name)


def change_words(rev: Revision, when: str = "") -> str:
    """What ``rev`` did ("amended at the latest"), ``when`` appended where it reads naturally."""
    change = _of(rev, "change")
    latest = " at the latest" if _of(rev, "inferred") else ""
    words = CHANGE_WORDS.get(change, "{change}{when}").format(latest=latest, when=when, change=change)
    return words if _of(rev, "complete") else words + PARTLY_UNKNOWN


def dated(label: str, date: str | None) -> str:
    """A version as pages name it: "1.4 (2021-05-18)"; a version named by its date once ("2023-04-14")."""
    return f"{label} ({date})" if date and date != label else label


def revision_line(rev: Revision, versioned: bool = True) -> str:
    """A page's version line: "Amended in 1.4 (2021-05-18)."; a game whose documents name no version
    says nothing of versions, only that a text is partly unknown."""
    if not versioned:
        return "" if _of(rev, "complete") else "Exact wording partly unknown."
    words = change_words(rev, f" in {dated(_of(rev, 'version'), _of(rev, 'date'))}")
    return words[:1].upper() + words[1:] + "."
