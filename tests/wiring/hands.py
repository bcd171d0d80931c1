"""A builder's hand on a board for the wiring wizards' tests, through gpiozero's MockFactory
(the board's wires from the wire side) or through the real firmware on a pty.

The matrix is modelled electrically: a switch conducts from its column line to its row line
through its diode, both ways where the diode is missing (``diodeless``). What the scanner
reads at a switch place is whether its column line is pulled to its row line when that row is
selected alone: so three closed switches and one missing diode ghost a fourth place.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from reedboard.bridge.simulator import SimulatedPico
from tests.hardware.matrix_wires import MatrixWires

Switch = tuple[int, int]


def reachable(
    closed: Iterable[Switch], selected: set[int], diodeless: Collection[Switch]
) -> set[int]:
    """The column lines pulled to the selected rows through the closed switches."""
    closed = set(closed)
    rows, cols = set(selected), set[int]()
    while True:
        new_cols = {c for r, c in closed if r in rows} - cols
        if not new_cols:
            return cols
        cols |= new_cols
        rows |= {r for r, c in closed if c in cols and (r, c) in diodeless}


def seen(closed: Iterable[Switch], diodeless: Collection[Switch], rows: int) -> set[Switch]:
    """The switch places a row-by-row scan reads as closed."""
    closed = set(closed)
    return {(r, c) for r in range(rows) for c in reachable(closed, {r}, diodeless)}


class LeakyWires(MatrixWires):
    """MatrixWires with some switches' diodes missing."""

    def __init__(self, *args: Any, diodeless: Collection[Switch] = (), **kwargs: Any) -> None:
        self.diodeless = set(diodeless)
        super().__init__(*args, **kwargs)

    def _reachable(self, selected: set[int]) -> set[int]:
        return reachable(self.closed, selected, self.diodeless)


class FirmwareMatrix:
    """The same model for the firmware on a pty: it is told every place the scan would read."""

    def __init__(
        self, fw: SimulatedPico, matrix: tuple[int, int], diodeless: Collection[Switch] = ()
    ) -> None:
        self.fw, self.rows, self.cols = fw, matrix[0], matrix[1]
        self.diodeless = set(diodeless)
        self.closed: set[Switch] = set()
        self.shown: set[Switch] = set()

    def close(self, row: int, col: int) -> None:
        self.closed.add((row, col))
        self._apply()

    def open(self, row: int, col: int) -> None:
        self.closed.discard((row, col))
        self._apply()

    def _apply(self) -> None:
        now = seen(self.closed, self.diodeless, self.rows)
        for r, c in sorted(self.shown - now):
            self.fw.set(r * self.cols + c, False)
        for r, c in sorted(now - self.shown):
            self.fw.set(r * self.cols + c, True)
        self.shown = now
