"""reedboard's rules engine: pure game rules, no I/O, nothing else of ours imported.

>>> import engine
>>> board = engine.start("solitaire")
>>> board.push(board.parse_move("5-17"))
>>> board.to_text()
'oooo.oooooo.ooooooooooooooooooooo -'
"""

from reedboard.engine import (  # noqa: F401  (registers the games)
    fox_and_geese,
    fox_and_rabbit,
    jack_rabbits,
    messenger_boy,
    parchesi,
    skip,
    solitaire,
)
from reedboard.engine.cross33 import Cross33Board, CrossMove, Diagonals, cross33
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
from reedboard.engine.perft import divide, perft
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
