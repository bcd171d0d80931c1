"""The LED compositor: one animation clock for a board's LEDs.

The daemon says what it wants shown: a frame (a :class:`~reedboard.hardware.board_io.Light`, colour
and
pattern, a point) and the dice. The compositor owns everything that moves: blinking, pulsing,
the game-over sweep. At each tick it renders the colour of every LED in the chain (points,
then the dice's pips) and writes the chain to the driver's
:class:`~reedboard.hardware.board_io.LedSink`
when it differs from the last one. Drivers only put colours on their LEDs, so every board
animates alike: the SPI chain, single-colour LEDs on a gpiozero LEDBoard, the Pico link, the
simulated board.

The clock: the frame's animated lights start together, lit, whenever they change (a new fix
to blink, the sweep beginning); a change of steady lights alone does not disturb them. The
compositor renders only when something was shown or its animation is due (:meth:`next_tick`):
a blink costs four renders a second, a steady frame none. The daemon runs :meth:`run` on its
loop (real time); tests call :meth:`tick` with a virtual clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from reedboard.hardware.dice_pips import pip_lights
from reedboard.hardware.led_chain import check_frame, next_change, render, sweep_column
from reedboard.hardware.lights import Colour, LedFrame, LedSink, Light, Pattern
from reedboard.wiring.layout import Layout

log = logging.getLogger("reedboard")


class Compositor:
    def __init__(
        self, layout: Layout, sink: LedSink, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.layout = layout
        self.sink = sink
        self.clock = clock
        """What "now" is for :meth:`show` and :meth:`show_dice`, which render at once."""
        self._frame: dict[str, Light] = {}
        self._dice: tuple[int, ...] | None = None
        self._animated: dict[str, Light] = {}
        self._patterns: set[Pattern] = set()
        self._epoch = 0.0
        """When the frame's animated lights started."""
        self._dirty = False
        self._due: float | None = None
        self._due_t = 0.0
        """The animation time of the next change, which a tick at :attr:`_due` renders (so
        the float sum ``epoch + t`` can never leave it a hair before the change)."""
        self._last: list[Colour] | None = None
        self._woken: asyncio.Event | None = None
        self._failing = False
        self.renders = 0
        """Chains rendered (for tests and benchmarks)."""
        self.writes = 0
        """Chains written to the sink (those that differed from the last)."""

    # -- what to show ----------------------------------------------------------------------------

    @property
    def frame(self) -> dict[str, Light]:
        """The frame last shown (what is wanted, not the colours of the moment)."""
        return self._frame

    @property
    def dice(self) -> tuple[int, ...] | None:
        return self._dice

    def show(self, frame: LedFrame) -> None:
        """Show a whole frame, from now on (refused, naming the point, if it lights a point
        not on the board). Call it from the loop's thread."""
        check_frame(self.layout, frame)
        if frame == self._frame:
            return
        self._frame = dict(frame)
        animated = {p: light for p, light in frame.items() if light.pattern is not Pattern.STEADY}
        if animated != self._animated:
            self._animated = animated
            self._patterns = {light.pattern for light in animated.values()}
            self._epoch = self.clock()
            self._due = None  # what was due belonged to the animation that ended
        self._changed()

    def show_dice(self, values: tuple[int, ...] | None) -> None:
        """Show the dice as pips; None darkens them (refused if no die shows a value)."""
        pip_lights(values)
        values = None if values is None else tuple(values)
        if values == self._dice:
            return
        self._dice = values
        self._changed()

    def _changed(self) -> None:
        self._dirty = True
        self.tick(self.clock())
        if self._woken is not None:
            self._woken.set()

    # -- the clock ---------------------------------------------------------------------------

    def tick(self, now: float) -> bool:
        """Render the chain at ``now`` if something changed or the animation is due, and
        write it to the sink if it differs from the last; returns whether it rendered."""
        if not self._dirty and (self._due is None or now < self._due):
            return False
        t = now - self._epoch
        if self._due is not None and now >= self._due:
            t = max(t, self._due_t)
        self._dirty = False
        chain = render(self.layout, self._frame, self._dice, t)
        self.renders += 1
        after = next_change(self.layout, self._patterns, t) if self._patterns else None
        self._due = None if after is None else self._epoch + after
        self._due_t = 0.0 if after is None else after
        if chain != self._last:
            try:
                self.sink.write(chain)
            except Exception:  # the LEDs must not stop the game: say it once, try again later
                if not self._failing:
                    log.exception("the LEDs could not be written (the game goes on)")
                self._failing = True
                return True
            if self._failing:
                log.warning("the LEDs are written again")
            self._failing = False
            self._last = chain
            self.writes += 1
        return True

    def next_tick(self) -> float | None:
        """When :meth:`tick` next has something to do (None: not until something is shown)."""
        if self._dirty:
            return self.clock()
        return self._due

    async def run(self) -> None:
        """Tick on the running loop, on the clock, until cancelled: at each animation step
        and at once after anything is shown."""
        woken = self._woken = asyncio.Event()
        try:
            while True:
                self.tick(self.clock())
                woken.clear()
                due = self.next_tick()
                timeout = None if due is None else max(0.0, due - self.clock())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), timeout)
        finally:
            self._woken = None

    # -- what it looks like ------------------------------------------------------------------

    @property
    def chain(self) -> list[Colour] | None:
        """The colours last written to the sink (None: nothing yet)."""
        return self._last

    def lights(self, now: float) -> dict[str, Light]:
        """The frame as it looks at ``now``, for a drawing that blinks by itself (a terminal):
        the sweep's lit column as steady lights, the points it has left dark left out."""
        column = None
        if Pattern.SWEEP in self._patterns:
            column = sweep_column(self.layout, now - self._epoch)
        out: dict[str, Light] = {}
        for point, light in self._frame.items():
            if light.pattern is not Pattern.SWEEP:
                out[point] = light
            elif self.layout.points[point].x == column:
                out[point] = Light(light.colour)
        return out
