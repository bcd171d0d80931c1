"""The simulated board keeps the BoardIO contract."""

from __future__ import annotations

import asyncio
import threading

import pytest

from reedboard.hardware.board_io import BoardIO, ButtonEvent, SensorEvent
from reedboard.hardware.events import EventQueue
from reedboard.hardware.lights import GREEN, Colour, Light
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.wiring.layout import load_layout
from tests.hardware.led_patterns import VirtualClock, every_pattern


def make(occupied: tuple[str, ...] = ()) -> SimulatedBoard:
    ticks = iter(range(1000))
    return SimulatedBoard(load_layout("cross33"), occupied, clock=lambda: float(next(ticks)))


def test_it_is_a_board_io() -> None:
    board: BoardIO = make()
    assert board.snapshot() == frozenset()


def test_placing_and_lifting_change_the_snapshot_and_send_events() -> None:
    board = make(("5",))
    board.place("17")
    board.lift("5")
    board.place("17")  # already there: no change, no event
    assert board.snapshot() == {"17"}
    events = [board.events.get_nowait() for _ in range(board.events.pending())]
    assert events == [SensorEvent("17", True, 0.0), SensorEvent("5", False, 1.0)]


def test_buttons_send_events_and_unknown_buttons_are_refused() -> None:
    board = make()
    board.press("roll")
    assert board.events.get_nowait() == ButtonEvent("roll", 0.0)
    with pytest.raises(ValueError, match="no button 'spin'"):
        board.press("spin")


def test_unknown_points_are_refused_naming_them() -> None:
    board = make()
    with pytest.raises(ValueError, match="board cross33 has no point '34'"):
        board.place("34")
    with pytest.raises(ValueError, match="names point 'e5', which board cross33 lacks"):
        board.show({"e5": Light(GREEN)})


def test_show_counts_only_frames_that_change() -> None:
    board = make()
    board.show({"1": Light(GREEN)})
    board.show({"1": Light(GREEN)})
    board.show({})
    assert board.frames_shown == 2


def test_events_are_read_as_an_async_iterator() -> None:
    async def scenario() -> list[object]:
        board = make()
        board.place("9")
        board.press("undo")
        got = []
        async for event in board.events:
            got.append(event)
            if len(got) == 2:
                break
        return got

    assert asyncio.run(scenario()) == [SensorEvent("9", True, 0.0), ButtonEvent("undo", 1.0)]


def test_events_from_another_thread_reach_the_loop_in_order() -> None:
    async def scenario() -> list[str]:
        queue = EventQueue()
        queue.bind(asyncio.get_running_loop())

        def callback_thread() -> None:
            for i in range(200):
                queue.put_threadsafe(SensorEvent(str(i % 33 + 1), i % 2 == 0, float(i)))

        thread = threading.Thread(target=callback_thread)
        thread.start()
        got = []
        async with asyncio.timeout(5):
            async for event in queue:
                assert isinstance(event, SensorEvent)
                got.append(event.t)
                if len(got) == 200:
                    break
        thread.join()
        return got

    assert asyncio.run(scenario()) == [float(i) for i in range(200)]


def test_events_put_before_bind_wait_in_order_for_the_loop() -> None:
    """A board opened before the daemon's loop runs (a Pico answering at once) loses nothing:
    what its threads put before bind() comes first, in order, then what comes after."""
    queue = EventQueue()
    early = threading.Thread(
        target=lambda: [queue.put_threadsafe(ButtonEvent("roll", float(i))) for i in range(5)]
    )
    early.start()
    early.join()

    async def scenario() -> list[float]:
        queue.bind(asyncio.get_running_loop())
        queue.put_threadsafe(ButtonEvent("undo", 5.0))
        got = []
        async with asyncio.timeout(5):
            async for event in queue:
                got.append(event.t)
                if len(got) == 6:
                    break
        return got

    assert asyncio.run(scenario()) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_the_first_read_binds_the_loop_it_runs_on() -> None:
    """A board needs no async start: reading its events binds the loop, and a thread's
    events put before and after reach it in order."""
    queue = EventQueue()
    queue.put_threadsafe(ButtonEvent("roll", 0.0))  # before any loop: kept

    async def scenario() -> list[float]:
        later = threading.Thread(target=queue.put_threadsafe, args=(ButtonEvent("undo", 1.0),))
        got = []
        async with asyncio.timeout(5):
            got.append((await anext(queue)).t)  # binds this loop
            later.start()
            got.append((await anext(queue)).t)
        later.join()
        return got

    assert asyncio.run(scenario()) == [0.0, 1.0]


def test_every_pattern_on_the_simulated_board() -> None:
    layout = load_layout("brier9")
    clock = VirtualClock()
    with SimulatedBoard(layout, clock=clock) as board:

        def seen(chain: list[Colour]) -> None:
            assert board.chain() == chain

        done = every_pattern(board, layout, clock, seen)
    assert done == ["steady", "blink", "pulse", "sweep", "dice"]
