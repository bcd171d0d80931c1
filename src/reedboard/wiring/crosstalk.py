"""``reedboard wiring check --crosstalk``: ghosting between switches, with the board full.

One magnet at a time (the switch pass of :mod:`reedboard.wiring.check`) cannot show a
missing or reversed diode: a ghost needs three closed switches, two on one row line and two
on one column line. So the builder fills every point (a peg, a piece, a magnet on each; the
points lit show which), the check makes sure the board reads every one of them and nothing
else, then asks for one piece at a time to be lifted (it is lit alone) and put back. A point
whose lift leaves it still reading, or changes what any *other* point reads, is reported:
current finds its way round through a switch whose diode is missing or the wrong way round.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from reedboard.hardware.board_io import BoardIO
from reedboard.hardware.lights import WHITE, Light
from reedboard.wiring.check import Hook, Say, call_hook, wait_for
from reedboard.wiring.layout import Layout

GHOST_HINT = "a missing or reversed diode (or a short) on these points' row and column lines"


@dataclass(frozen=True)
class Crosstalk:
    point: str
    what: str
    """What went wrong at the point, one line."""

    def __str__(self) -> str:
        return f"{self.point}: {self.what}"


async def check_crosstalk(
    board: BoardIO,
    layout: Layout,
    say: Say,
    *,
    filled: Collection[str] | None = None,
    timeout: float = 15.0,
    settle: float = 0.3,
    on_fill_wanted: Callable[[frozenset[str]], Awaitable[None] | None] | None = None,
    on_lift_wanted: Hook | None = None,
    on_put_back_wanted: Hook | None = None,
) -> list[Crosstalk]:
    """Ask for ``filled`` (default: every point) to be filled, then for each of them to be
    lifted and put back in turn; returns the crosstalk found (none: all good)."""
    order = [p for p in layout.points if filled is None or p in filled]
    full = frozenset(order)
    problems: list[Crosstalk] = []

    def report(point: str, what: str) -> None:
        problems.append(Crosstalk(point, what))
        say(f"    wrong: {problems[-1]}")

    say(f"Crosstalk check: put a piece on each of the {len(full)} lit points.")
    board.show({p: Light(WHITE) for p in order})
    if on_fill_wanted is not None:
        result = on_fill_wanted(full)
        if result is not None:
            await result
    read = await wait_for(board, lambda s: full <= s, timeout, settle)
    for p in order:
        if p not in read:
            report(p, "reads nothing with its piece on (a dead switch, diode or line)")
    for p in sorted(read - full, key=_layout_order(layout)):
        report(p, f"reads with no piece on it, the others filled: {GHOST_HINT}")
    baseline = read
    say("Lift the lit piece, then put it back; one point after another.")
    for p in order:
        if p not in baseline:
            continue  # a point that does not read cannot be lifted from the reading
        board.show({p: Light(WHITE)})
        say(f"  lift {p}")
        await call_hook(on_lift_wanted, p)
        lifted = await wait_for(board, lambda s: s != baseline, timeout, settle)
        others = baseline - {p}
        what = []
        if p in lifted:
            what.append("still reads with its piece lifted")
        gone = sorted(others - lifted, key=_layout_order(layout))
        if gone:
            what.append(f"lifting it empties {', '.join(gone)}")
        came = sorted(lifted - baseline, key=_layout_order(layout))
        if came:
            what.append(f"lifting it makes {', '.join(came)} read")
        if what:
            report(p, f"{'; '.join(what)}: {GHOST_HINT}")
        say(f"  put {p} back")
        await call_hook(on_put_back_wanted, p)
        await wait_for(board, lambda s: s == baseline, timeout, settle)
    board.show({})
    if problems:
        say(f"{len(problems)} crosstalk problem(s):")
        for problem in problems:
            say(f"  {problem}")
    else:
        say(f"No crosstalk: each of the {len(order)} points lifts alone.")
    return problems


def _layout_order(layout: Layout) -> Callable[[str], tuple[int, str]]:
    index = {p: i for i, p in enumerate(layout.points)}
    return lambda p: (index.get(p, len(index)), p)
