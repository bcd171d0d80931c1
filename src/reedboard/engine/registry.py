"""Games register themselves here under their id (OpenSpiel's ``pyspiel.load_game`` pattern).

The registry knows every game's id and the module that defines it without importing it: a
game's module, and the tables it builds, load the first time the game is used, so a command
that names no game (``reedboard games``, ``--help``) starts as fast as Python does."""

from __future__ import annotations

import importlib

from reedboard.engine.errors import UnknownGameError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (7 ms at every start)
if TYPE_CHECKING:  # the games import Position and typing; a command that plays none does not
    from typing import Any, TypeVar

    from reedboard.engine.position import Position

    P = TypeVar("P", bound=type[Position[Any, Any]])

_GAMES: dict[str, type[Position[Any, Any]]] = {}

KNOWN: dict[str, str] = {
    "fox-and-geese": "reedboard.engine.fox_and_geese",
    "fox-and-geese-mcloughlin": "reedboard.engine.fox_and_geese",
    "fox-and-rabbit": "reedboard.engine.fox_and_rabbit",
    "fox-and-rabbit-4": "reedboard.engine.fox_and_rabbit",
    "jack-rabbits": "reedboard.engine.jack_rabbits",
    "messenger-boy": "reedboard.engine.messenger_boy",
    "parchesi": "reedboard.engine.parchesi",
    "skip": "reedboard.engine.skip",
    "solitaire": "reedboard.engine.solitaire",
}
"""The shipped games, in the order they are listed: id -> the module that registers it (a
test checks each module registers exactly its ids)."""

TABLE_ASSISTANTS: dict[str, str] = {
    "jack-rabbits": "the Jack Rabbits table assistant",
}
"""The games played at the table, not on a sensed board, whose table assistant is a command of
its own (``reedboard jack-rabbits WHAT``), with the line ``reedboard --help`` shows for it (a
test checks it against the game's ``table_assistant``)."""

ANALYSED: tuple[str, ...] = ("solitaire", "fox-and-geese-mcloughlin")
"""The games ``reedboard analyse`` runs an analysis of (their ``analysis()`` hook), in the order
its messages name them (a test checks it against the hook)."""

DEFAULT_GAME = "fox-and-geese"
"""The game played when none is named (``reedboard run``, a config without ``game``)."""
DEMO_GAME = "solitaire"
"""The game ``reedboard demo`` shows when none is named (it plays its known line)."""


def register(cls: P) -> P:
    """Class decorator: make a game findable by its ``game_id``."""
    if cls.game_id in _GAMES and _GAMES[cls.game_id] is not cls:
        raise ValueError(f"two games registered as {cls.game_id!r}")
    _GAMES[cls.game_id] = cls
    return cls


def game_ids() -> list[str]:
    """Every game id: the shipped games, then any registered by other code."""
    return [*KNOWN, *(g for g in _GAMES if g not in KNOWN)]


def game(game_id: str) -> type[Position[Any, Any]]:
    """The position class of a game; raises UnknownGameError listing the known ids."""
    if game_id not in _GAMES and game_id in KNOWN:
        importlib.import_module(KNOWN[game_id])
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(game_ids())
        raise UnknownGameError(f"unknown game {game_id!r} (games: {known})") from None


def start(game_id: str, **options: object) -> Position[Any, Any]:
    """The starting position of a game."""
    return game(game_id).start(**options)


def from_text(game_id: str, text: str, **options: object) -> Position[Any, Any]:
    """A game's position from its text form."""
    return game(game_id).from_text(text, **options)
