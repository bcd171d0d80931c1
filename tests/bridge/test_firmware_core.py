"""The firmware's core.py in process (it runs on CPython as on MicroPython), on a HAL whose clock
the test turns: presses resent until acknowledged, frames shown only whole, a silent Pi, and
the watchdog fed only while the loop is healthy."""

from __future__ import annotations

from reedboard.bridge.firmware import core
from reedboard.bridge.firmware.wire import LineParser, crc32hex, frame


class Hal:
    def __init__(self) -> None:
        self.t = 0
        self.matrix = 0
        self.buttons = 0
        self.leds: dict[int, tuple[int, int, int]] = {}
        self.shown: list[dict[int, tuple[int, int, int]]] = []
        self.fed = 0
        self.broken = False

    def read_matrix(self) -> int:
        if self.broken:
            raise OSError("a pin that fails")
        return self.matrix

    def read_buttons(self) -> int:
        return self.buttons

    def set_led(self, i: int, r: int, g: int, b: int) -> None:
        self.leds[i] = (r, g, b)

    def show(self) -> None:
        self.shown.append(dict(self.leds))

    def ticks_ms(self) -> int:
        return self.t

    def ticks_us(self) -> int:
        return self.t * 1000

    def ticks_add(self, a: int, delta: int) -> int:
        return a + delta

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_us(self, us: int) -> None:
        pass

    def feed(self) -> None:
        self.fed += 1


class Pi:
    def __init__(self) -> None:
        self.parser = LineParser()
        self.bodies: list[str] = []

    def write(self, data: bytes) -> None:
        self.bodies += self.parser.feed(data)

    def take(self, kind: str) -> list[str]:
        got = [b for b in self.bodies if b.startswith(kind)]
        self.bodies = []
        return got


def make() -> tuple[core.Firmware, Hal, Pi]:
    hal, pi = Hal(), Pi()
    fw = core.Firmware(hal, pi, 36, 4, 1000, 5, boot=0x3C)
    return fw, hal, pi


def run(fw: core.Firmware, hal: Hal, ms: int, data: bytes = b"") -> None:
    fw.step(hal.t, data)
    for _ in range(ms):
        hal.t += 1
        fw.step(hal.t)


def test_a_press_is_resent_until_acknowledged_and_then_no_more() -> None:
    fw, hal, pi = make()
    assert pi.take("H") == ["H rb3 36 4 3c ff"]
    hal.buttons = 1 << 2
    run(fw, hal, 50)
    hal.buttons = 0
    run(fw, hal, 300)
    sent = pi.take("B")
    assert sent[0] == "B 3c 00 2" and len(sent) >= 3 and set(sent) == {"B 3c 00 2"}
    run(fw, hal, 1, frame("P 3c 00"))
    run(fw, hal, 300)
    assert pi.take("B") == []
    assert fw.acked == 0 and pi.take("H") == []


def test_acknowledgements_of_another_start_up_or_beyond_the_waiting_presses_change_nothing() -> (
    None
):
    fw, hal, _ = make()
    for button in (0, 1):
        hal.buttons = 1 << button
        run(fw, hal, 30)
        hal.buttons = 0
        run(fw, hal, 30)
    assert [p[0] for p in fw.presses] == [0, 1]
    run(fw, hal, 1, frame("P 3d 01") + frame("P 3c 05") + frame("P 3c ff"))
    assert [p[0] for p in fw.presses] == [0, 1]
    run(fw, hal, 1, frame("P 3c 00"))
    assert [p[0] for p in fw.presses] == [1]


def test_a_frame_is_shown_only_when_the_pending_chain_has_its_crc() -> None:
    fw, hal, pi = make()
    chain = bytearray(12)
    chain[3:6] = b"\x01\x02\x03"
    want = crc32hex(bytes(chain))
    run(fw, hal, 1, frame(f"F 07 {want}"))  # the L line was lost: not shown
    assert hal.shown == [] and pi.take("A") == [f"A 07 {crc32hex(bytes(12))}"]
    run(fw, hal, 1, frame("L 01010203") + frame(f"F 07 {want}"))
    assert hal.shown == [{0: (0, 0, 0), 1: (1, 2, 3), 2: (0, 0, 0), 3: (0, 0, 0)}]
    assert pi.take("A") == [f"A 07 {want}"]
    run(fw, hal, 1, frame(f"F 07 {want}"))  # the heartbeat check: nothing to redraw
    assert len(hal.shown) == 1


def test_a_silent_pi_darkens_the_leds_and_its_next_check_brings_them_back() -> None:
    fw, hal, pi = make()
    chain = bytearray(12)
    chain[0] = 9
    want = crc32hex(bytes(chain))
    run(fw, hal, 1, frame("L 00090000") + frame(f"F 01 {want}"))
    run(fw, hal, core.HOST_TIMEOUT_MS - 10)
    assert len(hal.shown) == 1
    beats = len(pi.take("K"))
    run(fw, hal, 20)
    assert hal.shown[-1] == {i: (0, 0, 0) for i in range(4)}
    run(fw, hal, 3000)
    assert len(pi.take("K")) <= 4 < beats  # heartbeats slow down too
    run(fw, hal, 1, frame(f"F 02 {want}"))
    assert hal.shown[-1][0] == (9, 0, 0)


def test_the_watchdog_is_fed_while_steps_succeed_and_not_once_they_keep_failing() -> None:
    fw, hal, _ = make()
    run(fw, hal, 10)
    assert hal.fed == 11
    hal.broken = True
    run(fw, hal, 100)
    assert fw.faults > core.MAX_FAILING
    assert hal.fed <= 11 + core.MAX_FAILING
    starved = hal.fed
    run(fw, hal, 50)
    assert hal.fed == starved  # the watchdog will restart the Pico
    hal.broken = False  # a fault that passed before it fired: fed again
    run(fw, hal, 5)
    assert hal.fed > starved


class FineHal(Hal):
    """A HAL whose clock runs in microseconds."""

    def __init__(self) -> None:
        super().__init__()
        self.us = 0

    def ticks_ms(self) -> int:
        return self.us // 1000

    def ticks_us(self) -> int:
        return self.us


def test_a_change_is_sent_once_it_has_held_for_the_window_not_a_scan_later() -> None:
    hal, pi = FineHal(), Pi()
    fw = core.Firmware(hal, pi, 36, 4, 300, 5, boot=0x3C)  # a scan every 3333 us
    fw.step(0)  # scans at 0 us
    hal.matrix = 1 << 16  # a piece lands at 2300 us, between two scans
    hal.us = 2300
    sent: list[tuple[str, int]] = []
    while hal.us < 40_000:
        fw.step(hal.ticks_ms())
        sent += [(body, hal.us) for body in pi.take("E")]
        hal.us += max(1, fw.until_wake())  # the loop sleeps until it must step again
    # first read by the scan at 3333 us, held for 5 ms by 8333 us: sent then, not at 9999 us;
    # then again 2, 4, 8 and 16 ms later, at the next scan (one every 3.3 ms here; one copy
    # for repeats that fall due between two scans)
    assert sent[0] == ("E 00 10 1", 8333)
    assert sent[1:] == [("E 00 10 1", 13332), ("E 00 10 1", 16665), ("E 00 10 1", 26664)]
