"""The version handshake: the hello's version, and a firmware of the previous protocol (rb1,
whose lines end in a CRC-8) recognized so it can be refused by name rather than by silence."""

from __future__ import annotations

from reedboard.bridge.firmware.wire import VERSION

RB1_PROBE = b"V*a5\n"
"""rb1's framing of ``V``: an rb1 firmware answers it with its hello (rb2 and later drop it as
damaged)."""


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS (polynomial 0x07, initial 0): rb1's line check."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def rb1_body(line: bytes) -> str | None:
    """The body of a good rb1 line (``BODY*cc``), else None."""
    if len(line) < 4 or len(line) > 200 or line[-3:-2] != b"*":
        return None
    if any(b < 0x20 or b > 0x7E for b in line) or b"*" in line[:-3]:
        return None
    if line[-2:].decode() != f"{crc8(line[:-3]):02x}":
        return None
    return line[:-3].decode()


def refusal(version: str, url: str, build: str = "BUILD") -> str:
    return (
        f"the Pico on {url} runs firmware for link protocol {version}, this reedboard speaks"
        f" {VERSION}: install the firmware that comes with it (reedboard firmware install {build})"
    )
