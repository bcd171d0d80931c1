"""A session on the simulated board, driven by hand on a virtual clock: pieces are moved and
buttons pressed on the board, and the session hears what the board sends
(reedboard/sim/runner.py)."""

from __future__ import annotations

from typing import Any

from reedboard import engine
from reedboard.hardware.lights import Light
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import Session
from reedboard.sim.runner import Clock, Runner
from reedboard.store.games import GameStore
from reedboard.wiring.layout import layout_for_game


class Rig:
    def __init__(
        self,
        game: str,
        position: str | None = None,
        *,
        occupied: frozenset[str] | None = None,
        store: GameStore | None = None,
        dice: list[tuple[int, int]] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.layout = layout_for_game(game)
        opts = options or {}
        start = engine.from_text(game, position, **opts) if position else engine.start(game, **opts)
        board_start = occupied if occupied is not None else start.occupied()
        self.clock = Clock()
        self.board = SimulatedBoard(self.layout, board_start, clock=self.clock)
        self.dice = ScriptedDice(dice or [])
        self.session = Session(self.board, self.layout, game, options, store=store, dice=self.dice)
        self.session.start(0.0, start if position else None)
        self.runner = Runner(self.session, self.board, self.clock, self.dice)

    @property
    def t(self) -> float:
        return self.clock.t

    def wait(self, seconds: float = 0.2) -> None:
        self.runner.advance(self.t + seconds)

    def lift(self, *points: str) -> None:
        for p in points:
            self.runner.lift(p, self.t + 0.1)
        self.wait()

    def place(self, *points: str) -> None:
        for p in points:
            self.runner.place(p, self.t + 0.1)
        self.wait()

    def switches(self, *changes: tuple[float, str, bool]) -> None:
        """Switch changes at the times given on the rig's clock, each ``(t, point, on)``: a
        hand's switch times copied from a trace."""
        for t, point, on in changes:
            (self.runner.place if on else self.runner.lift)(point, t)

    def move(self, a: str, b: str) -> None:
        self.lift(a)
        self.place(b)

    def press(self, button: str) -> None:
        self.runner.press(button, self.t + 0.1)
        self.wait()

    @property
    def frame(self) -> dict[str, Light]:
        return dict(self.board.frame)

    def lit(self, colour: tuple[int, int, int]) -> set[str]:
        return {p for p, light in self.board.frame.items() if light.colour == colour}

    @property
    def moves(self) -> list[str]:
        return [str(m) for m in self.session.position.move_stack]

    def kinds(self) -> list[str]:
        return [a["kind"] for a in self.session.alerts]
