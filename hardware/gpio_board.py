"""The direct-GPIO board: the Pi scans the matrix, reads the buttons and drives the LEDs itself.

Hardware callbacks (the scanning thread, gpiozero's button threads) reach the asyncio loop
only through ``EventQueue.put_threadsafe``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from hardware.board_io import OFF, ButtonEvent, Pattern, SensorEvent
from hardware.buttons import Buttons
from hardware.dice_pips import PIPS_PER_DIE, pip_lights
from hardware.events import EventQueue
from hardware.led_chain import render
from hardware.led_state import LedState
from hardware.ledboard import LedBoardLeds
from hardware.matrix import MatrixScanner
from hardware.ws2812 import SpiLedChain
from wiring.build import Build

ANIMATION_PERIOD = 0.04
"""How often blinking and pulsing LEDs are redrawn (25 Hz)."""


class GpioBoard(LedState):
    def __init__(
        self,
        build: Build,
        *,
        pin_factory: Any = None,
        spi: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if build.driver != "gpio":
            raise ValueError(f"build {build.name} is for the {build.driver} driver, not gpio")
        self.build = build
        self._init_leds(build.layout)
        self._clock = clock
        self._events = EventQueue()
        m = build.matrix
        self._scanner = MatrixScanner(
            m.rows,
            m.cols,
            self.layout.switch_map(),
            self._switch_changed,
            active_low=m.active_low,
            scan_hz=m.scan_hz,
            stable_ms=m.stable_ms,
            pin_factory=pin_factory,
            clock=clock,
        )
        self._buttons = Buttons(
            build.buttons,
            self._button_pressed,
            bounce_ms=build.bounce_ms,
            pin_factory=pin_factory,
            clock=clock,
        )
        leds = build.leds
        self._chain: SpiLedChain | None = None
        self._ledboard: LedBoardLeds | None = None
        if leds.driver == "ws2812-spi":
            self._chain = SpiLedChain(
                self.layout.led_count,
                bus=leds.spi_bus,
                device=leds.spi_device,
                brightness=leds.brightness,
                max_milliamps=leds.max_milliamps,
                order=leds.order,
                spi=spi,
            )
        elif leds.driver == "ledboard":
            self._ledboard = LedBoardLeds(leds.pins, pin_factory=pin_factory)
        self._animator: asyncio.Task[None] | None = None

    # -- callbacks from other threads --------------------------------------------------------

    def _switch_changed(self, point: str, on: bool, t: float) -> None:
        self._events.put_threadsafe(SensorEvent(point, on, t))

    def _button_pressed(self, name: str, t: float) -> None:
        self._events.put_threadsafe(ButtonEvent(name, t))

    # -- BoardIO -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind to the running loop and start scanning and animating."""
        self._events.bind(asyncio.get_running_loop())
        self._scanner.start()
        if self._chain is not None:
            self._animator = asyncio.create_task(self._animate())

    def snapshot(self) -> frozenset[str]:
        return self._scanner.snapshot()

    @property
    def events(self) -> EventQueue:
        return self._events

    def refresh(self) -> None:
        """Send the LEDs as they should look now (drivers skip unchanged frames)."""
        if self._chain is not None:
            self._chain.write(render(self.layout, self.frame, self.dice, self._clock()))
        elif self._ledboard is not None:
            patterns: list[Pattern | None] = [None] * self._ledboard.count
            for point, light in self.frame.items():
                led = self.layout.points[point].led
                if led < len(patterns) and light.colour != OFF:
                    patterns[led] = light.pattern
            if self._ledboard.count > self.layout.dice_start:
                dice = pip_lights(self.dice, self.layout.dice_leds // PIPS_PER_DIE)
                for i, on in enumerate(dice):
                    patterns[self.layout.dice_start + i] = Pattern.STEADY if on else None
            self._ledboard.write(patterns)

    async def _animate(self) -> None:
        while True:
            await asyncio.sleep(ANIMATION_PERIOD)
            if any(light.pattern is not Pattern.STEADY for light in self.frame.values()):
                self.refresh()

    async def aclose(self) -> None:
        if self._animator is not None:
            self._animator.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._animator
        self.close()

    def close(self) -> None:
        self._scanner.close()
        self._buttons.close()
        if self._chain is not None:
            self._chain.close()
        if self._ledboard is not None:
            self._ledboard.close()
