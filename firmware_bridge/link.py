"""The Pi side of the Pico link: the BoardIO contract over USB serial.

The port is opened with ``serial.serial_for_url`` (so tests use a pty, debugging uses
``spy://``) and read by pyserial's ``ReaderThread`` with a ``Packetizer``: framing here,
checking in ``firmware.core.check`` (shared with the firmware). Events carry sequence
numbers: a gap means lost lines, and the board asks for a snapshot and resyncs from it. LED
frames go as changes only; the Pico answers each with a checksum of its whole chain, and a
wrong or missing answer makes the next frame go whole. When the cable is pulled the board
says so (a LinkEvent), keeps trying the port every second, and resyncs when it is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import serial
import serial.threaded

from firmware_bridge.firmware.core import BUTTONS, GROUPS_PER_LINE, check, crc16, frame, hexw
from hardware.board_io import ButtonEvent, Colour, LinkEvent, SensorEvent
from hardware.events import EventQueue
from hardware.led_chain import render
from hardware.led_state import LedState
from hardware.ws2812 import limit
from wiring.layout import Layout

log = logging.getLogger("reedboard.link")

ACK_TIMEOUT = 0.5
"""Seconds to wait for a frame's answer before the next frame goes whole."""


class _Lines(serial.threaded.Packetizer):
    TERMINATOR = b"\n"

    def __init__(self, board: PicoBoard) -> None:
        super().__init__()
        self.board = board

    def handle_packet(self, packet: bytes) -> None:
        body = check(packet)
        if body is None:
            self.board.bad_lines += 1
        else:
            self.board._line(body)

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(None)
        self.board._lost(exc)


class PicoBoard(LedState):
    def __init__(
        self,
        url: str,
        layout: Layout,
        *,
        brightness: float = 0.5,
        max_milliamps: float = 2000,
        baudrate: int = 115200,
        reconnect_every: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self._init_leds(layout)
        self.brightness = brightness
        self.max_milliamps = max_milliamps
        self.baudrate = baudrate
        self.reconnect_every = reconnect_every
        self._clock = clock
        self._events = EventQueue()
        self._lock = threading.RLock()
        rows, cols = layout.matrix
        self._width = cols
        self._points = rows * cols
        self._ids = {r * cols + c: pid for (r, c), pid in layout.switch_map().items()}
        self._closed = 0  # the host's view of the switches
        self._synced = False
        self._seq = 0
        self._reader: serial.threaded.ReaderThread | None = None
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None
        self._asked = 0.0
        self.connected = False
        self.bad_lines = 0
        self.gaps = 0
        self._device: list[Colour] | None = None  # the chain as the Pico last confirmed it
        self._sent: list[Colour] | None = None
        self._cmd = 0
        self._awaiting: tuple[int, int, float] | None = None  # (seq, checksum, sent at)
        self.version: str | None = None
        self.on_applied: Callable[[int], None] | None = None

    # -- the port ------------------------------------------------------------------------------

    async def start(self) -> None:
        import asyncio

        self._events.bind(asyncio.get_running_loop())
        self._connect()
        self._keeper = threading.Thread(target=self._keep, name="pico-link", daemon=True)
        self._keeper.start()

    def _keep(self) -> None:
        """Reconnect a lost port, re-send a frame the Pico did not confirm, ask again for a
        snapshot that did not come."""
        last_try = 0.0
        while not self._stop.wait(0.1):
            now = self._clock()
            if not self.connected:
                if now - last_try >= self.reconnect_every:
                    last_try = now
                    self._connect()
                continue
            with self._lock:
                if self._awaiting is not None and now - self._awaiting[2] > ACK_TIMEOUT:
                    self._awaiting, self._device = None, None
                    self._push(whole=True)
                if not self._synced and now - self._asked > 0.5:
                    self._asked = now
                    self._send("Q")

    def _connect(self) -> bool:
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.2)
        except (serial.SerialException, OSError) as exc:
            log.debug("cannot open %s: %s", self.url, exc)
            return False
        reader = serial.threaded.ReaderThread(port, lambda: _Lines(self))
        reader.daemon = True
        with self._lock:
            self._reader = reader
            self._synced = False
            self._device = None
            self._awaiting = None
        self._events.put_threadsafe(LinkEvent(True, self._clock(), self.url))  # before resync
        reader.start()
        reader.connect()
        self.connected = True
        self._send("V")
        self._asked = self._clock()
        self._send("Q")
        self._push(whole=True)
        return True

    def _lost(self, exc: BaseException | None) -> None:
        with self._lock:
            if not self.connected:
                return
            self.connected = False
            self._reader = None
        why = f"{self.url}: {exc}" if exc else f"{self.url} closed"
        log.warning("board link lost (%s); retrying every %.1f s", why, self.reconnect_every)
        self._events.put_threadsafe(LinkEvent(False, self._clock(), why))

    def close_port(self) -> None:
        """Close the port as if the cable were pulled (the board reconnects by itself)."""
        reader = self._reader
        if reader is not None:
            reader.close()

    def close(self) -> None:
        self._stop.set()
        reader = self._reader
        self.connected = False
        if reader is not None:
            reader.close()

    async def aclose(self) -> None:
        self.close()

    def _send(self, body: str) -> None:
        reader = self._reader
        if reader is None:
            return
        try:
            reader.write(frame(body))
        except (serial.SerialException, OSError) as exc:
            log.debug("write failed: %s", exc)

    # -- lines from the Pico (the reader thread) -----------------------------------------------

    def _line(self, body: str) -> None:
        with self._lock:
            kind = body[:1]
            if kind == "E" and len(body) == 9:
                self._event(body, lambda: self._switch(int(body[5:7], 16), body[8] == "1"))
            elif kind == "B" and len(body) == 6:
                self._event(body, lambda: self._button(int(body[5])))
            elif kind == "S" and len(body) == 5 + (self._points + 3) // 4:
                self._snapshot(int(body[2:4], 16), int(body[5:], 16))
            elif kind == "A" and len(body) == 9:
                self._ack(int(body[2:4], 16), int(body[5:9], 16))
            elif kind == "H":
                self._hello(body)
            elif kind == "X":
                log.warning("the Pico says: %s", body[2:])
            else:
                self.bad_lines += 1

    def _event(self, body: str, apply: Callable[[], None]) -> None:
        seq = int(body[2:4], 16)
        if not self._synced:
            return  # the snapshot we asked for will bring us in step
        if seq != (self._seq + 1) & 0xFF:
            self.gaps += 1
            self._synced = False
            self._send("Q")
            return
        self._seq = seq
        apply()

    def _switch(self, index: int, closed: bool) -> None:
        bit = 1 << index
        if bool(self._closed & bit) == closed or index not in self._ids:
            return
        self._closed ^= bit
        self._events.put_threadsafe(SensorEvent(self._ids[index], closed, self._clock()))

    def _button(self, index: int) -> None:
        if index < len(BUTTONS):
            self._events.put_threadsafe(ButtonEvent(BUTTONS[index], self._clock()))

    def _snapshot(self, seq: int, bitmap: int) -> None:
        changed = bitmap ^ self._closed
        now = self._clock()
        for index, point in sorted(self._ids.items()):
            if changed >> index & 1:
                self._events.put_threadsafe(SensorEvent(point, bool(bitmap >> index & 1), now))
        self._closed = bitmap
        self._seq = seq
        self._synced = True

    def _hello(self, body: str) -> None:
        parts = body.split()
        if len(parts) == 4 and parts[2].isdigit() and int(parts[2]) != self._points:
            log.error(
                "the Pico scans %s switch places but layout %s has a %dx%d matrix",
                parts[2],
                self.layout.name,
                *self.layout.matrix,
            )
        self.version = parts[1] if len(parts) > 1 else None

    def _ack(self, seq: int, checksum: int) -> None:
        if self._awaiting is None or self._awaiting[0] != seq:
            return
        _, expected, _ = self._awaiting
        self._awaiting = None
        if checksum == expected:
            self._device = list(self._sent or [])
        else:  # a damaged LED command: send the whole frame again
            self._device = None
            self._push(whole=True)
        if self.on_applied is not None:
            self.on_applied(seq)

    # -- BoardIO -------------------------------------------------------------------------------

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(p for i, p in self._ids.items() if self._closed >> i & 1)

    @property
    def events(self) -> EventQueue:
        return self._events

    def refresh(self) -> None:
        self._push()

    def _push(self, whole: bool = False) -> None:
        """Send the LEDs that differ from what the Pico last confirmed, then show them."""
        with self._lock:
            if self._reader is None:
                return
            colours = limit(
                render(self.layout, self.frame, self.dice, self._clock()),
                self.brightness,
                self.max_milliamps,
            )
            known = None if whole else (self._device if self._awaiting is None else self._sent)
            if known is not None and known == colours:
                return
            changed = [i for i, c in enumerate(colours) if known is None or known[i] != c]
            self._cmd = (self._cmd + 1) & 0xFF
            seq = hexw(self._cmd, 2)
            if known is None:
                self._send(f"C {seq}")
            groups = [
                hexw(i, 2) + "".join(hexw(v, 2) for v in colours[i])
                for i in changed
                if known is not None or colours[i] != (0, 0, 0)
            ]
            for k in range(0, len(groups), GROUPS_PER_LINE):
                self._send(f"L {seq} " + " ".join(groups[k : k + GROUPS_PER_LINE]))
            self._send(f"F {seq}")
            flat = bytes(v for c in colours for v in c)
            self._sent = colours
            self._awaiting = (self._cmd, crc16(flat), self._clock())
