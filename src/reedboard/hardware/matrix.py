"""The reed-switch matrix, scanned through gpiozero: row lines driven one at a time, column
lines read with pull-ups (or pull-downs when the active level is high). One diode per switch
stops ghosting, so any number of pieces read back exactly.

gpiozero picks the pin backend (lgpio on every Pi, RPi.GPIO on a Pi 4 and older, its
MockFactory in tests); this module never imports a GPIO library itself.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice

from reedboard.hardware.debounce import Debouncer, bits

log = logging.getLogger("reedboard.matrix")
RETRY = 0.5
"""Seconds between attempts while scanning fails."""

ChangeCallback = Callable[[str, bool, float], None]
"""Called with (point id, closed, time) from the scanning thread."""


class MatrixScanner:
    def __init__(
        self,
        rows: Sequence[str],
        cols: Sequence[str],
        switches: Mapping[tuple[int, int], str],
        on_change: ChangeCallback,
        *,
        active_low: bool = True,
        scan_hz: float = 100.0,
        stable_ms: float = 5.0,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._cols_n = len(cols)
        self._ids: dict[int, str] = {}
        for (r, c), point in switches.items():
            if not (0 <= r < len(rows) and 0 <= c < len(cols)):
                raise ValueError(f"switch of point {point!r} at row {r}, col {c} is off the matrix")
            self._ids[r * self._cols_n + c] = point
        self._used = sum(1 << b for b in self._ids)
        self._on_change = on_change
        self._clock = clock
        self.period = 1.0 / scan_hz
        self._rows = [
            DigitalOutputDevice(
                p, active_high=not active_low, initial_value=False, pin_factory=pin_factory
            )
            for p in rows
        ]
        self._cols = [
            DigitalInputDevice(p, pull_up=active_low, pin_factory=pin_factory) for p in cols
        ]
        # the raw pin states: reading them skips gpiozero's value conversion on the hot path
        self._row_pins = [d.pin for d in self._rows]
        self._col_pins = [d.pin for d in self._cols]
        self._select = 0 if active_low else 1
        self._idle = 1 - self._select
        self._debouncer = Debouncer(stable_ms / 1000.0, self.read_raw())
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.scans = 0

    def read_raw(self) -> int:
        """One pass over the matrix: the bitmap of closed switches (bit = row * cols + col)."""
        raw = 0
        select, idle = self._select, self._idle
        col_pins = self._col_pins
        ncols = self._cols_n
        for r, row in enumerate(self._row_pins):
            row.state = select
            base = r * ncols
            for c, col in enumerate(col_pins):
                if col.state == select:
                    raw |= 1 << (base + c)
            row.state = idle
        return raw & self._used

    def scan_once(self, now: float | None = None) -> None:
        """Read the matrix once and report every change that is now stable."""
        t = self._clock() if now is None else now
        self.scans += 1
        changes = self._debouncer.update(self.read_raw(), t)
        for bit, closed in changes:
            self._on_change(self._ids[bit], closed, t)

    def snapshot(self) -> frozenset[str]:
        """The points whose switches are closed, debounced."""
        return frozenset(self._ids[b] for b in bits(self._debouncer.reported))

    def start(self) -> None:
        """Scan in a background thread at the configured rate until :meth:`close`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="matrix-scan", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        next_t = self._clock()
        failing = False
        while not self._stop.wait(max(0.0, next_t - self._clock())):
            try:
                self.scan_once()
                if failing:
                    log.warning("matrix scanning works again")
                failing = False
            except Exception:  # a GPIO fault must not silence the board for good
                if not failing:
                    log.exception("matrix scan failed; retrying every %.1f s", RETRY)
                failing = True
                next_t = self._clock() + RETRY
                continue
            next_t += self.period
            now = self._clock()
            if next_t < now:  # fell behind (a busy machine): skip, do not burst
                next_t = now + self.period

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        for device in (*self._rows, *self._cols):
            device.close()
