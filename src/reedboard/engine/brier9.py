"""The Fox and Rabbit board ``brier9`` (docs/rules.md §2): circles on a 9x9 grid joined by straight
orthogonal lines. Columns a-i left to right, rows 1-9 bottom to top, like chess.

These are the rules' facts about the board; the physical layout (drawing position, switch
matrix, LED index) is in ``reedboard/wiring/layouts/brier9.toml`` and a test keeps the two in step.
"""

from __future__ import annotations

FILES = "abcdefghi"
RANKS = 9

CIRCLES: tuple[str, ...] = tuple(f"{f}{r}" for r in range(1, RANKS + 1) for f in FILES)
"""Every circle id, a1 b1 … i1 a2 … i9."""

BRIER_PATCH: frozenset[str] = frozenset({"e5", "d5", "f5", "e4", "e6"})
"""The five red circles in the centre."""

STARTS: dict[str, str] = {"WR": "a1", "RF": "i1", "BR": "i9", "GF": "a9"}
"""Where each piece starts: White Rabbit, Red Fox, Brown Rabbit, Gray Fox."""

HOMES: dict[str, str] = {"WR": "e9", "BR": "e1"}
"""Each rabbit's own home."""


def xy(circle: str) -> tuple[int, int]:
    """(column, row) from 0: a1 is (0, 0), i9 is (8, 8)."""
    return FILES.index(circle[0]), int(circle[1:]) - 1


def circle_at(x: int, y: int) -> str | None:
    """The circle at (column, row), or None off the board."""
    if 0 <= x < len(FILES) and 0 <= y < RANKS:
        return f"{FILES[x]}{y + 1}"
    return None


def is_circle(text: str) -> bool:
    return len(text) == 2 and text[0] in FILES and text[1] in "123456789"[:RANKS]
