"""``reedboard wiring learn``: a new layout for a board wired in another order.

The build's layout gives the board's geometry and its points' names (x, y, marks, games);
the builder's soldering gave each point a switch (a row and a column line of the matrix) and
an LED (an index in the chain) that may differ from the layout's. Learning asks the board.

The protocol, two passes with one magnet, the board read raw (every switch place of the
matrix, whether or not the layout uses it):

1. **Switches.** For each point in the layout's order (no LED lit: the layout's LEDs may be
   wrong), the builder puts the magnet on the point named (its drawing column and row are
   said too), then takes it off. Exactly one switch must close: that (row, col) is the
   point's.
2. **LEDs.** For each chain index from 0 to the number of points less one, that LED alone is
   lit white; the builder puts the magnet on the lit point, then takes it off. The switch that
   closes names the point (from pass 1): that point's LED is the index.

Each wrong answer is one line of problem, never a crash: no switch closing (a dead switch, or
no magnet within the timeout), two or more closing at once (a short, or a missing diode), a
switch already claimed by another point, a lit point whose switch no point claimed, or one
already given an LED. The new layout is written only at the end, only when every point has a
switch and an LED, and is checked by the layout loader before anything is written; the
command refuses to overwrite a file without ``--force``. An interrupted run writes nothing,
so it is simply run again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reedboard.hardware.board_io import BoardIO
from reedboard.hardware.lights import WHITE, Light
from reedboard.wiring.check import Say, wait_for
from reedboard.wiring.layout import Layout, Point

Hook = Callable[[str | None], Awaitable[None] | None]
"""Called when the builder is asked to act: with the point's id (pass 1) or None (pass 2:
the lit point)."""


def switch_id(row: int, col: int) -> str:
    return f"r{row}c{col}"


def probe_layout(layout: Layout) -> Layout:
    """The layout a board is opened with to learn: one point for each switch place of the
    matrix, named ``r{row}c{col}`` (so a reading names switches, not points), and the same
    LED chain: the place ``k`` (row times columns plus column) lights chain index ``k``, so
    index ``i`` is lit by showing the ``i``-th place. (Not a layout to load or draw: its
    ``dice_leds`` only keeps the chain's length, and may be below zero.)"""
    rows, cols = layout.matrix
    count = layout.led_count
    points = {}
    for k in range(rows * cols):
        r, c = divmod(k, cols)
        pid = switch_id(r, c)
        points[pid] = Point(pid, c, r, r, c, min(k, count - 1))
    return replace(
        layout,
        name=f"{layout.name}-probe",
        size=(cols, rows),
        dice_leds=count - rows * cols,
        points=points,
        marks={},
        shaded=(),
    )


@dataclass
class Learned:
    """What the board answered: each point's switch and LED, and the problems."""

    switches: dict[str, tuple[int, int]] = field(default_factory=dict)
    leds: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def complete(self, layout: Layout) -> bool:
        return not self.problems and all(
            p in self.switches and p in self.leds for p in layout.points
        )


def _switches(reading: frozenset[str], probe: Layout) -> list[tuple[int, int]]:
    return sorted((probe.points[s].row, probe.points[s].col) for s in reading if s in probe.points)


def _named(switches: list[tuple[int, int]]) -> str:
    return " and ".join(f"row {r} col {c}" for r, c in switches)


async def learn_wiring(
    board: BoardIO,
    layout: Layout,
    say: Say,
    *,
    timeout: float = 15.0,
    settle: float = 0.3,
    on_magnet_wanted: Hook | None = None,
    on_magnet_off_wanted: Hook | None = None,
) -> Learned:
    """Run both passes on ``board``, opened with :func:`probe_layout` of ``layout`` and empty;
    returns what was learned (a new layout needs :meth:`Learned.complete`)."""
    probe = probe_layout(layout)
    if board.leds.layout.points.keys() != probe.points.keys():
        raise ValueError("learn_wiring needs a board opened with probe_layout(layout)")
    learned = Learned()
    owner: dict[tuple[int, int], str] = {}

    def problem(text: str) -> None:
        learned.problems.append(text)
        say(f"    problem: {text}")

    async def one_magnet(what: str | None) -> list[tuple[int, int]]:
        await _hook(on_magnet_wanted, what)
        read = await wait_for(board, bool, timeout, settle)
        await _hook(on_magnet_off_wanted, what)
        await wait_for(board, lambda s: not s, timeout, settle)
        return _switches(read, probe)

    board.show({})
    if board.snapshot():
        on_board = _named(_switches(board.snapshot(), probe))
        say(f"Take every magnet off the board first (it reads {on_board}).")
        await wait_for(board, lambda s: not s, timeout, settle)
    count = len(layout.points)
    say(f"Switches: put the magnet on each of the {count} points as named, then take it off.")
    for point in layout.points.values():
        say(f"  magnet on {point.id} (drawing column {point.x}, row {point.y})")
        closed = await one_magnet(point.id)
        if not closed:
            problem(f"{point.id}: no switch closed (a dead switch or diode, or no magnet)")
        elif len(closed) > 1:
            problem(f"{point.id}: {_named(closed)} closed together (a short or a missing diode)")
        elif closed[0] in owner:
            problem(f"{point.id}: {_named(closed)} closed, which is {owner[closed[0]]}'s switch")
        else:
            owner[closed[0]] = point.id
            learned.switches[point.id] = closed[0]

    say(f"LEDs: put the magnet on the lit point, then take it off; {len(layout.points)} LEDs.")
    lit_by: dict[str, int] = {}
    for index in range(len(layout.points)):
        r, c = divmod(index, layout.matrix[1])
        board.show({switch_id(r, c): Light(WHITE)})
        say(f"  magnet on the lit point (LED {index})")
        closed = await one_magnet(None)
        if not closed:
            problem(f"LED {index}: no switch closed (a dark LED, a break in the chain, no magnet)")
        elif len(closed) > 1:
            problem(f"LED {index}: {_named(closed)} closed together (a short or a missing diode)")
        elif closed[0] not in owner:
            problem(f"LED {index}: {_named(closed)} closed, which no point closed before")
        elif owner[closed[0]] in lit_by:
            twice = owner[closed[0]]
            problem(f"LED {index}: lights {twice}, as LED {lit_by[twice]} did")
        else:
            lit_by[owner[closed[0]]] = index
            learned.leds[owner[closed[0]]] = index
    board.show({})
    if learned.problems:
        say(f"{len(learned.problems)} problem(s); no layout written:")
        for text in learned.problems:
            say(f"  {text}")
    else:
        say(f"All {len(layout.points)} points learned: a switch and an LED each.")
    return learned


async def _hook(hook: Hook | None, what: str | None) -> None:
    if hook is not None:
        result = hook(what)
        if result is not None:
            await result


def learned_layout_text(layout: Layout, learned: Learned) -> str:
    """The new layout as TOML: the layout's geometry, names, games and marks, each point's
    row, col and led as learned (every point must have them: :meth:`Learned.complete`)."""
    lines = [
        f"# Learned by `reedboard wiring learn` from layout {layout.name} ({layout.path.name}):",
        "# x and y as that layout drew them; row, col and led as the board answered.",
        "",
        f"name = {_value(layout.name)}",
        f"games = {_value(list(layout.games))}",
        f"size = {_value(list(layout.size))}",
        f"matrix = {_value(list(layout.matrix))}",
        f"dice_leds = {layout.dice_leds}",
        f"pitch_mm = {_value(layout.pitch_mm)}",
    ]
    if layout.shaded:
        lines.append(f"shaded = {_value(list(layout.shaded))}")
    if layout.marks:
        lines += ["", "[marks]"]
        lines += [f"{_key(k)} = {_value(v)}" for k, v in layout.marks.items()]
    lines += ["", "[points]"]
    for p in layout.points.values():
        row, col = learned.switches[p.id]
        lines.append(
            f"{_key(p.id)} = {{ x = {p.x}, y = {p.y}, row = {row}, col = {col},"
            f" led = {learned.leds[p.id]} }}"
        )
    return "\n".join(lines) + "\n"


def write_learned(layout: Layout, learned: Learned, out: Path, *, force: bool = False) -> None:
    """Write the learned layout to ``out`` (refused if it exists, unless ``force``); the text
    is loaded back by the layout loader first, so a file written is a file that loads."""
    import tempfile

    from reedboard.wiring.layout import WiringError, load_layout

    if out.exists() and not force:
        raise WiringError(f"{out} exists; give --force to overwrite it")
    text = learned_layout_text(layout, learned)
    with tempfile.TemporaryDirectory() as tmp:
        check = Path(tmp) / "learned.toml"
        check.write_text(text, encoding="utf-8")
        load_layout(check)
    out.write_text(text, encoding="utf-8")


def _key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    """A TOML value (strings, numbers, lists and tables of them: what layouts hold)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} cannot be written")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"{value!r} cannot be written")
