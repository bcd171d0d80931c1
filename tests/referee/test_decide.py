"""The one place that decides what the board means (reedboard/referee/decide.py), driven alone:
switch edges and the clock in, decisions out. The decider changes no position itself: only what
the one who applies its decisions does (here a few lines, as the session does it) moves the game
on."""

from __future__ import annotations

from typing import Any

from reedboard import engine
from reedboard.engine import Position
from reedboard.referee.decide import (
    Commit,
    Decider,
    Decision,
    NewStart,
    Say,
    SessionState,
    Show,
    TakeBack,
)
from reedboard.referee.events import Mismatch
from reedboard.wiring.layout import layout_for_game

SETTLE, GRACE, HOLD = 0.06, 2.0, 4.0


class Table:
    """Applies decisions as the session does: a commit pushes the move and tells the
    decider; everything is kept, in order."""

    def __init__(self, game: str) -> None:
        self.position: Position[Any, Any] = engine.start(game)
        self.decisions: list[Decision] = []
        self.decider = Decider(
            layout_for_game(game), self.apply, settle=SETTLE, grace=GRACE, hold=HOLD, dice=False
        )
        self.decider.physical = set(self.position.occupied())
        self.decider.install(self.position, 0.0, lambda board: None)
        self.now = 0.0

    def apply(self, decision: Decision) -> None:
        self.decisions.append(decision)
        if isinstance(decision, Commit):
            base = self.position.copy()
            self.position.push(decision.move)
            self.decider.committed(base, decision.move, decision.extends, self.now, decision.since)
        elif isinstance(decision, TakeBack):
            while len(self.position.move_stack) > decision.ply:
                self.position.pop()
            self.decider.taken_back(self.now)

    def edge(self, t: float, point: str, on: bool) -> None:
        self.now = t
        self.decider.edge(point, on, t)

    def settle(self, t: float) -> list[Decision]:
        """Poll at ``t``; the decisions it made."""
        self.now = t
        before = len(self.decisions)
        self.decider.poll(t)
        return self.decisions[before:]

    def made(self) -> list[str]:
        return [str(d.move) for d in self.decisions if isinstance(d, Commit)]


def test_a_plain_move_is_decided_a_commit_once_the_board_settles() -> None:
    table = Table("fox-and-geese")
    table.edge(1.0, "9", False)
    assert table.settle(1.0 + SETTLE / 2) == []  # not settled: nothing decided
    assert table.made() == [] and not table.position.move_stack
    table.edge(1.5, "4", True)
    decided = table.settle(1.5 + SETTLE)
    assert [str(d.move) for d in decided if isinstance(d, Commit)] == ["9-4"]
    assert isinstance(decided[-1], Show)  # and the LEDs are to show the new position
    assert [str(m) for m in table.position.move_stack] == ["9-4"]
    assert table.decider.state is SessionState.PLAYING


def test_the_decider_moves_no_game_itself() -> None:
    table = Table("fox-and-geese")
    table.apply = table.decisions.append  # type: ignore[method-assign]  # decisions kept only
    table.decider._do = table.apply
    table.edge(1.0, "9", False)
    table.edge(1.5, "4", True)
    table.settle(1.5 + SETTLE)
    assert table.made() == ["9-4"]
    assert not table.position.move_stack  # nobody applied it: the game stands where it was


def test_a_board_that_means_nothing_is_a_mismatch_only_once_it_stays() -> None:
    table = Table("fox-and-geese")
    table.edge(1.0, "33", False)  # a goose lifted far from any move...
    table.edge(1.3, "1", True)  # ...and set down where no goose can go
    assert not any(isinstance(d, Say) for d in table.settle(1.3 + SETTLE))
    assert not any(isinstance(d, Say) for d in table.settle(1.3 + SETTLE + GRACE - 0.01))
    said = [d.event for d in table.settle(1.3 + SETTLE + GRACE) if isinstance(d, Say)]
    assert [type(e) for e in said] == [Mismatch]
    assert table.decider.state is SessionState.MISMATCH
    assert table.made() == []


def test_an_earlier_board_that_stays_is_decided_a_takeback() -> None:
    table = Table("fox-and-geese")
    for t, point, on in ((1.0, "9", False), (1.5, "4", True)):
        table.edge(t, point, on)
    table.settle(1.6)
    assert table.made() == ["9-4"]
    table.edge(10.0, "4", False)  # the fox put back where it was
    table.edge(10.4, "9", True)
    assert not any(isinstance(d, TakeBack) for d in table.settle(10.4 + SETTLE))
    assert table.decider.state is SessionState.WAITING  # not before it has stayed so
    decided = table.settle(10.4 + SETTLE + HOLD)
    assert [d.ply for d in decided if isinstance(d, TakeBack)] == [0]
    assert not any(isinstance(d, NewStart) for d in decided)
    assert not table.position.move_stack
