"""The framing shared by the firmware and the Pi, fed bytes split at awkward places and damaged
in every way a byte can be, and PROTOCOL.md kept true to it."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reedboard.bridge.firmware.wire import (
    MAX_LINE,
    LineParser,
    check,
    crc32hex,
    crc32hex_py,
    fields,
    frame,
    unhex,
)
from reedboard.bridge.frames import chain_crc
from reedboard.bridge.handshake import RB1_PROBE, crc8, rb1_body
from reedboard.bridge.simulator import FIRMWARE, micropython

PROTOCOL = Path(__file__).resolve().parents[2] / "src" / "reedboard" / "bridge" / "PROTOCOL.md"
BODIES = ["V", "Q", "E 00 10 1", "S ff 000000000", "L 1000ff00", "B 3c 07 2", "F 01 9892ab31"]


def test_check_values_are_the_standard_ones() -> None:
    assert crc32hex(b"123456789") == "cbf43926"  # CRC-32 (IEEE, zlib)
    assert crc32hex_py(b"123456789") == "cbf43926"
    assert crc8(b"123456789") == 0xF4  # rb1's CRC-8/SMBUS


@given(st.binary(max_size=300))
def test_the_pure_python_crc_is_the_native_one(data: bytes) -> None:
    assert crc32hex_py(data) == crc32hex(data)


def test_micropython_computes_the_same_crcs_with_and_without_binascii() -> None:
    rnd = random.Random(3)
    blobs = [bytes(rnd.randrange(256) for _ in range(rnd.randrange(400))) for _ in range(50)]
    script = f"import wire\nfor b in {blobs!r}:\n    print(wire.crc32hex(b), wire.crc32hex_py(b))\n"
    done = subprocess.run(
        [micropython(), "-c", script], cwd=FIRMWARE, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")[:-1]
    assert lines == [f"{crc32hex(b)} {crc32hex(b)}" for b in blobs]


@given(st.lists(st.sampled_from(BODIES), max_size=20), st.randoms())
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
    st.sampled_from(BODIES),
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 2), st.integers(1, 255)), max_size=3),
)
def test_dropped_corrupted_and_duplicated_bytes_are_caught(
    body: str, damage: list[tuple[int, int, int]]
) -> None:
    line = bytearray(frame(body)[:-1])
    for at, how, delta in damage:
        at %= len(line)
        if how == 0:
            del line[at]
        elif how == 1:
            line[at] = (line[at] + delta) & 0xFF
        else:
            line.insert(at, line[at])
        if not line:
            return
    assert check(bytes(line)) == (body if bytes(line) == frame(body)[:-1] else None)


def test_overlong_lines_are_skipped_whole_and_the_next_line_is_read() -> None:
    parser = LineParser()
    out = parser.feed(b"x" * 100_000)
    out += parser.feed(b"y" * 1_000_000 + b"*0000\n" + frame("V"))
    assert out == ["V"] and parser.bad == 1
    assert parser.feed(b"\n\n\xff\x00\n" + frame("Q")) == ["Q"] and parser.bad == 4
    assert len(parser.buf) <= MAX_LINE


@given(st.text(max_size=40), st.sampled_from(["E", "S", "F", "P", "L"]))
def test_fields_and_unhex_are_total(text: str, kind: str) -> None:
    got = fields(text, kind, (2, 2, 1))
    assert got is None or (len(got) == 3 and all(v >= 0 for v in got))
    assert unhex(text, 0, 2) >= -1
    assert fields("E 0a 1f 1", "E", (2, 2, 1)) == [10, 31, 1]
    assert fields("E 0A 1f 1", "E", (2, 2, 1)) is None  # lowercase only
    assert fields("E 0a 1f  1", "E", (2, 2, 1)) is None


def test_rb1_lines_are_recognized() -> None:
    assert rb1_body(b"H rb1 36 47*2a") == "H rb1 36 47"
    assert rb1_body(RB1_PROBE[:-1]) == "V"
    assert rb1_body(frame("H rb1 36 47")[:-1]) is None


def test_the_example_in_protocol_md_is_what_the_code_sends() -> None:
    text = PROTOCOL.read_text()
    lines = re.findall(r"^(?:Pi   -> Pico|Pico -> Pi)\s+(\S.*\S)$", text, re.M)
    assert len(lines) == 16
    for line in lines:
        assert check(line.encode()) is not None, line
    chain = [(0, 0, 0)] * 47
    chain[16] = (0, 255, 0)
    assert f"F 01 {chain_crc([(0, 0, 0)] * 47)}" in text
    assert f"F 02 {chain_crc(chain)}" in text
    assert f"A 02 {chain_crc(chain)}" in text
