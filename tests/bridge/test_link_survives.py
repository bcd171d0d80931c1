"""The Pi's side of the link survives anything the Pico's end of the wire carries, and notices
when the Pico falls silent: the real firmware (MicroPython's Unix port) behind a pty, with bytes
of the test's own put on the way to the Pi."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator

import pytest

from reedboard.bridge.firmware.wire import frame
from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.hardware.board_io import ButtonEvent, LinkEvent, SensorEvent
from reedboard.hardware.lights import GREEN, Light
from reedboard.wiring.layout import load_layout

LAYOUT = load_layout("cross33")
INDEX = {pid: p.row * LAYOUT.matrix[1] + p.col for pid, p in LAYOUT.points.items()}


@pytest.fixture
def pico() -> Iterator[Firmware]:
    fw = Firmware("micropython", 36, LAYOUT.led_count, faults=0.0, host_timeout_ms=500)
    yield fw
    fw.close()


async def next_of(board: PicoBoard, kind: type, timeout: float = 5.0) -> object:
    async with asyncio.timeout(timeout):
        while True:
            event = await anext(board.events)
            if isinstance(event, kind):
                return event


async def leds_until(
    fw: Firmware, ok: Callable[[list[tuple[int, int, int]]], bool], timeout: float = 5.0
) -> None:
    """Wait until the firmware shows a chain that is ``ok``."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        while not ok(await loop.run_in_executor(None, fw.next_leds, timeout)):
            pass


def garbage() -> list[bytes]:
    rnd = random.Random(11)
    return [
        b"\n" + frame("E zz 10 1"),  # passes the check, bad hex
        frame("E 00 10"),  # wrong length
        frame("E 00 10 7"),  # no such state
        frame("S 00 " + "g" * 9),
        frame("S 00 " + "f" * 500),
        frame("A 01 nothex!!"),
        frame("H rb3 x y z w"),
        frame("H"),
        frame("B 00 00 9"),  # no such button
        frame("K"),
        frame("X " + "?" * 150),
        frame("Z what is this"),
        b"\xff\xfe\x00 not even ascii\n",
        b"\n\n\r\n",
        b"y" * 1_000_000 + b"\n",  # a line of a million bytes
        bytes(rnd.randrange(256) for _ in range(20_000)) + b"\n",
    ]


def test_the_reader_goes_on_after_any_line(pico: Firmware) -> None:
    async def scenario() -> PicoBoard:
        board = PicoBoard(pico.port, LAYOUT)
        board.open()
        try:
            assert (await next_of(board, LinkEvent)).up  # type: ignore[attr-defined]
            before = board.bad_lines
            for chunk in garbage():
                pico.inject(chunk)
            pico.set(INDEX["17"], True)
            event = await next_of(board, SensorEvent, 10)
            assert (event.point, event.on) == ("17", True)  # type: ignore[attr-defined]
            pico.press(3)
            assert (await next_of(board, ButtonEvent)).button == "confirm"  # type: ignore[attr-defined]
            assert board.bad_lines - before >= len(garbage()) - 1
            assert board._reader is not None and board._reader.is_alive()
            return board
        finally:
            board.close()

    asyncio.run(scenario())


def test_a_silent_pico_is_reported_within_a_second_and_resynced_when_it_speaks() -> None:
    fw = Firmware("micropython", 36, LAYOUT.led_count)

    async def scenario() -> tuple[float, list[object]]:
        board = PicoBoard(fw.port, LAYOUT, brightness=1.0, max_milliamps=10_000)
        board.open()
        try:
            assert (await next_of(board, LinkEvent)).up  # type: ignore[attr-defined]
            fw.stop()  # the Pico's loop stalls
            stopped = time.monotonic()
            down = await next_of(board, LinkEvent, 3)
            assert not down.up  # type: ignore[attr-defined]
            took = down.t - stopped  # type: ignore[attr-defined]
            # meanwhile a piece is placed and the Pi wants other LEDs
            fw.set(INDEX["5"], True)
            board.show({"5": Light(GREEN)})
            while not fw.leds.empty():
                fw.leds.get()
            fw.resume()
            after: list[object] = []
            async with asyncio.timeout(5):
                while not any(isinstance(e, SensorEvent) for e in after):
                    after.append(await anext(board.events))
            await leds_until(fw, lambda c: c[LAYOUT.points["5"].led] == GREEN)
            return took, after
        finally:
            board.close()
            fw.close()

    took, after = asyncio.run(scenario())
    assert took < 1.0
    assert isinstance(after[0], LinkEvent) and after[0].up
    assert [(e.point, e.on) for e in after if isinstance(e, SensorEvent)] == [("5", True)]


def test_the_firmware_darkens_the_leds_when_the_pi_falls_silent(pico: Firmware) -> None:
    lit = {"1": Light(GREEN), "2": Light(GREEN)}

    def two_lit(chain: list[tuple[int, int, int]]) -> bool:
        return sum(c != (0, 0, 0) for c in chain) == 2

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        board = PicoBoard(pico.port, LAYOUT)
        board.open()
        await next_of(board, LinkEvent)
        board.show(lit)
        await leds_until(pico, two_lit)
        board.close()  # the daemon stops talking
        chain = await loop.run_in_executor(None, pico.next_leds, 3.0)
        assert chain == [(0, 0, 0)] * LAYOUT.led_count
        board = PicoBoard(pico.port, LAYOUT)  # and comes back
        board.open()
        try:
            board.show(lit)
            await leds_until(pico, two_lit)
        finally:
            board.close()

    asyncio.run(scenario())
