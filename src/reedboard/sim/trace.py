"""Sensor traces (docs/design.md "Trace format"): JSON lines, read, written and replayed.

    {"game": "solitaire", "occupied": ["1", "2", ...]}   first line: game and sensed start
    {"t": 0.512, "point": "5", "on": false}               a switch opens (piece lifted)
    {"t": 0.530, "point": "17", "on": true}               a switch closes (piece placed)
    {"t": 1.200, "dice": [5, 2]}                          the values of the next roll
    {"t": 1.250, "button": "roll"}                        roll | undo | hint | confirm | new

Replay feeds a trace through the controller on a virtual clock: no sleeping, same timers.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.engine import EngineError
from reedboard.engine.files import MAX_TRACE, read_bounded
from reedboard.errors import ControllerError
from reedboard.hardware.board_io import BUTTONS, ButtonEvent, SensorEvent
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import GRACE, HOLD, SETTLE, Session
from reedboard.sim.runner import Clock, Runner
from reedboard.wiring.layout import Layout, layout_for_game

_layout = functools.lru_cache(maxsize=None)(layout_for_game)
"""Boards read once per process: a benchmark replays thousands of traces."""


class TraceError(ControllerError, ValueError):
    """A trace that cannot be used; the message names the file and line (and what on it).
    Reading (:func:`read_trace`, :func:`load_trace`) and replaying raise no other error for
    anything in a trace."""


MAX_T = 1e9
"""The latest time a trace may hold, in seconds (31 years): beyond it a float no longer
tells the settle time's milliseconds apart."""

HEAD_KEYS = ("game", "occupied", "options")
EVENT_KEYS = {"point": ("t", "point", "on"), "dice": ("t", "dice"), "button": ("t", "button")}


@dataclass
class Trace:
    game: str
    occupied: frozenset[str]
    options: dict[str, Any] = field(default_factory=dict)
    lines: list[dict[str, Any]] = field(default_factory=list)
    """The event lines, each with ``t`` and one of point/on, dice, button."""
    source: str = field(default="<trace>", compare=False)
    """The file it was read from, for errors."""
    numbers: list[int] = field(default_factory=list, compare=False)
    """The line number of each event line in ``source`` (none for a trace made in memory)."""
    head: int = field(default=1, compare=False)
    """The line number of the first line."""

    def where(self, index: int | None = None) -> str:
        """``file:line`` of the event line ``index`` (the first line for ``None``)."""
        if index is None:
            return f"{self.source}:{self.head}"
        number = self.numbers[index] if index < len(self.numbers) else self.head + 1 + index
        return f"{self.source}:{number}"

    def to_jsonl(self) -> str:
        head: dict[str, Any] = {"game": self.game, "occupied": sorted(self.occupied, key=_key)}
        if self.options:
            head["options"] = self.options
        return "".join(json.dumps(line) + "\n" for line in [head, *self.lines])


def _key(point: str) -> tuple[int, str]:
    return (int(point), "") if point.isdigit() else (0, point)


def read_trace(text: str, name: str = "<trace>") -> Trace:
    """Parse a trace; every fault raises :class:`TraceError` naming ``name:line``. Lines end
    at newlines only (a JSON string may hold U+2028); blank lines are skipped."""
    trace: Trace | None = None
    last_t = 0.0
    for n, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip(" \t\r"):
            continue
        where = f"{name}:{n}"
        line = _json(raw, where)
        if trace is None:
            trace = _head(line, where)
            trace.source, trace.head = name, n
            continue
        trace.lines.append(_event(line, where, last_t))
        trace.numbers.append(n)
        last_t = float(line["t"])
    if trace is None:
        raise TraceError(f"{name}: empty trace (no first line)")
    return trace


class _NotJson(Exception):
    pass


def _no_constant(name: str) -> Any:
    raise _NotJson(f"{name} is no JSON number")


def _json(raw: str, where: str) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise TraceError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
    except _NotJson as exc:
        raise TraceError(f"{where}: not JSON ({exc})") from None
    except RecursionError:
        raise TraceError(f"{where}: not JSON a trace can hold (nested too deeply)") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise TraceError(f"{where}: not JSON a trace can hold ({exc})") from None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _unknown(line: dict[str, Any], known: tuple[str, ...], where: str, what: str) -> None:
    for key in line:
        if key not in known:
            raise TraceError(f"{where}: unknown key {_short(key)} in {what} ({', '.join(known)})")


def _point(value: Any) -> str | None:
    """A point id as text: ``"17"``, ``"a1"``, or a whole number ``17``."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    return None


def _head(line: Any, where: str) -> Trace:
    shape = '{"game": ID, "occupied": [...]}'
    if not isinstance(line, dict) or "game" not in line or "occupied" not in line:
        raise TraceError(f"{where}: the first line must be {shape}")
    _unknown(line, HEAD_KEYS, where, "the first line")
    game = line["game"]
    if not isinstance(game, str) or not game:
        raise TraceError(f"{where}: game: {_short(game)} is not a game id")
    occupied = line["occupied"]
    if not isinstance(occupied, list):
        raise TraceError(f"{where}: occupied: {_short(occupied)} is not a list of points")
    points: set[str] = set()
    for value in occupied:
        point = _point(value)
        if point is None:
            raise TraceError(f"{where}: occupied: {_short(value)} is not a point id")
        if point in points:
            raise TraceError(f"{where}: occupied: point {point!r} is named twice")
        points.add(point)
    options = line.get("options", {})
    if not isinstance(options, dict):
        raise TraceError(
            f'{where}: options: {_short(options)} is not an object (like {{"players": 4}})'
        )
    for key, value in options.items():
        if _option_text(value) is None:
            raise TraceError(
                f"{where}: options: {_short(key)}: {_short(value)} is not text, a whole"
                " number, true or false, or a list of them"
            )
    return Trace(game, frozenset(points), dict(options))


def _option_text(value: Any) -> str | None:
    """An option's value as ``-o KEY=VALUE`` writes it (so the engine checks it the one way),
    or None for a value no option takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, list) and all(
        isinstance(v, int | str) and not isinstance(v, bool) for v in value
    ):
        return ",".join(str(v) for v in value)
    return None


def option_texts(options: dict[str, Any]) -> dict[str, str]:
    """A trace's options as the command line's text (every value checked by the engine)."""
    texts = {key: _option_text(value) for key, value in options.items()}
    return {key: text for key, text in texts.items() if text is not None}


def _event(line: Any, where: str, last_t: float) -> dict[str, Any]:
    if not isinstance(line, dict):
        raise TraceError(f"{where}: expected a JSON object, not {_short(line)}")
    kinds = [k for k in EVENT_KEYS if k in line]
    if not kinds:
        raise TraceError(f"{where}: expected a point, dice or button line")
    if len(kinds) > 1:
        raise TraceError(f"{where}: one of point, dice or button, not {' and '.join(kinds)}")
    kind = kinds[0]
    _unknown(line, EVENT_KEYS[kind], where, f"a {kind} line")
    t = line.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool):
        raise TraceError(f"{where}: no time 't' in seconds")
    if not math.isfinite(t) or not 0 <= t <= MAX_T:
        raise TraceError(f"{where}: t={_short(t)} is not a time from 0 to {MAX_T:.0e} seconds")
    if t < last_t:
        raise TraceError(f"{where}: t={t} goes back in time (the line before is at {last_t})")
    event = dict(line)
    if kind == "point":
        point = _point(line["point"])
        if point is None:
            raise TraceError(f"{where}: point: {_short(line['point'])} is not a point id")
        if not isinstance(line.get("on"), bool):
            raise TraceError(f'{where}: a point line needs "on": true or false')
        event["point"] = point
    elif kind == "dice":
        dice = line["dice"]
        if (
            not isinstance(dice, list)
            or not dice
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in dice)
        ):
            raise TraceError(
                f"{where}: dice: {_short(dice)} is not a list of throws (whole numbers from 1)"
            )
    elif line["button"] not in BUTTONS:
        raise TraceError(f"{where}: no button {_short(line['button'])} ({', '.join(BUTTONS)})")
    return event


def read_trace_bytes(data: bytes, name: str = "<trace>") -> Trace:
    """Parse a trace from its bytes: UTF-8 (a byte-order mark is allowed), else the line with
    the first bad byte is named."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        n = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise TraceError(f"{name}:{n}: not UTF-8 (byte 0x{bad} at column {column})") from None
    return read_trace(text, name)


def load_trace(path: str | Path) -> Trace:
    p = Path(path)
    try:
        data = read_bounded(p, MAX_TRACE)
    except OSError as exc:
        raise TraceError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return read_trace_bytes(data, str(p))


def check_trace(trace: Trace, game: str | None = None) -> tuple[Layout, dict[str, str]]:
    """Check a trace against the game it is replayed as (``game``, else its own): the game is
    sensed, the options are the game's, every point is on its board, every throw is one its
    dice can show. Returns the board and the options as text; raises :class:`TraceError`
    naming the line."""
    head = trace.where()
    named = "--game" if game else f"{head}: game"
    game_id = game or trace.game
    try:
        cls = engine.game(game_id)
    except EngineError as exc:
        raise TraceError(f"{named}: {exc}") from None
    if not cls.sensed:
        raise TraceError(f"{named}: {game_id} is played at the table: nothing on it is sensed")
    layout = _layout(game_id)
    options = option_texts(trace.options)
    try:
        cls.start(**options)
    except EngineError as exc:
        raise TraceError(f"{head}: options: {exc}") from None
    unknown = sorted(trace.occupied - set(layout.points), key=_key)
    if unknown:
        raise TraceError(f"{head}: occupied: board {layout.name} has no point {', '.join(unknown)}")
    occupied = set(trace.occupied)
    for i, line in enumerate(trace.lines):
        if "point" in line and line["point"] not in layout.points:
            raise TraceError(
                f"{trace.where(i)}: board {layout.name} has no point {line['point']!r}"
            )
        if "point" in line and "on" in line:  # a switch changes: it was the other way
            point, on = line["point"], bool(line["on"])
            if (point in occupied) == on:
                was = "on (a piece there)" if on else "off (empty)"
                raise TraceError(f"{trace.where(i)}: point {point} is already {was}")
            (occupied.add if on else occupied.discard)(point)
        if "dice" in line:
            fault = _dice_fault(cls.dice_spec, game_id, line["dice"])
            if fault:
                raise TraceError(f"{trace.where(i)}: {fault}")
    return layout, options


def _dice_fault(spec: tuple[int, int] | None, game_id: str, values: list[int]) -> str | None:
    if spec is None:
        return f"dice {values}, but {game_id} throws none"
    count, sides = spec
    if len(values) != count or not all(1 <= v <= sides for v in values):
        dice = "one value" if count == 1 else f"{count} dice"
        return f"dice {values}: {game_id} throws {dice} of 1 to {sides}"
    return None


COMMITS = ("move", "extend", "changed", "throw")
"""The alert kinds that commit a move or a throw to the game."""


@dataclass(frozen=True)
class Committed:
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
        self.layout, options = check_trace(trace, game)
        self.clock = Clock()
        self.board = SimulatedBoard(self.layout, trace.occupied, clock=self.clock)
        self.dice = ScriptedDice()
        self.settle = settle
        self.grace = grace
        self.hold = hold
        self.commits: list[Committed] = []
        self.last_t: float | None = None
        self.session = Session(
            self.board,
            self.layout,
            game_id,
            options,
            dice=self.dice,
            settle=settle,
            grace=grace,
            hold=hold,
            on_alert=self._heard,
        )
        self.session.start(0.0)
        self.runner = Runner(self.session, self.board, self.clock, self.dice)

    @property
    def now(self) -> float:
        return self.runner.now

    def _heard(self, now: float, kind: str, text: str) -> None:
        if kind in COMMITS:
            ply = len(self.session.position.move_stack) - 1
            self.commits.append(Committed(round(now, 6), kind, text, ply))

    def feed(self, line: dict[str, Any]) -> None:
        """One event line (point, dice or button) at its time ``t``."""
        t = float(line["t"])
        if t < self.now:
            raise TraceError(f"trace: t={t} lies before the replay clock ({self.now})")
        if "point" in line and line["point"] not in self.layout.points:
            raise TraceError(
                f"trace: t={t}: board {self.layout.name} has no point {line['point']!r}"
            )
        self.last_t = t
        self.runner.feed(line)  # through the board, on the one clock

    def advance(self, t: float) -> None:
        """Fire every timer due up to ``t``, in time order."""
        self.runner.advance(max(self.now, t))

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


FAULTS = ("error", "dice-error")
"""The alert kinds that say a replay went wrong (a bug survived, a roll with no throw left for
it), not what players did."""


def faults(trace: Trace, session: Session) -> list[str]:
    """What went wrong replaying ``trace`` into ``session``, one line each naming the trace's
    line (the last at or before the time): faulty alerts, and throws never rolled."""
    times = [round(float(line["t"]), 3) for line in trace.lines]
    found = []
    for alert in session.alerts:
        if alert["kind"] in FAULTS:
            i = bisect.bisect_right(times, alert["t"]) - 1
            where = trace.where(i) if i >= 0 else trace.where()
            found.append(f"{where}: t={alert['t']:.3f}: {alert['kind']}: {alert['text']}")
    left = session.dice.remaining if isinstance(session.dice, ScriptedDice) else 0
    if left:
        throws = [i for i, line in enumerate(trace.lines) if "dice" in line]
        first = throws[len(throws) - left] if left <= len(throws) else None
        where = trace.where(first) if first is not None else trace.source
        found.append(f"{where}: dice never rolled ({left} of {len(throws)} throws)")
    return found


def events(trace: Trace) -> Iterator[tuple[float, SensorEvent | ButtonEvent | tuple[int, ...]]]:
    for line in trace.lines:
        t = float(line["t"])
        if "point" in line:
            yield t, SensorEvent(line["point"], line["on"], t)
        elif "dice" in line:
            yield t, tuple(line["dice"])
        else:
            yield t, ButtonEvent(line["button"], t)
