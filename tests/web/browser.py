"""Debian's chromium, headless, driven by Playwright, for the web view's end-to-end tests: the
browser and page fixtures (import them into a test module to use them), and the helpers the
tests share. A module may set ``VIEWPORT`` for its pages (default: :data:`DESKTOP`)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}

needs_chromium = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"no {CHROMIUM} (Debian's chromium: scripts/system-packages.sh installs it as root)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page of its own context; a script error on it fails the test."""
    context = browser.new_context(viewport=getattr(request.module, "VIEWPORT", DESKTOP))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-live=yes]")


def screenshots(page: Any, folder: Path, name: str) -> None:
    """The page as it is, at a desktop's size and a phone's."""
    page.screenshot(path=str(folder / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(folder / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert (folder / f"{name}-desktop.png").stat().st_size > 5000
    assert (folder / f"{name}-phone.png").stat().st_size > 5000


def body(page: Any, key: str) -> str | None:
    value: str | None = page.get_attribute("body", f"data-{key}")
    return value


def click(page: Any, point: str) -> None:
    """Click a point and wait until the board has read the switch change."""
    seq = int(body(page, "board-seq") or 0)
    page.click(f'g.point[data-point="{point}"]')
    page.wait_for_function(f"Number(document.body.dataset.boardSeq) > {seq}")


def led(page: Any, point: str) -> str | None:
    value: str | None = page.get_attribute(f'g.point[data-point="{point}"]', "data-led")
    return value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
