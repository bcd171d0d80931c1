# reedboard Pico firmware: matrix scanning, debouncing and the line protocol.
#
# Runs unchanged on MicroPython (the Pico, the Unix port) and on CPython (the Pi side imports
# the framing from here). Keep it to what both have: no typing, no dataclasses, no
# int.bit_length. The protocol is written down in firmware_bridge/PROTOCOL.md.

VERSION = "rb1"
MAX_LINE = 200
BUTTONS = ("roll", "undo", "hint", "confirm", "new")
SNAPSHOT_MS = 1000
GROUPS_PER_LINE = 16


def crc8(data):
    """CRC-8/SMBUS: polynomial 0x07, initial 0, no reflection."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(body):
    """The wire form of a body: ``BODY*CC\\n``."""
    data = body.encode() if isinstance(body, str) else body
    return data + b"*" + ("%02x" % crc8(data)).encode() + b"\n"


_CRC16 = []


def crc16(data):
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), table-driven: the checksum of
    the whole LED chain in each frame's answer."""
    if not _CRC16:
        for n in range(256):
            c = n << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
            _CRC16.append(c)
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC16[(crc >> 8) ^ byte]
    return crc


class LineParser:
    """Feed bytes in chunks split anywhere; :meth:`feed` returns the bodies of the good lines.
    A line that is too long, not printable ASCII, or whose CRC does not match is dropped and
    counted in ``bad``."""

    def __init__(self):
        self.buf = b""
        self.bad = 0

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > MAX_LINE:
                    self.buf = b""
                    self.bad += 1
                return out
            line = self.buf[:i]
            self.buf = self.buf[i + 1 :]
            body = check(line)
            if body is None:
                self.bad += 1
            else:
                out.append(body)


def check(line):
    """The body of a framed line (without its newline), or None if it is damaged."""
    if len(line) < 4 or len(line) > MAX_LINE or line[-3:-2] != b"*":
        return None
    body = line[:-3]
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            return None
    try:
        crc = int(line[-2:], 16)
    except ValueError:
        return None
    if line[-2:] != line[-2:].lower() or crc8(body) != crc:
        return None
    if b"*" in body:
        return None
    return body.decode()


def hexw(value, width):
    """``value`` in lowercase hex, zero-padded to ``width`` digits."""
    text = "%x" % value
    return "0" * (width - len(text)) + text


class Debouncer:
    """A switch's change counts once its reading has held for ``window`` ms."""

    def __init__(self, points, window, initial=0):
        self.points = points
        self.window = window
        self.reported = initial
        self.raw = initial
        self.since = [0] * points

    def update(self, raw, now, diff):
        """Feed one scan at ``now`` ms (``diff(a, b)`` is a - b on the tick clock); returns
        the (index, closed) changes now stable."""
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
        i = 0
        while pending:
            if pending & 1 and diff(now, self.since[i]) >= self.window:
                closed = (raw >> i) & 1
                self.reported ^= 1 << i
                out.append((i, closed))
            pending >>= 1
            i += 1
        return out


class Firmware:
    """The device side: scans through ``hal``, reads host commands from ``inp`` and writes
    framed lines to ``out``. :meth:`step` does one iteration; :meth:`run` loops forever."""

    def __init__(self, hal, out, points, leds, scan_hz=100, stable_ms=5):
        self.hal = hal
        self.out = out
        self.points = points
        self.leds = leds
        self.scan_ms = max(1, int(1000 / scan_hz))
        self.parser = LineParser()
        self.seq = 0xFF  # the first event is 00
        self.debouncer = Debouncer(points, stable_ms, hal.read_matrix())
        self.buttons = 0
        self.button_since = [0] * len(BUTTONS)
        self.stable_ms = stable_ms
        self.chain = bytearray(3 * leds)
        self.next_scan = hal.ticks_ms()
        self.next_snapshot = self.next_scan + SNAPSHOT_MS
        self.hello()

    # -- output --------------------------------------------------------------------------------

    def send(self, body):
        self.out.write(frame(body))
        flush = getattr(self.out, "flush", None)
        if flush is not None:
            flush()

    def hello(self):
        self.send("H %s %d %d" % (VERSION, self.points, self.leds))

    def snapshot(self):
        width = (self.points + 3) // 4
        self.send("S %s %s" % (hexw(self.seq, 2), hexw(self.debouncer.reported, width)))

    def event(self, body):
        self.seq = (self.seq + 1) & 0xFF
        self.send(body % hexw(self.seq, 2))

    # -- input ---------------------------------------------------------------------------------

    def receive(self, data):
        for body in self.parser.feed(data):
            self.command(body)

    def command(self, body):
        kind = body[:1]
        if body == "V":
            self.hello()
        elif body == "Q":
            self.snapshot()
        elif kind == "L" and len(body) >= 4:
            for group in body[5:].split(" "):
                if len(group) != 8:
                    self.send("X bad led group")
                    return
                i = int(group[:2], 16)
                if i >= self.leds:
                    self.send("X led %d out of range" % i)
                    return
                self.chain[3 * i] = int(group[2:4], 16)
                self.chain[3 * i + 1] = int(group[4:6], 16)
                self.chain[3 * i + 2] = int(group[6:8], 16)
        elif kind == "C" and len(body) == 4:
            for i in range(len(self.chain)):
                self.chain[i] = 0
        elif kind == "F" and len(body) == 4:
            for i in range(self.leds):
                self.hal.set_led(i, self.chain[3 * i], self.chain[3 * i + 1], self.chain[3 * i + 2])
            self.hal.show()
            self.send("A %s %s" % (body[2:4], hexw(crc16(self.chain), 4)))
        else:
            self.send("X unknown command")

    # -- the loop ------------------------------------------------------------------------------

    def scan(self, now):
        diff = self.hal.ticks_diff
        for i, closed in self.debouncer.update(self.hal.read_matrix(), now, diff):
            self.event("E %s " + hexw(i, 2) + (" 1" if closed else " 0"))
        pressed = self.hal.read_buttons()
        for b in range(len(BUTTONS)):
            bit = 1 << b
            settled = diff(now, self.button_since[b]) >= self.stable_ms * 4
            if (pressed ^ self.buttons) & bit and settled:
                self.buttons ^= bit
                self.button_since[b] = now
                if pressed & bit:
                    self.event("B %s " + str(b))

    def step(self, now, data=b""):
        """One iteration at ``now`` ms: take host bytes, scan when due, snapshot when due.
        Returns the ms until the next scan is due."""
        if data:
            self.receive(data)
        diff = self.hal.ticks_diff
        if diff(now, self.next_scan) >= 0:
            self.scan(now)
            self.next_scan = now + self.scan_ms
        if diff(now, self.next_snapshot) >= 0:
            self.snapshot()
            self.next_snapshot = now + SNAPSHOT_MS
        return max(0, diff(self.next_scan, now))

    def run(self, inp, poller):
        """Wait for host bytes until the next scan is due, then step; returns when the input
        ends (a closed pipe; a Pico's USB input never ends)."""
        wait = 0
        while True:
            data = b""
            while poller.poll(wait):
                byte = inp.read(1)
                if not byte:
                    return
                data += byte
                wait = 0
                if len(data) >= 64:
                    break
            wait = self.step(self.hal.ticks_ms(), data)
