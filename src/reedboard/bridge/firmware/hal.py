# The Pico's hardware: the switch matrix on GP pins, the buttons, the WS2812 chain, the
# watchdog. Pico only (machine, neopixel); the simulated HAL in sim.py has the same methods.

import time

import neopixel
from machine import Pin


class Hal:
    def __init__(self, cfg):
        low = cfg.get("active_low", True)
        self.select = 0 if low else 1
        self.idle = 1 - self.select
        pull = Pin.PULL_UP if low else Pin.PULL_DOWN
        self.rows = [Pin(n, Pin.OUT, value=self.idle) for n in cfg["rows"]]
        self.cols = [Pin(n, Pin.IN, pull) for n in cfg["cols"]]
        self.ncols = len(self.cols)
        self.used = 0
        for bit in cfg["switches"]:
            self.used |= 1 << bit
        # buttons to ground, in the protocol's order: roll undo hint confirm new
        self.buttons = [
            Pin(n, Pin.IN, Pin.PULL_UP) if n is not None else None for n in cfg["buttons"]
        ]
        self.np = neopixel.NeoPixel(Pin(cfg["led_pin"]), cfg["leds"])
        self.grb = cfg.get("order", "GRB")
        self.wdt = None

    def start_watchdog(self, ms):
        # the RP2040's watchdog cannot be stopped once started: a loop that stops feeding it
        # (stalled, or failing step after step) restarts the Pico after ``ms`` (at most 8388)
        from machine import WDT

        self.wdt = WDT(timeout=ms)

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def read_matrix(self):
        raw = 0
        for r, row in enumerate(self.rows):
            row.value(self.select)
            base = r * self.ncols
            for c, col in enumerate(self.cols):
                if col.value() == self.select:
                    raw |= 1 << (base + c)
            row.value(self.idle)
        return raw & self.used

    def read_buttons(self):
        bits = 0
        for i, pin in enumerate(self.buttons):
            if pin is not None and pin.value() == 0:
                bits |= 1 << i
        return bits

    def set_led(self, i, r, g, b):
        # the neopixel driver takes (r, g, b) and sends GRB itself
        self.np[i] = (r, g, b)

    def show(self):
        self.np.write()

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_add(self, a, delta):
        return time.ticks_add(a, delta)

    def sleep_us(self, us):
        time.sleep_us(us)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)
