"""The board's wires for gpiozero's MockFactory: reed switches between row and column lines,
one diode each (or none, to show the ghosting the diodes prevent).

Row lines are gpiozero ``MockConnectedPin``s: when the scanner drives one, the column lines are
driven from the wire side (``drive_low``/``drive_high``) through whichever switches are closed.
Columns are plain ``MockPin``s with the pull the scanner asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPin


class RowLinePin(MockConnectedPin):
    """A row line: a change of its level changes what the column lines read."""

    def __init__(self, factory: Any, info: Any, wires: MatrixWires) -> None:
        super().__init__(factory, info)
        self.wires = wires

    def _change_state(self, value: bool) -> bool:
        changed = MockPin._change_state(self, value)
        self.wires.settle()
        return changed


class MatrixWires:
    def __init__(
        self,
        factory: MockFactory,
        rows: Sequence[str],
        cols: Sequence[str],
        *,
        active_low: bool = True,
        diodes: bool = True,
    ) -> None:
        self.closed: set[tuple[int, int]] = set()
        self.lock = threading.RLock()  # the scanner's thread and the test's hand both touch it
        self.diodes = diodes
        self.select = 0 if active_low else 1
        self.rows: list[RowLinePin] = [
            factory.pin(name, pin_class=RowLinePin, wires=self) for name in rows
        ]
        self.cols: list[MockPin] = [factory.pin(name) for name in cols]

    def close(self, row: int, col: int) -> None:
        with self.lock:
            self.closed.add((row, col))
            self.settle()

    def open(self, row: int, col: int) -> None:
        with self.lock:
            self.closed.discard((row, col))
            self.settle()

    def settle(self) -> None:
        """Drive every column line to what the selected rows and closed switches make it."""
        with self.lock:
            self._settle()

    def _settle(self) -> None:
        selected = {
            r
            for r, pin in enumerate(self.rows)
            if pin.function == "output" and pin.state == self.select
        }
        active = self._reachable(selected)
        for c, pin in enumerate(self.cols):
            if pin.function != "input":
                continue
            if c in active:
                pin.drive_low() if self.select == 0 else pin.drive_high()
            elif pin.pull == "up":
                pin.drive_high()
            elif pin.pull == "down":
                pin.drive_low()

    def _reachable(self, selected: set[int]) -> set[int]:
        if self.diodes:  # current flows only from a column into its own switch's row
            return {c for r, c in self.closed if r in selected}
        # no diodes: current also flows backwards through switches, row to column to row ...
        rows, cols = set(selected), set()
        while True:
            new_cols = {c for r, c in self.closed if r in rows} - cols
            if not new_cols:
                return cols
            cols |= new_cols
            rows |= {r for r, c in self.closed if c in cols}
