"""The web view's screenshots in docs/screenshots/: every sensed game at a desktop's size
(1440x900) and a phone's (390x844), each on a real daemon (`reedboard run`, the simulated
board) driven by Debian's headless chromium through Playwright, with something of the game
shown (a piece lifted with its landings, a hint's arrow, the dice); and the README's picture,
docs/web-view.png (a Fox and Rabbit turn: the dice thrown, the hint's arrow, the Brier Patch).

    .venv/bin/python scripts/screenshots.py            # every game, and the README's picture
    .venv/bin/python scripts/screenshots.py skip parchesi-4 web-view

Needs the web and test extras (aiohttp, playwright) and /usr/bin/chromium (scripts/test.sh
installs them).
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
Scene = Callable[[Any], None]


def press(page: Any, button: str) -> None:
    page.click(f'#buttons button[data-button="{button}"]')
    page.wait_for_timeout(100)


def lift(point: str) -> Scene:
    """A piece lifted: its hole ringed, its landings dotted."""

    def scene(page: Any) -> None:
        page.click(f'g.point[data-point="{point}"]')
        page.wait_for_selector("circle.landing", state="attached", timeout=10_000)

    return scene


def hint(page: Any) -> None:
    """The hint's arrow."""
    press(page, "hint")
    page.wait_for_selector("g.arrow.hint", state="attached", timeout=20_000)


def roll_then(then: Scene | None) -> Scene:
    def scene(page: Any) -> None:
        press(page, "roll")
        page.wait_for_selector("#dice .die", timeout=10_000)
        if then is not None:
            then(page)

    return scene


GAMES: dict[str, tuple[str, list[str], Scene]] = {
    "fox-and-geese": ("fox-and-geese", [], hint),
    "fox-and-geese-mcloughlin": ("fox-and-geese-mcloughlin", [], lift("17")),
    "solitaire": ("solitaire", [], hint),
    "fox-and-rabbit": ("fox-and-rabbit", [], roll_then(None)),
    "fox-and-rabbit-4": ("fox-and-rabbit-4", [], roll_then(hint)),
    "parchesi-4": ("parchesi", ["players=4"], roll_then(None)),
    "skip": ("skip", [], lift("c1")),
    "messenger-boy-4": ("messenger-boy", ["players=4"], roll_then(None)),
}
PICTURE = "web-view"
"""The README's picture (docs/web-view.png): the desktop's window as it opens, no more."""
PICTURE_SCENE = ("fox-and-rabbit", [], roll_then(hint))


def serve(game: str, options: list[str], folder: Path) -> tuple[subprocess.Popen[str], str]:
    """``reedboard run`` on the simulated board, its web view on a free port: the process
    and the page's address."""
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "reedboard", "run", "--game", game, "--web", f"127.0.0.1:{port}"]
    argv += ["--database", str(folder / "games.sqlite3")]
    for option in options:
        argv += ["-o", option]
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=folder,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if found := re.search(r"web view: (http://\S+)", line):
            return proc, found.group(1)
    proc.kill()
    raise SystemExit(f"screenshots: {game}: the daemon gave no address: {''.join(seen)[-500:]}")


def picture(browser: Any, url: str, scene: Scene) -> Path:
    """The README's picture: the desktop's window (not the whole page) after ``scene``."""
    context = browser.new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-live=yes]")
    scene(page)
    page.wait_for_timeout(300)
    path = ROOT / "docs" / f"{PICTURE}.png"
    page.screenshot(path=str(path))
    context.close()
    return path


def shoot(browser: Any, name: str, url: str, scene: Scene) -> list[Path]:
    shots = []
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-live=yes]")
        if size == "desktop":
            scene(page)  # (the state stays: the phone's page opens on it)
        else:
            page.wait_for_timeout(300)
        path = OUT / f"{name}-{size}.png"
        page.screenshot(path=str(path), full_page=True)
        shots.append(path)
        context.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = [*GAMES, PICTURE]
    parser.add_argument("games", nargs="*", help=f"some of: {' '.join(known)} (default all)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in known]
    if unknown:
        parser.error(f"no screenshot named {unknown[0]!r} (known: {', '.join(known)})")
    if not os.access(CHROMIUM, os.X_OK):
        parser.error(f"no {CHROMIUM} (Debian's chromium: scripts/system-packages.sh)")
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for name in args.games or known:
            game, options, scene = PICTURE_SCENE if name == PICTURE else GAMES[name]
            folder = Path(tmp) / name
            folder.mkdir()
            proc, url = serve(game, options, folder)
            try:
                if name == PICTURE:
                    shots = [picture(browser, url, scene)]
                else:
                    shots = shoot(browser, name, url, scene)
                for path in shots:
                    print(path.relative_to(ROOT))
            finally:
                proc.terminate()
                proc.wait(10)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
