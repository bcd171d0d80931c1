"""``reedboard wiring check``: a wizard for a freshly built board.

First it lights each LED in turn (and the dice faces), so the builder sees a dark or
misplaced LED. Then it asks for a magnet on each point in turn and reports every point that
reads wrong (another point answers: a swapped row or column line) or not at all (a dead
switch, a diode the wrong way round, a broken line).

For a board still being built: ``leds_only`` runs the LED pass alone (the matrix is not
soldered yet), and ``points`` (:func:`points_on`: the points on some matrix rows and/or
columns) limits the switch pass to the part of the matrix that is soldered. The crosstalk
check (every point filled, one lifted at a time) is :mod:`reedboard.wiring.crosstalk`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from reedboard.hardware.board_io import BoardIO
from reedboard.hardware.lights import WHITE, Light
from reedboard.wiring.layout import Layout, WiringError


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
Hook = Callable[[str], Awaitable[None] | None]
"""Called with a point's id when the wizard waits on the builder there (tests move a magnet)."""


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
    on_magnet_wanted: Hook | None = None,
    on_magnet_off_wanted: Hook | None = None,
    leds_only: bool = False,
    points: Collection[str] | None = None,
    pins: tuple[Sequence[str], Sequence[str]] | None = None,
) -> list[Problem]:
    """Run the wizard on an empty board; returns the problems found (none: all good).

    ``leds_only``: only the LED pass. ``points``: test only these points' switches (the
    layout's order kept; default every point). ``pins``: the row and column lines' pins (a
    build's ``matrix.rows``, ``matrix.cols``), named when a whole line reads nothing."""
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
    if leds_only:
        say("LED check done (switches not tested: --leds-only).")
        return []

    wanted = [p for p in layout.points.values() if points is None or p.id in points]
    if board.snapshot():
        on_board = ", ".join(sorted(board.snapshot()))
        say(f"Take every piece off the board first (it reads {on_board}).")
        await wait_for(board, lambda s: not s, timeout, settle)
    problems: list[Problem] = []
    if len(wanted) < len(layout.points):
        say(f"Switch check of {len(wanted)} of the {len(layout.points)} points.")
    say("Switch check: put a magnet on each point when asked, then take it off.")
    for point in wanted:
        board.show({point.id: Light(WHITE)})
        say(f"  magnet on {point.id}")
        await call_hook(on_magnet_wanted, point.id)
        read = await wait_for(board, lambda s: bool(s), timeout, settle)
        if read != {point.id}:
            problems.append(Problem(point.id, read - {point.id}, _hint(layout, point.id, read)))
            say(f"    wrong: {problems[-1]}")
        await call_hook(on_magnet_off_wanted, point.id)
        await wait_for(board, lambda s: not s, timeout, settle)
    board.show({})
    if problems:
        say(f"{len(problems)} point(s) read wrong:")
        for problem in problems:
            say(f"  {problem}")
        for line in dead_lines(layout, {p.id for p in wanted}, problems, pins):
            say(line)
    else:
        say(f"All {len(wanted)} points read right.")
    return problems


def dead_lines(
    layout: Layout,
    tested: Collection[str],
    problems: Iterable[Problem],
    pins: tuple[Sequence[str], Sequence[str]] | None = None,
) -> list[str]:
    """A line for each matrix row, then column, of two or more points that were all tested and
    all read nothing: the line itself (or its diodes' direction) is the likely fault."""
    silent = {p.point for p in problems if not p.read}
    out = []
    for index, what in ((0, "row"), (1, "column")):
        lines: dict[int, list[str]] = {}
        for point in layout.points.values():
            lines.setdefault(point.col if index else point.row, []).append(point.id)
        for number, ids in sorted(lines.items()):
            if len(ids) > 1 and all(i in tested and i in silent for i in ids):
                pin = f" ({pins[index][number]})" if pins and number < len(pins[index]) else ""
                out.append(
                    f"{what} {number} reads nothing: check {what} line {number}{pin}"
                    " and its diodes' direction"
                )
    return out


def points_on(
    layout: Layout, rows: Iterable[int] | None = None, cols: Iterable[int] | None = None
) -> list[str]:
    """The points whose switch is on one of ``rows`` and one of ``cols`` (None: any), in the
    layout's order; WiringError (one line, naming the number and the valid range) for a row
    or column the matrix lacks, or when no point is left."""
    for what, numbers, count in (
        ("row", rows, layout.matrix[0]),
        ("column", cols, layout.matrix[1]),
    ):
        for n in numbers or ():
            if not 0 <= n < count:
                raise WiringError(
                    f"matrix {what} {n} is not on layout {layout.name}'s matrix"
                    f" ({what}s 0-{count - 1})"
                )
    row_set = None if rows is None else set(rows)
    col_set = None if cols is None else set(cols)
    chosen = [
        p.id
        for p in layout.points.values()
        if (row_set is None or p.row in row_set) and (col_set is None or p.col in col_set)
    ]
    if not chosen:
        raise WiringError(f"no point of layout {layout.name} is on those matrix rows and columns")
    return chosen


async def call_hook(hook: Hook | None, point: str) -> None:
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
