"""The framing shared by the firmware and the Pi, fed bytes split at awkward places, and
PROTOCOL.md kept true to it."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware.core import LineParser, check, crc8, crc16, frame

PROTOCOL = Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"


def test_check_values_are_the_standard_ones() -> None:
    assert crc8(b"123456789") == 0xF4  # CRC-8/SMBUS
    assert crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE


@given(
    st.lists(
        st.sampled_from(["V", "Q", "E 00 10 1", "S ff 000000000", "L 01 1000ff00"]), max_size=20
    ),
    st.randoms(),
)
def test_lines_split_anywhere_come_out_whole(bodies: list[str], rnd: random.Random) -> None:
    data = b"".join(frame(b) for b in bodies)
    parser = LineParser()
    out: list[str] = []
    i = 0
    while i < len(data):
        n = rnd.randint(1, 7)
        out += parser.feed(data[i : i + n])
        i += n
    assert out == bodies and parser.bad == 0


@given(
    st.sampled_from(["E 00 10 1", "E 7f 23 0", "B 05 2", "S ff 000000000"]),
    st.integers(0, 12),
    st.integers(1, 255),
)
def test_any_single_damaged_byte_is_caught(body: str, at: int, delta: int) -> None:
    line = bytearray(frame(body)[:-1])
    at %= len(line)
    line[at] = (line[at] + delta) & 0xFF
    assert check(bytes(line)) in (None, body) and check(bytes(line)) is None


@given(st.sampled_from(["E 00 10 1", "E 7f 23 0", "B 05 2"]), st.integers(0, 12))
def test_any_dropped_byte_is_caught_by_the_fixed_widths(body: str, at: int) -> None:
    line = frame(body)[:-1]
    at %= len(line)
    damaged = line[:at] + line[at + 1 :]
    got = check(damaged)
    assert got is None or len(got) != len(body)


def test_the_example_in_protocol_md_is_what_the_code_sends() -> None:
    text = PROTOCOL.read_text()
    lines = re.findall(r"^(?:Pi   -> Pico|Pico -> Pi)\s+(\S.*\S)$", text, re.M)
    assert len(lines) == 8
    for line in lines:
        assert check(line.encode()) is not None, line
    chain = bytearray(47 * 3)
    chain[16 * 3 + 1] = 0xFF
    assert f"A 01 {crc16(chain):04x}" in text
