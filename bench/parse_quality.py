"""How well a corpus parses, without building it: glossaries found, list lines taken for terms,
cross-references resolved, lines placed in no entry (the build's quality report, summed).

    python bench/parse_quality.py                       # the scale corpus (../shared/scale-corpus)
    python bench/parse_quality.py var/corpus-magic      # a corpus of games (folders with game.toml)
    python bench/parse_quality.py --worst 20 --json out.json

A folder of loose rulebooks is read the way ``rulings import`` would (one game per file, the kind
guessed from the file name); a corpus is read through its manifests.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from common import ROOT  # noqa: F401  (puts the checkout on sys.path)

from rulings.ingest.importer import plan
from rulings.ingest.lexer import HEADING
from rulings.ingest.manifest import DocumentSpec, discover_games, load_manifest
from rulings.ingest.parsers import parse
from rulings.ingest.report import GLOSSARY_HEADING, document_report, game_names
from rulings.ingest.source import read_source
from rulings.text import name_key
from tests.shared import require_shared

# Terms that are certainly not glossary entries, by kind (the scale corpus has no hand count to judge the rest).
PHANTOMS = {
    "one-letter": re.compile(r"^\W*\w?\W*$"),
    "Example N": re.compile(r"^(?:example|figure|diagram|step)\s*\d+\b", re.I),
    "Roman numeral": re.compile(r"^[IVX]+\.?$"),
    "pointer line": re.compile(r"^(?:see(?: also)?|related(?: topics?)?)$", re.I),
    "label: name": re.compile(r"^[^:]{1,30}:\s+\S"),
    "page reference": re.compile(r"(?:\bp(?:g|age)?s?\.?\s*|\.{3,}\s*)\d+\s*$", re.I),  # "Setup \u2014 pg. 2"
    "numbered label": re.compile(
        r"^(?:step|phase|round|turn|stage|part|chapter|act|action|level|option|mode)\s+"
        r"(?:\d+|[A-Z]|one|two|three|four|five|six|seven|eight|nine|ten)$",
        re.I,
    ),  # "Round Two", "Action B"
    "question title": re.compile(r"^(?:how|what|why)\s+\S+\s+\S", re.I),  # "How a Hero Searches for Treasure"
}


def phantom_kinds(parsed) -> Counter:
    """How many of a document's terms are phantoms of each kind, doubles (a name two terms share) and list lines."""
    kinds: Counter = Counter()
    seen: set[str] = set()
    for entry in parsed.entries:
        if entry.kind not in ("entry", "keyword"):
            continue
        kinds.update(kind for kind, pattern in PHANTOMS.items() if pattern.search(entry.name))
        key = name_key(entry.name)
        if key in seen:
            kinds["doubled"] += 1
        seen.add(key)
    return kinds


def games_of(folder: Path) -> list[tuple[str, list[DocumentSpec]]]:
    if any((p / "game.toml").is_file() for p in folder.iterdir() if p.is_dir()):
        return [(g.name, load_manifest(g).documents) for g in discover_games(folder)]
    out = []
    games, _refused = plan(folder)
    for game in games:
        specs = [
            DocumentSpec(game=game.slug, file=path.name, path=path, kind=kind, title=title)
            for path, kind, title in game.documents
        ]
        out.append((game.slug, specs))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, help="rulebooks or a corpus (default: the scale corpus)")
    parser.add_argument("--worst", type=int, default=0, help="list the N documents with the most warnings")
    parser.add_argument("--json", type=Path, help="write every document's figures to this file")
    args = parser.parse_args()
    folder = args.folder or require_shared() / "scale-corpus" / "rulebooks"
    reports, seconds, titled, phantoms = [], [], set(), Counter()
    for _, specs in games_of(folder):
        parsed = []
        for spec in specs:
            start = time.perf_counter()
            source = read_source(spec)
            parsed.append((source, parse(source)))
            seconds.append(time.perf_counter() - start)
            phantoms.update(phantom_kinds(parsed[-1][1]))
            if any((m := HEADING.match(line)) and GLOSSARY_HEADING.search(m.group(2)) for line in source.lines):
                titled.add(spec.display_path)  # a heading says "Glossary": there is one to find
        names = game_names([p for _, p in parsed])
        reports.extend(document_report(source, doc, names) for source, doc in parsed)
    n = len(reports)
    with_terms = sum(1 for r in reports if r.terms)
    with_five = sum(1 for r in reports if r.terms >= 5)
    terms = sum(r.terms for r in reports)
    parsers = Counter(r.parser for r in reports)
    print(
        f"{folder}: {n} documents, parse median {statistics.median(seconds) * 1000:.1f} ms, total {sum(seconds):.1f} s"
    )
    print(f"parsers: {', '.join(f'{k} {v}' for k, v in parsers.most_common())}")
    print(f"documents with a detected glossary: {with_terms} ({with_terms / n:.1%}); with 5 terms or more: "
          f"{with_five} ({with_five / n:.1%})")  # fmt: skip
    found = sum(1 for r in reports if r.path in titled and r.terms)
    print(f"documents with a heading that says Glossary: {len(titled)}, {found} of them with a detected glossary")
    print(
        f"glossary terms: {terms}; terms that are one line of a list: {sum(r.list_terms for r in reports)} "
        f"({sum(r.stray_list_terms for r in reports)} outside a section that says it is a glossary)"
    )
    print(f"phantom terms by kind: {', '.join(f'{k} {phantoms[k]}' for k in [*PHANTOMS, 'doubled'])}")
    print(f"documents with rulings: {sum(1 for r in reports if r.rulings)}; rulings: {sum(r.rulings for r in reports)}")
    print(
        f"cross-references: {sum(r.resolved for r in reports)} resolved, "
        f"{sum(len(r.unresolved) for r in reports)} unresolved"
    )
    print(f"lines not placed in any entry: {sum(len(r.unplaced) for r in reports)}; "
          f"warnings: {sum(len(r.warnings) for r in reports)}")  # fmt: skip
    if args.worst:
        for report in sorted(reports, key=lambda r: -len(r.warnings))[: args.worst]:
            print(f"  {report.summary()}")
    if args.json:
        args.json.write_text(json.dumps([r.as_dict(explain=True) for r in reports], indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
