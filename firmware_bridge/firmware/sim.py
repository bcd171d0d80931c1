# The firmware on a simulated board, for tests, benchmarks and trying the bridge without a
# Pico. Runs under MicroPython's Unix port and CPython alike:
#
#     micropython sim.py CONTROL POINTS LEDS [SCAN_HZ [HOST_TIMEOUT_MS]]
#
# The serial link is standard input and output, as on the Pico. CONTROL is a tty (or any
# read/write path) that plays the board's wires: lines "W ii v" close (v=1) or open (v=0)
# switch ii (hex), "P n" presses button n for 40 ms; every LED frame the firmware shows is
# written back there as "LEDS <hex of the chain's r,g,b bytes>".
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
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


class SimHal:
    def __init__(self, control, leds):
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

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)


def main(argv):
    control, points, leds = argv[1], int(argv[2]), int(argv[3])
    scan_hz = int(argv[4]) if len(argv) > 4 else 100
    host_timeout = int(argv[5]) if len(argv) > 5 else HOST_TIMEOUT_MS
    hal = SimHal(control, leds)
    # CPython's buffered stdin would swallow bytes that poll() then does not report
    inp = getattr(sys.stdin.buffer, "raw", sys.stdin.buffer)
    fw = Firmware(hal, sys.stdout.buffer, points, leds, scan_hz, host_timeout_ms=host_timeout)
    poller = select.poll()
    poller.register(inp, select.POLLIN)
    fw.run(inp, poller)


main(sys.argv)
