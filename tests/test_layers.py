"""The layers of docs/architecture.md's picture: the read side loads nothing of the write side.

Checked in a fresh interpreter, where ``sys.modules`` shows everything an import really pulls in.
"""

from __future__ import annotations

import json
import subprocess
import sys


def loaded_modules(code: str) -> set[str]:
    """The ``rulings`` modules loaded after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('rulings'))))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


WRITE_SIDE = ("rulings.ingest", "rulings.build", "rulings.graph.builder", "rulings.graph.history",
              "rulings.graph.merge", "rulings.graph.shards", "rulings.index.writer")  # fmt: skip


def test_the_web_app_loads_no_parser_nor_writer():
    loaded = loaded_modules(
        "import rulings.web, rulings.web.site, rulings.web.api\nfrom rulings.web import create_app\ncreate_app()"
    )
    assert "rulings.web.site" in loaded and "rulings.graph.store" in loaded  # the check sees real imports
    assert not {m for m in loaded if m in WRITE_SIDE or m.startswith(tuple(f"{w}." for w in WRITE_SIDE))}, sorted(
        loaded
    )


def test_text_rules_sit_at_the_bottom():
    assert loaded_modules("import rulings.text") == {"rulings", "rulings.text"}
