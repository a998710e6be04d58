"""Full build time of a corpus (median of several builds): the bundled one, or any other.

python bench/build_time.py [--corpus var/corpus-magic] [--runs 3]
"""

import argparse
import statistics
import tempfile
from pathlib import Path

from common import ROOT, Settings, build

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: the bundled one)")
parser.add_argument("--runs", type=int, default=5)
args = parser.parse_args()

runs = []
for _ in range(args.runs):
    store = Path(tempfile.mkdtemp(prefix="rulings-build-"))
    report = build(Settings.resolve(args.corpus, store), progress=lambda _: None)
    runs.append(report.seconds)
print(
    f"full build of {args.corpus}: median {statistics.median(runs):.2f} s "
    f"(min {min(runs):.2f} s, max {max(runs):.2f} s, {len(runs)} runs); counts {report.counts}"
)
