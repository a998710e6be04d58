"""In-process latency of `applies` and `diff` over every Marvel Champions term and version."""

import itertools
from functools import partial

from common import built_store, summary, timed

from rulings.graph import answers

store, _ = built_store()
game = store.game("marvel-champions")
terms = [t.name for t in store.terms(game)]
labels = [v.label for v in store.versions(game)]
cases = list(itertools.product(terms, labels))[:600]

applies_ms = []
for name, label in cases:
    applies_ms += timed(partial(answers.applies, store, "marvel-champions", name, version=label), 1)
diff_ms = []
for name in terms[:200]:
    diff_ms += timed(partial(answers.diff, store, "marvel-champions", name, "1.1", "1.4"), 1)
date_ms = timed(lambda: answers.applies(store, "mc", "Dash", date="2020-03-01"), 300)
print(summary("applies (term x version)", applies_ms))
print(summary("applies --date", date_ms))
print(summary("diff 1.1..1.4 (per term)", diff_ms))
