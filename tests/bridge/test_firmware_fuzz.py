"""The firmware never dies on any input: its loop, under MicroPython's Unix port (and CPython),
fed random and damaged lines (bad hex, wrong lengths, unknown commands, overlong lines, non-ASCII
bytes, empty lines, damaged lines framed anew so they pass the check) while switches change and
buttons are pressed. No exception may reach the loop's safety net, every line it writes must be
well framed, and afterwards it must still answer and show frames. (benchmarks/fuzz_firmware.py
runs a million lines.)"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from reedboard.bridge.simulator import FIRMWARE, micropython


def fuzz(interpreter: str, seed: int, lines: int) -> dict[str, int]:
    done = subprocess.run(
        [interpreter, "fuzz.py", str(seed), str(lines)],
        cwd=FIRMWARE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    figures = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    assert re.fullmatch(r"(\w+ \d+ ?)+", done.stdout.strip())
    return figures


@pytest.mark.parametrize(("interpreter", "lines"), [("micropython", 100_000), ("cpython", 20_000)])
def test_the_firmware_loop_survives_random_and_damaged_lines(interpreter: str, lines: int) -> None:
    path = micropython() if interpreter == "micropython" else sys.executable
    got = fuzz(path, 10, lines)
    assert got["lines"] == lines
    assert got["faults"] == 0  # no parse path raised
    assert got["misframed"] == 0  # nothing it wrote was damaged
    assert got["alive"] == 1
    # the mix was what it says: many lines rejected by the check, many carried out or refused
    assert got["rejected"] > lines // 5 and got["good"] > lines // 5
