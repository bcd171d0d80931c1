"""The boards as the page draws them, and the signals as shapes: Debian's chromium, headless,
through Playwright, on a real daemon on the simulated board (src/reedboard/daemon/web/
drawing.py, shapes.py, static/board.js)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from reedboard import engine  # noqa: E402
from reedboard.engine.cross import Diagonals, cross33  # noqa: E402
from tests.web.browser import (  # noqa: E402
    PHONE,
    browser,
    needs_chromium,
    open_page,
    page,
)
from tests.web.live import LiveDaemon  # noqa: E402

__all__ = ["browser", "page"]  # (the fixtures, shared)

VIEWPORT = {"width": 1440, "height": 900}
"""The pages' size here (a desktop's, as the screenshots)."""
DESKTOP = VIEWPORT

pytestmark = needs_chromium


def click(page: Any, point: str) -> None:
    seq = int(page.get_attribute("body", "data-board-seq") or 0)
    page.click(f'g.point[data-point="{point}"]')
    page.wait_for_function(f"Number(document.body.dataset.boardSeq) > {seq}")


def drawn_lines(page: Any) -> set[frozenset[str]]:
    pairs = page.locator("line.line").evaluate_all("ls => ls.map(l => l.dataset.line)")
    return {frozenset(p.split("-")) for p in pairs}


def phone_checks(page: Any) -> dict[str, Any]:
    """At a phone's size: every point's tap target (its hit area, on screen) and the labels
    that touch a point other than their own."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)  # (the board fits itself to the new size)
    found: dict[str, Any] = page.evaluate(
        """() => {
        const box = (e) => e.getBoundingClientRect();
        const hits = [...document.querySelectorAll('#board g.point')].map(
            g => [g.dataset.point, box(g.querySelector('.hit'))]);
        const small = hits.filter(([id, b]) => b.width < 43.5 || b.height < 43.5)
            .map(([id, b]) => `${id} ${b.width.toFixed(1)}x${b.height.toFixed(1)}`);
        const cross = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
            && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        const overlaps = [];
        for (const t of document.querySelectorAll('#board text.label, #board text.edge')) {
            const own = t.closest('g.point') ? t.closest('g.point').dataset.point : null;
            for (const [id, b] of hits) {
                if (id !== own && cross(box(t), b)) overlaps.push(`${t.textContent} over ${id}`);
            }
        }
        return {small, overlaps, points: hits.length};
    }"""
    )
    page.set_viewport_size(DESKTOP)
    return found


def test_the_cross_board_has_its_games_diagonals_and_no_others(page: Any, tmp_path: Path) -> None:
    alternate = cross33(Diagonals.ALTERNATE)
    expected = {frozenset((str(a), str(b))) for a in range(1, 34) for b in alternate.steps[a]}
    with LiveDaemon(tmp_path, "fox-and-geese") as live:
        open_page(page, live.url)
        lines = drawn_lines(page)
        assert frozenset(("9", "5")) in lines  # 9-5 is legal, so its line is drawn
        assert lines == expected
        found = phone_checks(page)
        assert found["points"] == 33 and found["small"] == [] and found["overlaps"] == []
    with LiveDaemon(tmp_path / "none", "fox-and-geese", options={"diagonals": "none"}) as live:
        open_page(page, live.url)
        lines = drawn_lines(page)
        assert frozenset(("9", "5")) not in lines and frozenset(("9", "10")) in lines
        assert len(lines) == sum(len(s) for s in cross33(Diagonals.NONE).steps) // 2


def test_skip_is_a_checkered_board_with_its_coloured_rows_and_side_squares(
    page: Any, tmp_path: Path
) -> None:
    with LiveDaemon(tmp_path, "skip") as live:
        open_page(page, live.url)
        squares = dict(
            page.locator("g.point").evaluate_all(
                "gs => gs.map(g => [g.dataset.point, g.querySelector('rect.square')"
                ".getAttribute('class').replace('square', '').trim()])"
            )
        )
        assert len(squares) == 64 and page.locator("line.line").count() == 0
        assert {p for p, c in squares.items() if c == "green"} == {f"{f}1" for f in "abcdefgh"}
        side = {f"{f}{r}" for f in "ah" for r in range(2, 8)}
        assert {p for p, c in squares.items() if c == "yellow"} == side | {
            f"{f}8" for f in "abcdefgh"
        }
        plain = {p: c for p, c in squares.items() if c in ("dark", "light")}
        assert len(plain) == 36 and list(plain.values()).count("dark") == 18
        for p, c in plain.items():  # every plain square differs from its plain neighbours
            f, r = p[0], int(p[1:])
            for q in (f"{chr(ord(f) + 1)}{r}", f"{f}{r + 1}"):
                assert q not in plain or plain[q] != c, (p, q)
        assert squares["b2"] == "dark"  # a1's colour, as a chess board's: dark
        edges = page.locator("text.edge").evaluate_all("ts => ts.map(t => t.textContent)")
        assert sorted(edges) == sorted([*"abcdefgh", *"12345678"])
        found = phone_checks(page)
        assert found["small"] == [] and found["overlaps"] == []


def test_parchesi_is_a_cross_with_no_false_links_and_four_colours(
    page: Any, tmp_path: Path
) -> None:
    with LiveDaemon(tmp_path, "parchesi", options={"players": 4}) as live:
        open_page(page, live.url)
        assert page.locator("line.line").count() == 0  # no line joins a home path to the loop
        centre = dict(
            page.locator("g.point").evaluate_all(
                "gs => gs.map(g => { const b = g.querySelector('.hit').getBoundingClientRect();"
                " return [g.dataset.point, [b.x + b.width / 2, b.y + b.height / 2]]; })"
            )
        )
        pitch = float(page.get_attribute("#board", "data-pitch") or 0)
        for colour in "YBRG":  # each home path a straight line from its arm's tip to home
            path = [centre[f"{colour}{i}"] for i in range(1, 8)]
            steps = {(round(b[0] - a[0]), round(b[1] - a[1])) for a, b in itertools.pairwise(path)}
            assert len(steps) == 1, (colour, steps)
            (dx, dy) = steps.pop()
            assert abs(abs(dx) + abs(dy) - pitch) < 1.5
            last = path[-1]
            home = centre["home"]
            assert abs(abs(home[0] - last[0]) + abs(home[1] - last[1]) - 2 * pitch) < 1.5
        xs = sorted({round(c[0]) for c in centre.values()})
        assert len(xs) >= 19  # a cross 19 squares across, not a ring round a square
        sides = dict(
            page.locator("g.piece-at circle.piece").evaluate_all(
                "cs => cs.map(c => [c.closest('g.piece-at').dataset.piece, "
                "[c.dataset.side, c.getAttribute('fill')]])"
            )
        )
        assert {p: s for p, (s, _) in sides.items()} == {
            "Ynest": "yellow",
            "Bnest": "blue",
            "Rnest": "red",
            "Gnest": "green",
        }
        assert len({fill for _, fill in sides.values()}) == 4  # four colours, none alike
        assert page.text_content('g.piece-at[data-piece="Bnest"] text') == "4"  # four men
        found = phone_checks(page)
        assert found["points"] == 101 and found["small"] == [] and found["overlaps"] == []


def test_messenger_boy_is_large_enough_to_read(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "messenger-boy") as live:
        open_page(page, live.url)
        assert float(page.get_attribute("#board", "data-pitch") or 0) >= 44
        heights = page.locator("g.point text.label").evaluate_all(
            "ts => ts.map(t => t.getBoundingClientRect().height)"
        )
        assert len(heights) == 84 and min(heights) >= 10
        assert drawn_lines(page) >= {frozenset(("A21", "22")), frozenset(("22", "B23"))}
        found = phone_checks(page)
        assert found["small"] == [] and found["overlaps"] == []


def test_a_lifted_piece_a_hint_and_the_last_move_as_shapes(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese") as live:
        open_page(page, live.url)
        position = engine.start("fox-and-geese")
        page.click('#buttons button[data-button="hint"]')
        page.wait_for_selector("g.arrow.hint", state="attached", timeout=20_000)
        path = (page.get_attribute("g.arrow.hint", "data-path") or "").split()
        assert len(path) >= 2 and [str(m) for m in position.legal_moves].count("-".join(path)) == 1
        assert path[0] in position.occupied() and path[-1] not in position.occupied()
        assert page.locator("g.arrow.hint polyline").get_attribute("marker-end") == (
            "url(#arrow-hint)"
        )  # an arrowhead at its end: the direction, from the piece to where it goes
        said = f"hint: move the fox from {path[0]} to {path[-1]} ({'-'.join(path)})"
        assert said in page.inner_text("#said")
        fox = path[0]
        landings = {m.points()[-1] for m in position.legal_moves if m.points()[0] == fox}
        click(page, fox)
        page.wait_for_selector(f'circle.lifted[data-lifted="{fox}"]', state="attached")
        page.wait_for_function(
            f"document.querySelectorAll('circle.landing').length == {len(landings)}"
        )
        dots = page.locator("circle.landing").evaluate_all("cs => cs.map(c => c.dataset.landing)")
        assert set(dots) == landings
        assert page.locator("g.arrow.hint").count() == 0  # the hint is gone with the lift
        to = sorted(landings)[0]
        click(page, to)
        page.wait_for_function("document.body.dataset.plies == '1'")
        page.wait_for_selector(f'rect.last[data-last="{to}"]', state="attached")
        marked = page.locator("rect.last").evaluate_all("rs => rs.map(r => r.dataset.last)")
        assert sorted(marked) == sorted([fox, to])
        assert page.locator("circle.landing").count() == 0


def test_a_piece_to_take_off_is_crossed_and_the_edges_are_labelled(
    page: Any, tmp_path: Path
) -> None:
    with LiveDaemon(tmp_path, "fox-and-rabbit") as live:
        open_page(page, live.url)
        assert sorted(
            page.locator("text.edge").evaluate_all("ts => ts.map(t => t.textContent)")
        ) == sorted([*"abcdefghi", *"123456789"])
        assert page.locator("g.point text.label").count() == 0  # no name over a point
        click(page, "e2")  # a piece put where the game has none: take it off
        page.wait_for_selector('g.take-off[data-take-off="e2"]', state="attached", timeout=8000)
        assert page.locator("g.take-off").count() == 1
        found = phone_checks(page)
        assert found["points"] == 81 and found["overlaps"] == []
        assert found["small"] == []
