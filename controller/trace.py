"""Sensor traces (DESIGN.md "Trace format"): JSON lines, read, written and replayed.

    {"game": "solitaire", "occupied": ["1", "2", ...]}   first line: game and sensed start
    {"t": 0.512, "point": "5", "on": false}               a switch opens (piece lifted)
    {"t": 0.530, "point": "17", "on": true}               a switch closes (piece placed)
    {"t": 1.200, "dice": [5, 2]}                          the values of the next roll
    {"t": 1.250, "button": "roll"}                        roll | undo | hint | confirm | new

Replay feeds a trace through the controller on a virtual clock: no sleeping, same timers.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.dice import ScriptedDice
from controller.session import GRACE, HOLD, SETTLE, Session
from hardware.board_io import BUTTONS, ButtonEvent, SensorEvent
from hardware.simulated import SimulatedBoard
from wiring.layout import layout_for_game

_layout = functools.lru_cache(maxsize=None)(layout_for_game)
"""Boards read once per process: a benchmark replays thousands of traces."""


class TraceError(ValueError):
    """A trace line that cannot be used; the message names the file and line."""


@dataclass
class Trace:
    game: str
    occupied: frozenset[str]
    options: dict[str, Any] = field(default_factory=dict)
    lines: list[dict[str, Any]] = field(default_factory=list)
    """The event lines, each with ``t`` and one of point/on, dice, button."""

    def to_jsonl(self) -> str:
        head: dict[str, Any] = {"game": self.game, "occupied": sorted(self.occupied, key=_key)}
        if self.options:
            head["options"] = self.options
        return "".join(json.dumps(line) + "\n" for line in [head, *self.lines])


def _key(point: str) -> tuple[int, str]:
    return (int(point), "") if point.isdigit() else (0, point)


def read_trace(text: str, name: str = "<trace>") -> Trace:
    """Parse a trace; every fault names ``name:line``."""
    trace: Trace | None = None
    last_t = 0.0
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{name}:{n}"
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(line, dict):
            raise TraceError(f"{where}: expected a JSON object")
        if trace is None:
            if "game" not in line or not isinstance(line.get("occupied"), list):
                raise TraceError(
                    f'{where}: the first line must be {{"game": ID, "occupied": [...]}}'
                )
            trace = Trace(
                str(line["game"]),
                frozenset(map(str, line["occupied"])),
                dict(line.get("options", {})),
            )
            continue
        t = line.get("t")
        if not isinstance(t, int | float) or isinstance(t, bool):
            raise TraceError(f"{where}: no time 't' in seconds")
        if t < last_t:
            raise TraceError(f"{where}: t={t} goes back in time (last was {last_t})")
        last_t = float(t)
        if "point" in line:
            if not isinstance(line.get("on"), bool):
                raise TraceError(f'{where}: a point line needs "on": true or false')
            line["point"] = str(line["point"])
        elif "dice" in line:
            dice = line["dice"]
            if not isinstance(dice, list) or not all(isinstance(v, int) for v in dice):
                raise TraceError(f"{where}: dice must be a list of whole numbers")
        elif "button" in line:
            if line["button"] not in BUTTONS:
                raise TraceError(f"{where}: no button {line['button']!r} ({', '.join(BUTTONS)})")
        else:
            raise TraceError(f"{where}: expected point, dice or button")
        trace.lines.append(line)
    if trace is None:
        raise TraceError(f"{name}: empty trace")
    return trace


def load_trace(path: str | Path) -> Trace:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"{p}: cannot read: {exc.strerror}") from None
    return read_trace(text, str(p))


COMMITS = ("move", "extend", "throw")
"""The alert kinds that commit a move or a throw to the game."""


@dataclass(frozen=True)
class Commit:
    """A commit alert and the ply it filled (an ``extend`` refills the ply before)."""

    t: float
    kind: str
    move: str
    ply: int


class Replayer:
    """A trace fed line by line through a session on a virtual clock: :meth:`feed` a line,
    :meth:`advance` the clock to look at the board in between (as a closed-loop player does),
    :meth:`finish` at the end. Feeding a trace's lines in order and finishing gives the same
    session, whatever advances came between, as long as no line lies before the clock."""

    def __init__(
        self,
        trace: Trace,
        game: str | None = None,
        *,
        settle: float = SETTLE,
        grace: float = GRACE,
        hold: float = HOLD,
    ) -> None:
        game_id = game or trace.game
        self.layout = _layout(game_id)
        unknown = sorted(trace.occupied - set(self.layout.points))
        if unknown:
            raise TraceError(
                f"trace: the sensed start names points board {self.layout.name} lacks: {unknown}"
            )
        self.board = SimulatedBoard(self.layout, trace.occupied)
        self.dice = ScriptedDice()
        self.settle = settle
        self.grace = grace
        self.hold = hold
        self.commits: list[Commit] = []
        self.now = 0.0
        self.last_t: float | None = None
        self.session = Session(
            self.board,
            self.layout,
            game_id,
            trace.options,
            dice=self.dice,
            settle=settle,
            grace=grace,
            hold=hold,
            on_alert=self._heard,
        )
        self.session.start(0.0)

    def _heard(self, now: float, kind: str, text: str) -> None:
        if kind in COMMITS:
            ply = len(self.session.position.move_stack) - 1
            self.commits.append(Commit(round(now, 6), kind, text, ply))

    def feed(self, line: dict[str, Any]) -> None:
        """One event line (point, dice or button) at its time ``t``."""
        t = float(line["t"])
        if t < self.now:
            raise TraceError(f"trace: t={t} lies before the replay clock ({self.now})")
        self.advance(t)
        self.last_t = t
        session = self.session
        if "point" in line:
            if line["point"] not in self.layout.points:
                raise TraceError(
                    f"trace: t={t}: board {self.layout.name} has no point {line['point']!r}"
                )
            session.on_event(SensorEvent(line["point"], line["on"], t), t)
        elif "dice" in line:
            self.dice.feed(line["dice"])
        else:
            session.on_event(ButtonEvent(line["button"], t), t)

    def advance(self, t: float) -> None:
        """Fire every timer due up to ``t``, in time order."""
        session = self.session
        while (due := session.next_deadline()) is not None and due <= t:
            session.poll(due)
        self.now = max(self.now, t)

    def finish(self, tail: float | None = None) -> Session:
        """Run the clock on past the last line (by default long enough for every timer)."""
        if tail is None:
            tail = self.settle + max(self.grace, self.hold) + 2.0
        end = (self.last_t or 0.0) + tail
        self.advance(end)
        return self.session


def replay(
    trace: Trace,
    game: str | None = None,
    *,
    settle: float = SETTLE,
    grace: float = GRACE,
    hold: float = HOLD,
    tail: float | None = None,
) -> Session:
    """Feed a trace through a session on the simulated board; returns the finished session."""
    return replayer_of(trace, game, settle=settle, grace=grace, hold=hold).finish(tail)


def replayer_of(
    trace: Trace,
    game: str | None = None,
    *,
    settle: float = SETTLE,
    grace: float = GRACE,
    hold: float = HOLD,
) -> Replayer:
    """A replayer that has been fed every line of ``trace`` (not yet finished)."""
    replayer = Replayer(trace, game, settle=settle, grace=grace, hold=hold)
    for line in trace.lines:
        replayer.feed(line)
    return replayer


def events(trace: Trace) -> Iterator[tuple[float, SensorEvent | ButtonEvent | tuple[int, ...]]]:
    for line in trace.lines:
        t = float(line["t"])
        if "point" in line:
            yield t, SensorEvent(line["point"], line["on"], t)
        elif "dice" in line:
            yield t, tuple(line["dice"])
        else:
            yield t, ButtonEvent(line["button"], t)


def lines_of(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(i) for i in items]
