"""The framework floor: a Flask hello-world on waitress, served with `rulings serve`'s own options.

    python bench/hello_floor.py --port 5001 [--threads 8]

``bench/http_load.py --compare`` loads it beside the real pages: the ratio to it is what the
service's own work costs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask  # noqa: E402

from rulings.settings import ServerOptions  # noqa: E402
from rulings.web.serve import create  # noqa: E402

app = Flask(__name__)


@app.route("/")
def hello() -> str:
    return "Hello, World!"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=ServerOptions.threads)
    args = parser.parse_args()
    create(app, ServerOptions(port=args.port, threads=args.threads)).run()
