"""The LEDs over the Pico link, as the real firmware (MicroPython's Unix port, behind a pty)
shows them: every pattern, step by step of the compositor's clock; and in real time, a blink
that alternates at its period and a sweep that crosses every column. (Before the compositor,
the link rendered a frame once, at the moment it was shown: a blink shown in its dark half
stayed dark and nothing more was sent.)"""

from __future__ import annotations

import asyncio
import itertools
import queue
import statistics
import time
from collections.abc import Iterator

import pytest

from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.hardware.led_chain import BLINK_PERIOD, SWEEP_SECONDS
from reedboard.hardware.lights import RED, WHITE, Colour, Light, Pattern
from reedboard.hardware.ws2812 import limit
from reedboard.wiring.layout import load_layout
from tests.hardware.led_patterns import VirtualClock, every_pattern

LAYOUT = load_layout("cross33")


@pytest.fixture
def pico() -> Iterator[Firmware]:
    fw = Firmware("micropython", 36, LAYOUT.led_count)
    yield fw
    fw.close()


def wait_shown(fw: Firmware, want: list[Colour], timeout: float = 5.0) -> None:
    """Wait until the firmware shows ``want`` (frames on the way there may come first)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = fw.next_leds(max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if last == want:
            return
    raise AssertionError(f"the firmware never showed {want}; last {last}")


def test_every_pattern_through_the_firmware(pico: Firmware) -> None:
    """Steady, blink, pulse, sweep and pips, each step of the compositor's (virtual) clock
    checked on the chain the firmware shows, brightness cap included."""
    with PicoBoard(pico.port, LAYOUT, brightness=0.5) as board:
        wait_shown(pico, [(0, 0, 0)] * LAYOUT.led_count)  # linked: the dark frame came whole
        clock = VirtualClock()
        board.leds.clock = clock

        def seen(chain: list[Colour]) -> None:
            wait_shown(pico, limit(chain, board.brightness, board.max_milliamps))

        done = every_pattern(board, LAYOUT, clock, seen)
    assert done == ["steady", "blink", "pulse", "sweep", "dice"]


def test_a_blink_alternates_at_its_period_on_the_firmware(pico: Firmware) -> None:
    """The compositor on the loop, in real time: a red "remove here" blink, shown at a moment
    chosen to be in what used to be its dark half, reaches the firmware lit, then dark and
    lit in turn every quarter second; only changed frames go over the link."""
    point = "17"
    led = LAYOUT.points[point].led

    async def scenario() -> list[tuple[float, bool]]:
        async with PicoBoard(pico.port, LAYOUT, brightness=1.0) as board:
            running = asyncio.create_task(board.leds.run())
            async with asyncio.timeout(5):
                while not pico.shown:
                    await asyncio.sleep(0.01)
            # the middle of what the old clock (time modulo the period) made the dark half
            await asyncio.sleep((BLINK_PERIOD * 0.75 - time.monotonic()) % BLINK_PERIOD)
            start = time.monotonic()
            board.show({point: Light(RED, Pattern.BLINK)})
            await asyncio.sleep(2.1)
            running.cancel()
        return [(t - start, chain[led] == RED) for t, chain in pico.shown if t >= start]

    frames = asyncio.run(scenario())
    states = [lit for _, lit in frames]
    assert states[0] is True and frames[0][0] < 0.1, frames  # lit at once
    assert all(a != b for a, b in itertools.pairwise(states))  # each frame a change
    assert len(states) >= 7, frames  # about 8 halves in 2.1 s
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(frames)]
    assert statistics.median(gaps) == pytest.approx(BLINK_PERIOD / 2, abs=0.04), gaps
    assert all(0.1 < g < 0.45 for g in gaps), gaps


def test_the_sweep_crosses_every_column_on_the_firmware(pico: Firmware) -> None:
    async def scenario() -> list[set[int]]:
        async with PicoBoard(pico.port, LAYOUT, brightness=1.0) as board:
            running = asyncio.create_task(board.leds.run())
            async with asyncio.timeout(5):
                while not pico.shown:
                    await asyncio.sleep(0.01)
            start = time.monotonic()
            board.show({p: Light(WHITE, Pattern.SWEEP) for p in LAYOUT.points})
            await asyncio.sleep(SWEEP_SECONDS + 0.4)
            running.cancel()
        return [
            {p.x for p in LAYOUT.points.values() if chain[p.led] == WHITE}
            for t, chain in pico.shown
            if t >= start
        ]

    columns = asyncio.run(scenario())
    assert columns == [{x} for x in range(LAYOUT.size[0])] + [set()]
