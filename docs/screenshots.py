"""Screenshots of the key pages on a phone (390x844), for the README: python docs/screenshots.py

Serves the bundled corpus (or ``--corpus var/corpus-magic`` for a Magic rule page too, after
``make corpus-magic``) with ``rulings serve``, builds a static export for its search page, and
drives Debian's Chromium (/usr/bin/chromium) to write docs/screenshots/*.png: one phone screen each
(what a reader sees first), at a device scale of 1 so that each file stays under 150 KB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import running_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=1)


def shoot(page, name: str) -> None:
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")


def pages(page, server: str, export: Path, magic: bool) -> None:
    page.goto(f"{server}/marvel-champions/")
    shoot(page, "game-home")

    page.goto(f"{server}/marvel-champions/terms/enemy-attacks")
    page.locator("#p-to-resolve-an-enemy a.term", has_text="enemy activation").tap()
    page.locator("#preview").wait_for()
    shoot(page, "term-preview")

    page.goto(f"{server}/marvel-champions/changes/1.3..1.4")
    change = page.locator("details.change", has_text="Attack (Enemy Activation)")
    change.locator("summary").tap()  # opens the redline
    change.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -120)")
    shoot(page, "change-report")

    page.goto(f"{(export / 'search' / 'index.html').as_uri()}?q=acceleraton+token&game=marvel-champions")
    page.locator("#static-results ol.hits li").first.wait_for()
    page.locator("#static-results").evaluate("n => scrollTo(0, n.getBoundingClientRect().top + scrollY - 70)")
    shoot(page, "search-results")

    if magic:
        page.goto(f"{server}/magic-the-gathering/rules/702.19")
        shoot(page, "magic-rule")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus"), help="corpus folder (default: the bundled one)")
    parser.add_argument("--store", help="a store already built from --corpus (else one is built)")
    parser.add_argument("--site", help="an existing `rulings export` of the bundled corpus (else one is made)")
    args = parser.parse_args()
    corpus = Path(args.corpus).resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        rulings = [sys.executable, "-m", "rulings"]
        bundled = dict(os.environ, RULINGS_STORE=str(Path(temp) / "bundled"), RULINGS_CORPUS=str(ROOT / "corpus"))
        export = Path(args.site or Path(temp) / "site")  # the export's search: the bundled corpus (Magic's is long)
        if not args.site:
            subprocess.run([*rulings, "export", str(export)], env=bundled, check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, RULINGS_STORE=args.store or str(Path(temp) / "store"), RULINGS_CORPUS=str(corpus))
        if not args.store:
            subprocess.run([*rulings, "build"], env=env, check=True, stdout=subprocess.DEVNULL)
        with running_server(env) as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], headless=True)
            page = browser.new_context(**PHONE).new_page()
            pages(page, server, export, magic=(corpus / "magic-the-gathering").is_dir())
            browser.close()


if __name__ == "__main__":
    main()
