"""The library API behind the CLI, the JSON API and the pages: which version applies, history, diffs.

Every function returns plain data in the shapes of the README's CLI/JSON contract, so the same
answer reaches a terminal, a script and a browser; a negative answer is raised as ``Unanswerable``
(``errors.py``), which every channel shows the same way.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re

from ..errors import BadRequest, Unanswerable
from ..markup import plain_text
from ..text import base_key, fold, name_key, split_qualifier
from ..urls import urls
from .store import Game, RevisionRow, Store, TermRow, VersionRow


# -- lookups ------------------------------------------------------------------
def require_game(store: Store, slug: str) -> Game:
    """The game a slug or alias names, or the ``unknown-game`` answer (listing the games there are)."""
    game = store.game(slug)
    if game is None:
        games = [g.slug for g in store.games()]
        known = ", ".join(games[:10]) + (f" and {len(games) - 10} more" if len(games) > 10 else "")
        raise Unanswerable("unknown-game", f"unknown game {slug!r} (known: {known})", games=games)
    return game


def version_by_label(store: Store, game: Game, label: str) -> VersionRow:
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
    names = {}
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


def term_or_unknown(store: Store, game: Game, name: str) -> tuple[TermRow, str | None]:
    term, anchor = store.find_term(game, name)
    if term is None:
        raise Unanswerable(
            "unknown-term", f"no term {name!r} in {game.name}", suggestions=suggestions(store, game, name)
        )
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


def not_defined(term: TermRow, target: VersionRow, revisions: list[RevisionRow]) -> Unanswerable:
    """The answer for a term asked about at a version before it existed."""
    first = revisions[0] if revisions else None
    return Unanswerable(
        "not-defined",
        f"{term.name} is not defined in version {target.label}"
        + (f"; it was introduced in {first.version}" if first else ""),
        term=term.name,
        in_force=target.label,
        first_defined={"version": first.version, "date": first.date} if first else None,
    )


def resolved_definition(store: Store, game: Game, revision: RevisionRow) -> dict | None:
    """For an entry that only says "See: Keywords": the definition it points to, as of that version."""
    for target_name in revision.redirect:
        base, qualifier = split_qualifier(target_name)
        target, _ = store.find_term(game, target_name)
        anchor_name = revision.name
        if target is None and qualifier:
            target, _ = store.find_term(game, base)
            anchor_name = qualifier
        if target is None:
            continue
        for sub in _subdefs_at(store, target, revision.ordinal):
            if name_key(sub["name"]) == name_key(anchor_name) or base_key(sub["name"]) == name_key(anchor_name):
                return {"term": target, "anchor": sub["anchor"], "name": sub["name"], "text": sub["text"]}
        target_revision, _ = in_force(store.revisions(target), revision.ordinal)
        if target_revision is not None and len(revision.redirect) == 1:
            return {"term": target, "anchor": None, "name": target.name, "text": target_revision.text}
    return None


def _subdefs_at(store: Store, term: TermRow, ordinal: int) -> list[dict]:
    revision, _ = in_force(store.revisions(term), ordinal)
    return store.subdefs(revision.id) if revision else []


# -- which version applies -------------------------------------------------------
def applies(store: Store, game_slug: str, name: str, version: str | None = None, date: str | None = None) -> dict:
    """The answer to "which text of TERM was in force at VERSION / on DATE?" (README "Versions")."""
    game = require_game(store, game_slug)
    versions = store.versions(game)
    if version and date:
        raise BadRequest("give --version or --date, not both")
    if date:
        target = version_on(store, game, parse_date(date))
    elif version:
        target = version_by_label(store, game, version)
    else:
        target = versions[-1]
    term, anchor = term_or_unknown(store, game, name)
    revisions = store.revisions(term)
    current, after = in_force(revisions, target.ordinal)
    if current is None:
        raise not_defined(term, target, revisions)
    return _answer(store, game, term, anchor, target, current, after, revisions)


def _answer(store, game, term, anchor, target, current: RevisionRow, after, revisions) -> dict:
    notes = list(current.notes)
    text, shown_name, url = current.text, current.name, urls.term(game.slug, term.slug, target.label, anchor)
    if anchor:  # a sub-definition asked for by name ("Stunned")
        sub = store.subdef_text(term.id, anchor, target.ordinal)
        if sub:
            text, shown_name = sub["text"], sub["name"]
            notes.insert(0, f"{sub['name']} is defined under {current.name}.")
    elif not current.text.strip() and current.redirect:
        found = resolved_definition(store, game, current)
        if found:
            text = found["text"]
            where = found["name"] if found["anchor"] else found["term"].name
            notes.insert(
                0,
                f"In {current.version} the entry {current.name} says \u201cSee: "
                f"{', '.join(current.redirect)}\u201d; shown is the definition of {where} there.",
            )
            url = urls.term(game.slug, found["term"].slug, target.label, found["anchor"])
    for version in store.versions(game):
        if version.ordinal == target.ordinal:
            notes.extend(version.notes)
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
        "change": current.change,
        "source": current.source,
        "introduced_in": revisions[0].version,
        "superseded_by": {"version": after.version, "date": after.date} if after else None,
        "notes": notes,
        "url": url,
    }


# -- history, diff, changes ----------------------------------------------------------
def history(store: Store, game: Game, term: TermRow) -> list[dict]:
    revisions = store.revisions(term)
    out = []
    for i, revision in enumerate(revisions):
        nxt = revisions[i + 1] if i + 1 < len(revisions) else None
        out.append(
            {
                "version": revision.version,
                "date": revision.date,
                "name": revision.name,
                "change": revision.change,
                "complete": revision.complete,
                "notes": revision.notes,
                "source": revision.source,
                "text": revision.text,
                "superseded_by": {"version": nxt.version, "date": nxt.date} if nxt else None,
                "url": urls.term(game.slug, term.slug, revision.version),
            }
        )
    return out


TOKEN = re.compile(r"\s*\S+\s*")  # a word with the spaces around it: fewer, rarer tokens


def word_diff(old: str, new: str) -> list[dict]:
    """Word-level diff as merged ops: equal / insert / delete, each with its text.

    Paragraphs are aligned first and only similar paragraphs are compared word by
    word, which keeps long rewrites fast. Quotes and dashes are straightened for
    the comparison: a curly apostrophe is not a rules change.
    """
    ops: list[dict] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if ops and ops[-1]["op"] == op:
            ops[-1]["text"] += text
        else:
            ops.append({"op": op, "text": text})

    def words(a_text: str, b_text: str) -> None:
        a, b = TOKEN.findall(a_text), TOKEN.findall(b_text)
        matcher = difflib.SequenceMatcher(
            None, [fold(t).strip() for t in a], [fold(t).strip() for t in b], autojunk=False
        )
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                add("equal", "".join(b[j1:j2]))
            else:
                add("delete", "".join(a[i1:i2]))
                add("insert", "".join(b[j1:j2]))

    a_par, b_par = old.split("\n"), new.split("\n")
    outer = difflib.SequenceMatcher(None, [fold(p) for p in a_par], [fold(p) for p in b_par], autojunk=False)
    for tag, i1, i2, j1, j2 in outer.get_opcodes():
        a_chunk, b_chunk = "\n".join(a_par[i1:i2]), "\n".join(b_par[j1:j2])
        sep = "\n" if i2 < len(a_par) or j2 < len(b_par) else ""
        if tag == "equal":
            add("equal", b_chunk + sep)
        elif tag == "replace" and difflib.SequenceMatcher(None, a_chunk, b_chunk).quick_ratio() > 0.5:
            words(a_chunk + sep, b_chunk + sep)
        else:
            add("delete", a_chunk + ("\n" if a_chunk else ""))
            add("insert", b_chunk + ("\n" if b_chunk else ""))
    return ops


def _version_arg(store: Store, game: Game, text: str) -> VersionRow:
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", (text or "").strip()):
        return version_on(store, game, parse_date(text))
    return version_by_label(store, game, text)


def diff(store: Store, game_slug: str, name: str, start: str, end: str) -> dict:
    game = require_game(store, game_slug)
    a, b = _version_arg(store, game, start), _version_arg(store, game, end)
    term, _ = term_or_unknown(store, game, name)
    revisions = store.revisions(term)
    old, _ = in_force(revisions, a.ordinal)
    new, _ = in_force(revisions, b.ordinal)
    old_text = plain_text(old.text) if old else ""
    new_text = plain_text(new.text) if new else ""
    return {
        "status": "ok",
        "game": game.slug,
        "term": term.name,
        "slug": term.slug,
        "from": a.label,
        "to": b.label,
        "from_revision": old.version if old else None,
        "to_revision": new.version if new else None,
        "changed": old_text != new_text,
        "complete": bool((old is None or old.complete) and (new is None or new.complete)),
        "ops": word_diff(old_text, new_text),
    }


def changes(store: Store, game_slug: str, start: str, end: str) -> dict:
    game = require_game(store, game_slug)
    a, b = _version_arg(store, game, start), _version_arg(store, game, end)
    added, removed, changed = [], [], []
    details = []
    for term in store.terms(game):
        revisions = store.revisions(term)
        old, _ = in_force(revisions, a.ordinal)
        new, _ = in_force(revisions, b.ordinal)
        if old is None and new is not None:
            added.append(term.name)
            details.append({"term": term.name, "slug": term.slug, "kind": "added", "version": new.version})
        elif old is not None and new is None:
            removed.append(term.name)
            details.append({"term": term.name, "slug": term.slug, "kind": "removed", "version": old.version})
        elif old is not None and new is not None and old.id != new.id:
            changed.append(term.name)
            details.append(
                {
                    "term": term.name,
                    "slug": term.slug,
                    "kind": "changed",
                    "version": new.version,
                    "change": new.change,
                    "complete": new.complete,
                }
            )
    return {
        "status": "ok",
        "game": game.slug,
        "from": a.label,
        "to": b.label,
        "added": added,
        "removed": removed,
        "changed": changed,
        "terms": details,
    }


# -- the glossary listing ------------------------------------------------------------
def terms_listing(store: Store, game_slug: str, version: str | None = None, include_sections: bool = False) -> list:
    """The glossary: one object per term (identity across versions), or those defined at ``version``.

    ``redirect`` is where the entry points ("See: Keywords") in the latest version
    in which it only pointed elsewhere; ``see_also`` gathers every version's links.
    """
    game = require_game(store, game_slug)
    target = version_by_label(store, game, version) if version else None
    kinds = ("entry", "keyword", "section") if include_sections else ("entry", "keyword")
    out = []
    for term in store.terms(game, kinds):
        revisions = store.revisions(term)
        if target is not None:
            current, _ = in_force(revisions, target.ordinal)
            if current is None:
                continue
        else:
            current = revisions[-1]
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
                "versions": [r.version for r in revisions],
                "subdefinitions": [
                    {"name": s["name"], "url": urls.term(game.slug, term.slug, anchor=s["anchor"])} for s in subdefs
                ],
                "url": urls.term(game.slug, term.slug),
            }
        )
    return out
