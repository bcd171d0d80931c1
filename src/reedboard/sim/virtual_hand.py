"""The virtual board's hand: a piece dragged from one point to another (on the web page's
simulated board), or a move from elsewhere (the computer's, the other board's), laid out as
the switch changes a careful hand makes, so the referee reads it as it reads a real board.

What a move is in pieces and hands is the engine's to say (:meth:`engine.Position.physical_steps`:
each piece carried from where, set down where, taking which pieces off to where). This module
finds the legal move a drag means and puts those steps in a careful order:

- the mover is lifted, then set down on each landing of a chain in turn (lifted again for the
  next jump);
- a piece taken where the mover lands (a Skip capture, a Parchesi man sent home) is taken off
  first; a piece jumped over is taken off after the mover is down; one taken to a nest is set
  in it at once;
- a piece that stays where the mover lands (a rabbit the fox joins, a man of one's own in a
  blockade) is lifted aside while the mover comes and put back beside it, so the landing's
  switch opens and closes and the board can tell the move is made;
- a point holding several pieces (a Parchesi nest) gives up one: its switch opens only when
  its last piece goes.

A drag may be the whole move or one stretch of it (a chain dragged jump by jump): the board
says where the move stands (:func:`reaches` matches the switches against each stage of each
legal move). Pure: nothing here touches a board or a clock; the daemon's virtual board
(``reedboard/daemon/virtual_board.py``) plays the steps in time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reedboard.engine import Hop, Move, Position
from reedboard.sim.handplan import Counts, counts_of
from reedboard.sim.tracegen import lookalikes, spelt_as

Switch = tuple[str, bool]
"""A switch change: the point, and whether it now reads a piece."""


@dataclass(frozen=True, slots=True)
class Leg:
    """One hop of a move, flattened over its carries: the piece stands on ``start`` (None: it
    comes from the hand) and reaches ``hop.to``; ``carry`` numbers the piece carried."""

    carry: int
    start: str | None
    hop: Hop
    last: bool
    """The last hop of its carry (the piece stays where it lands)."""


@dataclass(frozen=True, slots=True)
class Reach:
    """A stretch of a legal move that takes the piece on ``start`` to ``to``: legs
    ``first``..``last`` of ``move``, from pieces per point ``counts`` (where the board
    stands); ``lifted``: the mover is already off the board (picked up)."""

    move: Move
    legs: tuple[Leg, ...]
    first: int
    last: int
    counts: Mapping[str, int]
    lifted: bool

    @property
    def start(self) -> str | None:
        return self.legs[self.first].start

    @property
    def to(self) -> str:
        return self.legs[self.last].hop.to

    @property
    def completes(self) -> bool:
        """Whether the move is whole once this stretch is made."""
        return self.last == len(self.legs) - 1

    def touched(self) -> set[str]:
        """The points this stretch passes through: its landings and the pieces it takes."""
        out: set[str] = set()
        for leg in self.legs[self.first : self.last + 1]:
            out.add(leg.hop.to)
            out.update(t.point for t in leg.hop.taken)
        return out

    def after(self) -> Counts:
        """Pieces per point once this stretch is made."""
        counts = dict(self.counts)
        for leg in self.legs[self.first : self.last + 1]:
            _apply(counts, leg)
        return {p: n for p, n in counts.items() if n > 0}


def legs(position: Position[Any, Any], move: Move) -> tuple[Leg, ...]:
    """``move``'s hops in order, over all its carries."""
    out: list[Leg] = []
    for n, carry in enumerate(position.physical_steps(move).carries):
        at = carry.start
        for i, hop in enumerate(carry.hops):
            out.append(Leg(n, at, hop, i == len(carry.hops) - 1))
            at = hop.to
    return tuple(out)


def _apply(counts: Counts, leg: Leg) -> None:
    """Pieces per point once ``leg`` is made (the mover lifted, its takes off, it set down)."""
    if leg.start is not None:
        counts[leg.start] = counts.get(leg.start, 0) - 1
    for take in leg.hop.taken:
        if take.returns:
            continue
        counts[take.point] = counts.get(take.point, 0) - 1
        if take.dest is not None:
            counts[take.dest] = counts.get(take.dest, 0) + 1
    counts[leg.hop.to] = counts.get(leg.hop.to, 0) + 1


def shown(counts: Mapping[str, int]) -> frozenset[str]:
    """The points whose switches read a piece."""
    return frozenset(p for p, n in counts.items() if n > 0)


def reaches(
    position: Position[Any, Any], board: frozenset[str], start: str, to: str
) -> list[Reach]:
    """Every stretch of a legal move that takes the piece on ``start`` to ``to`` from where the
    ``board`` (its closed switches) stands: at rest, part way through a move (a chain dragged
    jump by jump), or with the mover picked up. Shortest first, those that make a move whole
    before those a longer chain goes on from, then in the legal moves' order."""
    if position.is_chance() or position.is_over():
        return []
    base = counts_of(position)
    out: list[Reach] = []
    for move in position.legal_moves:
        if not move.points():
            continue
        steps = legs(position, move)
        counts = dict(base)
        for k, leg in enumerate(steps):
            if leg.start == start:
                lifted = _lifted(counts, board, start)
                if lifted is not None:
                    for j in range(k, len(steps)):
                        if steps[j].carry != leg.carry:
                            break
                        if steps[j].hop.to == to:
                            out.append(Reach(move, steps, k, j, dict(counts), lifted))
                            break
            _apply(counts, leg)
    out.sort(key=lambda r: (r.last - r.first, not r.completes))
    return out


def _lifted(counts: Mapping[str, int], board: frozenset[str], start: str) -> bool | None:
    """Whether the board stands as ``counts`` says (False), or so with the piece on ``start``
    picked up (True); None when it stands otherwise."""
    if shown(counts) == board:
        return False
    less = dict(counts)
    less[start] = less.get(start, 0) - 1
    if start in shown(counts) and shown(less) == board:
        return True
    return None


def choose(found: Sequence[Reach], path: Iterable[str] = ()) -> tuple[Reach | None, str]:
    """The stretch a drag means: where the stretches found leave the board differently (two
    chains to one landing, taking different pieces), the one whose landings and takes the
    drag's ``path`` passed over most, then the shortest, then the first; and a line saying
    what was chosen when there was a choice (else "")."""
    if not found:
        return None, ""
    ends: dict[frozenset[tuple[str, int]], Reach] = {}
    for r in found:
        ends.setdefault(frozenset(r.after().items()), r)
    if len(ends) == 1:
        return found[0], ""
    passed = set(path)
    ranked = sorted(ends.values(), key=lambda r: (-len(r.touched() & passed), r.last - r.first))
    best = ranked[0]
    others = ", ".join(str(r.move) for r in ranked[1:])
    return best, (
        f"{len(ranked)} moves go from {best.start} to {best.to}: played {best.move}"
        f" (drag over the pieces to take for {others})"
    )


def switches(reach: Reach) -> list[list[Switch]]:
    """The switch changes of a stretch, a careful hand's, grouped by the piece set down (a
    pause between groups): per leg, the mover lifted (unless picked up already), a piece
    taken where it lands taken off first, a piece that stays there lifted aside, the mover
    set down, the piece aside put back, then the pieces jumped over taken off."""
    counts = dict(reach.counts)
    groups: list[list[Switch]] = []
    for i in range(reach.first, reach.last + 1):
        leg = reach.legs[i]
        out: list[Switch] = []
        if leg.start is not None and not (i == reach.first and reach.lifted):
            _change(counts, leg.start, -1, out)
        elif leg.start is not None:
            counts[leg.start] -= 1  # (already off its reed)
        to = leg.hop.to
        later = []
        for take in leg.hop.taken:
            if take.point == to and not take.returns:
                _change(counts, to, -1, out)
                if take.dest is not None:
                    _change(counts, take.dest, +1, out)
            elif not take.returns:
                later.append(take)
        aside = counts.get(to, 0)  # pieces staying where it lands: lifted aside a moment
        if aside:
            _change(counts, to, -aside, out)
        _change(counts, to, +1, out)
        if aside:
            _change(counts, to, +aside, out)
        for take in later:
            _change(counts, take.point, -1, out)
            if take.dest is not None:
                _change(counts, take.dest, +1, out)
        groups.append(out)
    return groups


def _change(counts: Counts, point: str, delta: int, out: list[Switch]) -> None:
    before = counts.get(point, 0)
    counts[point] = before + delta
    if (before > 0) != (counts[point] > 0):
        out.append((point, counts[point] > 0))


def plain(board: frozenset[str], counts: Mapping[str, int], start: str, to: str) -> list[Switch]:
    """What a hand does where no legal move goes from ``start`` to ``to``: lifts the piece
    (a point holding several gives up one) and sets it down, if the point is free."""
    out: list[Switch] = []
    if start in board and counts.get(start, 1) <= 1:
        out.append((start, False))
    if to not in board:
        out.append((to, True))
    return out


def answer(position: Position[Any, Any], move: Move) -> list[str]:
    """The buttons a player presses when the board asks which of the moves that leave one
    board was made: `hint` until ``move`` is the one lit, then `confirm`."""
    same = lookalikes(position, move)
    if len(same) < 2:
        return ["confirm"]
    return ["hint"] * same.index(spelt_as(position, move)) + ["confirm"]


def whole(position: Position[Any, Any], move: Move) -> Reach:
    """The whole of ``move`` from the board at rest (the computer's move carried out)."""
    steps = legs(position, move)
    return Reach(move, steps, 0, len(steps) - 1, counts_of(position), False)


def counts_now(position: Position[Any, Any], board: frozenset[str]) -> Counts:
    """Pieces per point as the board stands: the game's where it agrees with the switches, one
    a closed switch elsewhere."""
    counts = counts_of(position)
    return {p: counts.get(p, 1) for p in board}
