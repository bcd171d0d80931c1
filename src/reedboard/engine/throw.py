"""The one chance event of every dice and spinner game: :class:`Throw`.

Chance is a player (OpenSpiel): while a position waits for a throw, its legal moves are the
throws it may get, and the caller, never the engine, picks one and pushes it. A throw moves no
piece. Its text form is the game's (docs/design.md): two dice ``dice=3,4``, a spin ``spin=4``, and a
spinner's double segment ``spin=d5`` (Parchesi: it moves twice the value).
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.engine.position import Move


@dataclass(frozen=True, slots=True)
class Throw(Move):
    """Dice or a spinner as thrown: ``values`` are the faces (a die each, or the one spin),
    ``spin`` says a spinner threw them, ``double`` marks a spinner's double segment."""

    values: tuple[int, ...]
    spin: bool = False
    double: bool = False

    def __str__(self) -> str:
        faces = ",".join(map(str, self.values))
        if self.spin:
            return f"spin={'d' if self.double else ''}{faces}"
        return f"dice={faces}"

    @property
    def total(self) -> int:
        """How far the throw moves: the faces' sum, twice it for a double."""
        return 2 * sum(self.values) if self.double else sum(self.values)

    def pips(self) -> tuple[int, ...]:
        """How it shows on the board's dice pips: a double as two equal dice."""
        return self.values * 2 if self.double else self.values
