"""The board's buttons as gpiozero Buttons (to ground, with the Pi's pull-ups)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button


class Buttons:
    """Calls ``on_press(name, time)`` from gpiozero's callback thread on each press."""

    def __init__(
        self,
        pins: Mapping[str, str],
        on_press: Callable[[str, float], None],
        *,
        bounce_ms: float = 20.0,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._on_press = on_press
        self._clock = clock
        bounce = bounce_ms / 1000.0 if bounce_ms > 0 else None
        self.buttons: dict[str, Button] = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
            button.when_pressed = functools.partial(self._pressed, name)
            self.buttons[name] = button

    def _pressed(self, name: str) -> None:
        self._on_press(name, self._clock())

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
