"""Text forms, options and errors: every bad input gets one clear line naming what is wrong."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    UnknownGameError,
)


def test_fox_and_geese_start_text_is_designs() -> None:
    assert engine.start("fox-and-geese").to_text() == "......GGF.FGGGGGGGGGGGGGGGGGGGGGG F"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("......GGF.FGG F", "expected 33 hole characters"),
        ("......GGF.FGGGGGGGGGGGGGGGGGGGGGG", "expected 33 hole characters"),
        ("......GGF.FGGGGGGGGGGGGGGGGGGGGGX F", "hole 33 holds 'X'"),
        ("......GGF.FGGGGGGGGGGGGGGGGGGGGGG -", "side to move '-' is not 'F' or 'G'"),
        ("......GGF.GGGGGGGGGGGGGGGGGGGGGGG F", "1 foxes on the board, the game has 2"),
    ],
)
def test_bad_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message) as err:
        engine.from_text("fox-and-geese", text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9", "expected holes joined by"),
        ("9--10", "expected holes joined by"),
        ("9-10x11", "expected holes joined by"),
        ("a-b", "expected holes joined by"),
        ("0-1", "there is no hole 0"),
        ("9x40", "there is no hole 40"),
    ],
)
def test_bad_move_text_is_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        engine.start("fox-and-geese").parse_move(text)


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError) as err:
        engine.start("chess")
    assert str(err.value) == ("unknown game 'chess' (games: " + ", ".join(engine.game_ids()) + ")")


def test_unknown_option_names_the_key_and_the_known_ones() -> None:
    with pytest.raises(InvalidOptionError, match=r"unknown option 'colour'.*diagonals"):
        engine.start("fox-and-geese", colour="red")


def test_option_strings_are_converted_by_type() -> None:
    p = engine.start("fox-and-geese-mcloughlin", empty="20,33", sideways_points="7")
    assert p.options.empty == (20, 33)
    assert p.options.sideways_points == (7,)
    assert engine.start("solitaire", start="5", finish="none").options.finish_hole == 5


@pytest.mark.parametrize(
    ("game", "key", "value", "message"),
    [
        ("fox-and-geese", "diagonals", "some", "diagonals='some'"),
        ("solitaire", "start", "x", "start='x'"),
        ("fox-and-geese-mcloughlin", "empty", "16,x", "empty='16,x'"),
    ],
)
def test_bad_option_values_name_the_key(game: str, key: str, value: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        engine.start(game, **{key: value})


def test_positions_compare_by_game_options_and_text() -> None:
    a = engine.start("solitaire")
    b = engine.start("solitaire")
    assert a == b
    b.push_text("5-17")
    assert a != b
    assert engine.start("solitaire", finish=1) != a
