"""The firmware's core.py for real (CPython and MicroPython's Unix port) against the Pi side
over a real pseudo-terminal, with a simulated switch matrix behind its HAL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.hardware.board_io import ButtonEvent, LinkEvent, SensorEvent
from reedboard.hardware.lights import GREEN, RED, Light, Pattern
from reedboard.hardware.ws2812 import limit
from reedboard.wiring.layout import load_layout

LAYOUT = load_layout("cross33")
INDEX = {pid: p.row * LAYOUT.matrix[1] + p.col for pid, p in LAYOUT.points.items()}


@pytest.fixture(params=["cpython", "micropython"])
def firmware(request: pytest.FixtureRequest) -> Iterator[Firmware]:
    fw = Firmware(request.param, LAYOUT.matrix[0] * LAYOUT.matrix[1], LAYOUT.led_count)
    yield fw
    fw.close()


async def next_event(
    board: PicoBoard, kinds: tuple[type, ...] = (SensorEvent, ButtonEvent)
) -> object:
    async with asyncio.timeout(5):
        while True:
            event = await anext(board.events)
            if isinstance(event, kinds):
                return event


def test_moves_on_the_matrix_reach_the_pi_and_led_frames_come_back(firmware: Firmware) -> None:
    async def scenario() -> None:
        board = PicoBoard(firmware.port, LAYOUT, brightness=1.0, max_milliamps=10_000)
        board.open()
        try:
            assert isinstance(await next_event(board, (LinkEvent,)), LinkEvent)
            firmware.set(INDEX["17"], True)
            assert await next_event(board) == SensorEvent("17", True, pytest.approx(0, abs=1e9))
            firmware.set(INDEX["17"], False)
            firmware.set(INDEX["5"], True)
            got = [await next_event(board), await next_event(board)]
            assert {(e.point, e.on) for e in got} == {("17", False), ("5", True)}
            assert board.snapshot() == {"5"}
            firmware.press(0)
            event = await next_event(board)
            assert isinstance(event, ButtonEvent) and event.button == "roll"
            # LEDs: the frame the Pi shows is the frame the firmware applies
            while not firmware.leds.empty():
                firmware.leds.get()
            board.show({"17": Light(GREEN), "1": Light(RED, Pattern.STEADY)})
            chain = await asyncio.get_running_loop().run_in_executor(None, firmware.next_leds)
            assert chain[LAYOUT.points["17"].led] == GREEN
            assert chain[LAYOUT.points["1"].led] == RED
            assert sum(1 for c in chain if c != (0, 0, 0)) == 2
            board.show_dice((6, 1))
            chain = await asyncio.get_running_loop().run_in_executor(None, firmware.next_leds)
            assert sum(1 for c in chain[LAYOUT.dice_start :] if c != (0, 0, 0)) == 7
        finally:
            board.close()

    asyncio.run(scenario())


def test_brightness_is_capped_on_the_pi_side(firmware: Firmware) -> None:
    async def scenario() -> list[tuple[int, int, int]]:
        board = PicoBoard(firmware.port, LAYOUT, brightness=0.5, max_milliamps=100)
        board.open()
        try:
            await next_event(board, (LinkEvent,))
            board.show({p: Light(GREEN) for p in LAYOUT.points})
            loop = asyncio.get_running_loop()
            while True:
                chain = await loop.run_in_executor(None, firmware.next_leds)
                if any(c != (0, 0, 0) for c in chain):
                    return chain
        finally:
            board.close()

    chain = asyncio.run(scenario())
    expected = limit([GREEN] * 33, 0.5, 100)[0]
    assert chain[0] == expected and expected[1] < 128
