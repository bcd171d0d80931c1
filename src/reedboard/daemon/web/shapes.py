"""What the board's lights mean, as shapes for the page (as lichess draws them): dots where the
lifted piece may land, a ring round its hole, arrows for the hint, the move to confirm and the
computer's (or the other board's) move, from and to through every hop, a mark on the last
move, a cross where a piece is to be taken off, a ghost where one is to be put; and a line of
words for each hint and verdict.

Read from the referee's session (its public state and :meth:`Session.view`, the same view its
LEDs are lit from), never changed: pure, like ``state.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from reedboard.daemon.words import hint_words
from reedboard.engine import Move, Position
from reedboard.referee.session import Session

AnyPosition = Position[Any, Any]


def signals(session: Session, occupied: frozenset[str], *, by_hand: bool = False) -> dict[str, Any]:
    """``marks`` (the shapes) and ``said`` (the hint's and the verdict's words) for the state
    message (``by_hand``: a move shown is carried out by the simulated board's own hand)."""
    position = session.position
    decider = session.decider
    view = session.view(math.inf)  # (the time only ends the verdict's pulse: said in words)
    order = _order(session)
    marks: dict[str, Any] = {
        "landings": sorted(view.landings, key=order),
        "lifted": lifted(position, session.recognizer.expected - occupied),
        "hint": None,
        "candidate": None,
        "computer": None,
        "last": None,
        "take_off": [],
        "put_on": [],
    }
    said: list[str] = []
    if view.hint:
        move = _hinted(position, view.hint)
        marks["hint"] = _arrow(move, view.hint)
        said.append(hint_said(position, move, view.hint))
    if (candidate := decider.candidate) is not None:
        marks["candidate"] = _arrow(candidate, ())
        said.append(f"is it {candidate}? hint shows the next, confirm takes it")
    if (shown := decider.showing) is not None:
        marks["computer"] = _arrow(shown, ())
        marks["take_off"] = sorted(view.extra, key=order)
        if by_hand:
            said.append(f"the board is making the move shown: {shown}")
        else:
            said.append(f"make the move shown: {shown}" + _taking(marks["take_off"]))
    elif view.fix is not None:
        point, remove = view.fix
        marks["take_off" if remove else "put_on"] = [point]
    if (last := last_move(position)) is not None:
        marks["last"] = _arrow(last, ())
        marks["last"]["capture"] = captured(position)
    if (verdict := verdict_words(session)) is not None:
        said.append(verdict)
    return {"marks": marks, "said": said}


def lifted(position: AnyPosition, missing: frozenset[str]) -> str | None:
    """The hole of the piece in the hand: the one point the game expects a piece on, no
    switch reads, and a legal move starts from."""
    starts = {r[0] for m in position.legal_moves for r in m.routes() if r}
    found = sorted(missing & starts)
    return found[0] if len(found) == 1 else None


def _hinted(position: AnyPosition, points: tuple[str, ...]) -> Move | None:
    """The legal move whose hint lights ``points``."""
    return next((m for m in position.legal_moves if position.hint_points(m) == points), None)


def _arrow(move: Move | None, points: tuple[str, ...]) -> dict[str, Any]:
    """A move as arrows: each piece's route, first point to last, through its hops."""
    routes = [list(r) for r in move.routes() if r] if move is not None else [list(points)]
    return {"move": str(move) if move is not None else None, "paths": routes}


def hint_said(position: AnyPosition, move: Move | None, points: tuple[str, ...]) -> str:
    """``hint: the peg jumps from 5 over 10 to 17 (5-17)``: the hint as a player would say it
    (``daemon/words.py``, the same words as its event), or the points it lights."""
    if move is None:
        return f"hint: {' '.join(points)}"
    return hint_words(position, move)


def last_move(position: AnyPosition) -> Move | None:
    """The last move that moved a piece (a throw after it is no move of a piece)."""
    moved: list[Move] = [m for m in position.move_stack if any(m.routes())]
    return moved[-1] if moved else None


def captured(position: AnyPosition) -> bool:
    """Whether the last ply left fewer pieces on the board than before it."""
    if not position.move_stack:
        return False
    before = position.copy()
    before.pop()
    return _men(before) > _men(position)


def _men(position: AnyPosition) -> int:
    return sum(len(letters) for letters in position.pieces().values())


def verdict_words(session: Session) -> str | None:
    """A solved game's word on the position (Peg Solitaire's winning set), while its table
    is open: can it still be won?"""
    position = session.position
    table = session.solved.usable(position)
    if table is None or position.is_over():
        return None
    if table.winnable([position])[0]:
        return "solved: the game can still be won from here"
    return "solved: the game can no longer be won (undo takes the last move back)"


def _taking(points: list[str]) -> str:
    return f"; take off {', '.join(points)}" if points else ""


def _order(session: Session) -> Callable[[str], tuple[int, int]]:
    points = session.layout.points

    def key(point: str) -> tuple[int, int]:
        p = points.get(point)
        return (p.y, p.x) if p else (0, 0)

    return key
