"""A session on the simulated board, driven by hand on a virtual clock."""

from __future__ import annotations

from typing import Any

import engine
from controller.dice import ScriptedDice
from controller.session import Session
from controller.store import GameStore
from hardware.board_io import ButtonEvent, Light, SensorEvent
from hardware.simulated import SimulatedBoard
from wiring.layout import layout_for_game


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
        self.t = 0.0
        self.board = SimulatedBoard(self.layout, board_start, clock=lambda: self.t)
        self.dice = ScriptedDice(dice or [])
        self.session = Session(self.board, self.layout, game, options, store=store, dice=self.dice)
        self.session.start(0.0, start if position else None)

    def wait(self, seconds: float = 0.2) -> None:
        """Run the virtual clock on: the session's timers and the LEDs' animation, in order."""
        end = self.t + seconds
        leds = self.board.leds
        while True:
            session, animation = self.session.next_deadline(), leds.next_tick()
            due = min((d for d in (session, animation) if d is not None), default=None)
            if due is None or due > end:
                break
            self.t = max(self.t, due)
            if due == session:
                self.session.poll(due)
            leds.tick(self.t)
        self.t = end

    def lift(self, *points: str) -> None:
        for p in points:
            self.t += 0.1
            self.board.lift(p)
            self.session.on_event(SensorEvent(p, False, self.t), self.t)
        self.wait()

    def place(self, *points: str) -> None:
        for p in points:
            self.t += 0.1
            self.board.place(p)
            self.session.on_event(SensorEvent(p, True, self.t), self.t)
        self.wait()

    def move(self, a: str, b: str) -> None:
        self.lift(a)
        self.place(b)

    def press(self, button: str) -> None:
        self.t += 0.1
        self.session.on_event(ButtonEvent(button, self.t), self.t)
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
