"""The Pi side's switch bookkeeping, without a port: repeats dropped by number, a switch never
going back to an older state, gaps noticed and filled by a repeat or by a snapshot."""

from __future__ import annotations

from reedboard.bridge.switches import SwitchTracker


def test_repeats_are_dropped_and_a_gap_is_filled_by_the_lost_events_repeat() -> None:
    t = SwitchTracker()
    assert t.snapshot(0x10, 0) == 0 and t.synced
    assert t.event(0x11, 3, True) == (True, False)
    assert t.event(0x11, 3, True) == (False, False)  # its repeat
    assert t.event(0x13, 5, True) == (True, True)  # 12 was lost
    assert t.missing == {0x12} and not t.synced
    assert t.event(0x12, 4, True) == (True, False)  # its repeat fills the gap
    assert t.synced and t.closed == 0b111000
    assert t.repeats == 1 and t.gaps == 1


def test_a_switch_never_goes_back_to_an_older_state() -> None:
    t = SwitchTracker()
    t.snapshot(0xFE, 0)
    t.event(0x00, 7, True)
    t.event(0x01, 7, False)  # (numbers wrap: ff, 00, 01 follow fe)
    assert t.event(0x00, 7, True) == (False, False)  # the repeat of 00 after 01: dropped
    assert t.closed == 0


def test_a_snapshot_covers_what_is_missing_and_older_repeats_are_dropped_after_it() -> None:
    t = SwitchTracker()
    t.snapshot(0x20, 0)
    assert t.heartbeat(0x22)  # 21 and 22 were lost
    assert t.missing == {0x21, 0x22}
    assert t.snapshot(0x22, 0b11) == 0b11 and t.synced
    assert t.event(0x22, 1, False) == (False, False)  # a late repeat older than the snapshot
    assert t.closed == 0b11


def test_a_restart_starts_the_count_again() -> None:
    t = SwitchTracker()
    t.snapshot(0x80, 1)
    t.restart()
    assert t.stale and not t.synced
    assert t.event(0x00, 2, True) == (True, False)  # the new start-up's first event
    assert t.snapshot(0x00, 0b100) == 0b001  # switch 0 opened meanwhile; 2 was known


def test_after_128_events_or_more_unheard_the_snapshot_starts_the_count_again() -> None:
    """The link down while the Pico went on counting: the snapshot's number unwraps into the
    past; every change after it must still be applied (11 of 12 were dropped as old)."""
    t = SwitchTracker()
    t.snapshot(0x00, 0)
    for seq in range(1, 11):  # events 1-10 heard: switch (seq % 4) toggled each time
        t.event(seq, seq % 4, seq < 5)
    unheard = 200  # the Pico's events 11-210 never reach the Pi
    now = (10 + unheard) & 0xFF
    t.snapshot(now, 0b0001)
    assert t.closed == 0b0001
    applied = 0
    for k in range(1, 13):  # twelve changes after it, each a toggle of switch k % 3
        index = k % 3
        closed = not bool(t.closed & (1 << index))
        changed, _ = t.event((now + k) & 0xFF, index, closed)
        applied += changed
        assert bool(t.closed & (1 << index)) == closed, k
    assert applied == 12
