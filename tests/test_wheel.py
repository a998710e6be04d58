"""The wheel a deployment installs serves every page: templates and static files are in it.

Built from this checkout, installed into a fresh virtual environment outside it, and run from a
folder that holds nothing but a copy of the corpus (slow: about half a minute, most of it pip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
import venv

from .conftest import CORPUS, ROOT
from .server import running_server


def fetch(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get_content_type(), response.read().decode()


def test_the_installed_wheel_builds_and_serves_pages_and_static_files(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(ROOT)], env=env,
                   check=True, capture_output=True)  # fmt: skip
    wheel = next(wheels.glob("rulings-*.whl"))
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel],
                   env=env, check=True, capture_output=True)  # fmt: skip

    site = tmp_path / "site"  # the working folder of a deployment: a corpus, a store, no checkout
    shutil.copytree(CORPUS, site / "corpus")
    probe = (
        "import rulings, importlib.metadata as m; print(rulings.__file__, rulings.__version__, m.version('rulings'))"
    )
    where, code_version, installed_version = subprocess.run(
        [bin_dir / "python", "-c", probe], cwd=site, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert str(tmp_path / "venv") in where and str(ROOT) not in where
    assert code_version == installed_version  # one source of the version: rulings.__version__
    version = subprocess.run([bin_dir / "rulings", "--version"], env=env, capture_output=True, text=True)
    assert version.stdout == f"rulings, version {code_version}\n"

    built = subprocess.run([bin_dir / "rulings", "build"], cwd=site, env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert "built 3 games" in built.stdout
    # Installed without the [mcp] extra, `rulings mcp` says what to install, in one line (no traceback).
    server = subprocess.run([bin_dir / "rulings", "mcp"], cwd=site, env=env, capture_output=True, text=True)
    assert (server.returncode, server.stdout) == (1, "")
    assert server.stderr == "error: rulings mcp needs the MCP SDK: pip install 'rulings[mcp]'\n"

    with running_server(env, (str(bin_dir / "rulings"), "serve"), cwd=site) as url:
        status, kind, body = fetch(url + "/marvel-champions/terms/dash")
        assert (status, kind) == (200, "text/html") and "<h1>Dash (Value)</h1>" in body
        status, kind, body = fetch(url + "/search?q=flame+barrier")
        assert (status, kind) == (200, "text/html") and "Flame Barrier" in body
        for asset, expected_kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
            status, kind, body = fetch(f"{url}/static/{asset}")
            assert (status, kind) == (200, expected_kind) and body == (ROOT / "static" / asset).read_text()
