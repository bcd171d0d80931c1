# The firmware on a simulated board, for tests, benchmarks and trying the bridge without a
# Pico. Runs under MicroPython's Unix port and CPython alike:
#
#     micropython sim.py CONTROL POINTS LEDS [SCAN_HZ [HOST_TIMEOUT_MS [trace]]]
#
# The serial link is standard input and output, as on the Pico. CONTROL is a tty (or any
# read/write path) that plays the board's wires: lines "W ii v" close (v=1) or open (v=0)
# switch ii (hex), "P n" presses button n for 40 ms; every LED frame the firmware shows is
# written back there as "LEDS <hex of the chain's r,g,b bytes>". With "trace", the times (us
# on the monotonic clock) are written there too: "T W ii us" when the scan first reads a
# switch change, "T E ee us" when switch event ee has been written to the link.
import select
import sys
import time

from core import HOST_TIMEOUT_MS, Firmware

try:
    import micropython

    micropython.kbd_intr(-1)
except ImportError:  # CPython
    pass

try:
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
    sleep_us = time.sleep_us
except AttributeError:  # CPython

    def ticks_add(a, delta):
        return a + delta

    def sleep_us(us):
        time.sleep(us / 1000000)

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_us():
        return int(time.monotonic() * 1000000)

    def ticks_diff(a, b):
        return a - b


class SimHal:
    def __init__(self, control, leds, trace=False):
        if sys.implementation.name == "micropython":
            self.ctl = open(control, "r+b")  # MicroPython's files are unbuffered already
        else:
            self.ctl = open(control, "r+b", buffering=0)  # or poll() misses buffered bytes
        self.poller = select.poll()
        self.poller.register(self.ctl, select.POLLIN)
        self.closed = 0
        self.pressed = {}
        self.chain = bytearray(3 * leds)
        self.buf = b""
        self.trace = trace

    def note(self, text):
        """A trace line on the control tty (only with ``trace``)."""
        if self.trace:
            self.ctl.write(("T %s %d\n" % (text, ticks_us())).encode())

    def service(self):
        while self.poller.poll(0):
            byte = self.ctl.read(1)
            if not byte:
                return
            if byte != b"\n":
                self.buf += byte
                continue
            words = self.buf.decode().split()
            self.buf = b""
            if len(words) == 3 and words[0] == "W":
                bit = 1 << int(words[1], 16)
                self.closed = self.closed | bit if words[2] == "1" else self.closed & ~bit
                self.note("W " + words[1])
            elif len(words) == 2 and words[0] == "P":
                self.pressed[int(words[1])] = ticks_ms()

    def read_matrix(self):
        self.service()
        return self.closed

    def read_buttons(self):
        bits = 0
        now = ticks_ms()
        for b, since in list(self.pressed.items()):
            if ticks_diff(now, since) < 40:
                bits |= 1 << b
            else:
                del self.pressed[b]
        return bits

    def set_led(self, i, r, g, b):
        self.chain[3 * i] = r
        self.chain[3 * i + 1] = g
        self.chain[3 * i + 2] = b

    def show(self):
        # unbuffered on both interpreters; flush() would fsync a tty (EINVAL on MicroPython)
        self.ctl.write(b"LEDS " + "".join("%02x" % v for v in self.chain).encode() + b"\n")

    def feed(self):
        pass  # no watchdog on a simulated board

    def ticks_ms(self):
        return ticks_ms()

    def ticks_us(self):
        return ticks_us()

    def ticks_add(self, a, delta):
        return ticks_add(a, delta)

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def sleep_us(self, us):
        sleep_us(us)


class TracedLink:
    """The link's output, noting when each switch event has first been written (not its
    repeats)."""

    def __init__(self, out, hal):
        self.out = out
        self.hal = hal
        self.last = 0xFF

    def write(self, data):
        n = self.out.write(data)
        if data[:2] == b"E ":
            seq = int(data[2:4], 16)
            if 0 < (seq - self.last) & 0xFF < 128:
                self.last = seq
                self.hal.note("E " + data[2:4].decode())
        return n

    def flush(self):
        self.out.flush()


def main(argv):
    control, points, leds = argv[1], int(argv[2]), int(argv[3])
    scan_hz = int(argv[4]) if len(argv) > 4 else 100
    host_timeout = int(argv[5]) if len(argv) > 5 else HOST_TIMEOUT_MS
    trace = len(argv) > 6 and argv[6] == "trace"
    hal = SimHal(control, leds, trace)
    # CPython's buffered stdin would swallow bytes that poll() then does not report
    inp = getattr(sys.stdin.buffer, "raw", sys.stdin.buffer)
    out = TracedLink(sys.stdout.buffer, hal) if trace else sys.stdout.buffer
    fw = Firmware(hal, out, points, leds, scan_hz, host_timeout_ms=host_timeout)
    poller = select.poll()
    poller.register(inp, select.POLLIN)
    fw.run(inp, poller)


main(sys.argv)
