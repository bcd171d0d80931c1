"""Fault injection over the pty: with 1 % (and, under MicroPython, 5 %) of the bytes dropped,
corrupted or duplicated in both directions, no event is misread (CRC-32, fixed-width bodies and
sequence numbers catch the damage), the board state recovers from snapshots, and the LEDs end as
shown."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.hardware.board_io import LinkEvent, SensorEvent
from reedboard.hardware.lights import GREEN, Light
from reedboard.wiring.layout import load_layout

LAYOUT = load_layout("cross33")
INDEX = {pid: p.row * LAYOUT.matrix[1] + p.col for pid, p in LAYOUT.points.items()}
POINTS = list(LAYOUT.points)


@pytest.fixture(
    params=[("cpython", 0.01), ("micropython", 0.01), ("micropython", 0.05)],
    ids=["cpython-1%", "micropython-1%", "micropython-5%"],
)
def noisy(request: pytest.FixtureRequest) -> Iterator[Firmware]:
    interpreter, share = request.param
    fw = Firmware(interpreter, 36, LAYOUT.led_count, faults=share, seed=5)
    yield fw
    fw.close()


def test_one_percent_damaged_bytes_give_zero_misread_events(noisy: Firmware) -> None:
    truth: dict[str, list[tuple[float, bool]]] = {p: [(0.0, False)] for p in POINTS}
    seen: list[SensorEvent] = []

    async def scenario() -> PicoBoard:
        board = PicoBoard(noisy.port, LAYOUT, brightness=1.0, max_milliamps=10_000)
        board.open()

        async def collect() -> None:
            async for event in board.events:
                if isinstance(event, SensorEvent):
                    seen.append(event)

        collector = asyncio.create_task(collect())
        try:
            state = dict.fromkeys(POINTS, False)
            for step in range(3 * len(POINTS)):  # each point changes every 33 steps (1.6 s)
                point = POINTS[step % len(POINTS)]
                state[point] = not state[point]
                truth[point].append((time.monotonic(), state[point]))
                noisy.set(INDEX[point], state[point])
                if step % 10 == 0:
                    board.show({p: Light(GREEN) for p in POINTS[: step % 33]})
                await asyncio.sleep(0.05)
            want = frozenset(p for p, on in state.items() if on)
            async with asyncio.timeout(10):
                while board.snapshot() != want:
                    await asyncio.sleep(0.05)
            return board
        finally:
            collector.cancel()
            board.close()

    board = asyncio.run(scenario())
    # every event the Pi reported is what that switch last really did
    for event in seen:
        changes = [(t, on) for t, on in truth[event.point] if t <= event.t]
        assert changes and changes[-1][1] == event.on, f"misread: {event}"
    # the damage was real, and was caught
    assert noisy.damaged > 20
    assert board.bad_lines + board.gaps > 0
    assert len(seen) >= 2 * len(POINTS)  # most changes came through as events


def test_the_led_chain_heals_after_damaged_commands(noisy: Firmware) -> None:
    async def scenario() -> list[tuple[int, int, int]]:
        board = PicoBoard(noisy.port, LAYOUT, brightness=1.0, max_milliamps=10_000)
        board.open()
        try:
            for k in range(20):
                board.show({p: Light(GREEN) for p in POINTS[: k + 10]})
                await asyncio.sleep(0.03)
            final = {p: Light(GREEN) for p in POINTS}
            board.show(final)
            loop = asyncio.get_running_loop()
            deadline = time.monotonic() + 10
            chain: list[tuple[int, int, int]] = []
            while time.monotonic() < deadline:
                chain = await loop.run_in_executor(None, noisy.next_leds, 10.0)
                if all(c == GREEN for c in chain[: len(POINTS)]):
                    break
            return chain
        finally:
            board.close()

    chain = asyncio.run(scenario())
    assert chain[: len(POINTS)] == [GREEN] * len(POINTS)


def test_closing_and_reopening_the_port_resyncs_and_loses_nothing() -> None:
    fw = Firmware("micropython", 36, LAYOUT.led_count)
    events: list[object] = []

    async def scenario() -> frozenset[str]:
        board = PicoBoard(fw.port, LAYOUT, reconnect_every=0.2)
        board.open()

        async def collect() -> None:
            async for event in board.events:
                events.append(event)

        collector = asyncio.create_task(collect())
        try:
            fw.set(INDEX["1"], True)
            await asyncio.sleep(0.3)
            board.close_port()  # the cable is pulled ...
            await asyncio.sleep(0.05)
            fw.set(INDEX["1"], False)  # ... and the player moves meanwhile
            fw.set(INDEX["2"], True)
            async with asyncio.timeout(5):
                while (
                    board.snapshot() != {"2"} or sum(isinstance(e, LinkEvent) for e in events) < 3
                ):
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.1)  # let the resync's events be collected
            return board.snapshot()
        finally:
            collector.cancel()
            board.close()
            fw.close()

    assert asyncio.run(scenario()) == {"2"}
    links = [e for e in events if isinstance(e, LinkEvent)]
    assert [e.up for e in links] == [True, False, True]
    sensed = [(e.point, e.on) for e in events if isinstance(e, SensorEvent)]
    assert sensed[0] == ("1", True)
    assert set(sensed[1:]) == {("1", False), ("2", True)}  # from the snapshot after reconnect
