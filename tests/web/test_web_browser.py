"""The web view end to end: Debian's chromium, headless, driven by Playwright, against a
daemon on the simulated board. Each test saves screenshots (a desktop and a phone-sized
viewport) under its temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from reedboard import engine  # noqa: E402
from reedboard.daemon.web.state import hex_colour  # noqa: E402
from reedboard.hardware.lights import GREEN, RED  # noqa: E402
from reedboard.referee.dice import ScriptedDice  # noqa: E402
from reedboard.store.games import GameStore  # noqa: E402
from tests.web.browser import (  # noqa: E402
    PHONE,
    body,
    browser,
    click,
    free_port,
    led,
    needs_chromium,
    open_page,
    page,
    screenshots,
)
from tests.web.live import LiveDaemon  # noqa: E402

__all__ = ["browser", "page"]  # (the fixtures, shared)

pytestmark = needs_chromium


def test_the_first_three_jumps_of_the_seeds_solitaire_key_by_clicking(
    page: Any, tmp_path: Path
) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        assert page.locator("g.point").count() == 33
        assert page.locator(".piece-at").count() == 32
        assert page.inner_text("#moves") == ""
        # the seed's key: 5 jumps to 17 and takes 10, 12 to 10 and takes 11, 3 to 11 (over 6)
        for n, (start, landing, over) in enumerate(
            [("5", "17", "10"), ("12", "10", "11"), ("3", "11", "6")], start=1
        ):
            click(page, start)
            page.wait_for_function(
                f"document.querySelector('g.point[data-point=\"{landing}\"]').dataset.led"
            )
            assert led(page, landing) == hex_colour(GREEN)  # the lifted peg's landing, green
            if n == 1:
                screenshots(page, tmp_path, "solitaire-lifted")
            click(page, landing)  # the whole jump: the board's hand takes the peg jumped off
            page.wait_for_function(f"document.body.dataset.plies == '{n}'")
            assert led(page, landing) is None
            assert page.locator(f'.piece-at[data-piece="{over}"]').count() == 0
        assert page.locator("#moves li").all_inner_texts() == ["5-17", "12-10", "3-11"]
        assert page.locator(".piece-at").count() == 29
        assert [str(m) for m in live.daemon.session.moves] == ["5-17", "12-10", "3-11"]
        screenshots(page, tmp_path, "solitaire")


def test_a_fox_and_rabbit_turn_with_the_dice(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-rabbit", dice=ScriptedDice([(3, 2)])) as live:
        open_page(page, live.url)
        assert page.locator("g.point").count() == 81
        assert page.inner_text("#turn") == "White Rabbit to throw"
        version = body(page, "version")
        page.click('button[data-button="roll"]')
        page.wait_for_function(f"document.body.dataset.version != '{version}'")
        assert page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.value)") == [
            "3",
            "2",
        ]
        assert page.inner_text("#turn") == "White Rabbit to move"
        position = engine.start("fox-and-rabbit")
        position.push(position.parse_move("dice=3,2"))
        landings = {m.routes()[0][-1] for m in position.legal_moves if m.routes()}
        page.wait_for_function("Number(document.body.dataset.lit) > 0")
        lit = dict(
            page.locator("g.point[data-led]").evaluate_all(
                "gs => gs.map(g => [g.dataset.point, g.dataset.led])"
            )
        )
        green, red = hex_colour(GREEN), hex_colour(RED)
        assert {p for p, c in lit.items() if c == green} == landings  # the rabbit's reach
        assert {p for p, c in lit.items() if c == red} == {"e5", "d5", "f5", "e4", "e6"}
        move = next(m for m in position.legal_moves if m.routes())
        route = move.routes()[0]
        seq = int(body(page, "board-seq") or 0)
        page.drag_and_drop(
            f'g.point[data-point="{route[0]}"]', f'g.point[data-point="{route[-1]}"]'
        )
        page.wait_for_function(f"Number(document.body.dataset.boardSeq) >= {seq + 2}")
        page.wait_for_function("document.body.dataset.plies == '2'")
        assert page.locator("#moves li").all_inner_texts() == [f"3 and 2: {move}"]
        assert page.inner_text("#turn") == "Red Fox to throw"
        assert page.locator(f'.piece-at[data-piece="{route[-1]}"]').count() == 1
        screenshots(page, tmp_path, "fox-and-rabbit")
        assert [str(m) for m in live.daemon.session.moves] == ["dice=3,2", str(move)]


def test_a_mismatch_and_its_guidance(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        click(page, "1")  # a peg with no jump lifted and kept off: a mismatch after 2 s
        page.wait_for_function("document.body.dataset.state == 'mismatch'", timeout=6000)
        assert page.inner_text("#guidance") == (
            "the board does not match the game: put a piece on 1"
        )
        # the LED blinks white: lit and dark in turn, as the compositor writes it
        page.wait_for_function(
            "document.querySelector('g.point[data-point=\"1\"]').dataset.led == '#ffffff'"
        )
        page.wait_for_function(
            "!document.querySelector('g.point[data-point=\"1\"]').dataset.led", timeout=2000
        )
        assert page.locator('.ghost[data-ghost="1"]').count() == 1  # where the piece belongs
        screenshots(page, tmp_path, "mismatch")
        click(page, "1")
        page.wait_for_function("document.body.dataset.state == 'playing'")
        assert page.inner_text("#guidance") == ""  # (the turn is the panel's: #turn)
        assert page.inner_text("#turn") == "the player to move"
        assert live.daemon.session.moves == []


def test_replay_a_stored_game_on_the_history_page(page: Any, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    position = engine.start("solitaire")
    game = store.new_game("solitaire", {}, position.to_text())
    key = ["5-17", "12-10", "3-11", "18-6"]
    for ply, move in enumerate(key):
        store.add_move(game, ply, move)
    store.close()
    with LiveDaemon(tmp_path, "fox-and-geese", database=db) as live:
        page.goto(live.url + "history")
        page.wait_for_selector(f'#games tr[data-game="{game}"]')
        page.click(f'#games tr[data-game="{game}"]')
        page.wait_for_selector("body[data-ply='0']")
        assert page.locator(".piece-at").count() == 32
        shown = []
        for ply in range(1, len(key) + 1):
            page.click("#next")
            page.wait_for_selector(f"body[data-ply='{ply}']")
            position.push_text(key[ply - 1])
            pegs = page.locator(".piece-at").evaluate_all("ps => ps.map(p => p.dataset.piece)")
            assert set(pegs) == position.occupied()
            shown.append(page.inner_text("#ply"))
        assert shown == ["1 / 4", "2 / 4", "3 / 4", "4 / 4"]
        page.click("#prev")
        page.wait_for_selector("body[data-ply='3']")
        screenshots(page, tmp_path, "history")
        with page.expect_download() as download:
            page.click("#export")
        text = Path(download.value.path()).read_text()
        assert text.splitlines() == [
            f"# game {game}: solitaire",
            f"# start: {engine.start('solitaire').to_text()}",
            "1. 5-17",
            "2. 12-10",
            "3. 3-11",
            "4. 18-6",
            "# outcome: playing",
        ]


def test_the_page_reconnects_after_a_restart_and_two_pages_agree(
    browser: Any, page: Any, tmp_path: Path
) -> None:
    port = free_port()
    with LiveDaemon(tmp_path, "solitaire", web_port=port) as live:
        open_page(page, live.url)
        other = browser.new_page()
        open_page(other, live.url)
        for p in ("5", "17"):  # (the second click is the whole jump)
            click(page, p)
        for pg in (page, other):
            pg.wait_for_function("document.body.dataset.plies == '1'")
    page.wait_for_selector("body[data-live=no]")  # the daemon is gone
    with LiveDaemon(tmp_path, "solitaire", web_port=port):
        for pg in (page, other):  # both find it again and draw the resumed game
            pg.wait_for_selector("body[data-live=yes]", timeout=10000)
            assert pg.locator("#moves li").all_inner_texts() == ["5-17"]
        click(other, "12")
        page.wait_for_function("document.querySelector('g.point[data-point=\"10\"]').dataset.led")
    other.close()


def test_the_page_asks_for_the_token_once(browser: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese", token="open sesame") as live:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        response = page.goto(live.url)
        assert response is not None and response.status == 401
        page.fill("#token", "open sesame")
        page.click("#login button")
        page.wait_for_selector("body[data-live=yes]")
        assert page.locator(".piece-at").count() == 26  # 2 foxes and 24 geese
        # signed in by a cookie no script can read (a page on another port could, and cookies
        # do not keep to a port), holding a value made from the token, never the token
        assert "reedboard_token" not in page.evaluate("document.cookie")
        cookies = {c["name"]: c for c in context.cookies()}
        assert cookies["reedboard_token"]["httpOnly"]
        assert "open sesame" not in cookies["reedboard_token"]["value"]
        page.goto(live.url + "history")  # the token is kept: asked once
        page.wait_for_selector("body[data-games='1']")
        context.close()


def test_the_picker_draws_every_sensed_game_on_its_board(page: Any, tmp_path: Path) -> None:
    from reedboard.wiring.layout import layout_for_game

    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        games = page.locator("#game option").evaluate_all("os => os.map(o => o.value)")
        assert games == [g for g in engine.game_ids() if engine.game(g).sensed]
        for game in games:
            if game != body(page, "game"):
                page.select_option("#game", game)
                page.click("#picker button")
                page.wait_for_selector(f"body[data-game='{game}']")
            page.wait_for_function(
                f"document.querySelectorAll('.piece-at').length == "
                f"{len(engine.start(game).occupied())}"
            )
            layout = layout_for_game(game)
            assert page.locator("g.point").count() == len(layout.points)
            assert body(page, "state") == "playing"
            newest = page.locator("#alerts li").all_inner_texts()[0]  # (newest first)
            assert newest == f"new game of {engine.game(game).title}"  # (`start` begins anew)
            page.screenshot(path=str(tmp_path / f"{game}.png"))
        assert live.daemon.session.game_id == games[-1]
