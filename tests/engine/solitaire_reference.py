"""A plain Peg Solitaire search to check the solver against: Python ints, the engine's jump
table, each symmetry applied hole by hole. Slow, and obviously right on small positions."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.engine.cross import HOLES, Diagonals, cross33
from reedboard.engine.solitaire.solver import HOLE_BIT, Symmetry, key_of

JUMPS = tuple(
    (HOLE_BIT[hole], HOLE_BIT[over], HOLE_BIT[land])
    for hole in HOLES
    for over, land in cross33(Diagonals.NONE).jumps[hole]
)


def after_jumps(x: int) -> list[int]:
    """The board after each jump, one per jump (the same board twice if two jumps give it)."""
    return [x ^ a ^ b ^ c for a, b, c in JUMPS if x & a and x & b and not x & c]


def canonical(x: int, group: Sequence[Symmetry]) -> int:
    """The solver's choice of key for a class: the key of the least image."""
    return key_of(min(s.apply(x) for s in group))


@functools.cache
def can_finish(x: int, finish: int) -> bool:
    if x == HOLE_BIT[finish]:
        return True
    return any(can_finish(c, finish) for c in after_jumps(x))


@dataclass(frozen=True)
class Counts:
    reachable: int
    winning: int
    solutions: int
    sequences: int


def counts(board: int, finish: int, group: Sequence[Symmetry]) -> Counts:
    """The four counts from ``board`` by brute force (every position, every sequence)."""

    @functools.cache
    def sequences(x: int) -> int:
        kids = after_jumps(x)
        return sum(sequences(c) for c in kids) if kids else 1

    @functools.cache
    def solutions(x: int) -> int:
        if x == HOLE_BIT[finish]:
            return 1
        return sum(solutions(c) for c in after_jumps(x))

    seen = {board}
    todo = [board]
    while todo:
        for c in after_jumps(todo.pop()):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    classes = {canonical(x, group) for x in seen}
    winning = {canonical(x, group) for x in seen if solutions(x) > 0}
    return Counts(len(classes), len(winning), solutions(board), sequences(board))
