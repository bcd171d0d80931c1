"""Peg Solitaire (docs/rules.md §1c, seed 001)."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine import IllegalMoveError, InvalidOptionError, Termination

# The key printed in seed 001: "5 jumps to 17 and takes 10, 12 to 10 and takes 11, etc."
SEED_KEY = (
    "5-17 12-10 3-11 1-3 18-6 3-11 30-18 27-25 13-27 24-26 27-25 22-24 31-23 33-31 16-28 "
    "31-23 4-16 7-9 21-7 10-8 7-9 24-22 22-8 8-10 10-12 12-26 26-24 17-15 29-17 18-16 15-17"
).split()


def moves(position: engine.Position) -> set[str]:
    return {str(m) for m in position.legal_moves}


def test_start_32_pegs_every_hole_but_17() -> None:
    p = engine.start("solitaire")
    assert p.to_text() == "oooooooooooooooo.oooooooooooooooo -"
    assert p.count("o") == 32
    assert p.turn == "player"


def test_the_seed_key_replays_to_a_win_with_one_peg_on_17() -> None:
    assert len(SEED_KEY) == 31
    p = engine.start("solitaire")
    for text in SEED_KEY:
        p.push_text(text)
    assert p.holes_of("o") == [17]
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("player", Termination.SOLVED)


def test_a_move_jumps_orthogonally_over_a_peg_into_an_empty_hole_taking_it() -> None:
    p = engine.start("solitaire")
    assert moves(p) == {"5-17", "15-17", "19-17", "29-17"}
    p.push_text("5-17")
    assert p.to_text() == "oooo.oooo.ooooooooooooooooooooooo -"


def test_no_diagonal_jumps_by_default() -> None:
    # 1 (0,2) over 5 (1,3) to 11 (2,4) would be a diagonal jump
    p = engine.from_text("solitaire", "o...o............................ -")
    assert moves(p) == set()


def test_diagonals_option_allows_diagonal_jumps() -> None:
    p = engine.from_text("solitaire", "o...o............................ -", diagonals="alternate")
    assert moves(p) == {"1-11"}


def test_moves_are_written_from_dash_to_and_5x17_is_accepted_too() -> None:
    p = engine.start("solitaire")
    a, b = p.parse_move("5-17"), p.parse_move("5x17")
    assert a == b
    assert str(b) == "5-17"


def test_a_multi_jump_is_not_one_solitaire_move() -> None:
    p = engine.start("solitaire")
    with pytest.raises(IllegalMoveError):
        p.push_text("5x17x15")


def test_over_when_no_jump_is_left_reports_pegs_left() -> None:
    p = engine.from_text("solitaire", "o.o..............o............... -")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == (None, Termination.NO_JUMPS)
    assert over.detail == "3 pegs left"


def test_one_peg_left_off_the_finish_hole_is_no_win() -> None:
    p = engine.from_text("solitaire", "o................................ -")
    over = p.outcome()
    assert over is not None
    assert over.winner is None
    assert over.detail == "one peg left, on 1 not 17"


def test_any_start_hole_and_any_finish_hole() -> None:
    p = engine.start("solitaire", start=1, finish=33)
    assert p.holes_of("o") == list(range(2, 34))
    won = engine.from_text("solitaire", "." * 32 + "o -", start=1, finish=33)
    over = won.outcome()
    assert over is not None and over.winner == "player"
    lost = engine.from_text("solitaire", "." * 16 + "o" + "." * 16 + " -", start=1, finish=33)
    over = lost.outcome()
    assert over is not None and over.winner is None


def test_finish_defaults_to_the_start_hole() -> None:
    p = engine.from_text("solitaire", "o" + "." * 32 + " -", start=1)
    over = p.outcome()
    assert over is not None and over.winner == "player"


@pytest.mark.parametrize("key", ["start", "finish"])
def test_start_and_finish_must_be_holes(key: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"{key}: there is no hole 34"):
        engine.start("solitaire", **{key: 34})
