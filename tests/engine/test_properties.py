"""Hypothesis properties of the cross-board games, over any sequence of legal moves."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine

CROSS_GAMES = ["fox-and-geese", "fox-and-geese-mcloughlin", "solitaire"]
games = st.sampled_from(CROSS_GAMES)
diagonals = st.sampled_from(["alternate", "all", "none"])
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)


def _play(game: str, diag: str, picks: list[int]):  # type: ignore[no-untyped-def]
    """Yield (position before, move, position after) along a game chosen by ``picks``."""
    position = engine.start(game, diagonals=diag)
    for pick in picks:
        moves = list(position.legal_moves)
        if not moves:
            return
        move = moves[pick % len(moves)]
        before = position.copy(stack=False)
        position.push(move)
        yield before, move, position


@given(games, diagonals, choices)
def test_pieces_only_disappear_by_capture(game: str, diag: str, picks: list[int]) -> None:
    for before, move, after in _play(game, diag, picks):
        captured = len(move.path) - 1 if move.jump else 0
        assert len(after.occupied()) == len(before.occupied()) - captured
        jumped = (
            {before.board.over[(a, b)] for a, b in itertools.pairwise(move.path)}
            if (move.jump)
            else set()
        )
        # what vanished is exactly the jumped pieces (and the mover's start, refilled at its end)
        vanished = before.occupied() - after.occupied()
        assert vanished - {str(move.start)} == {str(h) for h in jumped} - {str(move.end)}
        # the mover is the same kind of piece at its end
        assert after.cells[move.end] == before.cells[move.start]
        # nothing else changed
        for hole in range(1, 34):
            if hole not in (*move.path, *jumped):
                assert after.cells[hole] == before.cells[hole]


@given(games, diagonals, choices)
def test_no_two_pieces_share_a_hole(game: str, diag: str, picks: list[int]) -> None:
    for before, move, after in _play(game, diag, picks):
        # a piece only lands on an empty hole: every landing of the path was free when reached
        assert before.cells[move.end] == ord(".") or move.end == move.start
        pieces = sum(after.count(p) for p in type(after).piece_chars)
        assert pieces == len(after.occupied())
        assert pieces + after.count(".") == 33


@given(diagonals, st.sampled_from([(7, 13), (), (10, 24)]), choices)
def test_mcloughlin_geese_never_move_backwards(
    diag: str, sideways: tuple[int, ...], picks: list[int]
) -> None:
    position = engine.start("fox-and-geese-mcloughlin", diagonals=diag, sideways_points=sideways)
    rows = position.board.coords
    for pick in picks:
        moves = list(position.legal_moves)
        if not moves:
            return
        move = moves[pick % len(moves)]
        if position.turn == "geese":
            (r0, _), (r1, _) = rows[move.start], rows[move.end]
            assert r1 < r0 or (r1 == r0 and move.start in sideways)
        position.push(move)
