"""Rulebooks read as ``rulings import`` would, against their counts by hand (tests/data/rulebook-counts/).

    python bench/rulebook_counts.py                    # the newest set's development half
    python bench/rulebook_counts.py --half test        # its test half: run once, at the end, by the lead
    python bench/rulebook_counts.py --explain jaws-rulebook.md --set rulebook-counts   # missed, phantom
    python bench/rulebook_counts.py --set rulebook-counts --half all   # a spent set, whole

Each counted rulebook of ``../shared/scale-corpus/rulebooks`` is imported into a game of its own (the
kind and title ``rulings import`` gives it), parsed, and compared with its hand count:

- entries found: a hand entry matched by a parsed glossary term or a topic (a section) with one of
  its names (the project's name key: case, punctuation and plurals ignored), or at its line ±2; a
  parsed record matches one hand entry at most (the largest such matching: name and line first,
  then name, then line; terms before topics);
- phantoms: parsed glossary terms that match no hand entry (a term read twice is a phantom once);
- within 2%: the entries found are within 2% of the hand count and there is no phantom;
- see-also edges: a hand entry's "see" and "see also" targets that its matched record refers to;
- rulings: hand rulings (FAQ items, card notes, errata) with a parsed ruling at their line ±2;
- index: hand index rows whose name a parsed entry or topic answers to.

The halves: ``sha256(file name)[0] % 2 == 1`` is the test half. Tune on the development half only;
``--explain`` refuses a document of the test half, unless the set is spent (its test half reported).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from common import ROOT

from rulings.ingest.importer import plan
from rulings.ingest.manifest import DocumentSpec
from rulings.ingest.model import Entry, ParsedDocument
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source
from rulings.text import name_key
from tests.shared import require_shared

DATA = ROOT / "tests" / "data"
# Sets whose test half has been reported (docs/benchmarks/blind-test-halves.md): all of it may now be
# read and tuned on; the next measurement needs a newer set.
SPENT = {"rulebook-counts", "rulebook-counts-2", "rulebook-counts-3", "rulebook-counts-4"}  # reported: read whole
TERM_KINDS = ("entry", "keyword")
LINE_SLACK = 2
BARS = {"within": 0.90, "entries": 0.95, "see_also": 0.90}


def half_of(file_name: str) -> str:
    return "test" if hashlib.sha256(file_name.encode()).digest()[0] % 2 == 1 else "dev"


def counted(counts: Path, half: str) -> list[Path]:
    """The hand counts of one half ("all": both), by the name of the rulebook they count."""
    return [p for p in sorted(counts.glob("*.json")) if half in ("all", half_of(p.name.removesuffix(".json")))]


def imported(path: Path) -> DocumentSpec:
    """The document as ``rulings import`` makes it: its kind and title from the file."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / path.name).symlink_to(path)
        games, _ = plan(Path(folder))
        game = games[0]
        _, kind, title = game.documents[0]
    return DocumentSpec(game=game.slug, file=path.name, path=path, kind=kind, title=title)


def keys_of(entry: Entry) -> set[str]:
    return {name_key(n) for n in [*entry.names, *entry.spellings]} - {""}


def near(line: int, record_line: int) -> bool:
    return abs(line - record_line) <= LINE_SLACK


def matching(hand: list[dict], records: list[Entry]) -> dict[int, int]:
    """A one-to-one matching of hand entries (by index) to records (by index) that share a name or stand
    at the same line ±2: the largest there is (augmenting paths), each hand entry trying first a record
    with its name at its line, then one with its name, then one at its line; glossary terms before
    topics at each step."""
    hand_keys = [{name_key(n) for n in h["names"]} for h in hand]

    def rank(h: int, r: int) -> int | None:
        named, placed = bool(hand_keys[h] & keys_of(records[r])), near(hand[h]["line"], records[r].line)
        if not (named or placed):
            return None
        tier = 0 if named and placed else 1 if named else 2
        return tier * 2 + (records[r].kind not in TERM_KINDS)

    choices = [
        sorted((r for r in range(len(records)) if rank(h, r) is not None), key=lambda r, h=h: rank(h, r))
        for h in range(len(hand))
    ]
    owner: dict[int, int] = {}  # record -> hand entry

    def place(h: int, seen: set[int]) -> bool:
        for r in choices[h]:
            if r in seen:
                continue
            seen.add(r)
            if r not in owner or place(owner[r], seen):
                owner[r] = h
                return True
        return False

    for h in range(len(hand)):
        place(h, set())
    return {h: r for r, h in owner.items()}


@dataclass
class Result:
    file: str
    hand: int
    found: int
    phantoms: list[Entry]
    missed: list[dict]
    edges: int
    edges_found: int
    rulings: int
    rulings_found: int
    rulings_parsed: int
    index: int
    index_found: int
    terms: int
    matched: dict[int, Entry] = field(default_factory=dict)

    @property
    def within(self) -> bool:
        return abs(self.hand - self.found) <= 0.02 * self.hand and not self.phantoms


def compare(count: dict, parsed: ParsedDocument) -> Result:
    hand = count["glossary"]
    terms = [e for e in parsed.entries if e.kind in TERM_KINDS]
    records = [e for e in parsed.entries if e.line]
    matched = {h: records[r] for h, r in matching(hand, records).items()}
    used = {id(e) for e in matched.values()}
    phantoms = [t for t in terms if id(t) not in used]
    edges = edges_found = 0
    for h, entry in enumerate(hand):
        targets = [t for t in [entry["see"], *entry["see_also"]] if t]
        edges += len(targets)
        record = matched.get(h)
        if record is not None:
            refers = {name_key(t) for t in [*record.see_also, *record.redirect]}
            edges_found += sum(1 for t in targets if name_key(t) in refers)
    ruling_lines = [min(r.lines or [r.line]) for r in parsed.rulings]
    free = list(range(len(ruling_lines)))
    rulings_found = 0
    for ruling in count["rulings"]:
        hit = next((i for i in free if near(ruling["line"], ruling_lines[i])), None)
        if hit is not None:
            free.remove(hit)
            rulings_found += 1
    names = {k for e in parsed.entries for k in keys_of(e)}
    index_found = sum(1 for row in count["index"] if name_key(row["name"]) in names)
    return Result(
        count["file"],
        len(hand),
        len(matched),
        phantoms,
        [hand[h] for h in range(len(hand)) if h not in matched],
        edges,
        edges_found,
        len(count["rulings"]),
        rulings_found,
        len(parsed.rulings),
        len(count["index"]),
        index_found,
        len(terms),
        matched,
    )


def measure(count_file: Path, rulebooks: Path) -> Result:
    count = json.loads(count_file.read_text(encoding="utf-8"))
    spec = imported(rulebooks / count["file"])
    return compare(count, parse(read_source(spec)))


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def report(results: list[Result], half: str) -> None:
    print(f"{'document':<46} {'hand':>4} {'found':>5} {'terms':>5} {'phant':>5} {'2%':>3} "
          f"{'see':>7} {'rulings':>9} {'index':>7}")  # fmt: skip
    for r in results:
        print(
            f"{r.file:<46} {r.hand:>4} {r.found:>5} {r.terms:>5} {len(r.phantoms):>5} {'yes' if r.within else 'no':>3} "
            f"{r.edges_found:>3}/{r.edges:<3} {r.rulings_found:>4}/{r.rulings:<4} {r.index_found:>3}/{r.index:<3}"
        )
    n = len(results)
    within = sum(r.within for r in results)
    hand, found = sum(r.hand for r in results), sum(r.found for r in results)
    edges, edges_found = sum(r.edges for r in results), sum(r.edges_found for r in results)
    rulings, rulings_found = sum(r.rulings for r in results), sum(r.rulings_found for r in results)
    index, index_found = sum(r.index for r in results), sum(r.index_found for r in results)
    phantoms = sum(len(r.phantoms) for r in results)
    print()
    print(f"{half}: {n} documents:")
    print(f"  within 2% of the hand count, no phantom: {within}/{n} ({percent(within, n)}; bar {BARS['within']:.0%})")
    print(
        f"  entries found: {found}/{hand} ({percent(found, hand)}; bar {BARS['entries']:.0%}); phantom terms {phantoms}"
    )
    print(f"  see-also edges: {edges_found}/{edges} ({percent(edges_found, edges)}; bar {BARS['see_also']:.0%})")
    print(f"  rulings: {rulings_found}/{rulings} ({percent(rulings_found, rulings)}); "
          f"index rows named: {index_found}/{index} ({percent(index_found, index)})")  # fmt: skip


def explain(result: Result) -> None:
    print(f"{result.file}: missed {len(result.missed)}, phantoms {len(result.phantoms)}")
    for entry in result.missed:
        print(f"  missed  {entry['line']:>5}  {' / '.join(entry['names'])}")
    for term in result.phantoms:
        print(f"  phantom {term.line:>5}  {term.name}  ({term.why})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="rulebook-counts-4", help="a folder of hand counts in tests/data")
    parser.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--explain", metavar="FILE", help="one document of the development half in detail")
    parser.add_argument("--rulebooks", type=Path, help="the rulebooks (default: the scale corpus's)")
    args = parser.parse_args()
    counts = DATA / args.set
    if not counts.is_dir():
        raise SystemExit(f"{counts}: no such set of hand counts")
    rulebooks = args.rulebooks or require_shared() / "scale-corpus" / "rulebooks"
    open_to_read = args.set in SPENT
    if args.explain:
        if half_of(args.explain) != "dev" and not open_to_read:
            raise SystemExit(f"{args.explain} is not in the development half: its results are read once, at the end")
        explain(measure(counts / f"{args.explain}.json", rulebooks))
        return
    if args.half == "all" and not open_to_read:
        raise SystemExit(f"{args.set}: its test half is read once, at the end: give --half dev or --half test")
    report([measure(path, rulebooks) for path in counted(counts, args.half)], f"{args.set}, {args.half}")


if __name__ == "__main__":
    main()
