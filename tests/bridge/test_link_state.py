"""The Pi side's bookkeeping, without a port: presses de-duplicated by sequence number, and LED
frames sent as changes, checked, and sent whole after a wrong answer."""

from __future__ import annotations

from reedboard.bridge.frames import LedSync, chain_crc
from reedboard.bridge.presses import PressTracker


def test_presses_are_delivered_once_in_order_and_every_one_is_acknowledged() -> None:
    p = PressTracker()
    assert p.receive(0x3C, 0) == (False, None)  # no hello yet: ask for one
    p.hello(0x3C, 0xFF)
    assert p.receive(0x3C, 0) == (True, 0)
    assert p.receive(0x3C, 0) == (False, 0)  # a repeat: acknowledged again, not delivered
    assert p.receive(0x3C, 2) == (False, 0)  # 1 was lost: 2 waits for it
    assert p.receive(0x3C, 1) == (True, 1)
    assert p.receive(0x3C, 2) == (True, 2)
    p.hello(0x3C, 0)  # the same start-up says hello again: the count goes on
    assert p.receive(0x3C, 2) == (False, 2)
    p.hello(0x51, 0xFF)  # the Pico restarted
    assert p.receive(0x3C, 3) == (False, None)
    assert p.receive(0x51, 0) == (True, 0)
    assert p.duplicates == 2


def test_presses_wrap_around_after_ff() -> None:
    p = PressTracker()
    p.hello(1, 0xFD)
    assert [p.receive(1, s)[0] for s in (0xFE, 0xFF, 0x00, 0xFF, 0x01)] == [
        True, True, True, False, True,
    ]  # fmt: skip


def test_frames_go_as_changes_and_whole_after_a_wrong_answer() -> None:
    sync = LedSync()
    off = [(0, 0, 0)] * 5
    first = sync.update(off)
    assert first[:-1] == ["L 00000000 01000000", "L 02000000 03000000", "L 04000000"]
    assert first[-1] == f"F 01 {chain_crc(off)}"
    lit = [*off[:3], (1, 2, 3), off[4]]
    assert sync.update(lit) == ["L 03010203", f"F 02 {chain_crc(lit)}"]
    assert sync.update(lit) == []
    assert sync.check() == [f"F 02 {chain_crc(lit)}"]
    assert sync.answer(1, chain_crc(off)) == []  # about an earlier frame
    assert sync.answer(2, chain_crc(lit)) == [] and sync.confirmed
    again = sync.answer(2, chain_crc(off))  # the L line was lost
    assert again[0] == "L 00000000 01000000" and again[-1] == f"F 03 {chain_crc(lit)}"
    assert sync.resends == 1


def test_a_restart_that_draws_the_same_start_up_number_loses_no_press() -> None:
    """1 restart in 256 draws the start-up number it had: its presses count from 00 again."""
    p = PressTracker()
    p.hello(0x3C, 0xFF)
    assert [p.receive(0x3C, s)[0] for s in range(6)] == [True] * 6
    assert p.hello(0x3C, 0xFF)  # restarted, same number: nothing acknowledged in this one
    assert [p.receive(0x3C, s)[0] for s in range(10)] == [True] * 10
    assert not p.hello(0x3C, 9)  # a hello of the same start-up later: the count goes on
    assert p.receive(0x3C, 9) == (False, 9)
