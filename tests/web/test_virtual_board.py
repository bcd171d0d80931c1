"""The simulated board as a virtual board, end to end: Debian's chromium, headless, driven by
Playwright, against a daemon on the simulated board. A drag is the whole move (a Skip capture,
a McLoughlin jump, a Parchesi entry), with no button; the computer's move plays itself; `new`
and `undo` set the pieces out, `new` asks first and can be undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from reedboard import engine  # noqa: E402
from reedboard.referee.dice import ScriptedDice  # noqa: E402
from reedboard.store.games import GameStore  # noqa: E402
from tests.web.browser import PHONE, browser, needs_chromium, page  # noqa: E402
from tests.web.live import LiveDaemon  # noqa: E402

__all__ = ["browser", "page"]  # (the fixtures, shared)

TAKEN = 8000
"""Milliseconds a move laid out by the hand may take to be committed (the hand's own pace,
then at most the referee's hold time, 4 s, for a move a hand may still be making)."""

pytestmark = needs_chromium


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-live=yes]")
    page.wait_for_function("document.body.dataset.plies !== undefined")


def stored(tmp_path: Path, game: str, moves: list[str], **options: Any) -> Path:
    """A store holding an unfinished ``game`` with ``moves`` made: the daemon resumes it, its
    simulated board laid out as the moves left it."""
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    position = engine.start(game, **options)
    game_id = store.new_game(game, options, position.to_text())
    for ply, move in enumerate(moves):
        position.push_text(move)
        store.add_move(game_id, ply, move)
    store.close()
    return db


def point(page: Any, name: str) -> str:
    return f'g.point[data-point="{name}"]'


def pieces(page: Any) -> dict[str, str]:
    """The pieces drawn, by point (their letters)."""
    found: dict[str, str] = dict(
        page.locator(".pieces .piece-at").evaluate_all(
            "ps => ps.map(p => [p.dataset.piece, p.dataset.letters || p.textContent])"
        )
    )
    return found


def drag(page: Any, start: str, to: str, over: tuple[str, ...] = ()) -> None:
    """Press on ``start``, carry the piece over ``over`` to ``to`` in small steps, let go."""
    box = page.locator(point(page, start)).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for name in (*over, to):
        b = page.locator(point(page, name)).bounding_box()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def plies(page: Any, n: int, timeout: int = TAKEN) -> None:
    page.wait_for_function(f"document.body.dataset.plies == '{n}'", timeout=timeout)


def buttons_pressed(live: LiveDaemon) -> list[str]:
    return [a["text"] for a in live.daemon.session.alerts if a["kind"] == "button"]


def test_a_skip_capture_by_drag_is_the_whole_move(page: Any, tmp_path: Path) -> None:
    line = ["a1-b2", "e8-d7", "b1-c2", "h8-g7", "g1-f2", "g7-f6", "f2-e3", "f6-e5", "e1-d2"]
    line += ["e5-f4"]
    with LiveDaemon(tmp_path, "skip", database=stored(tmp_path, "skip", line)) as live:
        open_page(page, live.url)
        assert len(pieces(page)) == 16
        drag(page, "e3", "f4")  # red takes the blue man on f4 by moving onto it
        plies(page, 11)
        page.wait_for_function("document.body.dataset.state == 'playing'")
        assert [str(m) for m in live.daemon.session.moves][-1] == "e3xf4"
        drawn = pieces(page)
        assert "e3" not in drawn and "f4" in drawn and len(drawn) == 15
        assert live.daemon.board.snapshot() == live.daemon.session.position.occupied()
        assert buttons_pressed(live) == []  # no confirm: the drag was the move


def test_a_mcloughlin_jump_by_drag_takes_the_goose_off(page: Any, tmp_path: Path) -> None:
    game = "fox-and-geese-mcloughlin"
    with LiveDaemon(tmp_path, game, database=stored(tmp_path, game, ["17-10", "15-9"])) as live:
        open_page(page, live.url)
        assert "9" in pieces(page)
        drag(page, "10", "8", over=("9",))  # the fox jumps the goose on 9
        plies(page, 3)
        page.wait_for_function("document.body.dataset.state == 'playing'")
        assert [str(m) for m in live.daemon.session.moves] == ["17-10", "15-9", "10x8"]
        drawn = pieces(page)
        assert "9" not in drawn and "10" not in drawn and "8" in drawn  # the goose is off
        assert "?" not in "".join(drawn.values())  # no piece the game does not expect
        assert buttons_pressed(live) == []


def test_a_parchesi_man_enters_and_his_nest_keeps_the_others(page: Any, tmp_path: Path) -> None:
    start = engine.start("parchesi")
    throw = next(m for m in start.legal_moves if str(m) == "spin=5")
    dice = ScriptedDice([start.throw_values(throw)])
    with LiveDaemon(tmp_path, "parchesi", dice=dice) as live:
        open_page(page, live.url)
        page.click('button[data-button="roll"]')
        plies(page, 1, 5000)
        drag(page, "Ynest", "L4")
        plies(page, 2)
        assert [str(m) for m in live.daemon.session.moves] == ["spin=5", "Y enter"]
        page.wait_for_function("document.querySelector('.piece-at[data-piece=\"L4\"]') !== null")
        drawn = pieces(page)
        assert drawn["L4"].startswith("Y")
        assert "Ynest" in drawn  # three men are still in the nest
        assert live.daemon.session.position.pieces()["Ynest"] == "YYY"
        assert "?" not in "".join(drawn.values())


def test_the_computers_move_plays_itself(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese", computer=("fox",), level=1) as live:
        open_page(page, live.url)
        plies(page, 1)  # the fox (the computer) moves first: carried out by the board's hand
        page.wait_for_function("document.body.dataset.state == 'playing'", timeout=TAKEN)
        session = live.daemon.session
        assert session.position.turn == "geese"
        assert live.daemon.board.snapshot() == session.position.occupied()
        assert set(pieces(page)) == session.position.occupied()
        fox = str(session.moves[0])
        assert [a["text"] for a in session.alerts if a["kind"] == "carry-out"] == [
            f"{fox} (computer)"
        ]


def test_new_asks_first_and_undo_brings_the_game_back(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        drag(page, "5", "17")
        plies(page, 1)
        drag(page, "12", "10")
        plies(page, 2)
        assert len(pieces(page)) == 30
        # undo: the last jump taken back, and its pegs put back where they were
        page.click('button[data-button="undo"]')
        plies(page, 1)
        page.wait_for_function("document.body.dataset.state == 'playing'")
        after_one = engine.start("solitaire")
        after_one.push_text("5-17")
        page.wait_for_function("document.querySelectorAll('.pieces .piece-at').length == 31")
        assert set(pieces(page)) == after_one.occupied()
        # new, answered no: nothing happens
        asked: list[str] = []

        def answer(dialog: Any, accept: bool) -> None:
            asked.append(dialog.message)
            (dialog.accept if accept else dialog.dismiss)()

        page.once("dialog", lambda d: answer(d, False))
        page.click('button[data-button="new"]')
        page.wait_for_timeout(300)
        assert asked and "new game" in asked[0].lower() and "undo" in asked[0]
        assert [str(m) for m in live.daemon.session.moves] == ["5-17"]
        # new, answered yes: the pegs set out for the start
        page.once("dialog", lambda d: answer(d, True))
        page.click('button[data-button="new"]')
        plies(page, 0)
        page.wait_for_function("document.querySelectorAll('.pieces .piece-at').length == 32")
        page.wait_for_function("document.body.dataset.state == 'playing'")
        assert live.daemon.board.snapshot() == engine.start("solitaire").occupied()
        # undo straight after new: the game new left comes back, its pegs with it
        page.click('button[data-button="undo"]')
        plies(page, 1)
        page.wait_for_function("document.querySelectorAll('.pieces .piece-at').length == 31")
        page.wait_for_function("document.body.dataset.state == 'playing'")
        assert set(pieces(page)) == after_one.occupied()
        assert [str(m) for m in live.daemon.session.moves] == ["5-17"]
        drag(page, "12", "10")  # and it goes on
        plies(page, 2)
    store = GameStore(tmp_path / "games.sqlite3")
    games = list(store.games())
    store.close()
    assert [g.moves for g in games] == [("5-17", "12-10"), ()]  # nothing of it was lost
    assert games[0].ended is None and games[1].outcome == "abandoned"


def touch_drag(page: Any, start: str, to: str) -> None:
    """A finger on ``start``, moved to ``to`` in steps, lifted: real touch events through
    chromium's input pipeline (its own panning and touch-action apply, as on a phone)."""
    cdp = page.context.new_cdp_session(page)
    a = page.locator(point(page, start)).bounding_box()
    b = page.locator(point(page, to)).bounding_box()
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    tx, ty = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 13):
        at = {"x": x + (tx - x) * i / 12, "y": y + (ty - y) * i / 12}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_a_swipe_from_a_piece_moves_it_and_does_not_pan(
    browser: Any, tmp_path: Path
) -> None:
    """A board wider than a phone scrolls; a swipe that starts on a piece is still the move
    (it used to pan the board, and the piece went back)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        with LiveDaemon(tmp_path, "fox-and-rabbit", dice=ScriptedDice([(6, 4)])) as live:
            open_page(page, live.url)
            assert page.get_attribute("#board", "class") == "scrolls"  # 9 columns of 44 px
            page.click('button[data-button="roll"]')
            plies(page, 1, 5000)
            page.evaluate(
                "window.cancelled = 0; document.querySelector('#board')"
                ".addEventListener('pointercancel', () => window.cancelled++)"
            )
            top = page.evaluate("window.scrollY")
            touch_drag(page, "a1", "e7")  # (up and to the right: a pan would scroll)
            plies(page, 2)
            assert [str(m) for m in live.daemon.session.moves] == ["dice=6,4", "WR a1-e7"]
            assert page.evaluate("window.cancelled") == 0
            assert page.evaluate("window.scrollY") == top
            assert page.evaluate("document.querySelector('#board-area').scrollLeft") == 0
            # a swipe that starts where no piece is still pans the board
            touch_drag(page, "h5", "c5")
            page.wait_for_function("document.querySelector('#board-area').scrollLeft > 0")
    finally:
        context.close()


def test_the_word_on_a_drag_stays_while_its_move_is_taken(page: Any, tmp_path: Path) -> None:
    """Two chains reach 25 from 9, taking different geese: the drag over 11 is made and the
    panel says so, and still says so once the chain is taken in steps (the notice used to be
    cleared by the chain's first jump, half a second after it was shown)."""
    holes = ["."] * 33
    for hole, piece in {9: "F", 1: "F", 10: "G", 18: "G", 16: "G", 24: "G", 32: "G"}.items():
        holes[hole - 1] = piece
    start = engine.from_text("fox-and-geese", "".join(holes) + " F")
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    store.new_game("fox-and-geese", {}, start.to_text())
    store.close()
    said = "2 moves go from 9 to 25: played 9x11x25 (drag over the pieces to take for 9x23x25)"
    with LiveDaemon(tmp_path, "fox-and-geese", database=db) as live:
        open_page(page, live.url)
        drag(page, "9", "25", over=("10", "11", "18"))
        page.wait_for_function(f"document.querySelector('#notice').textContent == {said!r}")
        plies(page, 1)  # (its first jump, then the chain once the board has stayed so)
        page.wait_for_function("document.body.dataset.state == 'playing'", timeout=TAKEN)
        assert [str(m) for m in live.daemon.session.moves] == ["9x11x25"]
        assert page.inner_text("#notice") == said
        # the next action clears it
        page.click('button[data-button="hint"]')
        page.wait_for_function("document.querySelector('#notice').textContent == ''")
