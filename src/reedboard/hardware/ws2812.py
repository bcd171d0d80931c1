"""WS2812 / SK6812 LEDs driven through the Pi's SPI (spidev), no kernel PWM or DMA needed.

Each LED bit becomes three SPI bits at 2.4 MHz (``100`` for 0, ``110`` for 1), so one SPI bit
lasts 417 ns and the chain sees its 800 kHz signal. Every frame starts with a run of zero bytes
(a reset, longer than the 280 µs newer chips need), so the first LED is never garbled by
whatever MOSI did between transfers. A brightness cap keeps the chain within the supply's
budget, and a frame identical to the last one sent is not sent again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reedboard.hardware.board_io import BoardError
from reedboard.hardware.lights import Colour

SPI_HZ = 2_400_000
RESET_BYTES = 90
"""Zero bytes before a frame: 90 * 8 bits at 2.4 MHz = 300 µs of low."""
MILLIAMPS_PER_CHANNEL = 20.0
"""What one colour channel of one LED draws at full brightness."""


def _encode_byte(value: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if value >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


_ENCODED = [_encode_byte(v) for v in range(256)]


def encode(colours: Sequence[Colour], order: str = "GRB") -> bytes:
    """The SPI bytes for a chain showing ``colours`` (without the reset)."""
    index = ["RGB".index(ch) for ch in order]
    return b"".join(_ENCODED[c[i]] for c in colours for i in index)


def decode(data: bytes, order: str = "GRB") -> list[Colour]:
    """The colours an SPI byte stream shows (the inverse of :func:`encode`, for checking)."""
    bits = int.from_bytes(data, "big")
    n = len(data) * 8 // 3
    values = []
    for k in range(n // 8):
        v = 0
        for b in range(8):
            shift = (n - (k * 8 + b) - 1) * 3
            triple = bits >> shift & 0b111
            if triple not in (0b100, 0b110):
                raise ValueError(f"bit {k * 8 + b}: {triple:03b} is not a WS2812 symbol")
            v = (v << 1) | (triple == 0b110)
        values.append(v)
    out: list[Colour] = []
    for i in range(0, len(values) - 2, 3):
        rgb = [0, 0, 0]
        for j, ch in enumerate(order):
            rgb["RGB".index(ch)] = values[i + j]
        out.append((rgb[0], rgb[1], rgb[2]))
    return out


def limit(colours: Sequence[Colour], brightness: float, max_milliamps: float) -> list[Colour]:
    """Scale by ``brightness``, then dim the whole frame evenly if it would draw more than
    ``max_milliamps``."""
    scaled = [(r * brightness, g * brightness, b * brightness) for r, g, b in colours]
    draw = sum(sum(c) for c in scaled) / 255 * MILLIAMPS_PER_CHANNEL
    factor = min(1.0, max_milliamps / draw) if draw else 1.0
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in scaled]


def milliamps(colours: Sequence[Colour]) -> float:
    """The estimated current of a frame."""
    return sum(sum(c) for c in colours) / 255 * MILLIAMPS_PER_CHANNEL


class SpiMissing(BoardError):
    """The SPI device is not there: SPI is off (one line saying how to turn it on)."""

    def __init__(self, bus: int, device: int) -> None:
        how = "dtparam=spi=on" if bus == 0 else f"dtoverlay=spi{bus}-1cs"
        super().__init__(
            f"/dev/spidev{bus}.{device} is missing: turn SPI on ({how} in"
            " /boot/firmware/config.txt, then reboot; `reedboard doctor` checks it)"
        )


class SpiLedChain:
    """A WS2812 chain on SPI ``bus``.``device`` (GPIO10 is the data line for SPI0)."""

    def __init__(
        self,
        count: int,
        *,
        bus: int = 0,
        device: int = 0,
        brightness: float = 0.5,
        max_milliamps: float = 2000,
        order: str = "GRB",
        spi: Any = None,
    ) -> None:
        if spi is None:
            import spidev  # only on a Pi; imported here so the package imports anywhere

            spi = spidev.SpiDev()
            try:
                spi.open(bus, device)
            except FileNotFoundError:  # no /dev/spidevB.D: the kernel's SPI driver is off
                raise SpiMissing(bus, device) from None
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0
        self._spi = spi
        self.count = count
        self.brightness = brightness
        self.max_milliamps = max_milliamps
        self.order = order
        self._last: bytes | None = None
        self.frames_sent = 0

    def write(self, colours: Sequence[Colour]) -> bool:
        """Send the chain's colours; returns False when nothing changed and nothing was sent."""
        if len(colours) != self.count:
            raise ValueError(f"{len(colours)} colours for a chain of {self.count} LEDs")
        data = bytes(RESET_BYTES) + encode(
            limit(colours, self.brightness, self.max_milliamps), self.order
        )
        if data == self._last:
            return False
        self._spi.writebytes2(data)
        self._last = data
        self.frames_sent += 1
        return True

    def close(self) -> None:
        self._spi.close()
