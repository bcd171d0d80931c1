"""``reedboard wiring check``: a wizard for a freshly built board.

First it lights each LED in turn (and the dice faces), so the builder sees a dark or
misplaced LED. Then it asks for a magnet on each point in turn and reports every point that
reads wrong (another point answers: a swapped row or column line) or not at all (a dead
switch, a diode the wrong way round, a broken line).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from reedboard.hardware.board_io import BoardIO
from reedboard.hardware.lights import WHITE, Light
from reedboard.wiring.layout import Layout


@dataclass(frozen=True)
class Problem:
    point: str
    read: frozenset[str]
    """What the board read instead (empty: nothing)."""
    hint: str

    def __str__(self) -> str:
        if not self.read:
            return f"{self.point}: reads nothing; {self.hint}"
        return f"{self.point}: reads as {', '.join(sorted(self.read))}; {self.hint}"


Say = Callable[[str], None]


async def wait_for(
    board: BoardIO, want: Callable[[frozenset[str]], bool], timeout: float, settle: float
) -> frozenset[str]:
    """Poll the board until its reading satisfies ``want`` and holds for ``settle`` seconds,
    or ``timeout`` passes; returns the last settled reading."""
    deadline = time.monotonic() + timeout
    last = board.snapshot()
    since = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.01)
        now = board.snapshot()
        if now != last:
            last, since = now, time.monotonic()
        elif want(now) and time.monotonic() - since >= settle:
            return now
    return last


async def check_wiring(
    board: BoardIO,
    layout: Layout,
    say: Say,
    *,
    led_seconds: float = 0.4,
    timeout: float = 15.0,
    settle: float = 0.3,
    on_magnet_wanted: Callable[[str], Awaitable[None] | None] | None = None,
    on_magnet_off_wanted: Callable[[str], Awaitable[None] | None] | None = None,
) -> list[Problem]:
    """Run the wizard on an empty board; returns the problems found (none: all good)."""
    say(f"LED check: each of the {len(layout.points)} LEDs lights white in chain order.")
    for point in sorted(layout.points.values(), key=lambda p: p.led):
        say(f"  LED {point.led}: under {point.id}")
        board.show({point.id: Light(WHITE)})
        await asyncio.sleep(led_seconds)
    board.show({})
    if layout.dice_leds:
        say("Dice check: both dice show 1 to 6.")
        for face in range(1, 7):
            board.show_dice((face, face))
            await asyncio.sleep(led_seconds)
        board.show_dice(None)

    if board.snapshot():
        on_board = ", ".join(sorted(board.snapshot()))
        say(f"Take every piece off the board first (it reads {on_board}).")
        await wait_for(board, lambda s: not s, timeout, settle)
    problems: list[Problem] = []
    say("Switch check: put a magnet on each point when asked, then take it off.")
    for point in layout.points.values():
        board.show({point.id: Light(WHITE)})
        say(f"  magnet on {point.id}")
        await _call(on_magnet_wanted, point.id)
        read = await wait_for(board, lambda s: bool(s), timeout, settle)
        if read != {point.id}:
            problems.append(Problem(point.id, read - {point.id}, _hint(layout, point.id, read)))
            say(f"    wrong: {problems[-1]}")
        await _call(on_magnet_off_wanted, point.id)
        await wait_for(board, lambda s: not s, timeout, settle)
    board.show({})
    if problems:
        say(f"{len(problems)} point(s) read wrong:")
        for problem in problems:
            say(f"  {problem}")
    else:
        say(f"All {len(layout.points)} points read right.")
    return problems


async def _call(hook: Callable[[str], Awaitable[None] | None] | None, point: str) -> None:
    if hook is not None:
        result = hook(point)
        if result is not None:
            await result


def _hint(layout: Layout, wanted: str, read: frozenset[str]) -> str:
    p = layout.points[wanted]
    if not read:
        return (
            f"check its reed switch and diode (stripe toward row {p.row}), "
            f"row line {p.row} and column line {p.col}"
        )
    others = [layout.points[r] for r in read if r in layout.points and r != wanted]
    if len(others) == 1:
        o = others[0]
        if o.row == p.row:
            return f"column lines {p.col} and {o.col} may be swapped"
        if o.col == p.col:
            return f"row lines {p.row} and {o.row} may be swapped"
    return "more than one switch closed: a missing or reversed diode, or a short"
