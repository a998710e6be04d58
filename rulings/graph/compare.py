"""Comparing versions: a word diff of one term, and the change report of a whole game.

Texts are compared in their ``comparable()`` form, so a difference in formatting alone (emphasis,
wraps, quote style, bullet glyphs) is never reported as a change. A term that only points elsewhere
("See: Keywords") is compared by the definition it points to, and a sub-definition asked for by
name ("Stunned") by its own text. A range runs forwards: ``1.4..1.1`` is refused, the same way in
the CLI (exit 2), the API and the site (400).
"""

from __future__ import annotations

import difflib
import re

from ..errors import BadRequest
from ..markup import plain_text
from ..text import comparable, fold
from ..urls import urls
from . import rules
from .answers import in_force, require_game, resolved_definition, term_or_unknown, version_named
from .store import Game, RevisionRow, Store, TermRow, VersionRow


def version_range(store: Store, game: Game, start: str, end: str) -> tuple[VersionRow, VersionRow]:
    """The two versions of ``start..end``; a range that runs backwards is refused."""
    a, b = version_named(store, game, start), version_named(store, game, end)
    if a.ordinal > b.ordinal:
        raise BadRequest(
            f"the range {start}..{end} runs backwards ({a.label} comes after {b.label}); ask for {end}..{start}"
        )
    return a, b


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


def effective_text(
    store: Store, game: Game, term: TermRow, anchor: str | None, version: VersionRow
) -> tuple[str, RevisionRow | None]:
    """What a term said at a version: its text, the sub-definition asked for, or what its "See:" points to."""
    revision, _ = in_force(store.revisions(term), version.ordinal)
    if revision is None or revision.removed:
        return "", revision
    if anchor:
        sub = store.subdef_text(term.id, anchor, version.ordinal)
        return (sub["text"] if sub else ""), revision
    if not revision.text.strip() and revision.redirect:
        found = resolved_definition(store, game, revision, version.ordinal)
        if found:
            return found["text"], revision
    return revision.text, revision


def diff(store: Store, game_slug: str, name: str, start: str, end: str) -> dict:
    """Word diff of one term (or rule number) between two versions."""
    game = require_game(store, game_slug)
    a, b = version_range(store, game, start, end)
    if rules.is_rule_number(store, game, name):
        return _rule_diff(store, game, name, a, b)
    term, anchor = term_or_unknown(store, game, name, b.ordinal)
    old_text, old = effective_text(store, game, term, anchor, a)
    new_text, new = effective_text(store, game, term, anchor, b)
    return _diff_answer(
        game, (new or old).name if (new or old) else term.name, term.slug, a, b, old_text, new_text, old, new
    )


def _rule_diff(store: Store, game: Game, number: str, a: VersionRow, b: VersionRow) -> dict:
    """The rule printed under ``number`` at the end of the range (else at its start), followed back
    through its renumberings."""
    located = rules.locate(store, game, number, b.ordinal) or rules.locate(store, game, number, a.ordinal)
    if located is None:
        raise rules.not_here(store, game, number, b)
    steps = rules.history(store, located)
    old, _ = rules.step_at(steps, a.ordinal)
    new, _ = rules.step_at(steps, b.ordinal)
    return _diff_answer(
        game,
        located.number,
        located.term.slug,
        a,
        b,
        (old.text or "") if old else "",
        (new.text or "") if new else "",
        old.revision if old else None,
        new.revision if new else None,
    )


def _diff_answer(game, name, slug, a, b, old_text, new_text, old: RevisionRow | None, new: RevisionRow | None) -> dict:
    return {
        "status": "ok",
        "game": game.slug,
        "term": name,
        "slug": slug,
        "from": a.label,
        "to": b.label,
        "from_revision": old.version if old else None,
        "to_revision": new.version if new else None,
        "changed": comparable(old_text) != comparable(new_text),
        "complete": bool((old is None or old.complete) and (new is None or new.complete)),
        "ops": word_diff(plain_text(old_text), plain_text(new_text)),
        "url": urls.diff(game.slug, slug, a.label, b.label),
    }


def changes(store: Store, game_slug: str, start: str, end: str, redlines: bool = False) -> dict:
    """Terms added, removed, changed and renamed between two versions, and numbered rules by number.

    ``added``/``removed``/``changed`` list names and ``renamed`` ``{"from", "to"}`` pairs (the contract);
    ``terms`` details each term (``known`` or ``inferred``: no document dates an inferred change, it
    happened at the latest in its version); ``redlines`` adds each changed term's word diff (``ops``).
    """
    game = require_game(store, game_slug)
    a, b = version_range(store, game, start, end)
    report: dict[str, list] = {"added": [], "removed": [], "changed": [], "renamed": [], "terms": []}
    numbered = []
    for term in store.terms(game, ("entry", "keyword", "section", "rule")):
        if term.number:
            numbered.append(term)
        else:
            _term_change(store, game, term, a, b, report, redlines)
    for key in ("added", "removed", "changed"):  # by the names of the range, never by later ones
        report[key].sort(key=str.casefold)
    report["renamed"].sort(key=lambda r: r["to"].casefold())
    report["terms"].sort(key=lambda t: (t["term"].casefold(), t["slug"]))
    counts = {key: len(report[key]) for key in ("added", "changed", "renamed", "removed")}
    answer = {"status": "ok", "game": game.slug, "from": a.label, "to": b.label, "counts": counts, **report}
    answer["url"] = urls.changes(game.slug, a.label, b.label)
    if numbered:
        answer["rules"] = _rule_changes(store, numbered, a, b)
    return answer


def _term_change(
    store: Store, game: Game, term: TermRow, a: VersionRow, b: VersionRow, report: dict, redlines: bool
) -> None:
    revisions = store.revisions(term)
    old, _ = in_force(revisions, a.ordinal)
    new, _ = in_force(revisions, b.ordinal)
    old = None if old is None or old.removed else old
    new_or_removed = new
    new = None if new is None or new.removed else new
    between = [r for r in revisions if a.ordinal < r.ordinal <= b.ordinal]
    detail = {"term": term.name, "slug": term.slug, "inferred": any(r.inferred for r in between)}
    if old is None and new is not None:
        report["added"].append(new.name)
        report["terms"].append({**detail, "term": new.name, "kind": "added", "version": between[-1].version})
    elif old is not None and new is None:
        report["removed"].append(old.name)
        version = new_or_removed.version if new_or_removed else b.label
        report["terms"].append({**detail, "term": old.name, "kind": "removed", "version": version})
    elif old is not None and new is not None and old.id != new.id:
        if comparable(old.name) != comparable(new.name):
            renamed = next(r for r in between if comparable(r.name) == comparable(new.name))
            report["renamed"].append(
                {
                    "from": old.name,
                    "to": new.name,
                    "slug": term.slug,
                    "version": renamed.version,
                    "inferred": renamed.inferred,
                }
            )
        old_text, _ = effective_text(store, game, term, None, a)
        new_text, _ = effective_text(store, game, term, None, b)
        unknown = any(not r.complete for r in between)
        if comparable(old_text) != comparable(new_text) or unknown:
            report["changed"].append(new.name)
            item = {
                **detail,
                "term": new.name,
                "kind": "changed",
                "version": new.version,
                "change": new.change,
                "complete": new.complete and not unknown,
            }
            if comparable(old.name) != comparable(new.name):
                item["was"] = old.name
            if redlines:
                item["ops"] = word_diff(plain_text(old_text), plain_text(new_text))
            report["terms"].append(item)


def _rule_changes(store: Store, terms: list[TermRow], a: VersionRow, b: VersionRow) -> dict:
    """Numbered rules added, removed and changed between two versions, by number."""
    added, removed, changed = [], [], []
    for term in terms:
        revisions = store.revisions(term)
        old, _ = in_force(revisions, a.ordinal)
        new, _ = in_force(revisions, b.ordinal)
        if old is not None and new is not None and old.id == new.id:
            continue
        before = rules.numbered_texts(store, term, old)
        after = rules.numbered_texts(store, term, new)
        added += [n for n in after if n not in before]
        removed += [n for n in before if n not in after]
        changed += [n for n in after if n in before and comparable(after[n]) != comparable(before[n])]
    return {
        key: sorted(found, key=rules.number_key)
        for key, found in (("added", added), ("removed", removed), ("changed", changed))
    }
