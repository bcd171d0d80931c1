"""An in-memory board with the full BoardIO contract: for the demo, the web view and tests.

Pieces are placed and lifted by calling :meth:`place` and :meth:`lift` (a script, a test, the
terminal demo). Its LEDs are a list of colours: the compositor (``board.leds``) writes the
chain there as it animates, and :meth:`chain` reads it back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from reedboard.hardware.board_io import BUTTONS, ButtonEvent, SensorEvent
from reedboard.hardware.driver import Driver
from reedboard.hardware.events import EventQueue
from reedboard.hardware.lights import OFF, Colour
from reedboard.wiring.layout import Layout


class SimulatedBoard(Driver):
    def __init__(
        self,
        layout: Layout,
        occupied: Iterable[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(layout, self, clock)
        self._clock = clock
        self._occupied: set[str] = set()
        for point in occupied:
            self.check_point(point)
            self._occupied.add(point)
        self._events = EventQueue()
        self._chain: list[Colour] = [OFF] * layout.led_count
        self.frames_shown = 0
        """How many chains (each different from the one before) the LEDs were given."""

    # -- the player's side -------------------------------------------------------------------

    def place(self, point: str) -> None:
        """A piece put on ``point`` (its switch closes)."""
        self._set(point, True)

    def lift(self, point: str) -> None:
        """A piece lifted off ``point`` (its switch opens)."""
        self._set(point, False)

    def press(self, button: str) -> None:
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r} (buttons: {', '.join(BUTTONS)})")
        self._events.put(ButtonEvent(button, self._clock()))

    def _set(self, point: str, on: bool) -> None:
        self.check_point(point)
        if (point in self._occupied) == on:
            return  # a switch that does not change sends nothing
        if on:
            self._occupied.add(point)
        else:
            self._occupied.discard(point)
        self._events.put(SensorEvent(point, on, self._clock()))

    def check_point(self, point: str) -> None:
        """A ValueError naming the board, if it has no ``point``."""
        if point not in self.layout.points:
            raise ValueError(f"board {self.layout.name} has no point {point!r}")

    # -- BoardIO -----------------------------------------------------------------------------

    def snapshot(self) -> frozenset[str]:
        return frozenset(self._occupied)

    @property
    def events(self) -> EventQueue:
        return self._events

    # -- its LEDs (the compositor's sink) ---------------------------------------------------

    def write(self, colours: Sequence[Colour]) -> None:
        self._chain = list(colours)
        self.frames_shown += 1

    def chain(self) -> list[Colour]:
        """Every LED's colour as the LEDs show it now, points then dice pips."""
        return list(self._chain)
