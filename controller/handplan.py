"""What a move is in pieces and hands: which piece is carried from where, where it is set
down on the way, which pieces it takes and where they go. The hand model (controller/hands.py)
decides when each of these happens; this module only says what has to happen.

A point may hold several pieces (two Fox and Rabbit pieces on one circle, Parchesi nests and
home, a blockade), so the board is kept as a count of pieces per point: a switch reads a piece
while its point's count is above zero.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from engine import Move, Position
from engine.cross33 import CrossMove
from engine.fox_and_rabbit import FOXES, RABBITS, PieceMove
from engine.messenger_boy import Enter, Step, lane_of, number_of, square_id
from engine.parchesi import ManMove
from engine.skip import SkipMove
from wiring.layout import Layout

Counts = dict[str, int]


@dataclass(frozen=True)
class Take:
    """A piece the move takes: lifted off ``point``; put on ``dest`` (a nest), or kept off the
    board (None), or put back where it was (``dest == point``: a rabbit the fox joins)."""

    point: str
    dest: str | None = None

    @property
    def returns(self) -> bool:
        return self.dest == self.point


@dataclass(frozen=True)
class Hop:
    """One stretch of a carry: the mover is set down on ``to`` (at once or only at the end of
    a chain carried straight), taking ``taken`` on the way."""

    to: str
    taken: tuple[Take, ...] = ()


@dataclass(frozen=True)
class Carry:
    """One piece carried from ``start`` (None: from the hand, off the board) over its hops."""

    start: str | None
    hops: tuple[Hop, ...]
    chain: bool = False
    """A jump chain: the mover may be set down at each landing or carried to the end."""
    stops: bool = False
    """The mover is always set down at each hop's end (a Messenger Boy order: first on the
    square reached, then where its order sends him)."""

    @property
    def landing(self) -> str:
        return self.hops[-1].to

    @property
    def takes(self) -> list[Take]:
        return [t for h in self.hops for t in h.taken]


@dataclass(frozen=True)
class Plan:
    carries: tuple[Carry, ...] = field(default_factory=tuple)

    def points(self) -> set[str]:
        """Every point the move's hands touch."""
        out: set[str] = set()
        for c in self.carries:
            if c.start is not None:
                out.add(c.start)
            for h in c.hops:
                out.add(h.to)
                for t in h.taken:
                    out.add(t.point)
                    if t.dest is not None:
                        out.add(t.dest)
        return out

    @property
    def captures(self) -> bool:
        return any(c.takes for c in self.carries)


class PlanError(ValueError):
    """A move the hand model has no physical form for, or a plan that leaves another board."""


def counts_of(position: Position[Any, Any]) -> Counts:
    """Pieces per point, from the engine's drawing of the position (a label a piece)."""
    return {point: len(label) for point, label in position.pieces().items() if label}


def plan_of(position: Position[Any, Any], move: Move) -> Plan:
    """The physical form of a legal piece move in ``position``."""
    if isinstance(move, CrossMove):  # steps, jump chains, solitaire jumps
        path = [str(h) for h in move.path]
        if not move.jump:
            return Plan((Carry(path[0], (Hop(path[1]),)),))
        over = position.board.over  # type: ignore[attr-defined]
        hops = tuple(
            Hop(str(b), (Take(str(over[(a, b)])),)) for a, b in itertools.pairwise(move.path)
        )
        return Plan((Carry(path[0], hops, chain=len(hops) > 1),))
    if isinstance(move, SkipMove):
        path = list(move.path)
        if not move.capture:
            return Plan((Carry(path[0], (Hop(path[1]),)),))
        hops = tuple(Hop(sq, (Take(sq),)) for sq in path[1:])
        return Plan((Carry(path[0], hops, chain=len(hops) > 1),))
    if isinstance(move, PieceMove):
        at: dict[str, str | None] = position.at  # type: ignore[attr-defined]
        taken: tuple[Take, ...] = ()
        if move.piece in FOXES:  # the fox joins the rabbits it takes; they stay for the escape
            taken = tuple(Take(move.to, move.to) for r in RABBITS if at.get(r) == move.to)
        return Plan((Carry(move.start, (Hop(move.to, taken),)),))
    if isinstance(move, ManMove):
        return _parchesi(position, move)
    if isinstance(move, Enter):
        return Plan((Carry(None, (Hop(move.points()[-1]),)),))
    points = move.points()
    if len(points) == 2 and points[0]:  # Messenger Boy's steps and any plain move
        reached = _order_square(position, move)
        if reached is not None:
            return Plan((Carry(points[0], (Hop(reached), Hop(points[1])), stops=True),))
        return Plan((Carry(points[0], (Hop(points[1]),)),))
    raise PlanError(f"no physical form for {move!r} in {position.game_id}")


def _order_square(position: Position[Any, Any], move: Move) -> str | None:
    """The Messenger Boy square a man reached whose go-to order sent him on to where the move
    ends, if any."""
    if not isinstance(move, Step) or not getattr(position, "orders", None):
        return None
    spin = getattr(position, "spin", None)
    if spin is None:
        return None
    n = number_of(move.start) + spin
    lane = lane_of(move.start) or "A"
    for square in (square_id(lane, n), square_id("A", n), square_id("B", n), str(n)):
        order = position.orders.get(square)  # type: ignore[attr-defined]
        if (
            order is not None
            and order.kind == "go-to"
            and square != move.to
            and square_id(lane_of(square) or "A", order.to) == move.to
        ):
            return square
    return None


def _parchesi(position: Position[Any, Any], move: ManMove) -> Plan:
    """Each man in turn; a man of another colour where one lands goes back to his nest."""
    labels = {p: list(label) for p, label in position.pieces().items()}
    carries = []
    for a, b in move.paths:
        taken: list[Take] = []
        if b != "home":
            for letter in [x for x in labels.get(b, []) if x != move.colour]:
                nest = f"{letter}nest"
                taken.append(Take(b, nest))
                labels[b].remove(letter)
                labels.setdefault(nest, []).append(letter)
        labels[a].remove(move.colour)
        labels.setdefault(b, []).append(move.colour)
        carries.append(Carry(a, (Hop(b, tuple(taken)),)))
    return Plan(tuple(carries))


def planned_counts(counts: Counts, plan: Plan) -> Counts:
    """The counts once every piece of the plan is where it goes."""
    out = dict(counts)
    for carry in plan.carries:
        if carry.start is not None:
            out[carry.start] = out.get(carry.start, 0) - 1
        for hop in carry.hops:
            for t in hop.taken:
                out[t.point] = out.get(t.point, 0) - 1
                if t.dest is not None:
                    out[t.dest] = out.get(t.dest, 0) + 1
        out[carry.landing] = out.get(carry.landing, 0) + 1
    return {p: n for p, n in out.items() if n}


def route(layout: Layout, a: str, b: str, corner_first_x: bool = True) -> list[str]:
    """The points a piece slid from ``a`` to ``b`` passes over, in order: those on the straight
    line between them, or (when they share no row, column or diagonal) on an L through a
    corner, as a Fox and Rabbit move runs."""
    pa, pb = layout.points[a], layout.points[b]
    if pa.x == pb.x or pa.y == pb.y or abs(pa.x - pb.x) == abs(pa.y - pb.y):
        return _between(layout, (pa.x, pa.y), (pb.x, pb.y))
    corner = (pb.x, pa.y) if corner_first_x else (pa.x, pb.y)
    at = {(p.x, p.y): p.id for p in layout.points.values()}
    middle = [at[corner]] if corner in at else []
    return _between(layout, (pa.x, pa.y), corner) + middle + _between(layout, corner, (pb.x, pb.y))


def _between(layout: Layout, a: tuple[int, int], b: tuple[int, int]) -> list[str]:
    (ax, ay), (bx, by) = a, b
    n = max(abs(bx - ax), abs(by - ay))
    if n < 2:
        return []
    if not (ax == bx or ay == by or abs(bx - ax) == abs(by - ay)):
        return []
    at = {(p.x, p.y): p.id for p in layout.points.values()}
    dx, dy = (bx - ax) // n, (by - ay) // n
    return [at[q] for i in range(1, n) if (q := (ax + i * dx, ay + i * dy)) in at]


def near(layout: Layout, point: str, reach: int = 2) -> set[str]:
    """Points within ``reach`` grid steps of ``point`` (itself excluded)."""
    p = layout.points[point]
    return {
        q.id
        for q in layout.points.values()
        if q.id != point and max(abs(q.x - p.x), abs(q.y - p.y)) <= reach
    }
