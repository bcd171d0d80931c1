# The Pico's entry point: raw bytes on USB serial, Ctrl-C off, then the firmware loop under the
# watchdog (started last, so a bad config.json leaves the Pico at its REPL, not in a reset loop).
import json
import select
import sys
import time

import micropython
from core import Firmware
from hal import Hal

micropython.kbd_intr(-1)  # a 0x03 byte on the line is data, not an interrupt

with open("config.json") as f:
    CFG = json.load(f)

hal = Hal(CFG)
fw = Firmware(
    hal,
    sys.stdout.buffer,
    len(CFG["switches"]) and CFG["points"],
    CFG["leds"],
    CFG.get("scan_hz", 100),
    CFG.get("stable_ms", 5),
)
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)
hal.start_watchdog(CFG.get("watchdog_ms", 5000))
while True:
    fw.run(sys.stdin.buffer, poller)
    hal.feed()
    time.sleep_ms(10)
