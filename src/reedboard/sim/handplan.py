"""The hand model's board: pieces per point, and the paths a hand slides a piece along.

What a move is in pieces and hands (which piece is carried from where, where it is set down on
the way, which pieces it takes and where they go) is the engine's to say:
:meth:`engine.Position.physical_steps`. The hand model (tests/hands/model.py) decides when each
of these happens. A point may hold several pieces (two Fox and Rabbit pieces on one circle,
Parchesi nests and home, a blockade), so the board is kept as a count of pieces per point: a
switch reads a piece while its point's count is above zero.

Where a piece counted out is set down on its way (:func:`count_routes`) is the engine's
geometry too: the Fox and Rabbit grid and its dice, the Parchesi track, the Messenger Boy
lanes.
"""

from __future__ import annotations

from typing import Any

from reedboard.engine import Carry, Move, Position
from reedboard.wiring.layout import Layout

Counts = dict[str, int]


def counts_of(position: Position[Any, Any]) -> Counts:
    """Pieces per point, from the engine's drawing of the position (a label a piece)."""
    return {point: len(label) for point, label in position.pieces().items() if label}


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


def count_routes(position: Position[Any, Any], move: Move, carry: Carry) -> list[list[str]]:
    """Every way a hand counting ``carry`` out may go: the spaces the piece is set down on
    in turn on its way to its first hop's end (start and end left out), as the engine counts
    the move (:meth:`engine.Position.counts`: a Fox and Rabbit move's straight run for one die
    and then the other's at a right angle, a Parchesi man along his colour's track, a
    Messenger Boy man up his lane). None for a piece entering from the hand or the nest."""
    start, to = carry.start, carry.hops[0].to
    if start is None:
        return []
    return [
        list(way[1:-1])
        for way in position.counts(move)
        if way[0] == start and way[-1] == to and len(way) > 2
    ]
