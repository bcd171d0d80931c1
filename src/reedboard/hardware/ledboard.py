"""Single-colour LEDs on GPIO pins as a gpiozero LEDBoard, for small builds: an LED sink.

Colour is lost: an LED is on while its colour is at half brightness or more (any channel at
128 or more), so a steady light is on, a blink blinks and a pulse blinks slowly (on for half
of its second), each timed by the compositor. The pins are in LED index order, so the layout's
``led`` numbers pick them; with fewer pins than the chain has LEDs (no pins for the dice) the
rest of the chain is not shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import LEDBoard

from reedboard.hardware.lights import Colour

ON_AT = 128
"""A channel at this level or above turns a single-colour LED on."""


def lit(colour: Colour) -> bool:
    return max(colour) >= ON_AT


class LedBoardLeds:
    def __init__(self, pins: Sequence[str], pin_factory: Any = None) -> None:
        self.board = LEDBoard(*pins, pin_factory=pin_factory)
        self.count = len(pins)
        self._last: list[bool | None] = [None] * self.count

    def write(self, colours: Sequence[Colour]) -> None:
        """Turn each LED on or off by its colour; only LEDs that change are touched."""
        if len(colours) < self.count:
            raise ValueError(f"{len(colours)} colours for a board of {self.count} LEDs")
        for i in range(self.count):
            on = lit(colours[i])
            if on == self._last[i]:
                continue
            led = self.board[i]
            if on:
                led.on()
            else:
                led.off()
            self._last[i] = on

    @property
    def states(self) -> list[bool]:
        """Each LED: on or off."""
        return [bool(led.is_lit) for led in self.board]

    def close(self) -> None:
        self.board.close()
