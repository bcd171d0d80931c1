"""Peg Solitaire solved (reedboard/engine/solitaire/solver.py), checked against a plain search."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine.cross import HOLES
from reedboard.engine.solitaire import solver as solver
from reedboard.engine.solitaire.solver import (
    FULL,
    HOLE_BIT,
    SYMMETRIES,
    SolverError,
    SolverUnavailableError,
    WinningSet,
    bits_of,
    board_of,
    compact_of,
    holes_of,
    key_of,
    symmetries_fixing,
    symmetries_keeping,
)
from tests.engine import solitaire_reference as ref

boards = st.sets(st.sampled_from(list(HOLES))).map(bits_of)
small_boards = st.sets(st.sampled_from(list(HOLES)), min_size=1, max_size=10).map(bits_of)
holes = st.sampled_from(list(HOLES))


def position_of(x: int, **options: Any) -> Any:
    cells = "".join("o" if x & HOLE_BIT[h] else "." for h in HOLES)
    return engine.from_text("solitaire", cells + " -", **options)


# -- the board as bits ---------------------------------------------------------------------


def test_the_eight_symmetries_are_the_squares_and_each_keeps_the_board() -> None:
    perms = {tuple(s.hole(h) for h in HOLES) for s in SYMMETRIES}
    assert len(perms) == 8
    for perm in perms:
        assert sorted(perm) == list(HOLES)
    # closed under composition: a group
    for a, b in itertools.product(perms, repeat=2):
        assert tuple(a[b[h - 1] - 1] for h in HOLES) in perms
    # and they keep jumps jumps
    for s in SYMMETRIES:
        for a, b, c in ref.JUMPS:
            moved = tuple(s.apply(x) for x in (a, b, c))
            assert moved in ref.JUMPS


def test_which_symmetries_keep_a_hole_in_place() -> None:
    assert len(symmetries_fixing(17)) == 8  # the centre
    assert len(symmetries_fixing(5)) == 2  # on the middle column: its mirror
    assert len(symmetries_fixing(9)) == 2  # on a diagonal: the transpose
    assert len(symmetries_fixing(1)) == 1  # on no axis
    assert len(symmetries_fixing(17, 5)) == 2
    assert len(symmetries_fixing(5, 15)) == 1


@given(boards)
def test_keys_round_trip_and_compact_keys_keep_their_order(x: int) -> None:
    assert holes_of(x) == sorted(h for h in HOLES if x & HOLE_BIT[h])
    assert board_of(key_of(x)) == x
    assert compact_of(key_of(x)) < 1 << 33


@given(boards, boards)
def test_compact_keys_sort_as_keys_do(x: int, y: int) -> None:
    assert (key_of(x) < key_of(y)) == (compact_of(key_of(x)) < compact_of(key_of(y)))


@given(st.lists(boards, min_size=1, max_size=40), holes)
def test_the_word_operations_give_the_plain_canonical_key(xs: list[int], hole: int) -> None:
    """Byte swaps and delta swaps on whole arrays pick the same key as applying each
    symmetry hole by hole, for every hole's group."""
    for group in (SYMMETRIES, symmetries_fixing(hole)):
        out = np.empty(len(xs), np.uint64)
        solver._Kernels(group, size=16).keys(np.array(xs, np.uint64), out)
        assert out.tolist() == [ref.canonical(x, group) for x in xs]


@given(st.lists(boards, min_size=1, max_size=30))
def test_jumps_on_bitboards_are_the_engines_jumps(xs: list[int]) -> None:
    arr = np.array(xs, np.uint64)
    kids, parents = solver._children(arr, first=5)
    got = sorted(zip(parents.tolist(), kids.tolist(), strict=True))
    want = sorted((i + 5, c) for i, x in enumerate(xs) for c in ref.after_jumps(x))
    assert got == want
    assert solver.move_counts(arr).tolist() == [len(ref.after_jumps(x)) for x in xs]
    for x in xs[:3]:  # and the engine's own moves (for positions it accepts as Solitaire's)
        if 1 <= bin(x).count("1") <= 31:
            assert len(position_of(x).legal_moves) == len(ref.after_jumps(x))


# -- levels and counts ----------------------------------------------------------------------


def test_the_first_levels_from_the_centre_are_a_plain_searchs() -> None:
    levels = solver.reachable_levels(17, SYMMETRIES, down_to=26)
    level = {ref.canonical(FULL ^ HOLE_BIT[17], SYMMETRIES)}
    assert sorted(levels) == list(range(26, 33))
    for pegs in range(32, 25, -1):
        assert levels[pegs].tolist() == sorted(level)
        level = {ref.canonical(c, SYMMETRIES) for k in level for c in ref.after_jumps(board_of(k))}


def test_a_level_too_big_for_its_memory_is_expanded_in_passes_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    group = symmetries_fixing(5)
    whole = solver.reachable_levels(5, group, down_to=23)
    monkeypatch.setattr(solver, "LEVEL_BYTES", 1 << 17)  # a few passes from 25 pegs down
    passes: list[int] = []
    real = solver._pivots
    monkeypatch.setattr(solver, "_pivots", lambda *a: passes.append(a[2]) or real(*a))
    parts = solver.reachable_levels(5, group, down_to=23)
    assert passes and max(passes) > 3
    assert {p: v.tolist() for p, v in parts.items()} == {p: v.tolist() for p, v in whole.items()}


@given(small_boards, holes)
def test_the_four_counts_from_a_small_position_are_a_plain_searchs(x: int, finish: int) -> None:
    got = solver.analyse_from(x, finish)
    group = symmetries_keeping(x, finish)
    want = ref.counts(x, finish, group)
    assert got.symmetries == len(group)
    assert (got.reachable, got.winning, got.solutions, got.sequences) == (
        want.reachable,
        want.winning,
        want.solutions,
        want.sequences,
    )


def test_a_position_of_twelve_pegs_counts_as_a_plain_search() -> None:
    """A bigger case, with a symmetric start: classes, not positions, are counted."""
    x = bits_of([5, 10, 11, 15, 16, 17, 18, 19, 23, 24, 25, 29])
    group = symmetries_keeping(x, 17)
    assert len(group) > 1
    got = solver.analyse_from(x, 17)
    want = ref.counts(x, 17, group)
    assert (got.reachable, got.winning, got.solutions, got.sequences) == (
        want.reachable,
        want.winning,
        want.solutions,
        want.sequences,
    )


def test_counts_are_carried_exactly_past_64_bits() -> None:
    """Ways into a level's classes beyond 2^64 add up exactly (three 32-bit limbs)."""
    start = bits_of([5, 10, 11, 15, 16, 17, 18, 19, 23, 24, 25, 29])
    group = symmetries_keeping(start, 17)
    keys = np.array(sorted({ref.canonical(c, group) for c in ref.after_jumps(start)}), np.uint64)
    big = [(1 << 90) + 12345 * i + (1 << 63) for i in range(len(keys))]
    ways = np.array([[(w >> (32 * i)) & 0xFFFFFFFF for w in big] for i in range(3)], np.uint32)
    pool = solver._Pool(group)
    try:
        nxt, nxt_ways, dead = solver._count_step(pool, keys, ways)
    finally:
        pool.close()
    want: dict[int, int] = {}
    for k, w in zip(keys.tolist(), big, strict=True):
        for c in ref.after_jumps(board_of(k)):
            want[ref.canonical(c, group)] = want.get(ref.canonical(c, group), 0) + w
    got = {
        k: sum(int(nxt_ways[i, j]) << (32 * i) for i in range(3))
        for j, k in enumerate(nxt.tolist())
    }
    assert got == want
    assert dead == sum(
        w for k, w in zip(keys.tolist(), big, strict=True) if not ref.after_jumps(board_of(k))
    )


def test_a_count_past_96_bits_is_refused_not_wrapped() -> None:
    sums = np.array([[0], [0], [1 << 33]], np.uint64)
    with pytest.raises(SolverError, match="2\\^96"):
        solver._carry(sums)


def test_a_board_without_pegs_is_no_analysis() -> None:
    with pytest.raises(SolverError, match="no pegs"):
        solver.analyse_from(0, 17)


@pytest.mark.slow
def test_the_published_counts_for_the_centre() -> None:
    """The four counts for the English board from the centre (about 20-30 s, 650 MB)."""
    counts = solver.analyse(17)
    assert counts.symmetries == 8
    assert counts.reachable == 23_475_688
    assert counts.winning == 1_679_072
    assert counts.solutions == 40_861_647_040_079_968
    assert counts.sequences == 577_116_156_815_309_849_672


# -- the winning set ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def endgames() -> dict[int, WinningSet]:
    """Winning sets for finishes 17 and 5 with the levels for positions of up to 11 pegs."""
    return {f: WinningSet(f, solver.finish_levels(f, down_to=22).__getitem__) for f in (17, 5)}


@given(small_boards, st.sampled_from([17, 5]))
def test_the_hint_agrees_with_a_plain_search(
    endgames: dict[int, WinningSet], x: int, finish: int
) -> None:
    """On any position of up to 10 pegs (most can never occur in a game): a hint exactly when
    a win exists, and the position after it can still be won."""
    ws = endgames[finish]
    position = position_of(x, finish=finish)
    wins = ref.can_finish(x, finish)
    assert ws.can_win(position) == wins
    hint = ws.hint(position)
    if position.is_over():
        assert hint is None
        return
    assert (hint is not None) == wins
    winning = ws.winning_moves(position)
    for move in position.legal_moves:
        after = position.copy()
        after.push(move)
        assert (move in winning) == ref.can_finish(bits_of(after.holes_of("o")), finish)


@given(small_boards)
def test_following_the_hints_from_a_winnable_end_game_wins(
    endgames: dict[int, WinningSet], x: int
) -> None:
    ws = endgames[17]
    position = position_of(x)
    if not ws.can_win(position):
        return
    while (move := ws.hint(position)) is not None:
        position.push(move)
    over = position.outcome()
    assert over is not None and over.winner == "player", position.to_text()


def test_following_the_hints_from_the_start_always_wins(
    solitaire_levels: dict[int, Any],
) -> None:
    """With the whole set: from the start, and from every position a game reaches by taking
    the hint or, now and then, another winning jump."""
    ws = WinningSet(17, solitaire_levels.__getitem__)
    for seed in range(6):
        position = engine.start("solitaire")
        for ply in itertools.count():
            moves = ws.winning_moves(position)
            if not moves:
                break
            position.push(moves[(seed * ply) % len(moves)] if seed else ws.hint(position))
        over = position.outcome()
        assert over is not None and over.winner == "player", (seed, position.to_text())
    # the seed sheet's own solution stays winnable throughout
    from tests.engine.test_solitaire import SEED_KEY

    position = engine.start("solitaire")
    for text in SEED_KEY:
        assert ws.can_win(position)
        position.push_text(text)
    assert ws.can_win(position)  # one peg, on the finish: won


def test_the_winning_set_answers_only_its_own_game() -> None:
    ws = WinningSet(17, lambda m: (np.empty(0, np.uint32), 0))
    with pytest.raises(SolverError, match="diagonals=alternate"):
        ws.hint(engine.start("solitaire", diagonals="alternate"))
    with pytest.raises(SolverError, match="finish 17, the game's is 5"):
        ws.hint(engine.start("solitaire", start=5))
    with pytest.raises(SolverError, match="fox-and-geese"):
        ws.can_win(engine.start("fox-and-geese"))


def test_without_numpy_the_solver_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver, "np", None)
    with pytest.raises(SolverUnavailableError, match=r"pip install -e '\.\[solver\]'"):
        solver.analyse(17)
    assert isinstance(SolverUnavailableError("x"), engine.EngineError)
