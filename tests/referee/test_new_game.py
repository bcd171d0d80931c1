"""Adding a game touches the engine and a board layout, nothing else: a small dice race written
here (with the engine's generic hooks only) and a copy of the cross board's layout that lists
it are played through the controller as it stands: traces replayed, hands on the board, hints,
the console's ``move``."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import pytest

import reedboard.wiring.layout
from reedboard import engine
from reedboard.engine import (
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Position,
    Termination,
)
from reedboard.engine.registry import _GAMES
from reedboard.referee.hints import suggest
from reedboard.sim.trace import read_trace, replay
from reedboard.sim.tracegen import random_game_trace
from tests.hands.model import play_game

LAST = 33


@dataclass(frozen=True, slots=True)
class Advance(Move):
    side: str
    start: str
    to: str

    def __str__(self) -> str:
        return f"{self.side} {self.start}-{self.to}"

    def points(self) -> tuple[str, ...]:
        return (self.start, self.to)


@dataclass(frozen=True, slots=True)
class RaceState:
    at: tuple[int, int]
    turn: int
    thrown: int | None


@dataclass(frozen=True)
class RaceOptions:
    pass


class ToyRace(Position[engine.Throw | Advance, RaceState]):
    """Two pieces race along the holes 1 to 33 by a three-sided die; a piece may not land on
    the other; the exact throw reaches 33."""

    game_id = "toy-race"
    title = "A toy race"
    sides: ClassVar[tuple[str, ...]] = ("red", "blue")
    Options: ClassVar[type[Any]] = RaceOptions
    dice_spec = (1, 3)

    def __init__(self, options: Any, at: list[int], turn: int, thrown: int | None) -> None:
        super().__init__(options)
        self.at, self._turn, self.thrown = at, turn, thrown

    @classmethod
    def _start(cls, options: Any) -> Self:
        return cls(options, [1, 2], 0, None)

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        m = re.fullmatch(r"red@(\d+) blue@(\d+) turn=(red|blue)(?: dice=([1-3]))?", text.strip())
        if m is None:
            raise InvalidPositionError(f"bad toy-race position {text!r}")
        thrown = int(m.group(4)) if m.group(4) else None
        return cls(options, [int(m.group(1)), int(m.group(2))], cls.sides.index(m.group(3)), thrown)

    @property
    def turn(self) -> str:
        return self.sides[self._turn]

    def to_text(self) -> str:
        dice = f" dice={self.thrown}" if self.thrown else ""
        return f"red@{self.at[0]} blue@{self.at[1]} turn={self.turn}{dice}"

    def parse_move(self, text: str) -> engine.Throw | Advance:
        if m := re.fullmatch(r"dice=([1-3])", text.strip()):
            return engine.Throw((int(m.group(1)),))
        if m := re.fullmatch(r"(red|blue) (\d+)-(\d+)", text.strip()):
            return Advance(m.group(1), m.group(2), m.group(3))
        raise InvalidMoveError(f"bad toy-race move {text!r}")

    def outcome(self) -> Outcome | None:
        for side, hole in zip(self.sides, self.at, strict=True):
            if hole == LAST:
                return Outcome(side, Termination.HOME, f"{side} reached {LAST}")
        return None

    def occupied(self) -> frozenset[str]:
        return frozenset(map(str, self.at))

    def is_chance(self) -> bool:
        return self.thrown is None and self.outcome() is None

    def chance_outcomes(self) -> list[tuple[engine.Throw | Advance, float]]:
        return [(engine.Throw((v,)), 1 / 3) for v in (1, 2, 3)] if self.is_chance() else []

    def throw(self, values: tuple[int, ...]) -> engine.Throw | Advance:
        if len(values) != 1 or values[0] not in (1, 2, 3):
            raise InvalidMoveError(f"bad toy-race throw {values}")
        return engine.Throw(values)

    def _advances(self, thrown: int) -> list[Advance]:
        here, other = self.at[self._turn], self.at[1 - self._turn]
        to = here + thrown
        return [] if to > LAST or to == other else [Advance(self.turn, str(here), str(to))]

    def _generate_moves(self) -> list[engine.Throw | Advance]:
        if self.outcome() is not None:
            return []
        if self.thrown is None:
            return [m for m, _ in self.chance_outcomes()]
        return list(self._advances(self.thrown))

    def _apply(self, move: engine.Throw | Advance) -> None:
        if isinstance(move, engine.Throw):
            self.thrown = move.values[0]
            if self._advances(self.thrown):
                return
        else:
            self.at[self._turn] = int(move.to)
        self.thrown = None
        self._turn = 1 - self._turn

    def _save(self) -> RaceState:
        return RaceState((self.at[0], self.at[1]), self._turn, self.thrown)

    def _restore(self, state: RaceState) -> None:
        self.at, self._turn, self.thrown = list(state.at), state.turn, state.thrown

    def evaluate(self, side: str) -> float:
        return float(self.at[self.sides.index(side)])


@pytest.fixture
def toy_race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[type[ToyRace]]:
    """The game registered, and the shipped layouts with one more: the cross board for it."""
    layouts = tmp_path / "layouts"
    shutil.copytree(reedboard.wiring.layout.LAYOUTS, layouts)
    text = (layouts / "cross33.toml").read_text()
    text = re.sub(r'(?m)^name = "cross33"$', 'name = "toy33"', text)
    text = re.sub(r"(?m)^games = \[.*\]$", 'games = ["toy-race"]', text)
    (layouts / "toy33.toml").write_text(text)
    monkeypatch.setattr(reedboard.wiring.layout, "LAYOUTS", layouts)
    engine.register(ToyRace)
    try:
        yield ToyRace
    finally:
        _GAMES.pop(ToyRace.game_id, None)


def test_a_new_game_replays_from_traces_with_no_change_to_the_controller(
    toy_race: type[ToyRace],
) -> None:
    for i in range(10):
        trace, moves = random_game_trace(toy_race.start(), random.Random(i), 200)
        session = replay(read_trace(trace.to_jsonl()))
        assert [str(m) for m in session.position.move_stack] == moves, f"game {i}"
    assert session.position.is_over()


def test_a_new_game_is_played_by_the_hand_model_and_hinted(toy_race: type[ToyRace]) -> None:
    for seed in range(3):
        played = play_game(toy_race.start(), seed, plies=120)
        assert played.recognised and played.moves
    position = toy_race.from_text("red@30 blue@31 turn=red dice=3")
    assert str(suggest(position)) == "red 30-33"
    assert suggest(toy_race.start()) is None  # a throw is awaited
