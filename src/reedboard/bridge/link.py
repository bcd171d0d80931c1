"""The Pi side of the Pico link: the BoardIO contract over USB serial (PROTOCOL.md).

The port is opened with ``serial.serial_for_url`` (so tests use a pty, debugging uses
``spy://``) and read by pyserial's ``ReaderThread``: framing in ``firmware.wire`` (shared with
the firmware), meaning here. Nothing the Pico sends can stop the reader: a damaged line is
counted, one that passes the check but makes no sense is counted and logged at WARNING.

- Switch events carry sequence numbers and come again a few times within 16 ms; repeats are
  dropped by number (``switches.SwitchTracker``). A gap (or a heartbeat naming a later event)
  means lost lines, and so may a damaged line: the board asks for a snapshot at once, and again
  every ``RESYNC_EVERY`` while events are missing.
- Presses are numbered, acknowledged and de-duplicated (``presses.PressTracker``).
- LED frames go as changes; the Pi's heartbeat checks the Pico's chain by its CRC-32 and sends
  the whole frame when it differs (``frames.LedSync``). The board is the compositor's LED sink
  (reedboard/hardware/compositor.py): each chain the compositor writes as it animates goes to the
  Pico
  as its changes; the link itself keeps no LED clock.
- A Pico silent for ``SILENCE`` seconds, or a port that goes away, is reported as a LinkEvent;
  when it speaks again (or the port is back) the hello, a snapshot and the whole LED frame
  bring everything back in step.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import serial
import serial.threaded

from reedboard.bridge.firmware.wire import BUTTONS, VERSION, LineParser, fields, frame, unhex
from reedboard.bridge.frames import LedSync
from reedboard.bridge.handshake import RB1_PROBE, rb1_body, refusal
from reedboard.bridge.presses import PressTracker
from reedboard.bridge.switches import SwitchTracker
from reedboard.hardware.board_io import BoardError, ButtonEvent, LinkEvent, SensorEvent
from reedboard.hardware.driver import Driver
from reedboard.hardware.events import EventQueue
from reedboard.hardware.lights import OFF, Colour
from reedboard.hardware.ws2812 import limit
from reedboard.wiring.layout import Layout

log = logging.getLogger("reedboard.link")

SILENCE = 0.75
"""Seconds without a good line before the Pico counts as gone (it sends one every 50 ms)."""
CHECK_EVERY = 0.1
"""Seconds between the Pi's LED checks, which are also its heartbeat to the Pico."""
ASK_EVERY = 0.25
"""Seconds between repeats of an unanswered hello."""
RESYNC_EVERY = 0.02
"""Seconds between repeats of an unanswered snapshot request (and between requests that
damaged lines make)."""
KEEP_EVERY = 0.025
"""Seconds between the keeper's turns (and between checks of a frame not yet confirmed)."""


def _why(exc: BaseException) -> str:
    """Why a port did not open, in a few words (pyserial wraps the OS's error in its own)."""
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code in errno.errorcode:
        return os.strerror(code)
    return str(exc) or type(exc).__name__


class _Parser(LineParser):
    def __init__(self, board: PicoBoard) -> None:
        super().__init__()
        self.board = board

    def rejected(self, line: bytes | None) -> None:
        self.board.bad_lines += 1
        if line is not None:
            self.board._rejected(line)


class _Lines(serial.threaded.Protocol):
    def __init__(self, board: PicoBoard) -> None:
        self.board = board
        self.parser = _Parser(board)

    def data_received(self, data: bytes) -> None:
        try:
            bodies = self.parser.feed(data)
        except Exception:  # the framing is total; this is a net under it
            log.warning("could not split the Pico's bytes into lines", exc_info=True)
            self.parser = _Parser(self.board)
            return
        for body in bodies:
            try:
                self.board._line(body)
            except Exception:
                self.board.bad_lines += 1
                log.warning("ignored a line from the Pico: %r", body[:80], exc_info=True)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.board._lost(exc)


if TYPE_CHECKING:
    _ReaderBase = serial.threaded.ReaderThread[_Lines]
else:
    _ReaderBase = serial.threaded.ReaderThread


class _Reader(_ReaderBase):
    """pyserial's reader thread, but a port that fails in any way ends it through
    ``connection_lost``: on a hung-up tty (a cable pulled) ``in_waiting`` raises
    ``OSError(EIO)``, which pyserial's loop does not catch, so its thread died without a word
    and the board never reconnected."""

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:
            self.alive = False
            self.protocol.connection_lost(exc)
            self._made.set()
            return
        error: BaseException | None = None
        self._made.set()
        while self.alive and self.serial.is_open:
            try:  # read all that is there or wait for one byte (blocking)
                data = self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError, ValueError, TypeError) as exc:
                error = exc  # (a port closed under the thread reads None: a TypeError)
                break
            if data:
                try:
                    self.protocol.data_received(data)
                except Exception as exc:
                    error = exc
                    break
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None  # type: ignore[assignment]  # (as pyserial's own loop does)

    @property
    def _made(self) -> threading.Event:
        made: threading.Event = getattr(self, "_connection_made")  # noqa: B009 (pyserial's)
        return made


class PicoBoard(Driver):
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
        super().__init__(layout, self, clock)
        self._colours: list[Colour] = [OFF] * layout.led_count
        """The chain the compositor last wrote (what the Pico is to show)."""
        self.brightness = brightness
        self.max_milliamps = max_milliamps
        self.baudrate = baudrate
        self.reconnect_every = reconnect_every
        self._clock = clock
        self._events = EventQueue()
        self._lock = threading.RLock()
        rows, cols = layout.matrix
        self._points = rows * cols
        self._ids = {r * cols + c: pid for (r, c), pid in layout.switch_map().items()}
        self._switches = SwitchTracker()
        self._reader: serial.threaded.ReaderThread[_Lines] | None = None
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None
        self._asked = 0.0  # when a snapshot was last asked for
        self._hailed = 0.0  # when a hello was last asked for
        self._checked = 0.0  # when the LEDs were last checked
        self._heard = 0.0  # when the last good line came
        self._helloed = False  # a hello of our version since the port opened or the Pico spoke
        self._reported: bool | None = None  # the last LinkEvent's ``up``
        self._refused: str | None = None
        self._rb1_lines = 0
        self._presses = PressTracker()
        self._leds = LedSync()
        self.connected = False
        self.bad_lines = 0
        self.version: str | None = None

    # -- the port ------------------------------------------------------------------------------

    def open(self) -> None:
        """Open the port now and start the link's keeper, or raise BoardError ``cannot open
        PORT: why``: a board that is not there is said at once. (Once open, a port that goes
        away is tried again every ``reconnect_every`` seconds.) Calling it again does
        nothing."""
        if self._keeper is not None or self._stop.is_set():
            return
        if not self.connected:
            why = self._connect()
            if why is not None:
                raise BoardError(f"cannot open {self.url}: {why} (is the Pico plugged in?)")
        self._keeper = threading.Thread(target=self._keep, name="pico-link", daemon=True)
        self._keeper.start()

    async def ready(self, timeout: float) -> None:
        """Wait until the Pico has answered and its switches are read; BoardError when it does
        not within ``timeout`` seconds (no firmware, another protocol, the wrong port)."""
        import asyncio

        deadline = self._clock() + timeout
        while self._clock() < deadline:
            with self._lock:
                if self._refused is not None:
                    raise BoardError(refusal(self._refused, self.url))
                if self.connected and self._helloed and self._switches.synced:
                    return
            await asyncio.sleep(0.02)
        raise BoardError(
            f"{self.url}: no answer from the reedboard firmware in {timeout:g} s"
            " (is it installed? reedboard firmware install BUILD)"
        )

    def _keep(self) -> None:
        """Reconnect a lost port; notice a silent Pico; repeat unanswered requests; check the
        LEDs (the Pi's heartbeat)."""
        last_try = self._clock()
        while not self._stop.wait(KEEP_EVERY):
            now = self._clock()
            if not self.connected:
                if now - last_try >= self.reconnect_every:
                    last_try = now
                    self._connect()
                continue
            with self._lock:
                if now - self._heard > SILENCE and self._reported is not False:
                    self._helloed = False
                    why = f"{self.url}: no word from the Pico for {SILENCE:g} s"
                    log.warning("board link lost (%s)", why)
                    self._report(False, why)
                if not self._helloed:
                    if now - self._hailed >= ASK_EVERY:
                        self._hail(now)
                    continue
                if not self._switches.synced and now - self._asked >= RESYNC_EVERY:
                    self._ask_snapshot(now)
                # a frame not yet confirmed is checked at every turn: on a bad line, every
                # check that gets through with a wrong answer brings a resend sooner
                every = CHECK_EVERY if self._leds.confirmed else KEEP_EVERY
                if now - self._checked >= every:
                    self._checked = now
                    self._send(*self._leds.check())

    def _connect(self) -> str | None:
        """Open the port and start reading it; None, or why it could not be opened."""
        try:
            # exclusive: a second reader of the same port (doctor, a check, another daemon)
            # would take lines from this one; it is refused instead (an advisory lock)
            port = serial.serial_for_url(
                self.url, baudrate=self.baudrate, timeout=0.2, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            log.debug("cannot open %s: %s", self.url, exc)
            self._report(False, f"{self.url}: {exc}")
            return _why(exc)
        reader = _Reader(port, lambda: _Lines(self))
        reader.daemon = True
        now = self._clock()
        with self._lock:
            self._reader = reader
            self._helloed = False
            self._refused = None
            self._rb1_lines = 0
            self._switches.stale = True
            self._heard = now
            self._leds.forget()
        reader.start()
        reader.connect()
        self.connected = True
        with self._lock:
            self._hail(now)
            self._write(RB1_PROBE)  # an rb1 firmware answers this with its hello
        return None

    def _lost(self, exc: BaseException | None) -> None:
        with self._lock:
            if not self.connected:
                return
            self.connected = False
            self._reader = None
            self._helloed = False
        why = f"{self.url}: {exc}" if exc else f"{self.url} closed"
        log.warning("board link lost (%s); retrying every %.1f s", why, self.reconnect_every)
        self._report(False, why)

    def _report(self, up: bool, detail: str) -> None:
        with self._lock:
            if self._reported is up:
                return
            self._reported = up
        self._events.put_threadsafe(LinkEvent(up, self._clock(), detail))

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
        keeper = self._keeper
        if keeper is not None and keeper is not threading.current_thread():
            keeper.join(timeout=1)

    def _send(self, *bodies: str) -> None:
        if bodies:
            self._write(b"".join(frame(b) for b in bodies))

    def _write(self, data: bytes) -> None:
        reader = self._reader
        if reader is None:
            return
        try:
            reader.write(data)
        except (serial.SerialException, OSError) as exc:
            log.debug("write failed: %s", exc)

    def _hail(self, now: float) -> None:
        self._hailed = now
        self._send("V")

    def _ask_snapshot(self, now: float) -> None:
        self._asked = now
        self._send("Q")

    # -- lines from the Pico (the reader thread) -----------------------------------------------

    def _line(self, body: str) -> None:
        now = self._clock()
        with self._lock:
            self._heard = now
            self._rb1_lines = 0
            kind = body[:1]
            if kind == "H":
                self._hello(body, now)
            elif self._refused is not None or not self._helloed:
                if now - self._hailed >= ASK_EVERY:  # it speaks again: who is it?
                    self._hail(now)
            elif kind == "E" and (f := fields(body, "E", (2, 2, 1))) and f[2] <= 1:
                self._event(f[0], f[1], f[2] == 1, now)
            elif kind == "K" and (f := fields(body, "K", (2,))):
                self._switches.heartbeat(f[0])  # it may name events we never had
            elif kind == "S" and (f := fields(body, "S", (2, (self._points + 3) // 4))):
                self._snapshot(f[0], f[1], now)
            elif kind == "B" and (f := fields(body, "B", (2, 2, 1))) and f[2] < len(BUTTONS):
                self._press(f[0], f[1], f[2], now)
            elif kind == "A" and fields(body, "A", (2, 8)):
                self._send(*self._leds.answer(unhex(body, 2, 2), body[5:13]))
            elif kind == "X":
                log.warning("the Pico says: %s", body[2:80])
            else:
                self.bad_lines += 1
            if self._helloed and not self._switches.synced and now - self._asked >= RESYNC_EVERY:
                self._ask_snapshot(now)  # events are missing: at once, then every RESYNC_EVERY

    def _rejected(self, line: bytes) -> None:
        """A line that failed the check: perhaps a switch event (a snapshot is asked for at
        once, unless one was just asked for), perhaps a firmware of the previous protocol."""
        body = rb1_body(line)
        if body is None:
            with self._lock:
                now = self._clock()
                if self._helloed and now - self._asked >= RESYNC_EVERY:
                    self._asked = now
                    self._send("Q")
            return
        with self._lock:
            self._rb1_lines += 1
            words = body.split(" ")
            if len(words) > 1 and words[0] == "H":
                self._refuse(words[1][:16])
            elif self._rb1_lines >= 2:
                self._refuse("rb1")

    def _refuse(self, version: str) -> None:
        if self._refused == version:
            return
        message = refusal(version, self.url)
        log.error(message)
        self._refused = version
        self._helloed = False
        self.version = version
        self._report(False, message)

    def _hello(self, body: str, now: float) -> None:
        words = body.split(" ")
        if len(words) < 2:
            self.bad_lines += 1
            return
        if words[1] != VERSION:
            self._refuse(words[1][:16])
            return
        ok = len(words) == 6 and words[2].isdigit() and words[3].isdigit()
        boot, acked = (unhex(words[4], 0, 2), unhex(words[5], 0, 2)) if ok else (-1, -1)
        if boot < 0 or acked < 0 or len(words[4]) != 2 or len(words[5]) != 2:
            self.bad_lines += 1
            return
        self._refused = None
        self.version = VERSION
        known = self._presses.boot
        started = self._presses.hello(boot, acked)  # (a new start-up, or the same number drawn)
        restarted = started and known is not None
        if started:
            self._switches.restart()  # its event numbers start again
        if self._helloed and not restarted:
            return
        if int(words[2]) != self._points:
            log.error(
                "the Pico scans %s switch places but layout %s has a %dx%d matrix",
                words[2],
                self.layout.name,
                *self.layout.matrix,
            )
        self._helloed = True
        self._report(True, self.url)
        self._switches.stale = True
        self._ask_snapshot(now)  # the snapshot brings the switches up to date
        self._leds.forget()
        self._push()

    @property
    def gaps(self) -> int:
        """How often lost switch events were noticed."""
        return self._switches.gaps

    @property
    def switches(self) -> SwitchTracker:
        return self._switches

    def _event(self, seq: int, index: int, closed: bool, now: float) -> None:
        """An event newer than what is known of its switch is applied even after a gap: it is
        what its switch did last (lines arrive in order), and the snapshot the gap asks for
        brings the other switches in step."""
        changed, _ = self._switches.event(seq, index, closed)
        if changed and index in self._ids:
            self._events.put_threadsafe(SensorEvent(self._ids[index], closed, now))

    def _snapshot(self, seq: int, bitmap: int, now: float) -> None:
        changed = self._switches.snapshot(seq, bitmap)
        for index, point in sorted(self._ids.items()):
            if changed >> index & 1:
                self._events.put_threadsafe(SensorEvent(point, bool(bitmap >> index & 1), now))

    def _press(self, boot: int, seq: int, button: int, now: float) -> None:
        deliver, ack = self._presses.receive(boot, seq)
        if ack is None:  # a press from a start-up we have had no hello from
            if now - self._hailed >= ASK_EVERY:
                self._hail(now)
            return
        self._send(f"P {boot:02x} {ack:02x}")
        if deliver:
            self._events.put_threadsafe(ButtonEvent(BUTTONS[button], now))

    # -- BoardIO -------------------------------------------------------------------------------

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            closed = self._switches.closed
            return frozenset(p for i, p in self._ids.items() if closed >> i & 1)

    @property
    def events(self) -> EventQueue:
        return self._events

    @property
    def presses(self) -> PressTracker:
        return self._presses

    def write(self, colours: Sequence[Colour]) -> None:
        """The compositor's chain: sent as its changes (now, or once the Pico says hello)."""
        with self._lock:
            self._colours = list(colours)
            self._push()

    def _push(self) -> None:
        """Send the LEDs that differ from what the Pico was last sent, then show them."""
        with self._lock:
            if self._reader is None or not self._helloed:
                return  # the hello sends the whole frame
            colours = limit(self._colours, self.brightness, self.max_milliamps)
            lines = self._leds.update(colours)
            if lines:
                self._checked = self._clock()
                self._send(*lines)
