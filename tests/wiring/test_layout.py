"""The layout loader: the shipped layouts load, and every mistake is one line naming the file,
the line, the key and what is wrong."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from reedboard import engine
from reedboard.engine import brier9
from reedboard.wiring.layout import WiringError, available, layout_for_game, load_layout


def test_the_shipped_layouts_load() -> None:
    assert {"brier9", "cross33", "skip8"} <= set(available())
    cross = load_layout("cross33")
    assert len(cross.points) == 33 and cross.led_count == 33 + 14
    board = load_layout("brier9")
    assert len(board.points) == 81 and board.dice_start == 81 and board.led_count == 95


def test_every_sensed_game_has_a_layout() -> None:
    for game_id in engine.game_ids():
        if not engine.game(game_id).sensed:
            continue  # Jack Rabbits: nothing on its board is sensed
        layout = layout_for_game(game_id)
        assert engine.start(game_id).occupied() <= set(layout.points)


def test_cross33_layout_matches_the_engine_board() -> None:
    layout = load_layout("cross33")
    board = engine.cross33()
    assert list(layout.points) == [str(h) for h in range(1, 34)]
    for hole in range(1, 34):
        point = layout.points[str(hole)]
        assert (point.y, point.x) == board.coords[hole]


def test_brier9_layout_matches_the_engine_board() -> None:
    layout = load_layout("brier9")
    assert set(layout.points) == set(brier9.CIRCLES)
    assert set(layout.marks["brier_patch"]) == brier9.BRIER_PATCH
    assert layout.marks["starts"] == brier9.STARTS
    assert layout.marks["homes"] == brier9.HOMES
    for cid, point in layout.points.items():
        x, y = brier9.xy(cid)
        assert (point.x, point.y) == (x, 8 - y)  # drawn with row 9 at the top


def test_led_chain_is_one_unbroken_serpentine() -> None:
    # the grid boards; the Parchesi cross needs a jumper between its arms
    for name in ("cross33", "brier9", "skip8", "messenger84"):
        layout = load_layout(name)
        by_led = sorted(layout.points.values(), key=lambda p: p.led)
        assert [p.led for p in by_led] == list(range(len(by_led)))
        for a, b in itertools.pairwise(by_led):
            assert abs(a.x - b.x) + abs(a.y - b.y) <= 5  # neighbours in the chain sit close


def edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = load_layout(name).path.read_text()
    assert old in text, old
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str) -> int:
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            return n
    raise AssertionError(needle)


CASES = [
    # (layout, old, new, key named in the message, what, line needle or None)
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 0 }",
        "points.b1.led",
        "0 is also a1's LED",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 81 }",
        "points.b1.led",
        "81 is out of range 0-80",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, led = 1 }",
        "points.b1.row",
        "no switch",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, row = 0, col = 0, led = 1 }",
        "points.b1",
        "row 0, col 0 is also a1's switch",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, row = 9, col = 1, led = 1 }",
        "points.b1.row",
        "9 is outside the 9 matrix rows (0-8)",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1, colour = 3 }",
        "points.b1",
        "unknown key 'colour'",
        "b1 =",
    ),
    (
        "brier9",
        "b1 = { x = 1, y = 8, row = 0, col = 1, led = 1 }",
        'b1 = { x = 1, y = 8, row = 0, col = "one", led = 1 }',
        "points.b1.col",
        "expected a whole number from 0, got 'one'",
        "b1 =",
    ),
    (
        "brier9",
        'brier_patch = ["e5", "d5", "f5", "e4", "e6"]',
        'brier_patch = ["e5", "d5", "f5", "e4", "z6"]',
        "marks.brier_patch",
        "'z6' is not a point of this layout",
        "brier_patch = [",
    ),
    (
        "brier9",
        'homes = { WR = "e9", BR = "e1" }',
        'homes = { WR = "e9", BR = "e0" }',
        "marks.homes",
        "'e0' is not a point of this layout",
        "homes =",
    ),
    (
        "cross33",
        "dice_leds = 14",
        "dice_leds = 10",
        "dice_leds",
        "not a multiple of 7",
        "dice_leds",
    ),
    (
        "brier9",
        'shaded = ["brier_patch"]',
        'shaded = ["homes"]',
        "shaded",
        "'homes' is no mark of this layout that lists points",
        "shaded =",
    ),
    ("cross33", 'name = "cross33"\n', "", "name", "missing", None),
    (
        "cross33",
        "matrix = [6, 6]",
        "matrix = [6]",
        "matrix",
        "expected two positive whole numbers",
        "matrix =",
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "key", "what", "needle"), CASES)
def test_layout_mistakes_are_one_line_naming_file_line_and_key(
    tmp_path: Path, name: str, old: str, new: str, key: str, what: str, needle: str | None
) -> None:
    path = edited(tmp_path, name, old, new)
    with pytest.raises(WiringError) as err:
        load_layout(path)
    message = str(err.value)
    assert "\n" not in message
    where = f"{path}:{line_of(path, needle)}" if needle else str(path)
    assert message.startswith(f"{where}: {key}: "), message
    assert what in message


def test_bad_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = edited(tmp_path, "cross33", "size = [7, 7]", "size = [7, 7")
    with pytest.raises(WiringError, match=re.escape(str(path)) + r": bad TOML: .*line \d+"):
        load_layout(path)


def test_unknown_layout_name_lists_the_shipped_ones() -> None:
    with pytest.raises(WiringError, match=r"no layout 'hex' \(layouts: brier9, cross33, "):
        load_layout("hex")


def test_missing_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(WiringError, match="cannot read"):
        load_layout(tmp_path / "gone.toml")


def test_the_new_boards_layouts_match_their_engines() -> None:
    from reedboard.engine.messenger_boy import POINTS
    from reedboard.engine.parchesi import board
    from reedboard.engine.skip import SIDE_SQUARES, SQUARES

    skip = load_layout("skip8")
    assert set(skip.points) == set(SQUARES)
    assert set(skip.marks["side_squares"]) == SIDE_SQUARES
    assert set(load_layout("messenger84").points) == set(POINTS)
    parchesi = load_layout("parchesi101")
    b = board()
    engine_points = {b.point(c, p) for c in b.colours for p in range(-1, b.home(c) + 1)}
    assert set(parchesi.points) == engine_points
    assert {int(s[1:]) for s in parchesi.marks["safeties"]} == b.safeties


def _edited(tmp_path: Path, change: Any) -> Path:
    from reedboard.wiring.layout import LAYOUTS

    text = (LAYOUTS / "cross33.toml").read_text()
    path = tmp_path / "mine.toml"
    path.write_text(change(text))
    return path


@pytest.mark.parametrize(
    "change, what",
    [
        (lambda t: re.sub(r'(?m)^"?33"?\s*=.*\n', "", t, count=1), "lacks"),
        (lambda t: t.replace('"solitaire"', '"chess"', 1), "chess"),
        (lambda t: re.sub(r'(?m)^"?33"?(\s*=)', '"①"\\1', t, count=1), "no point id"),
    ],
)
def test_a_layout_that_cannot_hold_its_games_is_refused_when_loaded(
    tmp_path: Path, change: Any, what: str
) -> None:
    from reedboard.wiring.layout import LAYOUTS

    path = _edited(tmp_path, change)
    assert path.read_text() != (LAYOUTS / "cross33.toml").read_text()  # (the change took)
    with pytest.raises(WiringError, match=what) as err:
        load_layout(path)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)


def test_a_layout_missing_a_point_of_a_game_that_starts_with_a_throw_is_refused(
    tmp_path: Path,
) -> None:
    from reedboard.wiring.layout import LAYOUTS

    text = (LAYOUTS / "brier9.toml").read_text()
    mine = tmp_path / "mine.toml"
    text = re.sub(r'(?m)^"?h8"?\s*=.*\n', "", text, count=1)  # h8 gone, its LED to i9
    mine.write_text(text.replace("led = 80 }", "led = 64 }"))
    assert "h8 =" not in mine.read_text()
    with pytest.raises(WiringError, match="'h8', which this layout lacks"):
        load_layout(mine)
