"""A tiny recording stand-in for spidev.SpiDev (no library provides one): it keeps what
would have gone down the wire."""

from __future__ import annotations


class FakeSpiDev:
    def __init__(self) -> None:
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.mode = -1
        self.writes: list[bytes] = []
        self.closed = False

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True
