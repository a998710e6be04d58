"""Numbered rules on the site and in the API: a rule's page, its history, its diffs and the index of rules.

A numbered rule is a term printed under a number that can change from one edition to the next
(``graph/rules.py``, ``graph/lineage.py``). Its pages are addressed by the number a version prints:
``/<game>/rules/<number>`` (the latest version) and ``/<game>/v/<version>/rules/<number>`` (pinned),
``…/rules/<number>/history`` and ``…/rules/<number>/diff/<a>..<b>``; ``/<game>/rules`` lists the chapters
and sections. A pinned page is a function of the versions up to its own: its versions list, breadcrumbs
and "Referenced by" never look past it. Only its forward pointers (the banner saying when the text was
superseded, "see current") change when an edition is appended.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..errors import NotFound
from ..graph import answers, rule_numbers, rules, term_sheet
from ..graph.rows import Game, VersionRow
from ..markup import plain_text
from . import reading, views
from .context import absolute, site_urls, store
from .reading import Part
from .render import render_blocks

NEARBY_EACH_SIDE = 2  # numbers printed before and after one that does not exist, named on its 404
RULE_REFERRERS = ("cites", "mentions")  # the edges a rule page lists as "Referenced by"


@dataclass
class RulePage:
    game: Game
    number: str  # as asked, normalised
    version: VersionRow  # asked (latest when not pinned)
    pinned: bool
    located: rules.Located
    parts: list[Part]  # the rule (or the section with its rules), as in force
    children: list[Part]  # a chapter's sections (listed, not shown whole)
    referenced_by: list[views.TermLink]  # glossary entries and rules whose texts cite it at the version shown
    steps: list[rules.Step]  # the rule's history, every version
    step: rules.Step
    next_step: rules.Step | None
    versions: list[VersionRow]  # the versions the page names: up to its own when pinned
    latest: VersionRow
    citation: dict
    crumbs: list[tuple[str, str]]  # (name then, link) of the rules index, the chapter and the section
    editions: list[views.Step]  # every version having the rule, up to the page's own when pinned
    history_url: str
    now: str | None  # forward pointer: the number the latest version prints the rule under (None: removed)

    @property
    def numbers(self) -> list[tuple[str, str]]:
        """(number, version first printing it) of each number the rule went by, up to the page's version."""
        return numbers_over_time([s for s in self.steps if s.revision.ordinal <= self.version.ordinal])

    @property
    def next_words(self) -> str:
        """What the version after the page's did to the rule ("changed", "renumbered 702.18 -> 702.19")."""
        if self.next_step is None:
            return ""
        return rules.step_words(self.steps, self.steps.index(self.next_step), numbered=False)

    @property
    def current_url(self) -> str:
        """Where the rule is now: its latest text, else (removed) its history."""
        return site_urls().rule(self.game.slug, self.now) if self.now else self.history_url

    @property
    def latest_diff_url(self) -> str | None:
        """The diff from the page's version to the latest, when the rule is still in force."""
        if not self.now or self.next_step is None:
            return None  # from the text in force here (one diff for every version it was in force)
        return site_urls().rule_diff(self.game.slug, self.now, self.step.revision.version, self.latest.label)

    def link(self, number: str) -> str:
        """A number as the page links it: at the page's version when pinned."""
        return site_urls().rule(self.game.slug, number, self.version.label if self.pinned else None)


def located_or_404(game: Game, number: str, target: VersionRow, pinned: bool = False) -> rules.Located:
    """The rule printed under ``number`` at ``target``; a number another version prints is the not-defined
    answer saying where it is; any other a 404 naming the numbers nearby (``nearby``: links to them)."""
    st = store()
    located = rules.locate(st, game, number, target.ordinal)
    if located is not None:
        return located
    wanted = rules.normalise(number)
    if rules.is_rule_number(st, game, wanted):
        raise rules.not_here(st, game, wanted, target)
    near = nearby(game, wanted, target)
    message = f"No rule {number} in {game.name}" + (f" v{target.label}." if pinned else ".")
    pin = target.label if pinned else None
    raise NotFound(message, nearby=[{"number": n, "url": site_urls().rule(game.slug, n, pin)} for n in near])


def nearby(game: Game, number: str, version: VersionRow) -> list[str]:
    """Numbers near one that does not exist, in rule order: the two printed before it and the two after it
    ("702.19z": 702.19d, 702.19e, 702.20, 702.20a), then the nearest section or rule that holds it."""
    numbers = sorted(rule_numbers.numbers_at(store(), game, version.ordinal), key=rules.number_key)
    at = bisect.bisect_left([rules.number_key(n) for n in numbers], rules.number_key(number))
    near = numbers[max(0, at - NEARBY_EACH_SIDE) : at + NEARBY_EACH_SIDE]
    holder = _holder(number)
    while holder is not None and holder not in numbers:
        holder = _holder(holder)
    return near + ([holder] if holder is not None and holder not in near else [])


def _holder(number: str) -> str | None:
    """What holds a number: a subrule its rule ("702.19z" -> "702.19"), a rule its section, a section its chapter."""
    rule = re.sub(r"(?<=\d)[a-z]+$", "", number)
    return rule if rule != number else rules.parent(number)


def rule_page(game: Game, number: str, version: VersionRow | None) -> RulePage:
    """A numbered rule as in force at ``version``: the rule with its subrules, a section with its rules."""
    st = store()
    versions = st.versions(game)
    target = version or versions[-1]
    wanted = rules.normalise(number)
    located = located_or_404(game, wanted, target, version is not None)
    steps = rules.history(st, located)
    step, after = rules.step_at(steps, target.ordinal)
    assert step is not None and step.text is not None
    term = located.term
    revision, _ = answers.in_force(st.revisions(term), target.ordinal)
    assert revision is not None
    parts = [Part(term, revision, st.blocks(revision.id), 0)]
    children: list[Part] = []
    if term.kind == "section":  # its rules and sections, from the version's whole text (read once for them all)
        whole, _ = reading.version_parts(game, target)
        inside = [p for p in whole if p.revision.number and rules.parent(p.revision.number) == revision.number]
        inside.sort(key=lambda p: rules.number_key(p.revision.number or ""))
        for child in inside:
            if child.term.kind == "section":
                children.append(Part(child.term, child.revision, [], 1))
            else:
                parts.append(Part(child.term, child.revision, child.blocks, 1))
    pin = target.label if version is not None else None
    built = site_urls()
    shown = [v for v in versions if v.ordinal <= target.ordinal]  # a pinned page never looks past its version
    now, _ = rules.step_at(steps, versions[-1].ordinal)
    path = views.pinned_path("site.rule", target, number=wanted)
    return RulePage(
        game=game,
        number=wanted,
        version=target,
        pinned=version is not None,
        located=located,
        parts=parts,
        children=children,
        referenced_by=referrer_links(game, located, target, pin),
        steps=steps,
        step=step,
        next_step=after,
        versions=shown if version is not None else versions,
        latest=versions[-1],
        citation=views.citation(f"Rule {wanted}", game, target, absolute(path)),
        crumbs=[("Rules", built.rules(game.slug, pin))]
        + [(name, built.rule(game.slug, n, pin)) for n, name in rules.enclosing(st, game, wanted, target.ordinal)],
        editions=edition_steps(game, steps, shown if version is not None else versions, target),
        # where the rule's history lives: by its number now; a pinned page links its slug's, which leads there
        # and stays the same when a later edition renumbers the rule
        history_url=built.rule_history(game.slug, now.number)
        if version is None and now is not None and now.text is not None and now.number
        else built.history(game.slug, term.slug),
        now=now.number if now is not None and now.text is not None else None,
    )


def referrer_links(game: Game, located: rules.Located, target: VersionRow, pin: str | None) -> list[views.TermLink]:
    """The terms whose texts at ``target`` cite or mention the rule; a numbered one linked by its number then."""
    st = store()
    rows = term_sheet.referrers(st, located.term, RULE_REFERRERS, target.ordinal)
    numbers = rule_numbers.numbers_of(st, game, [slug for slug, _ in rows], target.ordinal)
    built = site_urls()
    out = []
    for slug, name in rows:
        number = numbers.get(slug)
        if number is None:
            out.append(views.TermLink(slug, name, built.term(game.slug, slug, pin), plain_text(name)))
            continue
        label = rules.heading(number, name)
        out.append(views.TermLink(slug, name, built.rule(game.slug, number, pin), plain_text(label)))
    return out


def edition_steps(
    game: Game, steps: list[rules.Step], versions: list[VersionRow], here: VersionRow
) -> list[views.Step]:
    """Every version having the rule, each linked to the rule pinned there; those where it changed say how,
    with the number it had there, and link the diff from its text before."""
    built = site_urls()
    out = []
    for edition in rules.editions(steps, versions):
        label = edition.version.label
        words, diff = "", None
        if edition.step is not None:
            words = rules.step_words(steps, edition.step)
            made = steps[edition.step]
            if edition.step and made.text is not None and made.number:
                before = steps[edition.step - 1].revision.version
                diff = built.rule_diff(game.slug, made.number, before, label)
        href = built.rule(game.slug, edition.number, label) if edition.number else None
        out.append(views.Step(label, edition.version.date, href, words, diff, edition.version.id == here.id))
    return out


def rule_html(page: RulePage) -> list[str]:
    return [
        render_blocks(
            part.blocks,
            views.links_for(page.game, page.version if page.pinned else None, part.term),
            asked=page.located.block,
        )
        for part in page.parts
    ]


# -- history and diffs -------------------------------------------------------------------------
def located_now(game: Game, number: str) -> tuple[rules.Located, str | None]:
    """The rule a history URL's number names: printed under it in the latest version, else in the latest
    version printing it; with the number the rule has now when that is another (None: the same, or the
    rule is gone)."""
    st = store()
    latest = st.versions(game)[-1]
    wanted = rules.normalise(number)
    near = rules.locate_near(st, game, wanted, latest.ordinal) if rules.looks_like_number(wanted) else None
    if near is None:
        located_or_404(game, wanted, latest)  # raises the 404 naming the numbers nearby
        raise AssertionError("unreachable")
    located, _ = near
    now, _ = rules.step_at(rules.history(st, located), latest.ordinal)
    moved = now.number if now is not None and now.text is not None and now.number != wanted else None
    return located, moved


def history_entries(game: Game, steps: list[rules.Step], stated: bool = True) -> list[dict]:
    """Each step of a rule's history as the history page and the API show it."""
    built = site_urls()
    out = []
    for i, step in enumerate(steps):
        revision = step.revision
        after = steps[i + 1].revision if i + 1 < len(steps) else None
        before = steps[i - 1] if i else None
        pin = revision.version if stated else None
        number = step.number or (before.number if before else None)
        out.append(
            {
                "version": revision.version,
                "date": revision.date,
                "number": number,
                "name": revision.name,
                "change": rules.step_words(steps, i),
                "removed": step.text is None,
                "text": step.text,
                "complete": revision.complete,
                "inferred": revision.inferred,
                "notes": revision.notes,
                "source": revision.source,
                "superseded_by": {"version": after.version, "date": after.date} if after else None,
                "url": built.rule(game.slug, step.number, pin) if step.text is not None and step.number else None,
                "diff": (
                    built.rule_diff(game.slug, step.number, before.revision.version, revision.version)
                    if before is not None and step.text is not None and step.number
                    else None
                ),
                "diff_from": before.revision.version if before is not None else None,
            }
        )
    return out


def numbers_over_time(steps: list[rules.Step]) -> list[tuple[str, str]]:
    """(number, the version first printing the rule under it) for each number the rule went by, in order:
    Trample [("502.9", "2003-03-15"), ("702.17", "2009-10-01"), ...]."""
    out: list[tuple[str, str]] = []
    for step in steps:
        if step.text is not None and step.number and (not out or out[-1][0] != step.number):
            out.append((step.number, step.revision.version))
    return out


def history_view(game: Game, located: rules.Located, number: str) -> views.HistoryView:
    """A rule's history page: each step with its number, what it did, its text and the diff from the one before."""
    st = store()
    steps = rules.history(st, located)
    versions = {v.ordinal: v for v in st.versions(game)}
    blocks = st.blocks_of([s.revision.id for s in steps])
    stated = versions[min(versions)].stated
    entries = []
    for entry, step in zip(history_entries(game, steps, stated), steps, strict=True):
        number = entry["number"] or ""
        heading = rules.heading(number, step.revision.name) if located.block is None else number
        html = ""
        if step.text is not None:
            shown = [
                b for b in blocks[step.revision.id] if located.block is None or (b.thread or b.number) == located.thread
            ]
            links = views.links_for(game, versions[step.revision.ordinal], located.term)
            html = render_blocks(shown, links, id_prefix=f"v{step.revision.version}--")
        entries.append({**entry, "heading": heading, "words": entry["change"], "html": html})
    last = next((s for s in reversed(steps) if s.text is not None), steps[-1])
    name = rules.heading(number, last.revision.name) if located.block is None else f"Rule {number}"
    now = rules.step_at(steps, max(versions))[0]
    url = site_urls().rule(game.slug, number) if now is not None and now.text is not None else entries[-1]["url"] or ""
    crumbs = [("Rules", site_urls().rules(game.slug))]
    return views.HistoryView(name, url, crumbs, entries, numbers_over_time(steps))


def diff_view(game: Game, data: dict) -> views.DiffView:
    """What a rule's diff page links: the rule pinned at both ends (at the number each prints it under)."""
    st = store()
    built = site_urls()
    a, b = (answers.version_named(st, game, data[end]) for end in ("from", "to"))
    located = rules.locate(st, game, data["term"], b.ordinal) or rules.locate(st, game, data["term"], a.ordinal)
    assert located is not None
    steps = rules.history(st, located)
    links = []
    for version in (a, b):
        now, _ = rules.step_at(steps, version.ordinal)
        if now is not None and now.text is not None and now.number:
            links.append((f"{now.number} in v{version.label}", built.rule(game.slug, now.number, version.label)))
    current = rules.step_at(steps, st.versions(game)[-1].ordinal)[0]
    if current is not None and current.text is not None and current.number:  # the rule now, and its history
        url, history = built.rule(game.slug, current.number), built.rule_history(game.slug, current.number)
    else:  # gone since: its history, by the slug that leads there whatever took its number
        url = history = built.history(game.slug, located.term.slug)
    links.append(("history", history))
    last = next((s for s in reversed(steps) if s.text is not None), steps[-1])
    name = rules.heading(last.number, last.revision.name) if located.block is None else f"Rule {data['term']}"
    return views.DiffView(name, url, [("Rules", built.rules(game.slug))], links, st.versions(game))


def term_rule(game: Game, term) -> tuple[rules.Located, str | None]:
    """A numbered term asked by its slug: the rule, and the URL of its history by number when its number
    names it there (a removed rule whose number another rule took since keeps its history at the slug)."""
    located = rules.Located(term, None, printed=term.number or "")
    try:
        found, moved = located_now(game, term.number)
    except NotFound:
        return located, None
    if found.term.id != term.id or found.block is not None:
        return located, None
    return located, site_urls().rule_history(game.slug, moved or term.number)


def number_between(game: Game, term, start: str, end: str) -> str | None:
    """The number a numbered term is printed under at the end of a range, else at its start (what a rule
    diff URL names it by); None when it is in neither."""
    st = store()
    for label in (end, start):
        try:
            version = answers.version_named(st, game, label)
        except NotFound:
            return None
        revision, _ = answers.in_force(st.revisions(term), version.ordinal)
        if revision is not None and not revision.removed and revision.number:
            return revision.number
    return None


# -- the index of rules ---------------------------------------------------------------------------
@dataclass
class Chapter:
    number: str
    name: str
    url: str
    sections: list[tuple[str, str, str]]  # (number, name, link)


@dataclass
class RulesIndex:
    game: Game
    version: VersionRow
    pinned: bool
    chapters: list[Chapter]
    versions: list[VersionRow]


def rules_index(game: Game, version: VersionRow | None) -> RulesIndex:
    """The chapters and sections a version prints, named and numbered as it does, linked to their pages."""
    st = store()
    versions = st.versions(game)
    target = version or versions[-1]
    pin = target.label if version is not None else None
    built = site_urls()
    chapters: list[Chapter] = []
    numbered = [(t, r) for t, r in st.contents(target) if t.kind == "section" and r.number]
    if not numbered:
        raise NotFound(f"{game.name} has no numbered rules" + (f" in v{target.label}." if version else "."))
    for _, revision in numbered:  # in the order the version prints them
        number = revision.number or ""
        link = built.rule(game.slug, number, pin)
        if rules.level(number) == 0:
            chapters.append(Chapter(number, revision.name, link, []))
            continue
        if not chapters or chapters[-1].number != rules.parent(number):  # a section no chapter heads
            chapters.append(Chapter(rules.parent(number) or "", "", "", []))
        chapters[-1].sections.append((number, revision.name, link))
    shown = [v for v in versions if v.ordinal <= target.ordinal] if version is not None else versions
    return RulesIndex(game, target, version is not None, chapters, shown)
