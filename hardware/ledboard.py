"""Single-colour LEDs on GPIO pins as a gpiozero LEDBoard, for small builds.

Colour is lost: any lit point is on; blink blinks; pulse blinks slowly. The pins are in LED
index order, so the layout's ``led`` numbers pick them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import LEDBoard

from hardware.board_io import Pattern

BLINK = (0.25, 0.25)
SLOW_BLINK = (0.5, 0.5)


class LedBoardLeds:
    def __init__(self, pins: Sequence[str], pin_factory: Any = None) -> None:
        self.board = LEDBoard(*pins, pin_factory=pin_factory)
        self.count = len(pins)
        self._last: list[Pattern | None] = [None] * self.count

    def write(self, patterns: Sequence[Pattern | None]) -> bool:
        """Show one pattern (or None for off) per LED index; only changed LEDs are touched."""
        if len(patterns) != self.count:
            raise ValueError(f"{len(patterns)} LEDs for a board of {self.count}")
        changed = False
        for i, pattern in enumerate(patterns):
            if pattern == self._last[i]:
                continue
            led = self.board[i]
            if pattern is None:
                led.off()
            elif pattern is Pattern.STEADY:
                led.on()
            else:
                on, off = BLINK if pattern is Pattern.BLINK else SLOW_BLINK
                led.blink(on_time=on, off_time=off)
            self._last[i] = pattern
            changed = True
        return changed

    def close(self) -> None:
        self.board.close()
