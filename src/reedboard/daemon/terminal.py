"""The board drawn in a terminal: pieces, and each point's LED as a coloured background.

The lights drawn are the compositor's at a moment (``board.leds.lights(now)``): the game-over
sweep's column where it is then; blinking and pulsing points are left to the terminal to blink.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.engine import Position
from reedboard.hardware.lights import AMBER, BLUE, GREEN, RED, WHITE, Light, Pattern
from reedboard.wiring.layout import Layout

_ANSI = {GREEN: "42", AMBER: "43", BLUE: "44", RED: "41", WHITE: "47"}
_BLINKING = (Pattern.BLINK, Pattern.PULSE)


def draw(
    layout: Layout,
    pieces: Mapping[str, str],
    frame: Mapping[str, Light],
    dice: tuple[int, ...] | None = None,
    colour: bool = True,
) -> str:
    """One cell per point: its piece letter (``.`` when empty); a lit LED colours the cell
    (or, without colour, marks it ``*`` for steady and ``!`` for blinking or pulsing)."""
    cols, rows = layout.size
    at = {(p.x, p.y): p.id for p in layout.points.values()}
    width = max(len(pid) for pid in layout.points) + 1
    lines = []
    for y in range(rows):
        cells = []
        for x in range(cols):
            pid = at.get((x, y))
            if pid is None:
                cells.append(" " * (width + 1))
                continue
            text = pieces.get(pid, ".").center(width)
            light = frame.get(pid)
            if light is None:
                cells.append(text + " ")
            elif colour:
                code = _ANSI.get(light.colour, "45")
                blink = ";5" if light.pattern in _BLINKING else ""
                cells.append(f"\x1b[{code}{blink}m{text}\x1b[0m ")
            else:
                mark = "!" if light.pattern in _BLINKING else "*"
                cells.append(text[:-1] + mark + " ")
        lines.append("".join(cells).rstrip())
    if dice:
        lines.append("dice: " + " ".join(str(v) for v in dice))
    return "\n".join(lines)


def pieces_of(position: Position[Any, Any]) -> dict[str, str]:
    """Point id -> piece letter(s) for drawing an engine position."""
    return position.pieces()
