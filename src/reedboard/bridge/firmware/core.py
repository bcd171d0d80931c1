# reedboard Pico firmware: matrix scanning, debouncing, presses, LEDs and the Pi's commands.
#
# Runs unchanged on MicroPython (the Pico, the Unix port) and on CPython. Keep it to what both
# have: no typing, no dataclasses, no int.bit_length. The framing is in wire.py; the protocol
# is written down in reedboard/bridge/PROTOCOL.md. The hardware is behind ``hal`` (hal.py on the
# Pico, sim.py's SimHal elsewhere): read_matrix, read_buttons, set_led, show, ticks_ms,
# ticks_us, ticks_add, ticks_diff (MicroPython's time functions of those names), sleep_us, feed
# (the watchdog).

try:
    from .wire import GROUPS_PER_LINE, VERSION, LineParser, crc32hex, fields, frame, hexw, unhex
except ImportError:  # flat on the Pico and when run as a script
    from wire import GROUPS_PER_LINE, VERSION, LineParser, crc32hex, fields, frame, hexw, unhex

SNAPSHOT_MS = 1000
HEARTBEAT_MS = 50
RESEND_MS = 100
HOST_TIMEOUT_MS = 3000
QUIET_MS = 1000  # how often heartbeats and resent presses go while the Pi is silent
MAX_PRESSES = 64  # presses waiting for the Pi's acknowledgement; more are dropped
RESEND_WINDOW = 4  # how many of them, oldest first, each resend sends
REPEAT_MS = (2, 4, 8, 16)  # each switch event goes again this long after it first went
MAX_REPEATING = 16  # switch events being repeated; an older one's repeats are dropped
MAX_FAILING = 20  # steps failing in a row before the loop stops feeding the watchdog
NBUTTONS = 5


def boot_id():
    """A number 0-255 that differs from one start-up to the next (almost always)."""
    try:
        import os

        return os.urandom(1)[0]
    except Exception:
        import time

        return int(time.time() * 1000) & 0xFF


class Debouncer:
    """A switch's change counts once its reading has held for ``window`` (in the clock's units:
    the firmware uses microseconds, so the window is kept to the scan that confirms it)."""

    def __init__(self, points, window, initial=0):
        self.points = points
        self.window = window
        self.reported = initial
        self.raw = initial
        self.since = [0] * points
        self.left = None  # how long until the next change not yet reported has held long enough

    def update(self, raw, now, diff):
        """Feed one scan at ``now`` (``diff(a, b)`` is a - b on the tick clock); returns the
        (index, closed) changes now stable, and sets ``left``."""
        raw &= (1 << self.points) - 1
        changed = raw ^ self.raw
        i = 0
        while changed:
            if changed & 1:
                self.since[i] = now
            changed >>= 1
            i += 1
        self.raw = raw
        pending = raw ^ self.reported
        out = []
        soonest = None
        i = 0
        while pending:
            if pending & 1:
                left = self.window - diff(now, self.since[i])
                if left <= 0:
                    self.reported ^= 1 << i
                    out.append((i, (raw >> i) & 1))
                elif soonest is None or left < soonest:
                    soonest = left
            pending >>= 1
            i += 1
        self.left = soonest
        return out


class Firmware:
    """The device side: scans through ``hal``, reads the Pi's commands and writes framed lines
    to ``out``. :meth:`step` does one iteration and never raises; :meth:`run` loops."""

    def __init__(
        self,
        hal,
        out,
        points,
        leds,
        scan_hz=100,
        stable_ms=5,
        boot=None,
        host_timeout_ms=HOST_TIMEOUT_MS,
    ):
        self.hal = hal
        self.out = out
        self.points = points
        self.leds = leds
        self.scan_us = max(100, int(1000000 / scan_hz))
        self.stable_ms = stable_ms
        self.boot = hexw((boot_id() if boot is None else boot) & 0xFF, 2)
        self.host_timeout_ms = host_timeout_ms
        self.parser = LineParser()
        self.seq = 0xFF  # of the last switch event; the first is 00
        self.repeating = []  # [when it first went (ms), repeats sent, body], oldest first
        self.debouncer = Debouncer(points, stable_ms * 1000, hal.read_matrix())
        self.buttons = 0
        self.button_since = [0] * NBUTTONS
        self.pseq = 0xFF  # of the last press; the first is 00
        self.presses = []  # (seq, button) not yet acknowledged, oldest first
        self.acked = 0xFF  # the last press acknowledged
        self.dropped = 0  # presses refused because MAX_PRESSES were waiting
        self.chain = bytearray(3 * leds)  # the pending chain the Pi's L lines write
        self.chain_crc = None  # its CRC-32 (hex), None until computed again
        self.shown = None  # the CRC-32 of the chain on the LEDs, None if blanked
        self.good = 0  # good lines from the Pi
        self.sent = 0  # lines to the Pi
        self.faults = 0  # exceptions the loop caught (the parse paths never raise them)
        self.failing = 0
        now = hal.ticks_ms()
        self.host_at = now  # when the Pi last sent a good line
        self.host_silent = False
        self.next_scan = hal.ticks_us()  # us: the scan's cadence, kept to the microsecond
        self.due = None  # us: when the debouncer next has a change to confirm
        self.wake = self.next_scan  # us: when the loop must step next
        self.next_snapshot = hal.ticks_add(now, SNAPSHOT_MS)
        self.next_beat = now
        self.next_resend = now
        self.hello()

    # -- output --------------------------------------------------------------------------------

    def send(self, body):
        self.sent += 1
        self.out.write(frame(body))
        flush = getattr(self.out, "flush", None)
        if flush is not None:
            flush()

    def hello(self):
        self.send(
            "H %s %d %d %s %s" % (VERSION, self.points, self.leds, self.boot, hexw(self.acked, 2))
        )

    def snapshot(self):
        width = (self.points + 3) // 4
        self.send("S %s %s" % (hexw(self.seq, 2), hexw(self.debouncer.reported, width)))

    def press(self, button, now):
        if len(self.presses) >= MAX_PRESSES:
            self.dropped += 1
            return
        self.pseq = (self.pseq + 1) & 0xFF
        self.presses.append((self.pseq, button))
        self.send("B %s %s %d" % (self.boot, hexw(self.pseq, 2), button))
        self.next_resend = self.hal.ticks_add(now, RESEND_MS)

    # -- input ---------------------------------------------------------------------------------

    def receive(self, data, now):
        for body in self.parser.feed(data):
            self.good += 1
            self.host_at = now
            self.host_silent = False
            self.command(body)

    def command(self, body):
        """Carry out one good line from the Pi. Every path checks its fields first, so no
        line raises; one this firmware does not know is answered with ``X``."""
        kind = body[:1]
        if body == "V":
            self.hello()
        elif body == "Q":
            self.snapshot()
        elif kind == "L":
            self.set_leds(body)
        elif kind == "F":
            f = fields(body, "F", (2, 8))
            if f is None:
                self.send("X bad frame line")
            else:
                self.show_frame(body[2:4], body[5:13])
        elif kind == "P":
            f = fields(body, "P", (2, 2))
            if f is None:
                self.send("X bad ack line")
            elif body[2:4] == self.boot:
                self.ack(f[1])
        else:
            self.send("X unknown command")

    def set_leds(self, body):
        groups = (len(body) - 1) // 9
        if groups < 1 or groups > GROUPS_PER_LINE or len(body) != 1 + 9 * groups:
            self.send("X bad led line")
            return
        values = []
        for g in range(groups):
            at = 1 + 9 * g
            i = unhex(body, at + 1, 2)
            r = unhex(body, at + 3, 2)
            gr = unhex(body, at + 5, 2)
            b = unhex(body, at + 7, 2)
            if body[at] != " " or i < 0 or r < 0 or gr < 0 or b < 0:
                self.send("X bad led group")
                return
            if i >= self.leds:
                self.send("X led %d out of range" % i)
                return
            values.append((i, r, gr, b))
        for i, r, gr, b in values:
            self.chain[3 * i] = r
            self.chain[3 * i + 1] = gr
            self.chain[3 * i + 2] = b
        self.chain_crc = None

    def show_frame(self, gen, crc):
        """``F gen crc``: show the pending chain if its CRC-32 is ``crc``; answer with the
        pending chain's CRC-32 either way."""
        if self.chain_crc is None:
            self.chain_crc = crc32hex(self.chain)
        if self.chain_crc == crc and self.shown != crc:
            for i in range(self.leds):
                self.hal.set_led(i, self.chain[3 * i], self.chain[3 * i + 1], self.chain[3 * i + 2])
            self.hal.show()
            self.shown = crc
        self.send("A %s %s" % (gen, self.chain_crc))

    def ack(self, seq):
        """``P boot seq``: the Pi has every press up to ``seq``. An ack outside the waiting
        presses (a repeat, or nonsense) changes nothing."""
        if not self.presses or ((seq - self.presses[0][0]) & 0xFF) >= len(self.presses):
            return
        while self.presses and ((seq - self.presses[0][0]) & 0xFF) < 128:
            self.acked = self.presses.pop(0)[0]

    def blank(self):
        """The Pi has gone silent: dark LEDs rather than a stale frame (the pending chain is
        kept, so the Pi's next check brings it back at once)."""
        for i in range(self.leds):
            self.hal.set_led(i, 0, 0, 0)
        self.hal.show()
        self.shown = None

    # -- the loop ------------------------------------------------------------------------------

    def scan(self, now, us):
        diff = self.hal.ticks_diff
        debouncer = self.debouncer
        for i, closed in debouncer.update(self.hal.read_matrix(), us, diff):
            self.seq = (self.seq + 1) & 0xFF
            body = "E %s %s %d" % (hexw(self.seq, 2), hexw(i, 2), closed)
            self.send(body)
            if len(self.repeating) >= MAX_REPEATING:
                self.repeating.pop(0)
            self.repeating.append([now, 0, body])
        pressed = self.hal.read_buttons()
        for b in range(NBUTTONS):
            bit = 1 << b
            settled = diff(now, self.button_since[b]) >= self.stable_ms * 4
            if (pressed ^ self.buttons) & bit and settled:
                self.buttons ^= bit
                self.button_since[b] = now
                if pressed & bit:
                    self.press(b, now)
        left = debouncer.left
        self.due = None if left is None else self.hal.ticks_add(us, left)

    def repeat(self, now):
        """Send each switch event again at REPEAT_MS after it first went, in the order they
        went (the Pi drops the copies it has): a lost event line costs milliseconds, not a
        snapshot's round trip."""
        diff = self.hal.ticks_diff
        k = 0
        while k < len(self.repeating):
            entry = self.repeating[k]
            age = diff(now, entry[0])
            if age >= REPEAT_MS[entry[1]]:
                self.send(entry[2])
                while entry[1] < len(REPEAT_MS) and age >= REPEAT_MS[entry[1]]:
                    entry[1] += 1  # one copy for the repeats a slow step has let pass
                if entry[1] >= len(REPEAT_MS):
                    self.repeating.pop(k)
                    continue
            k += 1

    def tick(self, now, data=b""):
        """One iteration at ``now`` ms: take the Pi's bytes, scan when due (on the scan's
        cadence, and when a change has held for the stable window, so that it is confirmed and
        sent then, not up to a scan later), send what is due."""
        if data:
            self.receive(data, now)
        hal = self.hal
        diff = hal.ticks_diff
        add = hal.ticks_add
        if not self.host_silent and diff(now, self.host_at) >= self.host_timeout_ms:
            self.host_silent = True
            self.blank()
        every = QUIET_MS if self.host_silent else 0
        us = hal.ticks_us()
        cadence = diff(us, self.next_scan) >= 0
        if cadence or (self.due is not None and diff(us, self.due) >= 0):
            self.scan(now, us)
            if cadence:
                self.next_scan = add(self.next_scan, self.scan_us)
                if diff(us, self.next_scan) >= 0:  # fell behind: no burst of scans to catch up
                    self.next_scan = add(us, self.scan_us)
        if self.repeating:
            self.repeat(now)
        if diff(now, self.next_snapshot) >= 0:
            self.snapshot()
            self.next_snapshot = add(now, SNAPSHOT_MS)
        if diff(now, self.next_beat) >= 0:
            self.send("K " + hexw(self.seq, 2))
            self.next_beat = add(now, every or HEARTBEAT_MS)
        if self.presses and diff(now, self.next_resend) >= 0:
            for seq, button in self.presses[:RESEND_WINDOW]:
                self.send("B %s %s %d" % (self.boot, hexw(seq, 2), button))
            self.next_resend = add(now, every or RESEND_MS)
        self.wake = self.next_scan
        if self.due is not None and diff(self.due, self.wake) < 0:
            self.wake = self.due

    def step(self, now, data=b""):
        """:meth:`tick`, catching anything it raises (counted in ``faults``): the loop goes on
        whatever comes in. The watchdog is fed unless MAX_FAILING steps in a row failed, so a
        loop that keeps failing (or stalls) is restarted by the hardware. Returns the us until
        the next scan is due (at most one scan period)."""
        try:
            self.tick(now, data)
            self.failing = 0
        except Exception:
            self.faults += 1
            self.failing += 1
        if self.failing < MAX_FAILING:
            self.hal.feed()
        return self.until_wake()

    def until_wake(self):
        """The us until the loop must step again, 0 to one scan period."""
        left = self.hal.ticks_diff(self.wake, self.hal.ticks_us())
        return max(0, min(self.scan_us, left))

    def run(self, inp, poller):
        """Wait for the Pi's bytes until the next scan is due, then step; returns when the input
        ends (a closed pipe; a Pico's USB input never ends). ``poll`` waits whole milliseconds,
        so the last part of a wait is slept to the microsecond (the Pi's bytes wait for the
        next step, at most one scan period)."""
        wait = 0
        while True:
            data = b""
            while poller.poll(wait // 1000):
                byte = inp.read(1)
                if not byte:
                    return
                data += byte
                wait = 0
                if len(data) >= 64:
                    break
            if not data:
                left = self.until_wake()
                if left > 0:
                    self.hal.sleep_us(left)
            wait = self.step(self.hal.ticks_ms(), data)
