"""The dice as pips: 7 LEDs a die, laid out like a die's face, after the points in the chain.

Pip LED order within a die (as wired under the board)::

    0 . 1        top-left, top-right
    2 3 4        middle-left, centre, middle-right
    5 . 6        bottom-left, bottom-right
"""

from __future__ import annotations

PIPS_PER_DIE = 7

FACES: dict[int, frozenset[int]] = {
    1: frozenset({3}),
    2: frozenset({0, 6}),
    3: frozenset({0, 3, 6}),
    4: frozenset({0, 1, 5, 6}),
    5: frozenset({0, 1, 3, 5, 6}),
    6: frozenset({0, 1, 2, 4, 5, 6}),
}


def pip_lights(values: tuple[int, ...] | None, dice: int = 2) -> tuple[bool, ...]:
    """Which of the ``7 * dice`` pip LEDs are lit for a throw (None: all dark)."""
    lit = [False] * (PIPS_PER_DIE * dice)
    if values is None:
        return tuple(lit)
    if len(values) > dice:
        raise ValueError(f"dice {list(values)}: the board shows at most {dice} dice")
    for i, value in enumerate(values):
        if value not in FACES:
            raise ValueError(f"dice {list(values)}: a die shows 1 to 6, not {value}")
        for pip in FACES[value]:
            lit[i * PIPS_PER_DIE + pip] = True
    return tuple(lit)
