"""Comparing versions: a word diff of one term, and the change report of a whole game.

Texts are compared in their ``comparable()`` form, so a difference in formatting alone (emphasis,
wraps, quote style, bullet glyphs) is never reported as a change. A term that only points elsewhere
("See: Keywords") is compared by the definition it points to, and a sub-definition asked for by
name ("Stunned") by its own text. A range runs forwards: ``1.4..1.1`` is refused, the same way in
the CLI (exit 2), the API and the site (400).
"""

from __future__ import annotations

import difflib
import hashlib
import re

from ..errors import BadRequest
from ..markup import plain_text
from ..text import comparable, fold
from ..urls import urls
from . import rules
from .answers import defined_at, in_force, require_game, resolved_definition, term_or_unknown, version_named
from .rows import Game, RevisionRow, TermRow, VersionRow
from .store import Store


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
    answer = _diff_answer(
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
    return {**answer, "url": urls.rule_diff(game.slug, rules.normalise(number), a.label, b.label)}


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
    """Terms added, removed, changed and renamed between two versions, and numbered rules beside them.

    ``added``/``removed``/``changed`` list glossary names and ``renamed`` ``{"from", "to"}`` pairs (the
    contract); ``terms`` details each term (``known`` or ``inferred``: no document dates an inferred change,
    it happened at the latest in its version); ``redlines`` adds each changed term's word diff (``ops``).
    ``rules`` (a game with numbered rules) details its chapters, sections and rules followed by lineage
    (``rule_changes``); ``matter`` names the unnumbered front and back matter of a numbered rules document
    (its introduction, its credits), which changes with every edition and is no glossary term.
    """
    game = require_game(store, game_slug)
    a, b = version_range(store, game, start, end)
    report: dict[str, list] = {"added": [], "removed": [], "changed": [], "renamed": [], "terms": []}
    numbered: list[TermRow] = []
    unnumbered: list[TermRow] = []
    for term in store.terms(game, ("entry", "keyword", "section", "rule")):
        (numbered if term.number else unnumbered).append(term)
    numbered_documents = {term.document for term in numbered}
    matter: dict[str, list] = {"added": [], "removed": [], "changed": [], "renamed": [], "terms": []}
    for term in unnumbered:
        into = matter if term.kind == "section" and term.document in numbered_documents else report
        _term_change(store, game, term, a, b, into, redlines)
    for key in ("added", "removed", "changed"):  # by the names of the range, never by later ones
        report[key].sort(key=str.casefold)
    report["renamed"].sort(key=lambda r: r["to"].casefold())
    report["terms"].sort(key=lambda t: (t["term"].casefold(), t["slug"]))
    counts = {key: len(report[key]) for key in ("added", "changed", "renamed", "removed")}
    answer = {"status": "ok", "game": game.slug, "from": a.label, "to": b.label, "counts": counts, **report}
    answer["url"] = urls.changes(game.slug, a.label, b.label)
    if numbered:
        answer["rules"] = rule_changes(store, numbered, a, b, redlines)
    if any(matter[key] for key in ("added", "removed", "changed")):
        answer["matter"] = {key: sorted(matter[key], key=str.casefold) for key in ("added", "removed", "changed")}
    return answer


def _term_change(
    store: Store, game: Game, term: TermRow, a: VersionRow, b: VersionRow, report: dict, redlines: bool
) -> None:
    revisions = store.revisions(term)
    old = defined_at(revisions, a.ordinal)
    new, _ = in_force(revisions, b.ordinal)
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


RULE_CHANGES = ("added", "changed", "moved", "removed")


def rule_changes(store: Store, terms: list[TermRow], a: VersionRow, b: VersionRow, redlines: bool = False) -> dict:
    """Numbered chapters, sections and rules between two versions, each followed by lineage (a rule is the
    rule, whatever its number): ``added`` and ``removed`` (with their text), ``changed`` (with the number
    it had, when renumbered too, the subrules added, removed and changed, and with ``redlines`` its word
    diff), and ``moved``: renumbered with the same title and words, neither a change nor an add and a
    remove. ``counts`` counts rules, ``section_counts`` chapters and sections."""
    found: dict[str, list[dict]] = {key: [] for key in RULE_CHANGES}
    pairs = []
    for term in terms:
        revisions = store.revisions(term)
        old = defined_at(revisions, a.ordinal)
        new, after = in_force(revisions, b.ordinal)
        gone = new if new is not None and new.removed else None
        new = None if new is None or new.removed else new
        if old is None and new is None or (old is not None and new is not None and old.id == new.id):
            continue
        between = [r for r in revisions if a.ordinal < r.ordinal <= b.ordinal]
        pairs.append((term, old, new, between, gone))
    blocks = store.blocks_of([r.id for _, old, new, _, _ in pairs for r in (old, new) if r is not None])
    for term, old, new, between, gone in pairs:
        shown = new or old
        assert shown is not None
        kind = "chapter" if term.kind == "section" and rules.level(shown.number or "") == 0 else term.kind
        item = {"kind": kind, "slug": term.slug, "inferred": any(r.inferred for r in between)}
        if old is None:
            added = {"number": new.number, "name": new.name, "version": between[0].version, "text": new.text}
            found["added"].append({**item, **added})
            continue
        if new is None:
            version = gone.version if gone is not None else b.label
            removed = {"number": old.number, "name": old.name, "version": version, "text": old.text}
            found["removed"].append({**item, **removed})
            continue
        old_words = _words(old, blocks.get(old.id, []))
        new_words = _words(new, blocks.get(new.id, []))
        renumbered = old.number != new.number
        if old_words == new_words:
            if renumbered:
                moved_in = next((r for r in between if r.number == new.number), new)
                moved = {"from": old.number, "to": new.number, "number": new.number, "name": new.name}
                found["moved"].append({**item, **moved, "version": moved_in.version})
            continue
        complete = new.complete and all(r.complete for r in between)
        changed = {**item, "number": new.number, "name": new.name, "version": new.version, "complete": complete}
        if renumbered:
            changed["was"] = old.number
        if rules.title(old.name, old.number or "") != rules.title(new.name, new.number or ""):
            changed["was_name"] = old.name
        changed["subrules"] = _subrule_changes(blocks.get(old.id, []), blocks.get(new.id, []))
        if redlines:
            changed["ops"] = word_diff(plain_text(old.text), plain_text(new.text))
        found["changed"].append(changed)
    rank = {"chapter": 0, "section": 1, "rule": 2}
    for items in found.values():
        items.sort(key=lambda i: (rank.get(i["kind"], 3), rules.number_key(i["number"] or ""), i["slug"]))
    counts = {key: sum(1 for i in found[key] if i["kind"] == "rule") for key in RULE_CHANGES}
    section_counts = {key: len(found[key]) - counts[key] for key in RULE_CHANGES}
    return {"counts": counts, "section_counts": section_counts, **found}


def _words(revision: RevisionRow, blocks: list) -> tuple:
    """What a numbered entry says, its numbers aside: its title and its blocks' words, formatting aside."""
    title = comparable(rules.title(revision.name, revision.number or ""))
    return (title, *(comparable(block.text) for block in blocks))


def _subrule_changes(old_blocks: list, new_blocks: list) -> dict:
    """The subrules (numbered blocks) a rule's change added, removed, changed and re-lettered unchanged
    (``moved``: [old, new] numbers), each followed by its thread (116.2g "In a Planechase game..." became
    116.2h when 116.2g was inserted before it: a move, and an added 116.2g, never a changed 116.2g)."""
    old = {b.thread or b.number: b for b in old_blocks if b.number}
    new = {b.thread or b.number: b for b in new_blocks if b.number}
    kept = [(old[t], b) for t, b in new.items() if t in old]
    return {
        "added": [b.number for t, b in new.items() if t not in old],
        "removed": [b.number for t, b in old.items() if t not in new],
        "changed": [b.number for was, b in kept if comparable(was.text) != comparable(b.text)],
        "moved": [
            [was.number, b.number]
            for was, b in kept
            if was.number != b.number and comparable(was.text) == comparable(b.text)
        ],
    }


# -- a version item by item, for reports made elsewhere -------------------------------------------
def digest(text: str) -> str:
    """A short fingerprint of a text's comparable form: two texts have one digest when they are the same text."""
    return hashlib.blake2b(comparable(text).encode("utf-8"), digest_size=6).hexdigest()


def edition_snapshot(store: Store, game: Game, version: VersionRow, revisions: dict[int, list] | None = None) -> dict:
    """What ``version`` says, item by item, for a change report between any two versions made from two
    snapshots alone (the static export makes them in the browser: ``static/changes.js``), linear in versions
    where a report for every pair is quadratic.

    ``terms`` and ``matter``: ``[slug, name, revision version, digest of the name, digest of the text, text,
    unknown since]`` of each glossary term (front and back matter) in force, its text the one ``changes``
    compares, and the index (in the game's versions) of its latest revision up to ``version`` whose text is
    not fully known (-1: none), which makes a change between two versions after it "changed";
    ``rules``: ``[slug, kind, number, title, revision version, digest of the words, text]`` of each numbered
    chapter, section and rule. Two snapshots give the lists ``changes`` gives: added, removed, changed (text
    digests differ), renamed (name digests differ) for terms; added, removed, changed (words differ) and
    moved (only the number differs) for rules. Redlines are made from the texts.
    """
    revisions = revisions if revisions is not None else store.revisions_in(game)
    index = {v.ordinal: i for i, v in enumerate(store.versions(game))}
    out: dict[str, list] = {"terms": [], "matter": [], "rules": []}
    terms = store.terms(game, ("entry", "keyword", "section", "rule"))
    numbered_documents = {t.document for t in terms if t.number}
    rules_in_force = []
    for term in terms:
        revision = defined_at(revisions.get(term.id, []), version.ordinal)
        if revision is None:
            continue
        if term.number:
            rules_in_force.append((term, revision))
            continue
        text = revision.text
        if not text.strip() and revision.redirect:
            found = resolved_definition(store, game, revision, version.ordinal)
            text = found["text"] if found else text
        into = "matter" if term.kind == "section" and term.document in numbered_documents else "terms"
        unknown = [index[r.ordinal] for r in revisions[term.id] if r.ordinal <= version.ordinal and not r.complete]
        name, shown = revision.name, plain_text(text)
        out[into].append(
            [term.slug, name, revision.version, digest(name), digest(text), shown, unknown[-1] if unknown else -1]
        )
    blocks = store.blocks_of([r.id for _, r in rules_in_force])
    for term, revision in rules_in_force:
        number = revision.number or ""
        kind = "chapter" if term.kind == "section" and rules.level(number) == 0 else term.kind
        words = "\n".join(_words(revision, blocks.get(revision.id, [])))
        title = rules.title(revision.name, number)
        out["rules"].append(
            [term.slug, kind, number, title, revision.version, digest(words), plain_text(revision.text)]
        )
    return {"game": game.slug, "version": version.label, "date": version.date, **out}
