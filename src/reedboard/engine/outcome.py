"""How a game ended: who won and why."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a game is over. The value is the reason's text form (CLI, traces, JSON)."""

    FOXES_TRAPPED = "foxes-trapped"
    """Fox and Geese: on the fox player's turn no fox can step or jump. The geese win."""
    GEESE_TAKEN = "geese-taken"
    """Fox and Geese (two foxes): the foxes took every goose. The fox player wins."""
    GEESE_BLOCKED = "geese-blocked"
    """Fox and Geese: on the geese's turn no goose can move. The fox player wins."""
    SIX_GEESE_LEFT = "six-geese-left"
    """McLoughlin's Fox and Geese: only six geese (or fewer) are left. The fox wins."""
    SOLVED = "solved"
    """Solitaire: one peg left, standing on the finish hole. The player wins."""
    NO_JUMPS = "no-jumps"
    """Solitaire: no jump is left and the puzzle is not solved; nobody wins."""
    RABBIT_HOME = "rabbit-home"
    """Fox and Rabbit: a rabbit reached its own home by an exact throw. That rabbit wins."""
    RABBIT_CAUGHT = "rabbit-caught"
    """Fox and Rabbit: a fox captured a rabbit that did not escape to the Brier Patch."""
    MEN_LEFT = "men-left"
    """Skip: a side was reduced to three men. The other side wins."""
    NO_MOVES = "no-moves"
    """A side to move has no legal move and loses (our choice where a sheet is silent)."""
    HOME = "home"
    """Race games: a man reached home (Parchesi) or square 43 (Messenger Boy)."""
    CITADEL = "citadel"
    """Jack Rabbits: a player returned to the citadel with three royals that meet the goal."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: ``winner`` is a side's name (``fox``, ``geese``, ``player``, ``WR`` …)
    or ``None`` when nobody won; ``detail`` says more for people (``3 pegs left``)."""

    winner: str | None
    reason: Termination
    detail: str = ""

    def as_dict(self) -> dict[str, str | None]:
        """The JSON form of the CLI and traces: ``{"winner": …, "reason": …}``."""
        return {"winner": self.winner, "reason": self.reason.value}

    def __str__(self) -> str:
        who = f"{self.winner} wins" if self.winner else "nobody wins"
        more = f", {self.detail}" if self.detail else ""
        return f"{who} ({self.reason.value}{more})"
