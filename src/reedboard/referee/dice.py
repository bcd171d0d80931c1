"""Where throws come from: the system's cryptographic RNG (the default), a seeded RNG
(reproducible games), or a script (traces and tests). The engine never rolls; the controller
asks a source and applies the throw as a chance event."""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from reedboard.engine import Position
from reedboard.errors import ControllerError


class DiceError(ControllerError, ValueError):
    """A scripted throw that no die could show, or no scripted throw left."""


class DiceSource(Protocol):
    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """``count`` dice of ``sides`` faces each, 1..sides."""
        ...


class SystemDice:
    """The operating system's cryptographic RNG (``secrets``): nobody can predict a throw."""

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(secrets.randbelow(sides) + 1 for _ in range(count))


class SeededDice:
    """A seeded RNG: the same seed gives the same throws, for demos and reproducible games."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, sides) for _ in range(count))


class ScriptedDice:
    """Throws given in advance (a trace's ``dice`` lines, a test), used in order."""

    def __init__(self, throws: Iterable[Sequence[int]] = ()) -> None:
        self._queue: deque[tuple[int, ...]] = deque()
        self._used = 0
        for values in throws:
            self.feed(values)

    def feed(self, values: Sequence[int]) -> None:
        """Add the values of a later throw."""
        self._queue.append(tuple(values))

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        if not self._queue:
            raise DiceError(f"scripted dice: no throw left for throw {self._used + 1}")
        values = self._queue.popleft()
        self._used += 1
        if len(values) != count or not all(1 <= v <= sides for v in values):
            raise DiceError(
                f"scripted dice: throw {self._used} is {list(values)}, but this game throws"
                f" {count} dice of 1 to {sides}"
            )
        return values

    @property
    def remaining(self) -> int:
        return len(self._queue)


def roll_for(position: Position[Any, Any], source: DiceSource) -> tuple[int, ...]:
    """Throw the position's dice from ``source`` and apply the throw; returns the values.

    Raises the engine's IllegalMoveError when the position waits for no throw."""
    if position.dice_spec is None:
        raise DiceError(f"{position.game_id} has no dice")
    count, sides = position.dice_spec
    values = source.roll(count, sides)
    position.push(position.throw(values))
    return values
