"""The library API behind the CLI, the JSON API and the pages: which version applies, history, diffs.

Every function returns plain data in the shapes of the CLI/JSON contract (docs/reference.md), so the same
answer reaches a terminal, a script and a browser; a negative answer is raised as ``Unanswerable``
(``errors.py``), which every channel shows the same way.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re

from ..errors import BadRequest, Unanswerable
from ..text import base_key, name_key, split_qualifier
from ..urls import urls
from . import rules
from .rows import Game, RevisionRow, TermRow, VersionRow
from .store import Store


# -- lookups ------------------------------------------------------------------
def require_game(store: Store, slug: str) -> Game:
    """The game a slug or alias names, or the ``unknown-game`` answer (listing the games there are)."""
    game = store.game(slug)
    if game is None:
        games = [g.slug for g in store.games()]
        known = ", ".join(games[:10]) + (f" and {len(games) - 10} more" if len(games) > 10 else "")
        raise Unanswerable("unknown-game", f"unknown game {slug!r} (known: {known})", games=games)
    return game


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def version_by_label(store: Store, game: Game, label: str) -> VersionRow:
    """The version a label names ("1.4", "v1.4", "1.4.0", "latest")."""
    versions = store.versions(game)
    wanted = (label or "").strip().lower().lstrip("v")
    if wanted in ("latest", "current"):
        return versions[-1]
    for version in versions:
        if version.label.lower() == wanted:
            return version
    for version in versions:  # "1.4.0" means 1.4
        if re.sub(r"(\.0)+$", "", wanted) == re.sub(r"(\.0)+$", "", version.label.lower()):
            return version
    known = ", ".join(v.label for v in versions)
    raise Unanswerable(
        "unknown-version",
        f"{game.name} has no version {label!r} (versions: {known})",
        versions=[v.label for v in versions],
    )


def version_named(store: Store, game: Game, text: str) -> VersionRow:
    """A version given as a label or as a date: a label that looks like a date ("2021-02-02", Magic's
    editions) is matched as a label first; any other date means the version in force that day."""
    try:
        return version_by_label(store, game, text)
    except Unanswerable:
        if DATE.fullmatch((text or "").strip()):
            return version_on(store, game, parse_date(text))
        raise


def parse_date(text: str) -> dt.date:
    """A calendar date written YYYY-MM-DD (``fromisoformat`` alone also takes 20200101 and 2020-W01-1)."""
    text = (text or "").strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise BadRequest(f"bad date {text!r}: use YYYY-MM-DD")


def version_on(store: Store, game: Game, day: dt.date) -> VersionRow:
    """The latest version published on or before ``day`` (a version is in force on its own date)."""
    versions = store.versions(game)
    dated = [v for v in versions if v.date]
    if not dated:
        return versions[-1]  # undated documents: the only text there is
    in_force = [v for v in dated if dt.date.fromisoformat(v.date) <= day]
    if not in_force:
        first = dated[0]
        raise Unanswerable(
            "before-first-version",
            f"{day.isoformat()} is before the first version of the {game.name} rules ({first.label}, {first.date})",
            first_version={"version": first.label, "date": first.date},
        )
    return in_force[-1]


def suggestions(store: Store, game: Game, name: str, limit: int = 5) -> list[str]:
    names: dict[str, str] = {}
    for term in store.terms(game):
        for alias, _ in store.names(term):
            names.setdefault(alias.lower(), alias)
    key = name.lower()
    close = difflib.get_close_matches(key, list(names), n=limit, cutoff=0.6)
    starts = [n for n in sorted(names) if n.startswith(key[:4])] if len(key) >= 4 else []
    out = []
    for found in [*close, *starts]:
        if names[found] not in out:
            out.append(names[found])
    return out[:limit]


NUMBERED_TITLE = re.compile(r"^\d+(?:\.\d+)?\.\s+(\S.*)$")  # a section or rule named with its number
NEAR = 0.85  # how alike (difflib ratio of name keys) a typo and the name it misses are
CLEAR = 0.05  # ... and how much less alike the next other term must be for the miss to be unambiguous


def near_miss(store: Store, game: Game, name: str) -> TermRow | None:
    """The one term ``name`` misses by a typo ("Villanous" for "Villainous"), or None when no name is that
    close or two terms are about as close."""
    key = name_key(name)
    if len(key) < 5:
        return None
    scored: dict[int, float] = {}
    matcher = difflib.SequenceMatcher(b=key, autojunk=False)
    for other, term_id in store.name_keys(game):
        matcher.set_seq1(other)
        if matcher.real_quick_ratio() >= NEAR and matcher.quick_ratio() >= NEAR:
            scored[term_id] = max(scored.get(term_id, 0.0), matcher.ratio())
    ranked = sorted(scored.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < NEAR or (len(ranked) > 1 and ranked[1][1] > ranked[0][1] - CLEAR):
        return None
    return store.term(ranked[0][0])


def resolve_term(store: Store, game: Game, name: str, ordinal: int | None = None):
    """(term, anchor, note) for a name: any of the term's names (those it had at the version with ``ordinal``
    first), or an unambiguous near miss answered with a note; else the ``unknown-term`` answer."""
    term, anchor = store.find_term(game, name, ordinal)
    if term is None and (titled := NUMBERED_TITLE.match(name.strip())):  # "702. Keyword Abilities": by its title
        term, anchor = store.find_term(game, titled.group(1), ordinal)
    if term is not None:
        return term, anchor, None
    near = near_miss(store, game, name)
    if near is not None:
        shown = near.name  # named as it was at the version asked, never by a later name
        if ordinal is not None:
            then, _ = in_force(store.revisions(near), ordinal)
            shown = then.name if then is not None else shown
        return (
            near,
            None,
            f"No term is named \u201c{name}\u201d; this is \u201c{shown}\u201d, the one name it is close to.",
        )
    raise Unanswerable("unknown-term", f"no term {name!r} in {game.name}", suggestions=suggestions(store, game, name))


def term_or_unknown(store: Store, game: Game, name: str, ordinal: int | None = None) -> tuple[TermRow, str | None]:
    """A term by any of its names, or the one it is a typo of (``resolve_term``)."""
    term, anchor, _ = resolve_term(store, game, name, ordinal)
    return term, anchor


def in_force(revisions: list[RevisionRow], ordinal: int) -> tuple[RevisionRow | None, RevisionRow | None]:
    """(the revision in force at the version with this ordinal, the next revision after it)."""
    current, after = None, None
    for revision in revisions:
        if revision.ordinal <= ordinal:
            current = revision
        elif after is None:
            after = revision
    return current, after


def defined_at(revisions: list[RevisionRow], ordinal: int) -> RevisionRow | None:
    """The revision whose text is the term's at the version with this ordinal; None before the term existed
    or once a version removed it."""
    current, _ = in_force(revisions, ordinal)
    return None if current is None or current.removed else current


def not_defined(term: TermRow, target: VersionRow, revisions: list[RevisionRow]) -> Unanswerable:
    """The answer for a term asked about at a version before it existed, or after it was removed.

    It names the term as it was then, never by a name a later version gave it.
    """
    current, _ = in_force(revisions, target.ordinal)
    defined = [r for r in revisions if not r.removed]
    first = defined[0] if defined else None
    name = first.name if first else term.name
    extra = {
        "term": name,
        "in_force": target.label,
        "first_defined": {"version": first.version, "date": first.date} if first else None,
    }
    if current is not None and current.removed:
        last = [r for r in defined if r.ordinal < current.ordinal]
        extra["removed_in"] = {"version": current.version, "date": current.date}
        extra["last_defined"] = {"version": last[-1].version, "date": last[-1].date} if last else None
        message = f"{last[-1].name if last else name} is not defined in version {target.label}; it was removed in "
        return Unanswerable("not-defined", message + current.version, **extra)
    since = f"; it was {'first seen' if first.inferred else 'introduced'} in {first.version}" if first else ""
    return Unanswerable("not-defined", f"{name} is not defined in version {target.label}{since}", **extra)


def resolved_definition(store: Store, game: Game, revision: RevisionRow, ordinal: int | None = None) -> dict | None:
    """For an entry that only says "See: Keywords": the definition it points to, as of the version with
    ``ordinal`` (default: the revision's own), never as of the edition that first printed the pointer."""
    at = revision.ordinal if ordinal is None else ordinal
    for target_name in revision.redirect:
        base, qualifier = split_qualifier(target_name)
        target, _ = store.find_term(game, target_name, at)
        anchor_name = revision.name
        if target is None and qualifier:
            target, _ = store.find_term(game, base, at)
            anchor_name = qualifier
        if target is None:
            continue
        for sub in _subdefs_at(store, target, at):
            if name_key(sub["name"]) == name_key(anchor_name) or base_key(sub["name"]) == name_key(anchor_name):
                return {"term": target, "anchor": sub["anchor"], "name": sub["name"], "text": sub["text"]}
        target_revision, _ = in_force(store.revisions(target), at)
        if target_revision is not None and len(revision.redirect) == 1:
            return {"term": target, "anchor": None, "name": target_revision.name, "text": target_revision.text}
    return None


def _subdefs_at(store: Store, term: TermRow, ordinal: int) -> list[dict]:
    revision, _ = in_force(store.revisions(term), ordinal)
    return store.subdefs(revision.id) if revision else []


# -- which version applies -------------------------------------------------------
def target_version(store: Store, game: Game, version: str | None, date: str | None) -> VersionRow:
    """The version a question asks about: by label, by date (the one in force that day), else the latest."""
    if version and date:
        raise BadRequest("give --version or --date, not both")
    if date:
        return version_on(store, game, parse_date(date))
    if version:
        return version_by_label(store, game, version)
    return store.versions(game)[-1]


def applies(
    store: Store, game_slug: str, name: str | None = None, version: str | None = None, date: str | None = None
) -> dict:
    """The answer to "which text of TERM was in force at VERSION / on DATE?" (docs/versions.md).

    Without a term: which version was in force. A rule number ("702.19b") is answered by that rule.
    """
    game = require_game(store, game_slug)
    target = target_version(store, game, version, date)
    if not (name or "").strip():
        return version_answer(store, game, target)
    if rules.is_rule_number(store, game, name):
        return rules.rule_answer(store, game, name, target)
    term, anchor, note = resolve_term(store, game, name, target.ordinal)
    revisions = store.revisions(term)
    current, after = in_force(revisions, target.ordinal)
    if current is None or current.removed:
        raise not_defined(term, target, revisions)
    answer = _answer(store, game, term, anchor, target, current, after, revisions)
    if note:
        answer["notes"].insert(0, note)
    return answer


def version_answer(store: Store, game: Game, target: VersionRow) -> dict:
    """Which version was in force, and where the whole document as it stood is."""
    later = [v for v in store.versions(game) if v.ordinal > target.ordinal]
    return {
        "status": "ok",
        "game": game.slug,
        "in_force": target.label,
        "date": target.date,
        "url": urls.version(game.slug, target.label) if target.stated else urls.game(game.slug),
        "superseded_by": {"version": later[0].label, "date": later[0].date} if later else None,
        "notes": target.notes,
    }


def introduction(revisions: list[RevisionRow]) -> dict:
    """When a term came in: ``introduced_in`` where a document says so, else only ``first_seen``."""
    first = revisions[0]
    return {"introduced_in": None if first.inferred else first.version, "first_seen": first.version}


def pin(target: VersionRow) -> str | None:
    """The version a URL pins: none for a game whose documents state no version (its one version is never shown)."""
    return target.label if target.stated else None


def _answer(store, game, term, anchor, target, current: RevisionRow, after, revisions) -> dict:
    notes = list(current.notes)
    text, shown_name, url = current.text, current.name, urls.term(game.slug, term.slug, pin(target), anchor)
    if current.number:  # a rule asked by its name: it lives at the number the version prints it under
        url = urls.rule(game.slug, current.number, pin(target))
    if anchor:  # a sub-definition asked for by name ("Stunned")
        sub = store.subdef_text(term.id, anchor, target.ordinal)
        if sub:
            text, shown_name = sub["text"], sub["name"]
            notes.insert(0, f"{sub['name']} is defined under {current.name}.")
    elif not current.text.strip() and current.redirect:
        found = resolved_definition(store, game, current, target.ordinal)
        if found:
            text = found["text"]
            notes.insert(
                0,
                f"In {current.version} the entry {current.name} says \u201cSee: "
                f"{', '.join(current.redirect)}\u201d; shown is the definition of {found['name']} there.",
            )
            url = urls.term(game.slug, found["term"].slug, pin(target), found["anchor"])
        else:  # "See: Keywords, Status Cards": the entry points at several terms
            text = f"See: {', '.join(current.redirect)}."
            notes.insert(0, f"{current.name} is defined by the entries it points at: {', '.join(current.redirect)}.")
    notes.extend(target.term_notes)
    if not current.complete and not any("not" in n for n in notes):
        notes.append("The exact text of this version is not fully known.")
    return {
        "status": "ok",
        "game": game.slug,
        "term": shown_name,
        "slug": term.slug if not anchor else f"{term.slug}#{anchor}",
        "in_force": target.label,
        "version": current.version,
        "date": current.date,
        "text": text,
        "complete": current.complete,
        "inferred": current.inferred,
        "change": current.change,
        "source": current.source,
        **introduction(revisions),
        "superseded_by": {"version": after.version, "date": after.date} if after else None,
        "notes": notes,
        "url": url,
    }


# -- history, diff, changes ----------------------------------------------------------
def history(store: Store, game: Game, term: TermRow) -> list[dict]:
    revisions = store.revisions(term)
    stated = store.versions(game)[0].stated
    out = []
    for i, revision in enumerate(revisions):
        nxt = revisions[i + 1] if i + 1 < len(revisions) else None
        pinned = revision.version if stated else None
        out.append(
            {
                "version": revision.version,
                "date": revision.date,
                "name": revision.name,
                "change": revision.change,
                "complete": revision.complete,
                "inferred": revision.inferred,
                "notes": revision.notes,
                "source": revision.source,
                "text": revision.text,
                "superseded_by": {"version": nxt.version, "date": nxt.date} if nxt else None,
                "url": None if revision.removed else urls.term(game.slug, term.slug, pinned),
            }
        )
    return out


# -- the glossary listing ------------------------------------------------------------
def terms_listing(store: Store, game_slug: str, version: str | None = None, include_sections: bool = False) -> list:
    """The glossary: one object per term (identity across versions), or those defined at ``version``.

    ``redirect`` is where the entry points ("See: Keywords") in the latest version
    in which it only pointed elsewhere; ``see_also`` gathers every version's links. A term the
    latest version no longer has is listed with its last text and ``removed_in``. Numbered rules
    are not glossary terms (``/rules/<number>`` lists them).
    """
    game = require_game(store, game_slug)
    target = version_by_label(store, game, version) if version else None
    kinds = ("entry", "keyword", "section") if include_sections else ("entry", "keyword")
    out = []
    for term in store.terms(game, kinds):
        revisions = store.revisions(term)
        removal = None
        if target is not None:
            current, _ = in_force(revisions, target.ordinal)
            if current is None or current.removed:
                continue
        else:
            current = revisions[-1]
            if current.removed:
                removal, current = current, next(r for r in reversed(revisions) if not r.removed)
        pointer = current if current.redirect else next((r for r in reversed(revisions) if r.redirect), None)
        redirect = redirect_url = None
        if pointer is not None:
            found = resolved_definition(store, game, pointer)
            target_term, _ = store.find_term(game, pointer.redirect[0])
            redirect = found["term"].name if found else target_term.name if target_term else pointer.redirect[0]
            if found:
                redirect_url = urls.term(game.slug, found["term"].slug, anchor=found["anchor"])
        # The graph's see-also edges: this version's first, then earlier versions' (terms stay related).
        see_also = []
        for revision in [current, *reversed(revisions)]:
            for name in revision.see_also:
                found_term, _ = store.find_term(game, split_qualifier(name)[0])
                shown = found_term.name if found_term else name
                if shown not in see_also:
                    see_also.append(shown)
        subdefs = store.subdefs(current.id)
        out.append(
            {
                "name": current.name,
                "slug": term.slug,
                "aliases": store.aliases(term),
                "kind": term.kind,
                "redirect": redirect,
                "redirect_url": redirect_url,
                "see_also": see_also,
                "versions": [r.version for r in revisions if not r.removed],
                "removed_in": {"version": removal.version, "date": removal.date} if removal else None,
                "subdefinitions": [
                    {"name": s["name"], "url": urls.term(game.slug, term.slug, anchor=s["anchor"])} for s in subdefs
                ],
                "url": urls.term(game.slug, term.slug),
            }
        )
    return out
