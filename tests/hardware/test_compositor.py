"""The LED compositor: one clock for every animation, renders only when the picture changes,
never shows a stale frame however it is ticked, and runs on the loop in real time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard.hardware.compositor import Compositor
from reedboard.hardware.led_chain import BLINK_PERIOD, SWEEP_SECONDS, render
from reedboard.hardware.lights import AMBER, GREEN, OFF, RED, WHITE, Colour, Light, Pattern
from reedboard.wiring.layout import load_layout
from tests.hardware.led_patterns import VirtualClock

LAYOUT = load_layout("cross33")
POINTS = sorted(LAYOUT.points)


class Recorder:
    """A sink that keeps every chain written to it, with the clock's time."""

    def __init__(self, clock: VirtualClock | None = None) -> None:
        self.clock = clock
        self.chains: list[list[Colour]] = []
        self.times: list[float] = []

    def write(self, colours: Sequence[Colour]) -> None:
        self.chains.append(list(colours))
        self.times.append(self.clock() if self.clock else time.monotonic())


def make() -> tuple[Compositor, Recorder, VirtualClock]:
    clock = VirtualClock()
    sink = Recorder(clock)
    return Compositor(LAYOUT, sink, clock), sink, clock


def led(point: str) -> int:
    return LAYOUT.points[point].led


def test_a_blink_starts_lit_whenever_it_is_shown() -> None:
    """The bug the compositor fixes: a blink shown in its dark half stayed dark on the Pico.
    Here a blink shown at any moment is lit at once and goes dark a half period later."""
    for offset in (0.0, 0.1, 0.3, 0.49, 7.77):
        leds, sink, clock = make()
        clock.t += offset
        leds.show({"3": Light(RED, Pattern.BLINK)})
        assert sink.chains[-1][led("3")] == RED
        assert leds.next_tick() == pytest.approx(clock.t + BLINK_PERIOD / 2)


def test_new_blinks_start_together_and_steady_changes_leave_them_alone() -> None:
    leds, sink, clock = make()
    leds.show({"3": Light(RED, Pattern.BLINK)})
    clock.t += 0.3  # "3" is dark now
    leds.tick(clock.t)
    leds.show({"3": Light(RED, Pattern.BLINK), "9": Light(GREEN)})  # a landing lights
    assert sink.chains[-1][led("3")] == OFF and sink.chains[-1][led("9")] == GREEN
    leds.show({"9": Light(WHITE, Pattern.BLINK)})  # the next fix: a new blink, lit at once
    assert sink.chains[-1][led("9")] == WHITE


def test_nothing_is_rendered_while_nothing_changes() -> None:
    leds, sink, clock = make()
    leds.show({"17": Light(GREEN)})
    leds.show({"17": Light(GREEN)})  # the same frame again
    leds.show_dice(None)  # darkening dice that are dark
    for _ in range(100):
        clock.t += 0.01
        assert not leds.tick(clock.t)
    assert leds.renders == 1 and len(sink.chains) == 1
    assert leds.next_tick() is None


def test_a_blink_is_rendered_only_at_its_edges() -> None:
    """Ticked every 10 ms for 2 s, a blink renders 8 times (each half period), not 200."""
    leds, sink, clock = make()
    start = clock.t
    leds.show({"17": Light(AMBER, Pattern.BLINK)})
    for _ in range(200):
        clock.t += 0.01
        leds.tick(clock.t)
    assert leds.renders == 1 + 8
    lit = [chain[led("17")] == AMBER for chain in sink.chains]
    assert lit == [True, False] * 4 + [True]
    edges = [round(t - start, 6) for t in sink.times]
    assert edges[1:] == pytest.approx([0.25 * k for k in range(1, 9)], abs=0.011)


EDGED = [Pattern.STEADY, Pattern.BLINK, Pattern.SWEEP]
"""The patterns that change in steps (a pulse changes all the time: it is drawn at 25 Hz)."""
FRAMES = st.dictionaries(
    st.sampled_from(POINTS),
    st.builds(Light, st.sampled_from([RED, GREEN, WHITE, AMBER]), st.sampled_from(EDGED)),
    max_size=8,
)


@given(
    st.lists(
        st.tuples(st.floats(0, 1.5), FRAMES, st.none() | st.sampled_from([(1, 2), (6, 6), (4,)])),
        min_size=1,
        max_size=6,
    ),
    st.lists(st.floats(0, 4), min_size=1, max_size=20),
)
def test_ticking_only_when_due_is_never_stale(
    shows: list[tuple[float, dict[str, Light], tuple[int, ...] | None]], looks: list[float]
) -> None:
    """Frames and dice shown at random moments, the compositor ticked only when it says it is
    due: at any moment, what the LEDs show is the frame rendered at that moment of its
    animation, or (within a microsecond after an edge, float sums) the moment before it. So a
    lazy compositor misses no edge of a blink or the sweep."""
    leds, sink, clock = make()
    start = clock.t
    events = sorted(
        [(start + at, 0, i) for i, (at, _, _) in enumerate(shows)]
        + [(start + at, 1, i) for i, at in enumerate(looks)]
    )
    epoch = start
    frame: dict[str, Light] = {}
    dice = None
    for at, kind, i in events:
        while (due := leds.next_tick()) is not None and due <= at:
            clock.t = max(clock.t, due)
            leds.tick(clock.t)
        clock.t = at
        if kind == 0:
            _, new, dice = shows[i]
            animated = {p: x for p, x in new.items() if x.pattern is not Pattern.STEADY}
            if animated != {p: x for p, x in frame.items() if x.pattern is not Pattern.STEADY}:
                epoch = at
            frame = new
            leds.show(new)
            leds.show_dice(dice)
        elif sink.chains:
            t = at - epoch
            now, before = render(LAYOUT, frame, dice, t), render(LAYOUT, frame, dice, t - 1e-6)
            assert sink.chains[-1] in (now, before), (t, frame)


def test_a_pulse_is_drawn_at_25_hz_and_only_while_it_pulses() -> None:
    leds, sink, clock = make()
    start = clock.t
    leds.show({"17": Light(GREEN, Pattern.PULSE), "1": Light(RED)})
    while clock.t < start + 1.0:
        clock.t = leds.next_tick()  # type: ignore[assignment]
        leds.tick(clock.t)
    assert leds.renders == 1 + 25
    levels = [chain[led("17")][1] / GREEN[1] for chain in sink.chains]
    assert levels[0] == 1.0 and min(levels) == pytest.approx(0.15, abs=0.01)
    assert levels[-1] == pytest.approx(1.0, abs=0.01)  # a whole period: bright again
    assert all(chain[led("1")] == RED for chain in sink.chains)
    leds.show({"1": Light(RED)})
    assert leds.next_tick() is None


def test_the_sweep_runs_once_and_stops() -> None:
    leds, sink, clock = make()
    start = clock.t
    leds.show({p: Light(WHITE, Pattern.SWEEP) for p in POINTS})
    while (due := leds.next_tick()) is not None:
        clock.t = due
        leds.tick(due)
    assert clock.t == pytest.approx(start + SWEEP_SECONDS)
    lit = [{p.x for p in LAYOUT.points.values() if c[p.led] == WHITE} for c in sink.chains]
    assert lit == [{x} for x in range(LAYOUT.size[0])] + [set()]
    leds.show({p: Light(WHITE, Pattern.SWEEP) for p in POINTS})  # the same: not again
    assert leds.next_tick() is None


def test_lights_show_the_sweep_where_it_is_and_keep_blinks_for_a_terminal() -> None:
    leds, _, clock = make()
    leds.show({"1": Light(RED, Pattern.BLINK)} | {p: Light(WHITE, Pattern.SWEEP) for p in "79"})
    assert leds.lights(clock.t) == {"1": Light(RED, Pattern.BLINK), "7": Light(WHITE)}
    later = leds.lights(clock.t + SWEEP_SECONDS * 2.5 / 7)  # the third column: 9's
    assert later == {"1": Light(RED, Pattern.BLINK), "9": Light(WHITE)}
    assert leds.lights(clock.t + SWEEP_SECONDS) == {"1": Light(RED, Pattern.BLINK)}


def test_a_frame_naming_a_point_the_board_lacks_is_refused_and_changes_nothing() -> None:
    leds, sink, _ = make()
    leds.show({"17": Light(GREEN)})
    with pytest.raises(ValueError, match="names point 'e5', which board cross33 lacks"):
        leds.show({"e5": Light(GREEN)})
    with pytest.raises(ValueError, match="not 7"):
        leds.show_dice((7, 1))
    assert leds.frame == {"17": Light(GREEN)} and leds.dice is None and len(sink.chains) == 1


def test_run_animates_in_real_time_and_wakes_when_shown() -> None:
    """On the loop, with the real clock: a blink shown while run() sleeps with nothing to do
    starts at once and toggles every quarter second; cancelling run() stops it."""
    sink = Recorder()
    leds = Compositor(LAYOUT, sink)

    async def scenario() -> None:
        running = asyncio.create_task(leds.run())
        await asyncio.sleep(0.05)  # asleep: nothing shown yet, nothing due
        leds.show({"17": Light(RED, Pattern.BLINK)})
        await asyncio.sleep(1.1)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(scenario())
    lit = [chain[led("17")] == RED for chain in sink.chains]
    assert lit[:5] == [True, False, True, False, True]
    gaps = [b - a for a, b in zip(sink.times, sink.times[1:], strict=False)]
    assert all(0.2 <= g <= 0.35 for g in gaps[:4]), gaps
    renders = leds.renders
    time.sleep(0.3)
    assert leds.renders == renders  # stopped with the task


class Flaky:
    """LEDs whose writes fail while ``broken`` (an SPI device gone, a pin in trouble)."""

    def __init__(self) -> None:
        self.broken = True
        self.chains: list[list[Colour]] = []

    def write(self, colours: Sequence[Colour]) -> None:
        if self.broken:
            raise OSError("SPI write failed")
        self.chains.append(list(colours))


@pytest.mark.error_logs
def test_leds_that_fail_are_said_once_and_the_frame_gets_there_later(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = VirtualClock()
    sink = Flaky()
    leds = Compositor(LAYOUT, sink, clock)
    leds.show({"17": Light(RED, Pattern.BLINK)})  # no exception reaches the game
    for _ in range(4):
        clock.t = leds.next_tick()  # type: ignore[assignment]
        leds.tick(clock.t)
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    assert "the LEDs could not be written" in caplog.text
    sink.broken = False
    clock.t = leds.next_tick()  # type: ignore[assignment]
    leds.tick(clock.t)
    assert sink.chains and "written again" in caplog.text
