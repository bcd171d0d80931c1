"""The cross board's numbering and lines (docs/rules.md §1)."""

from __future__ import annotations

import pytest

from reedboard.engine import Diagonals, cross33


def test_holes_are_numbered_row_by_row_on_a_7x7_grid() -> None:
    board = cross33()
    assert board.coords[1] == (0, 2)
    assert board.coords[3] == (0, 4)
    assert board.coords[7] == (2, 0)
    assert board.coords[17] == (3, 3)
    assert board.coords[27] == (4, 6)
    assert board.coords[33] == (6, 4)
    assert len(board.coords) == 34  # index 0 unused


def test_every_hole_is_joined_to_its_orthogonal_neighbours() -> None:
    board = cross33(Diagonals.NONE)
    assert sorted(board.steps[17]) == [10, 16, 18, 24]
    assert sorted(board.steps[1]) == [2, 4]
    assert sorted(board.steps[7]) == [8, 14]


def test_alternate_diagonals_run_only_through_holes_with_even_row_plus_col() -> None:
    board = cross33(Diagonals.ALTERNATE)
    assert sorted(board.steps[17]) == [9, 10, 11, 16, 18, 23, 24, 25]  # (3,3): even
    assert sorted(board.steps[10]) == [5, 9, 11, 17]  # (2,3): odd, no diagonals
    assert sorted(board.steps[1]) == [2, 4, 5]  # (0,2): even, one diagonal on the board


def test_all_diagonals_option_joins_every_diagonal_neighbour() -> None:
    board = cross33(Diagonals.ALL)
    assert sorted(board.steps[10]) == [4, 5, 6, 9, 11, 16, 17, 18]


def test_lines_are_symmetric() -> None:
    for mode in Diagonals:
        board = cross33(mode)
        for a in range(1, 34):
            for b in board.steps[a]:
                assert a in board.steps[b], (mode, a, b)


@pytest.mark.parametrize("mode", list(Diagonals))
def test_a_jump_goes_over_the_next_hole_on_one_line_to_the_hole_beyond(mode: Diagonals) -> None:
    board = cross33(mode)
    for a in range(1, 34):
        for over, land in board.jumps[a]:
            (ra, ca), (ro, co), (rl, cl) = board.coords[a], board.coords[over], board.coords[land]
            assert (ro - ra, co - ca) == (rl - ro, cl - co)
            assert over in board.steps[a] and land in board.steps[over]
            assert board.over[(a, land)] == over


def test_board_is_built_once_per_pattern() -> None:
    assert cross33(Diagonals.ALL) is cross33(Diagonals.ALL)
