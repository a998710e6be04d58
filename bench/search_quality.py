"""Search quality on ../shared/eval/search-dev.tsv: each query's rank, hit@3 and MRR@10.

Usage: python bench/search_quality.py [other.tsv]   (same format: game, query, expected)
"""

import sys

from common import built_store

from rulings.index.search import Searcher
from tests.evalfiles import evaluate_search
from tests.shared import require_shared

if __name__ == "__main__":
    require_shared()
    store, build = built_store()
    hit3, mrr, report = evaluate_search(Searcher(build), sys.argv[1] if len(sys.argv) > 1 else "search-dev.tsv")
    for game, query, rank, top in report:
        print(f"{rank or '-':>3}  {game:<28} {query:<45} -> {top}")
    print(f"hit@3 = {hit3:.3f}   MRR@10 = {mrr:.3f}")
