"""reedboard's rules engine: pure game rules, no I/O, nothing else of ours imported.

Each game is a module of its own, loaded the first time its id is used (``registry.KNOWN``).

>>> from reedboard import engine
>>> board = engine.start("solitaire")
>>> board.push(board.parse_move("5-17"))
>>> board.to_text()
'oooo.oooooo.ooooooooooooooooooooo -'
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (7 ms at every start)
if TYPE_CHECKING:
    from typing import Any

    from reedboard.engine.counting import divide, perft
    from reedboard.engine.cross import Cross33Board, CrossMove, Diagonals, cross33
    from reedboard.engine.errors import (
        EngineError,
        IllegalMoveError,
        InvalidMoveError,
        InvalidOptionError,
        InvalidPositionError,
        ReedboardError,
        UnknownGameError,
    )
    from reedboard.engine.fox_and_rabbit import PieceMove
    from reedboard.engine.marks import Mark, MarkStyle
    from reedboard.engine.outcome import Outcome, Termination
    from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
    from reedboard.engine.position import LegalMoves, Move, Position
    from reedboard.engine.registry import (
        DEFAULT_GAME,
        DEMO_GAME,
        from_text,
        game,
        game_ids,
        register,
        start,
    )
    from reedboard.engine.throw import Throw

_WHERE = {
    "Carry": "reedboard.engine.physical",
    "Cross33Board": "reedboard.engine.cross",
    "CrossMove": "reedboard.engine.cross",
    "DEFAULT_GAME": "reedboard.engine.registry",
    "DEMO_GAME": "reedboard.engine.registry",
    "Diagonals": "reedboard.engine.cross",
    "EngineError": "reedboard.engine.errors",
    "Hop": "reedboard.engine.physical",
    "IllegalMoveError": "reedboard.engine.errors",
    "InvalidMoveError": "reedboard.engine.errors",
    "InvalidOptionError": "reedboard.engine.errors",
    "InvalidPositionError": "reedboard.engine.errors",
    "LegalMoves": "reedboard.engine.position",
    "Mark": "reedboard.engine.marks",
    "MarkStyle": "reedboard.engine.marks",
    "Move": "reedboard.engine.position",
    "Outcome": "reedboard.engine.outcome",
    "PhysicalMove": "reedboard.engine.physical",
    "PieceMove": "reedboard.engine.fox_and_rabbit",
    "Position": "reedboard.engine.position",
    "ReedboardError": "reedboard.engine.errors",
    "Take": "reedboard.engine.physical",
    "Termination": "reedboard.engine.outcome",
    "Throw": "reedboard.engine.throw",
    "UnknownGameError": "reedboard.engine.errors",
    "cross33": "reedboard.engine.cross",
    "divide": "reedboard.engine.counting",
    "from_text": "reedboard.engine.registry",
    "game": "reedboard.engine.registry",
    "game_ids": "reedboard.engine.registry",
    "perft": "reedboard.engine.counting",
    "register": "reedboard.engine.registry",
    "start": "reedboard.engine.registry",
}
"""Each public name and the module that defines it: imported on first use (PEP 562), so that
``from reedboard import engine`` costs nothing until a game is played."""


def __getattr__(name: str) -> Any:
    try:
        module = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "DEFAULT_GAME",
    "DEMO_GAME",
    "Carry",
    "Cross33Board",
    "CrossMove",
    "Diagonals",
    "EngineError",
    "Hop",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "LegalMoves",
    "Mark",
    "MarkStyle",
    "Move",
    "Outcome",
    "PhysicalMove",
    "PieceMove",
    "Position",
    "ReedboardError",
    "Take",
    "Termination",
    "Throw",
    "UnknownGameError",
    "cross33",
    "divide",
    "from_text",
    "game",
    "game_ids",
    "perft",
    "register",
    "start",
]
