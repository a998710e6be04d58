"""Glossary entries their heading levels do not put under the glossary, put back before the outline is read.

Two layouts publishers print: a ``## Glossary`` heading holding only an introduction, its entries the
``##`` headings after it; and one entry printed a level too high (``## Charge`` among ``### Action``,
``### Defend``), which would end the glossary and take the entries after it as its sub-headings. A
heading after a glossary joins it while it reads as a name and keeps the glossary's alphabetical order
(and, printed a level too high, while its own sub-headings go on with the glossary); the first that
does not (a chapter, the credits) ends it.
"""

from __future__ import annotations

from .definitions import DIVIDER, document_part, glossary_title, sort_key, term_like
from .outline import Section
from .questions import question_title

INTRODUCED = 3  # headings after an introduction-only Glossary heading that make it a glossary of them


def _continuing(stray: Section, level: int | None, last: str) -> list[Section]:
    """The sub-headings of an entry printed a level too high that are the glossary's next entries."""
    lifted = []
    for child in stray.children:
        if child.level != level or not _entry_like(child) or sort_key(child.title) < last:
            break
        lifted.append(child)
        last = sort_key(child.title)
    return lifted


def _entry_like(section: Section) -> bool:
    title = section.title
    return (
        term_like(title, plain=False, in_glossary=True)
        and not document_part(title)
        and not glossary_title(title)
        and not question_title(title)
        and not DIVIDER.match(title)
    )


def gather_glossaries(root: Section) -> None:
    """Move the entries that follow a glossary heading at its own level under it (see the module docstring)."""
    for section in list(root.walk()):
        children = section.children
        for glossary in list(children):
            if glossary in children and glossary_title(glossary.title):
                _gather(glossary, children)


def _gather(glossary: Section, siblings: list[Section]) -> None:
    entries = [s for s in list(glossary.walk())[1:] if _entry_like(s)]
    misplaced = bool(glossary.children)  # it has entries: one at its own level was printed a level too high
    level = glossary.children[0].level if misplaced else None
    last = sort_key(entries[-1].title) if entries else ""
    taken: list[Section] = []
    for stray in siblings[siblings.index(glossary) + 1 :]:
        if not _entry_like(stray) or sort_key(stray.title) < last:
            break
        lifted = _continuing(stray, level, sort_key(stray.title)) if misplaced else []
        if misplaced and len(lifted) < len(stray.children):
            break  # sub-headings that do not go on with the glossary: a chapter after it
        taken.append(stray)
        last = sort_key(lifted[-1].title if lifted else stray.title)
        if lifted:  # its sub-headings at the entries' level are the entries after it
            stray.children = []
            taken.extend(lifted)
    if not misplaced and len(taken) < INTRODUCED:
        return
    for stray in taken:
        if stray in siblings:
            siblings.remove(stray)
        glossary.children.append(stray)
