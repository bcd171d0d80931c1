"""Games register themselves here under their id (OpenSpiel's ``pyspiel.load_game`` pattern)."""

from __future__ import annotations

from typing import Any, TypeVar

from reedboard.engine.errors import UnknownGameError
from reedboard.engine.position import Position

_GAMES: dict[str, type[Position[Any, Any]]] = {}

DEFAULT_GAME = "fox-and-geese"
"""The game played when none is named (``reedboard run``, a config without ``game``)."""
DEMO_GAME = "solitaire"
"""The game ``reedboard demo`` shows when none is named (it plays its known line)."""

P = TypeVar("P", bound=type[Position[Any, Any]])


def register(cls: P) -> P:
    """Class decorator: make a game findable by its ``game_id``."""
    if cls.game_id in _GAMES and _GAMES[cls.game_id] is not cls:
        raise ValueError(f"two games registered as {cls.game_id!r}")
    _GAMES[cls.game_id] = cls
    return cls


def game_ids() -> list[str]:
    """Every registered game id, in registration order."""
    return list(_GAMES)


def game(game_id: str) -> type[Position[Any, Any]]:
    """The position class of a game; raises UnknownGameError listing the known ids."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(_GAMES)})") from None


def start(game_id: str, **options: object) -> Position[Any, Any]:
    """The starting position of a game."""
    return game(game_id).start(**options)


def from_text(game_id: str, text: str, **options: object) -> Position[Any, Any]:
    """A game's position from its text form."""
    return game(game_id).from_text(text, **options)
