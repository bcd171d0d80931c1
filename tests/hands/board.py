"""The physical side of the hand model: pieces per point, switches that bounce, and a clock.

Hands schedule piece events (a piece lifted off or put on a point) and button and dice lines at
absolute times, in any order (two hands, a touch still on while the other hand moves on). The
table applies them in time order: a switch line is written when what a point's switch reads
changes, sometimes followed within ``chatter_ms`` (3 ms unless said) by contact bounce (flips
of the same switch that end where it settled). A switch reads a piece while its point's count
of pieces is above zero, except while the piece is knocked off its reed (:meth:`Table.knock`:
it reads empty until the knock ends or a hand sets the piece again) and once the switch has
broken (:meth:`Table.break_switch`: stuck open or closed for good, no line written for it any
more). Every written line is fed at once to a
:class:`~reedboard.sim.trace.Replayer`, so the session on the other side sees the trace as it is
written, and the player can look at it (:meth:`Table.look`) before deciding what to do next.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any

from reedboard.sim.handplan import Counts
from reedboard.sim.trace import Replayer, Trace

LASTING = 3.5
"""Seconds a broken switch's reading must differ from the pieces on it before the break
matters: longer than a hand touching a piece keeps it up, or a player takes to set a piece
back."""

TICK = 1e-6
"""Trace times are whole microseconds."""


def at(t: float) -> float:
    return round(t, 6)


@dataclass(order=True)
class _Due:
    t: float
    seq: int
    kind: str
    """piece | flip | line | knock | unknock | break"""
    point: str = ""
    delta: int = 0
    """piece: +1 put on, -1 lifted off; flip: the bounce group's origin seq; unknock: the seq
    of the knock it ends; break: 1 stuck closed, 0 stuck open."""
    line: dict[str, Any] | None = None


@dataclass
class Break:
    """A switch that broke for good: what it reads from ``t`` on, whatever stands on it."""

    point: str
    t: float
    closed: bool
    """Stuck closed (reads a piece) or open (reads empty)."""
    differs: float | None = None
    """When its reading first differed from the pieces really there (None while it never
    has)."""
    spells: list[list[float | None]] = field(default_factory=list)
    """Each spell its reading differed from the pieces there: [from, until] (until None: it
    still does)."""

    @property
    def matters(self) -> float | None:
        """When it first mattered: the start of the first spell its reading differed from the
        pieces there for :data:`LASTING` or more, or still does at the end of the game,
        however long (a piece lifted off it and put back sooner, a touch, leaves nothing to
        find). None: it never has."""
        for start, end in self.spells:
            assert start is not None
            if end is None or end - start >= LASTING:
                return start
        return None

    @property
    def state(self) -> str:
        return "closed" if self.closed else "open"


class Table:
    def __init__(
        self,
        head: Trace,
        counts: Counts,
        rng: random.Random,
        bounce: float,
        chatter_ms: float = 3.0,
        **replay: Any,
    ) -> None:
        self.head = head
        self.rng = rng
        self.bounce = bounce
        self.chatter_us = max(1, round(chatter_ms * 1000))
        """How long a bounce lasts at most, in whole microseconds."""
        self.counts: Counts = dict(counts)
        self.shown: dict[str, bool] = {p: n > 0 for p, n in counts.items()}
        """The switch state last written for each point."""
        self._real: dict[str, int] = {}
        """seq of the last real change of each point (a later one cancels a bounce)."""
        self._due: list[_Due] = []
        self._seq = 0
        self.lines: list[dict[str, Any]] = []
        self.replayer = Replayer(head, **replay)
        self.heard = 0
        """How many of the session's alerts the player has taken in."""
        self.bounces = 0
        self.last_due = 0.0
        """The time of the last piece event scheduled: the hands are off the board after it."""
        self.knocked: dict[str, int] = {}
        """Points whose piece is knocked off its reed now: the seq of the knock."""
        self.broken: Break | None = None
        """The switch that broke, once it has."""

    # -- scheduling --------------------------------------------------------------------------

    def _push(self, due: _Due) -> None:
        heapq.heappush(self._due, due)
        if due.kind == "piece":
            self.last_due = max(self.last_due, due.t)

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def lift(self, t: float, point: str) -> None:
        """A piece lifted off ``point`` at ``t``."""
        self._push(_Due(at(t), self._next(), "piece", point, -1))

    def put(self, t: float, point: str) -> None:
        """A piece put on ``point`` at ``t``."""
        self._push(_Due(at(t), self._next(), "piece", point, +1))

    def line(self, t: float, line: dict[str, Any]) -> None:
        """A dice or button line at ``t``."""
        self._push(_Due(at(t), self._next(), "line", line=dict(line)))

    def knock(self, t: float, point: str, seconds: float) -> None:
        """The piece on ``point`` knocked off its reed at ``t`` for ``seconds``: its switch
        reads empty, though the piece never left (a hand setting a piece there ends it)."""
        seq = self._next()
        self._push(_Due(at(t), seq, "knock", point))
        self._push(_Due(at(t + seconds), self._next(), "unknock", point, seq))

    def break_switch(self, t: float, point: str, closed: bool) -> None:
        """The switch at ``point`` breaks at ``t`` for good: stuck closed or open."""
        self._push(_Due(at(t), self._next(), "break", point, int(closed)))

    # -- time passing ------------------------------------------------------------------------

    def flush(self, until: float) -> None:
        """Apply everything due up to ``until``, in time order, writing and feeding lines."""
        due = self._due
        while due and due[0].t <= until:
            item = heapq.heappop(due)
            if item.kind == "line":
                assert item.line is not None
                self._write({"t": item.t, **item.line})
            elif item.kind == "piece":
                self._piece(item)
            elif item.kind == "flip":
                self._flip(item)
            elif item.kind == "break":
                self._break(item)
            else:
                self._knock(item)

    def reads(self, point: str) -> bool:
        """What the switch at ``point`` reads now: a piece on it, unless knocked off its reed;
        whatever it is stuck at once broken."""
        broken = self.broken
        if broken is not None and broken.point == point:
            return broken.closed
        return self.counts.get(point, 0) > 0 and point not in self.knocked

    def _stuck(self, point: str) -> bool:
        return self.broken is not None and self.broken.point == point

    def _piece(self, item: _Due) -> None:
        point = item.point
        n = self.counts.get(point, 0) + item.delta
        if n < 0:
            raise AssertionError(f"hand model: no piece to lift at {point} (t={item.t})")
        self.counts[point] = n
        self._real[point] = item.seq
        self.knocked.pop(point, None)  # a hand sets the piece on its reed again
        if self._stuck(point):
            self._differs(item.t)
            return
        self._show(item, self.reads(point))

    def _show(self, item: _Due, on: bool) -> None:
        """Write the switch line if the reading changed, maybe with contact bounce."""
        point = item.point
        if self.shown.get(point, False) == on:
            return
        self.shown[point] = on
        self._write({"t": item.t, "point": point, "on": on})
        if self.rng.random() < self.bounce:  # contact bounce: pairs of flips within chatter
            self.bounces += 1
            flips = 2 * self.rng.randint(1, 3)
            times = sorted(self.rng.sample(range(1, self.chatter_us + 1), flips))
            for us in times:
                self._push(_Due(at(item.t + us * TICK), self._next(), "flip", point, item.seq + 1))

    def _flip(self, item: _Due) -> None:
        """A bounce flip, unless a later change of the switch overtook it or it broke."""
        point = item.point
        if self._real.get(point, 0) < item.delta and not self._stuck(point):
            self.shown[point] = not self.shown.get(point, False)
            self._write({"t": item.t, "point": point, "on": self.shown[point]})

    def _knock(self, item: _Due) -> None:
        """A knock begins (if a piece is there) or ends (if no hand has ended it first)."""
        point = item.point
        if item.kind == "knock":
            if self.counts.get(point, 0) == 0:
                return
            self.knocked[point] = item.seq
        elif self.knocked.get(point) == item.delta:
            del self.knocked[point]
        else:
            return
        self._real[point] = item.seq
        if not self._stuck(point):
            self._show(item, self.reads(point))

    def _break(self, item: _Due) -> None:
        """The switch breaks: the line its stuck state implies, if it differs from what was
        shown; no line for it after this."""
        point = item.point
        self.broken = Break(point, item.t, bool(item.delta))
        if self.shown.get(point, False) != self.broken.closed:
            self.shown[point] = self.broken.closed
            self._write({"t": item.t, "point": point, "on": self.broken.closed})
        self._differs(item.t)

    def _differs(self, t: float) -> None:
        """Note when the broken switch first reads otherwise than the pieces on it."""
        broken = self.broken
        assert broken is not None
        differs = (self.counts.get(broken.point, 0) > 0) != broken.closed
        if broken.differs is None and differs:
            broken.differs = t
        open_spell = bool(broken.spells) and broken.spells[-1][1] is None
        if differs and not open_spell:
            broken.spells.append([t, None])
        elif not differs and open_spell:
            broken.spells[-1][1] = t

    def _write(self, line: dict[str, Any]) -> None:
        self.lines.append(line)
        self.replayer.feed(line)

    def look(self, t: float) -> list[dict[str, Any]]:
        """What the player takes in at ``t``: the alerts since the last look."""
        t = at(t)  # (a line written at this time afterwards must not lie before the clock)
        self.flush(t)
        self.replayer.advance(t)
        alerts = self.replayer.session.alerts
        new = alerts[self.heard :]
        self.heard = len(alerts)
        return new

    def finish(self) -> None:
        """Everything still due, then the clock run on past the last line."""
        self.flush(float("inf"))
        self.replayer.finish()

    def trace(self) -> Trace:
        return Trace(self.head.game, self.head.occupied, dict(self.head.options), self.lines)
