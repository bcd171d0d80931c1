"""The computer's seats and level as the config and the command line give them: checked
against the game's sides and the levels there are (``computer = ["fox"]``, ``--level 4``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reedboard import engine
from reedboard.engine.search import level


def seats(game_id: str, options: dict[str, Any], names: Iterable[str]) -> frozenset[str]:
    """The sides ``names`` give (a game's side names, any case: ``fox``, ``geese``, ``WR``,
    ``yellow``); ValueError names one that is not seated in this game."""
    position = engine.start(game_id, **options)
    seated = {side.lower(): side for side in position.players}
    out = set()
    for name in names:
        side = seated.get(str(name).strip().lower())
        if side is None:
            raise ValueError(
                f"{name!r} is no side of {game_id} (sides: {', '.join(position.players)})"
            )
        out.add(side)
    return frozenset(out)


def check_level(number: object) -> int:
    """A level 1-5 (ValueError otherwise)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"{number!r} is not a whole number from 1 to 5")
    level(number)
    return number
