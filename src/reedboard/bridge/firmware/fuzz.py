# Fuzz the firmware's loop with random and damaged lines from the Pi, fed through Firmware.step
# in chunks of 1-64 bytes as the real loop feeds them, on a simulated clock, while switches
# change and buttons are pressed. For tests and benchmarks/fuzz_firmware.py; not for the Pico.
#
#     micropython fuzz.py SEED LINES
#
# Prints one line: "lines N good G rejected R faults F out O misframed M shown S alive A".
# faults counts exceptions that reached the loop's safety net (the parse paths should raise
# none); misframed counts lines the firmware wrote that would not pass the check; alive is 1 if
# afterwards the firmware still answers V with its hello and shows a frame it is sent.
import random
import sys

from core import Firmware
from wire import LineParser, crc32hex, frame, hexw

PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F) if c != 0x2A)
LEDS = 47
STEPS = (0, 0, 0, 1, 1, 2, 5, 10) * 8 + (3500,)  # ms; now and then long enough to miss the Pi


class Hal:
    def __init__(self):
        self.t = 0
        self.matrix = 0
        self.buttons = 0
        self.shown = 0

    def read_matrix(self):
        return self.matrix

    def read_buttons(self):
        return self.buttons

    def set_led(self, i, r, g, b):
        pass

    def show(self):
        self.shown += 1

    def ticks_ms(self):
        return self.t

    def ticks_us(self):
        return self.t * 1000

    def ticks_add(self, a, delta):
        return a + delta

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, us):
        pass

    def feed(self):
        pass


class Sink:
    """The Pi's end: every line the firmware writes must pass the check."""

    def __init__(self):
        self.parser = LineParser()
        self.bodies = []

    def write(self, data):
        self.bodies += self.parser.feed(data)
        if len(self.bodies) > 64:
            self.bodies = self.bodies[-8:]


def rhex(n):
    return "".join(random.choice("0123456789abcdef") for _ in range(n))


def command():
    kind = random.randrange(7)
    if kind == 0:
        return random.choice(("V", "Q"))
    if kind < 3:
        n = random.randint(1, 4)
        return "L " + " ".join(hexw(random.randrange(LEDS + 3), 2) + rhex(6) for _ in range(n))
    if kind < 5:
        return "F " + rhex(2) + " " + rhex(8)
    return "P " + rhex(2) + " " + rhex(2)


def mutate(text):
    """1-3 damaged characters: changed (any printable but *), dropped or doubled."""
    s = list(text)
    for _ in range(random.randint(1, 3)):
        if not s:
            break
        at = random.randrange(len(s))
        how = random.randrange(5)
        if how == 0:
            del s[at]
        elif how == 1:
            s.insert(at, s[at])
        elif how == 2:
            s[at] = random.choice("0123456789abcdefABCDEF ")
        else:
            s[at] = random.choice(PRINTABLE)
    return "".join(s)


def damage(data):
    """1-3 damaged bytes: corrupted (any value), dropped or duplicated."""
    b = bytearray(data)
    for _ in range(random.randint(1, 3)):
        if not b:
            break
        at = random.randrange(len(b))
        how = random.randrange(3)
        if how == 0:
            b[at] = random.getrandbits(8)
        elif how == 1:
            b = b[:at] + b[at + 1 :]
        else:
            b = b[:at] + bytes([b[at]]) + b[at:]
    return bytes(b)


def line():
    r = random.randrange(100)
    if r < 8:  # a good command
        return frame(command())
    if r < 40:  # a good command damaged on the way: the check should catch it
        return damage(frame(command()))
    if r < 70:  # a damaged command that passes the check (framed after the damage)
        return frame(mutate(command()))
    if r < 80:  # printable garbage that passes the check
        n = random.randrange(60)
        return frame("".join(random.choice(PRINTABLE) for _ in range(n)))
    if r < 90:  # random bytes, newlines included
        return bytes(random.getrandbits(8) for _ in range(random.randrange(80)))
    if r < 93:  # an overlong line, sometimes without its newline for a while
        return b"L" * random.randint(190, 3000) + (b"\n" if random.randrange(2) else b"")
    if r < 97:  # empty lines, carriage returns, non-ASCII
        return random.choice((b"\n", b"\r\n", b"\n\n", "\u00e9\u00e8*00000000\n".encode()))
    return bytes(random.getrandbits(8) | 0x80 for _ in range(random.randrange(40))) + b"\n"


def main(argv):
    seed, count = int(argv[1]), int(argv[2])
    random.seed(seed)
    hal = Hal()
    out = Sink()
    fw = Firmware(hal, out, 36, LEDS, 1000, 5, boot=0x3C, host_timeout_ms=3000)
    pending = b""
    for n in range(count):
        pending += line()
        if n % 16 == 0:  # the board moves now and then
            hal.matrix ^= 1 << random.randrange(36)
            hal.buttons = 1 << random.randrange(5) if random.randrange(8) == 0 else 0
        while len(pending) > 64 or (pending and n == count - 1):
            size = random.randint(1, 64)
            hal.t += random.choice(STEPS)
            fw.step(hal.t, pending[:size])
            pending = pending[size:]
    # afterwards: it still answers, and still shows the frame it is sent
    out.bodies = []
    shown = hal.shown
    chain = bytearray(3 * LEDS)
    chain[0] = 0xFF
    fill = [frame("L %s000000 %s000000" % (hexw(i, 2), hexw(i + 1, 2))) for i in range(1, LEDS, 2)]
    fw.step(hal.t, b"\n" + frame("V") + frame("L 00ff0000") + b"".join(fill))
    crc = crc32hex(chain)
    fw.step(hal.t + 1, frame("F 5a " + crc))
    hellos = [b for b in out.bodies if b[:2] == "H "]
    answers = [b for b in out.bodies if b[:2] == "A "]
    alive = (
        len(hellos) == 1
        and hellos[0].startswith("H rb3 36 47 3c ")
        and answers == ["A 5a " + crc]
        and hal.shown == shown + 1
    )
    print(
        "lines %d good %d rejected %d faults %d out %d misframed %d shown %d alive %d"
        % (
            count,
            fw.good,
            fw.parser.bad,
            fw.faults,
            fw.sent,
            out.parser.bad,
            hal.shown,
            1 if alive else 0,
        )
    )


main(sys.argv)
