"""Pin names: a Raspberry Pi's GPIO pins as gpiozero names them, and a Pico's GP pins.

Pi pin names are resolved with gpiozero's own board data (``GPIO17``, ``BCM17``, ``BOARD11``,
``J8:11`` and ``17`` are one pin), without touching any hardware.
"""

from __future__ import annotations

import functools
from typing import Any

# Pins that a Pi interface takes when it is on (BCM numbers).
INTERFACE_PINS: dict[str, dict[int, str]] = {
    "spi": {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    "i2c": {2: "I2C1 SDA", 3: "I2C1 SCL"},
    "uart": {14: "UART TXD", 15: "UART RXD"},
}
ALWAYS_RESERVED = {0: "the HAT ID EEPROM's ID_SD", 1: "the HAT ID EEPROM's ID_SC"}

SPI_MOSI = 10
"""The data line of a WS2812 chain driven through SPI0."""

PICO_GPIO = frozenset(range(0, 23)) | {26, 27, 28}
"""The Pico's GP pins on its edge (GP23-25 are wired inside the board)."""


@functools.cache
def _pi_board() -> Any:
    from gpiozero.pins.pi import PiBoardInfo

    return PiBoardInfo.from_revision(0xC03111)  # a Pi 4 B: every 40-pin Pi has this header


def pi_gpio(name: object) -> int | None:
    """The BCM number of a Pi GPIO pin name in any form gpiozero accepts, or None if it is no
    GPIO pin (unknown, or a power or ground pin)."""
    try:
        found = list(_pi_board().find_pin(str(name)))
    except Exception:  # gpiozero raises various errors for names it cannot parse
        return None
    for _header, info in found:
        if str(info.name).startswith("GPIO"):
            return int(str(info.name)[4:])
    return None


def pico_gpio(name: object) -> int | None:
    """The number of a Pico pin written ``GP17``, or None."""
    text = str(name).strip().upper()
    if not text.startswith("GP") or not text[2:].isdigit():
        return None
    number = int(text[2:])
    return number if number in PICO_GPIO else None
