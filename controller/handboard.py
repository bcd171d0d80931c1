"""The physical side of the hand model: pieces per point, switches that bounce, and a clock.

Hands schedule piece events (a piece lifted off or put on a point) and button and dice lines at
absolute times, in any order (two hands, a touch still on while the other hand moves on). The
table applies them in time order: a switch line is written when a point's count of pieces
goes between zero and not zero, sometimes followed within 3 ms by contact bounce (flips of the
same switch that end where it settled). Every written line is fed at once to a
:class:`~controller.trace.Replayer`, so the session on the other side sees the trace as it is
written, and the player can look at it (:meth:`Table.look`) before deciding what to do next.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from typing import Any

from controller.handplan import Counts
from controller.trace import Replayer, Trace

TICK = 1e-6
"""Trace times are whole microseconds."""


def at(t: float) -> float:
    return round(t, 6)


@dataclass(order=True)
class _Due:
    t: float
    seq: int
    kind: str
    """piece | flip | line"""
    point: str = ""
    delta: int = 0
    """piece: +1 put on, -1 lifted off; flip: the bounce group's origin seq."""
    line: dict[str, Any] | None = None


class Table:
    def __init__(
        self, head: Trace, counts: Counts, rng: random.Random, bounce: float, **replay: Any
    ) -> None:
        self.head = head
        self.rng = rng
        self.bounce = bounce
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
            elif self._real.get(item.point, 0) < item.delta:  # a flip not overtaken
                self.shown[item.point] = not self.shown.get(item.point, False)
                self._write({"t": item.t, "point": item.point, "on": self.shown[item.point]})

    def _piece(self, item: _Due) -> None:
        point = item.point
        n = self.counts.get(point, 0) + item.delta
        if n < 0:
            raise AssertionError(f"hand model: no piece to lift at {point} (t={item.t})")
        self.counts[point] = n
        self._real[point] = item.seq
        on = n > 0
        if self.shown.get(point, False) == on:
            return
        self.shown[point] = on
        self._write({"t": item.t, "point": point, "on": on})
        if self.rng.random() < self.bounce:  # contact bounce: pairs of flips within 3 ms
            self.bounces += 1
            flips = 2 * self.rng.randint(1, 3)
            times = sorted(self.rng.sample(range(1, 3001), flips))
            for us in times:
                self._push(_Due(at(item.t + us * TICK), self._next(), "flip", point, item.seq + 1))

    def _write(self, line: dict[str, Any]) -> None:
        self.lines.append(line)
        self.replayer.feed(line)

    def look(self, t: float) -> list[dict[str, Any]]:
        """What the player takes in at ``t``: the alerts since the last look."""
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
