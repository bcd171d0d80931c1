"""On a real Raspberry Pi only (``pytest --hardware``): the shipped direct-GPIO build opens
through gpiozero's default pin factory (lgpio) and spidev, with the board empty."""

from __future__ import annotations

import asyncio

import pytest

from reedboard.hardware.gpio_board import GpioBoard
from reedboard.hardware.lights import GREEN, Light
from reedboard.wiring.build import load_build

pytestmark = pytest.mark.hardware


def test_the_pi_build_opens_scans_and_lights_on_real_hardware() -> None:
    build = load_build("pi-cross33")

    async def scenario() -> frozenset[str]:
        async with GpioBoard(build) as board:
            await asyncio.sleep(0.1)
            board.show({"17": Light(GREEN)})
            board.show_dice((6, 6))
            return board.snapshot()

    assert asyncio.run(scenario()) == frozenset()  # run it on an empty board
