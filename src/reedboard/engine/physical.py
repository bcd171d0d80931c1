"""What a move is in pieces and hands (:meth:`Position.physical_steps`): which piece is carried
from where, where it is set down on the way, which pieces it takes off and where they go.

The engine says what has to happen, in order; whoever moves the pieces (the trace generator,
the hand model, the console's ``move``, the LEDs showing a computer's move) decides when. A
point may hold several pieces (two Fox and Rabbit pieces on one circle, Parchesi's nests, a
blockade): :meth:`PhysicalMove.counts_after` keeps pieces per point, and a switch reads a
piece while its point's count is above zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Take:
    """A piece the move takes: lifted off ``point``, then put on ``dest`` (a nest), kept off
    the board (None), or put back where it was (``dest == point``: a rabbit the fox joins)."""

    point: str
    dest: str | None = None

    @property
    def returns(self) -> bool:
        """The piece goes back on its own point (it only makes room for a moment)."""
        return self.dest == self.point


@dataclass(frozen=True, slots=True)
class Hop:
    """One stretch of a carry: the mover reaches ``to``, taking ``taken`` on the way."""

    to: str
    taken: tuple[Take, ...] = ()


@dataclass(frozen=True, slots=True)
class Carry:
    """One piece carried from ``start`` (None: from the hand, off the board) over its hops."""

    start: str | None
    hops: tuple[Hop, ...]
    chain: bool = False
    """A jump chain: the mover may be set down at each landing or carried to the end."""
    stops: bool = False
    """The mover is set down at each hop's end whatever the hand (a Messenger Boy order: first
    on the square reached, then where its order sends him)."""

    @property
    def landing(self) -> str:
        """Where the piece ends."""
        return self.hops[-1].to

    @property
    def takes(self) -> list[Take]:
        """Every piece this carry takes, in hop order."""
        return [t for h in self.hops for t in h.taken]


@dataclass(frozen=True, slots=True)
class PhysicalMove:
    """A move's pieces and hands: each piece carried, in order (several for a Parchesi double
    6; none for a throw)."""

    carries: tuple[Carry, ...] = ()

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
        """Whether any piece is taken."""
        return any(c.takes for c in self.carries)

    def starts(self) -> tuple[str, ...]:
        """Where the carried pieces are lifted, in order (a piece from the hand has none)."""
        return tuple(c.start for c in self.carries if c.start is not None)

    def landings(self) -> tuple[str, ...]:
        """Every point a carried piece reaches, in order: a chain's landings one by one."""
        return tuple(h.to for c in self.carries for h in c.hops)

    def removals(self) -> tuple[str, ...]:
        """Where pieces are taken off (and not just lifted aside and put back), in order."""
        return tuple(t.point for c in self.carries for t in c.takes if not t.returns)

    def counts_after(self, counts: Mapping[str, int]) -> dict[str, int]:
        """Pieces per point once every piece of the move is where it goes (points left empty
        are left out)."""
        out = dict(counts)
        for carry in self.carries:
            if carry.start is not None:
                out[carry.start] = out.get(carry.start, 0) - 1
            for hop in carry.hops:
                for t in hop.taken:
                    out[t.point] = out.get(t.point, 0) - 1
                    if t.dest is not None:
                        out[t.dest] = out.get(t.dest, 0) + 1
            out[carry.landing] = out.get(carry.landing, 0) + 1
        return {p: n for p, n in out.items() if n}
