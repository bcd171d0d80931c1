"""What the LEDs show, as one pure function of the session's state (docs/design.md "LEDs").

green = legal landing, amber = hint, blue = the computer's move (from and to), red steady =
Brier Patch, red blink = remove a piece here, white blink = place a piece here, a short sweep
= game over. A mismatch shows only its one fix (and the Brier Patch, which never moves).

A frame says what each point shows and how (steady, blinking, swept): the intent. The board's
LED compositor (reedboard/hardware/compositor.py) owns the clock that makes it blink and sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from reedboard.engine import Move
from reedboard.engine.marks import Mark, MarkStyle
from reedboard.hardware.lights import AMBER, BLUE, GREEN, RED, WHITE, Light, Pattern
from reedboard.wiring.layout import Layout

log = logging.getLogger("reedboard")


@dataclass(frozen=True)
class View:
    landings: frozenset[str] = frozenset()
    """Where a piece may land: green."""
    hint: tuple[str, ...] = ()
    """A suggested move's points: amber."""
    candidate: tuple[str, ...] = ()
    """One of several moves that leave the same board, shown for `confirm`: amber, blinking."""
    computer: tuple[str, ...] = ()
    """The computer's move, from and to: blue."""
    fix: tuple[str, bool] | None = None
    """A mismatch's next fix: (point, True) remove here, (point, False) place here."""
    marks: tuple[Mark, ...] = ()
    """The lights the game wants whatever the play (the engine's ``marks()``): red, steady or
    blinking (docs/design.md: red steady = the Brier Patch, blinking during an escape throw)."""
    sweep: bool = False
    """The game is over: a column of white crosses the board once (the compositor times it)."""
    extra: dict[str, Light] = field(default_factory=dict)


def frame(layout: Layout, view: View) -> dict[str, Light]:
    out: dict[str, Light] = {}
    for mark in view.marks:
        light = Light(RED, Pattern.BLINK if mark.style is MarkStyle.BLINK else Pattern.STEADY)
        for point in mark.points:
            out[point] = light
    if view.sweep:  # every point but the game's marks (the Brier Patch), which stay lit
        swept = Light(WHITE, Pattern.SWEEP)
        for point in layout.points:
            out.setdefault(point, swept)
        return out
    if view.fix is not None:
        point, remove = view.fix
        out[point] = Light(RED if remove else WHITE, Pattern.BLINK)
        return out
    _paint(out, view.landings, Light(GREEN))
    _paint(out, view.computer, Light(BLUE))
    _paint(out, view.hint, Light(AMBER))
    _paint(out, view.candidate, Light(AMBER, Pattern.BLINK))
    out.update(view.extra)
    stray = [point for point in out if point not in layout.points]
    if stray:  # a bug upstream; the board must not stop for it (drivers refuse such frames)
        log.error("LED frame names %s, not on board %s: left dark", stray, layout.name)
        for point in stray:
            del out[point]
    return out


def ends(move: Move) -> tuple[str, ...]:
    """Where a move's pieces start and end on the board (a hint's amber points): a piece
    coming on from off the board shows only where it lands."""
    return tuple(dict.fromkeys(p for route in move.routes() for p in (route[0], route[-1])))


def route_points(move: Move) -> tuple[str, ...]:
    """Every board point a move's pieces pass (a candidate to confirm: the whole route, so
    chains that end alike are told apart)."""
    return tuple(dict.fromkeys(p for route in move.routes() for p in route))


def _paint(out: dict[str, Light], points: Iterable[str], light: Light) -> None:
    for point in points:
        out[point] = light
