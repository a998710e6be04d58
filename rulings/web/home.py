"""A game's home page on a phone: an A–Z of collapsible letters (the glossary's terms, and the sections of a
document without a glossary as topics, marked so), sections apart from terms, the game's card
groups (heroes, villains, environments...) as their own index, and rulings that belong to no card.

Names several entries share ("Equipment", "Equipment") get a hint from their own text, so look-alike
entries can be told apart.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..casing import sentence_case
from ..graph import ruling_rows
from ..graph.rows import Game, TermRow, VersionRow
from ..graph.ruling_rows import DECK_KINDS
from ..markup import excerpt, plain_text
from ..text import base_key, name_key
from .context import store
from .views import display_names


@dataclass
class Listed:
    term: TermRow
    name: str  # the name as shown: emphasis marks removed
    hint: str | None = None  # for names several entries share: where it sits or how it starts
    version: str | None = None  # the version linked: a removed term's last text (None: the latest)


@dataclass
class Home:
    game: Game
    versions: list[VersionRow]
    letters: list[tuple[str, list[Listed]]]
    sections: list[Listed]
    decks: list[tuple[str, list[dict]]]  # ("Heroes", [card rows]) in DECK_KINDS order
    cards: list[dict]  # single cards with rulings
    rulings: list[tuple[str, list[dict]]]  # rulings under no card or deck, by group
    documents: list[dict]
    term_count: int
    ruling_count: int
    previous: dict[str, VersionRow] = field(default_factory=dict)  # a version's label -> the one before

    @property
    def headline(self) -> tuple[VersionRow, VersionRow] | None:
        """(before, version): the latest version that changed something, and the one before it. A version
        whose changelog lists nothing is in force but is not the news (the timeline says what it is)."""
        steps = [(a, b) for a, b in zip(self.versions, self.versions[1:], strict=False) if not b.quiet]
        return steps[-1] if steps else None

    @property
    def jumps(self) -> list[tuple[str, str]]:
        """(anchor, label) of the sticky index: the letters, then each part of the page."""
        out = [(f"letter-{letter}", letter) for letter, _ in self.letters]
        if self.sections:
            out.append(("sections", "Sections"))
        out += [(f"group-{label.lower()}", label) for label, _ in self.decks]
        if self.cards:
            out.append(("cards", "Cards"))
        if self.rulings:
            out.append(("rulings", "Rulings"))
        if len(self.versions) > 1 or self.versions[0].stated:
            out.append(("versions", "Versions"))
        out.append(("documents", "Documents"))
        return out


def game_index(game: Game) -> Home:
    st = store()
    terms = [_listed(t) for t in st.terms(game, ("entry", "keyword"))]
    sections = [_listed(t) for t in st.terms(game, ("section",))]
    documents = st.documents(game)
    topics = _topics(terms, sections, {d["slug"] for d in documents if d["kind"] == "rulebook"})
    _hint_look_alikes(game, terms + sections)
    _mark_removed(game, terms + sections)
    cards = ruling_rows.cards(st, game)
    decks = [
        (_plural(kind), [c for c in cards if c["group_kind"] == kind and c["ruling_count"]]) for kind in DECK_KINDS
    ]
    rulings = ruling_rows.rulings(st, game)
    names = display_names(game)
    groups: dict[str, list[dict]] = {}
    for ruling in rulings:
        if ruling["group_kind"] in (*DECK_KINDS, "card") and ruling["cards"]:
            continue  # listed under its deck or card
        shown = dict(ruling, display_title=sentence_case(ruling["title"], names) if ruling["caps"] else ruling["title"])
        groups.setdefault(ruling["group"] or "Rulings", []).append(shown)
    versions = st.versions(game)
    return Home(
        game=game,
        versions=versions,
        letters=_letters(terms + topics),
        sections=sections,
        decks=[(label, rows) for label, rows in decks if rows],
        cards=[c for c in cards if c["kind"] == "card" and c["ruling_count"]],
        rulings=list(groups.items()),
        documents=documents,
        term_count=len(terms),
        ruling_count=len(rulings),
        previous={b.label: a for a, b in zip(versions, versions[1:], strict=False)},
    )


def _topics(terms: list[Listed], sections: list[Listed], rulebooks: set[str]) -> list[Listed]:
    """The sections of a rulebook that has no glossary (a learn-to-play book): its look-up topics, in the
    A–Z beside the terms, each marked as a section."""
    bare = rulebooks - {item.term.document for item in terms}
    topics = [Listed(s.term, s.name, hint="section") for s in sections if s.term.document in bare]
    return [t for t in topics if t.term.line]  # not the text before a document's first heading


def _listed(term: TermRow) -> Listed:
    return Listed(term, plain_text(term.name))


def _letters(items: list[Listed]) -> list[tuple[str, list[Listed]]]:
    groups: dict[str, list[Listed]] = {}
    for item in items:
        letter = (name_key(item.name)[:1] or "#").upper()
        groups.setdefault(letter if letter.isalpha() else "#", []).append(item)
    return sorted(groups.items())


def _hint_look_alikes(game: Game, items: list[Listed]) -> None:
    """Entries that share a name (qualifiers set aside) show their first words, else their section."""
    st = store()
    shared = Counter(base_key(item.name) for item in items)
    for item in items:
        if shared[base_key(item.name)] < 2:
            continue
        latest = next((r for r in reversed(st.revisions(item.term)) if not r.removed), None)
        opening = excerpt(latest.text, 48) if latest is not None and latest.text.strip() else ""
        item.hint = opening or (item.term.path[-1] if item.term.path else None)


def _mark_removed(game: Game, items: list[Listed]) -> None:
    """A term the latest version removed stays in the A–Z, said removed, linked to its last text (its
    unpinned page would be a 404)."""
    removed = store().removed_terms(game)
    for item in items:
        if item.term.id in removed:
            when, last = removed[item.term.id]
            item.version = last
            item.hint = f"{item.hint}; removed in {when}" if item.hint else f"removed in {when}"


def _plural(kind: str) -> str:
    return kind.capitalize() + ("es" if kind.endswith("o") else "s")
