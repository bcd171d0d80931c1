"""The web view without a mouse, and as a screen reader meets it: every point reachable by
keyboard (one tab stop, arrows by the board's geometry, Enter or Space to lift and place),
moves typed in the game's notation, moves and turns announced; the history's rows and replay
by keyboard; and axe-core's scan of the live page and the history page (no serious or critical
violation). Debian's chromium, driven by Playwright, against a live daemon on the simulated
board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
axe_playwright = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed"
)

from reedboard import engine  # noqa: E402
from reedboard.store.games import GameStore  # noqa: E402
from reedboard.wiring.layout import layout_for_game  # noqa: E402
from tests.web.browser import (  # noqa: E402
    browser,
    needs_chromium,
    open_page,
    page,
    screenshots,
)
from tests.web.live import LiveDaemon  # noqa: E402

__all__ = ["browser", "page"]  # (the fixtures, shared)

pytestmark = needs_chromium

ARROWS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


def focused(page: Any) -> str | None:
    """The point that has the keyboard's focus (None: focus is elsewhere)."""
    point: str | None = page.evaluate(
        "document.activeElement && document.activeElement.dataset"
        " ? document.activeElement.dataset.point || null : null"
    )
    return point


def walk_to(page: Any, game: str, target: str) -> None:
    """Arrow keys only, from the focused point to ``target``: each key the one that brings the
    focus nearer by the board's geometry."""
    places = {p.id: (p.x, p.y) for p in layout_for_game(game).points.values()}
    for _ in range(30):
        here = focused(page)
        assert here is not None, "the focus left the board"
        if here == target:
            return
        (x, y), (tx, ty) = places[here], places[target]
        step = (1 if tx > x else -1, 0) if abs(tx - x) >= abs(ty - y) else (0, 1 if ty > y else -1)
        page.keyboard.press(ARROWS[step])
    raise AssertionError(f"the arrows did not reach {target} (at {focused(page)})")


def enter(page: Any) -> None:
    """Enter on the focused point, and wait until the board has read the switch change."""
    seq = int(page.get_attribute("body", "data-board-seq") or 0)
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.boardSeq) > {seq}")


def test_solitaire_by_keyboard_alone(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        # the board is one tab stop; its points are buttons with names, not leaked text
        assert page.get_attribute("#board", "role") == "group"
        assert page.locator('#board g.point[tabindex="0"]').count() == 1
        assert page.locator('#board g.point[tabindex="-1"]').count() == 32
        assert page.get_attribute('g.point[data-point="9"]', "aria-label") == "point 9, a peg"
        assert page.get_attribute('g.point[data-point="17"]', "aria-label") == "point 17, empty"
        tree = page.locator("#board").aria_snapshot()  # what a screen reader is given
        assert 'button "point 9, a peg"' in tree
        assert "o o o" not in tree and "text:" not in tree
        for _ in range(10):  # Tab from the page's start until a point has the focus
            page.keyboard.press("Tab")
            if focused(page) is not None:
                break
        assert focused(page) == "1"
        # the seed's key: 5 jumps to 17 over 10, 12 to 10 over 11. As with clicks, Enter on
        # a peg picks it up and Enter on its landing is the whole jump: the board's hand takes
        # the jumped peg off (no third key, and no peg the game does not expect)
        for n, (start, landing, over) in enumerate([("5", "17", "10"), ("12", "10", "11")], 1):
            walk_to(page, "solitaire", start)
            enter(page)
            assert page.get_attribute(f'g.point[data-point="{start}"]', "aria-label") == (
                f"point {start}, empty, picked up"
            )
            assert page.inner_text("#announce").startswith(f"picked up the piece on {start}")
            walk_to(page, "solitaire", landing)
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.body.dataset.plies == '{n}'", timeout=8000)
            page.wait_for_function(
                f"!document.querySelector('.piece-at[data-piece=\"{over}\"]')", timeout=8000
            )
            assert page.locator('.piece-at[data-letters="?"]').count() == 0
        # and the third typed, in the game's notation, from the keyboard
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "move-text":
                break
        page.keyboard.type("3-11")
        page.keyboard.press("Enter")
        page.wait_for_function("document.body.dataset.plies == '3'", timeout=10000)
        page.wait_for_function("document.querySelector('#announce').textContent.includes('3-11')")
        assert page.inner_text("#announce") == "the player 3-11, taking 1. the player to move"
        assert page.get_attribute('g.point[data-point="11"]', "aria-label") == "point 11, a peg"
        assert [str(m) for m in live.daemon.session.moves] == ["5-17", "12-10", "3-11"]
        # a move against the rules, typed: refused in words, nothing changed
        page.fill("#move-text", "7-9")  # (9 is not empty)
        page.press("#move-text", "Enter")
        page.wait_for_function("document.querySelector('#refused').textContent != ''")
        assert "illegal move '7-9'" in page.inner_text("#refused")
        assert len(live.daemon.session.moves) == 3
        screenshots(page, tmp_path, "keyboard")


def test_a_short_fox_and_geese_game_by_keyboard_is_announced(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese") as live:
        open_page(page, live.url)
        page.focus('g.point[tabindex="0"]')
        for n, (start, landing) in enumerate([("9", "4"), ("17", "10"), ("4", "1")], 1):
            walk_to(page, "fox-and-geese", start)
            enter(page)
            walk_to(page, "fox-and-geese", landing)
            enter(page)
            page.wait_for_function(f"document.body.dataset.plies == '{n}'", timeout=10000)
            side = "the geese" if n % 2 == 0 else "the foxes"
            other = "the foxes" if n % 2 == 0 else "the geese"
            page.wait_for_function(
                f"document.querySelector('#announce').textContent.includes('{start}-{landing}')"
            )
            assert page.inner_text("#announce") == (f"{side} {start}-{landing}. {other} to move")
        assert page.get_attribute("#announce", "aria-live") == "polite"
        assert [str(m) for m in live.daemon.session.moves] == ["9-4", "17-10", "4-1"]


def test_the_history_by_keyboard(page: Any, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    game = store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    for ply, move in enumerate(["5-17", "12-10", "3-11"]):
        store.add_move(game, ply, move)
    store.close()
    with LiveDaemon(tmp_path, "fox-and-geese", database=db) as live:
        page.goto(live.url + "history")
        page.wait_for_selector(f'#games tr[data-game="{game}"] button')
        for _ in range(10):  # Tab reaches the row's button
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.textContent") == f"game {game}":
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-ply='0']")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-ply='2']")
        assert page.get_attribute("#board", "aria-label") == "the board after move 2, 12-10"
        page.keyboard.press("End")
        page.wait_for_selector("body[data-ply='3']")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("body[data-ply='2']")
        page.keyboard.press("Home")
        page.wait_for_selector("body[data-ply='0']")
        assert page.locator("#moves button.step").all_inner_texts() == ["5-17", "12-10", "3-11"]


def serious(results: Any) -> list[str]:
    """axe's violations of impact serious or critical, one line each."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_no_serious_violation_on_the_live_page_or_the_history(
    page: Any, tmp_path: Path
) -> None:
    axe = axe_playwright.Axe()
    with LiveDaemon(tmp_path, "fox-and-rabbit") as live:
        open_page(page, live.url)
        assert serious(axe.run(page)) == []
        page.click('button[data-button="roll"]')
        page.wait_for_function("document.body.dataset.plies == '1'")
        assert serious(axe.run(page)) == []
        page.goto(live.url + "history")
        page.wait_for_selector("#games tbody tr button")
        page.click("#games tbody tr button")
        page.wait_for_selector("body[data-ply='0']")
        assert serious(axe.run(page)) == []


def test_a_whole_game_of_solitaire_by_keyboard_alone(page: Any, tmp_path: Path) -> None:
    # the seed's key, all 31 jumps, each by arrows and Enter only (a peg picked up, then its
    # landing): the game ends won, and says so
    from reedboard.engine.solitaire import SEED_KEY as key

    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        for _ in range(10):
            page.keyboard.press("Tab")
            if focused(page) is not None:
                break
        for n, move in enumerate(key, 1):
            start, landing = move.split("-")
            walk_to(page, "solitaire", start)
            enter(page)
            walk_to(page, "solitaire", landing)
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.body.dataset.plies == '{n}'", timeout=10000)
        assert [str(m) for m in live.daemon.session.moves] == list(key)
        assert live.daemon.session.position.is_over()
        page.wait_for_function("document.querySelector('#outcome').textContent != ''")
        assert "won" in page.inner_text("#outcome").lower()
        assert page.locator(".piece-at").count() == 1
