"""Reading and parsing time of each document of one game folder (median of 3), e.g.

python bench/parse_time.py var/corpus-magic/magic-the-gathering
"""

import statistics
import sys
import time
from pathlib import Path

from common import ROOT  # noqa: F401  (puts the checkout on sys.path)

from rulings.ingest.manifest import load_manifest
from rulings.ingest.parsers import parse
from rulings.ingest.source import read_source

game = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "corpus" / "marvel-champions"
total = []
for spec in load_manifest(game).documents:
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        source = read_source(spec)
        doc = parse(source)
        runs.append(time.perf_counter() - start)
    total.append(statistics.median(runs))
    print(
        f"{spec.file}: {len(source.lines)} lines, {len(doc.entries)} entries ({doc.parser}), "
        f"median {statistics.median(runs) * 1000:.0f} ms (min {min(runs) * 1000:.0f}, max {max(runs) * 1000:.0f})"
    )
print(f"{game.name}: {len(total)} documents, sum of medians {sum(total):.2f} s")
