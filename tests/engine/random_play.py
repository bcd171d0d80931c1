"""Random play for tests: a position reached by random moves and throws."""

from __future__ import annotations

import random
from typing import Any

from reedboard import engine
from reedboard.engine import Position


def random_position(game: str, seed: int, plies: int) -> Position[Any, Any]:
    """A position reached by ``plies`` random moves and throws from the start, stopped at a
    decision (a throw awaited is thrown)."""
    rng = random.Random(seed)
    position = engine.start(game)
    for _ in range(plies):
        if position.is_over():
            break
        if position.is_chance():
            throws, weights = zip(*position.chance_outcomes(), strict=True)
            position.push(rng.choices(throws, weights)[0])
        else:
            position.push(rng.choice(list(position.legal_moves)))
    for _ in range(20):
        if not position.is_chance() or position.is_over():
            break
        throws, weights = zip(*position.chance_outcomes(), strict=True)
        position.push(rng.choices(throws, weights)[0])
    return position
