"""hal.py and main.py, the Pico-only files, under MicroPython's Unix port with two tiny
stand-ins for the Pico's `machine.Pin` and `neopixel` (no library provides them there): the
matrix is read through the pins with a diode matrix wired behind them, buttons and LEDs go to
the right pins, and main.py starts the firmware from a config.json made from a build."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from reedboard.bridge.deploy import FIRMWARE, pico_config
from reedboard.bridge.simulator import micropython
from reedboard.wiring.build import load_build

MACHINE = """
CLOSED = set()          # (row pin, col pin) switches closed, wired with diodes
LEVEL = {}
class Pin:
    OUT = 1; IN = 0; PULL_UP = 1; PULL_DOWN = 2
    def __init__(self, n, mode=0, pull=None, value=None):
        self.n = n; self.mode = mode; self.pull = pull
        if value is not None: LEVEL[n] = value
        elif n not in LEVEL: LEVEL[n] = 1 if pull == 1 else 0
    def value(self, v=None):
        if v is not None:
            LEVEL[self.n] = v
            return
        if self.mode == 0 and self.pull == 1:   # a column: low if a selected row reaches it
            for r, c in CLOSED:
                if c == self.n and LEVEL.get(r) == 0:
                    return 0
            return LEVEL.get(self.n, 1) if self.n in PRESSED_OR_HIGH else 1
        return LEVEL.get(self.n, 0)
PRESSED_OR_HIGH = set()
class WDT:                  # writes down how it is used, in wdt.txt
    def __init__(self, id=0, timeout=5000):
        self.fed = False
        with open("wdt.txt", "w") as f: f.write("timeout %d\\n" % timeout)
    def feed(self):
        if not self.fed:
            self.fed = True
            with open("wdt.txt", "a") as f: f.write("fed\\n")
"""

NEOPIXEL = """
class NeoPixel:
    def __init__(self, pin, n):
        self.pin = pin; self.buf = [(0, 0, 0)] * n; self.shown = None
    def __setitem__(self, i, v): self.buf[i] = v
    def write(self): self.shown = list(self.buf)
"""

SCRIPT = """
import sys, json
sys.path.insert(0, "{fw}")
import machine
from hal import Hal
cfg = json.load(open("config.json"))
hal = Hal(cfg)
print("empty", hal.read_matrix())
rows, cols = cfg["rows"], cfg["cols"]
machine.CLOSED.add((rows[2], cols[4]))      # hole 17: row 2, col 4
machine.CLOSED.add((rows[5], cols[2]))      # hole 33: row 5, col 2
print("two", hal.read_matrix())
machine.LEVEL[cfg["buttons"][1]] = 0; machine.PRESSED_OR_HIGH.add(cfg["buttons"][1])
print("buttons", hal.read_buttons())
hal.set_led(3, 1, 2, 3); hal.show()
print("led", hal.np.shown[3], hal.np.pin.n)
"""


def test_hal_reads_the_matrix_buttons_and_drives_the_chain(tmp_path: Path) -> None:
    build = load_build("pico-cross33")
    (tmp_path / "machine.py").write_text(MACHINE)
    (tmp_path / "neopixel.py").write_text(NEOPIXEL)
    (tmp_path / "config.json").write_text(json.dumps(pico_config(build)))
    (tmp_path / "run.py").write_text(SCRIPT.format(fw=FIRMWARE))
    done = subprocess.run(
        [micropython(), "run.py"], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr + done.stdout
    lines = done.stdout.splitlines()
    assert lines[0] == "empty 0"
    assert lines[1] == f"two {(1 << (2 * 6 + 4)) | (1 << (5 * 6 + 2))}"
    assert lines[2] == "buttons 2"  # undo is bit 1
    assert lines[3] == "led (1, 2, 3) 22"


def test_main_starts_the_firmware_from_the_config(tmp_path: Path) -> None:
    build = load_build("pico-cross33")
    (tmp_path / "machine.py").write_text(MACHINE)
    (tmp_path / "neopixel.py").write_text(NEOPIXEL)
    (tmp_path / "config.json").write_text(json.dumps(pico_config(build)))
    for name in ("wire.py", "core.py", "hal.py", "main.py"):
        (tmp_path / name).write_text((FIRMWARE / name).read_text())
    # main.py loops forever; give it no input and stop it once it has fed the watchdog
    proc = subprocess.Popen(
        [micropython(), "main.py"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wdt = tmp_path / "wdt.txt"
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        deadline = time.monotonic() + 10
        while "fed" not in (wdt.read_text() if wdt.exists() else ""):
            assert time.monotonic() < deadline, "the loop never fed the watchdog"
            time.sleep(0.02)
    finally:
        proc.kill()
        proc.wait(timeout=5)
    assert re.fullmatch(rb"H rb3 36 47 [0-9a-f]{2} ff\*[0-9a-f]{8}\n", first), first
    assert wdt.read_text() == "timeout 5000\nfed\n"


@pytest.mark.hardware
def test_the_watchdog_restarts_a_stalled_pico() -> None:
    """On a real Pico at $REEDBOARD_PICO (with mpremote): hal.py's watchdog, left unfed by a
    stalled loop, restarts the Pico, which then says it was the watchdog."""
    import os

    port = os.environ.get("REEDBOARD_PICO", "/dev/reedboard-pico")
    stall = (
        "import json, time, machine\n"
        "from hal import Hal\n"
        "hal = Hal(json.load(open('config.json')))\n"
        "hal.start_watchdog(1000)\n"
        "time.sleep(5)\n"
        "print('not restarted')\n"
    )
    subprocess.run(["mpremote", "connect", port, "exec", stall], timeout=30)
    deadline = time.monotonic() + 20
    while True:
        done = subprocess.run(
            [
                "mpremote",
                "connect",
                port,
                "exec",
                "import machine; print(machine.reset_cause() == machine.WDT_RESET)",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if done.returncode == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert done.stdout.strip().endswith("True"), done.stdout + done.stderr
