"""Full build time of the bundled corpus (median of several builds)."""

import statistics
import tempfile
from pathlib import Path

from common import ROOT, Settings, build

runs = []
for _ in range(5):
    store = Path(tempfile.mkdtemp(prefix="rulings-build-"))
    report = build(Settings.resolve(ROOT / "corpus", store), progress=lambda _: None)
    runs.append(report.seconds)
print(
    f"full build of the bundled corpus: median {statistics.median(runs):.2f} s "
    f"(min {min(runs):.2f} s, max {max(runs):.2f} s, {len(runs)} runs); counts {report.counts}"
)
