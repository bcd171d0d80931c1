"""Move lists compared as games: moves that leave the same position are one move spelt two ways
(a loop chain carried one way round or the other), and the board takes the first spelling."""

from __future__ import annotations

from typing import Any

from reedboard import engine


def positions(game: str, start: str | None, moves: list[str], **options: Any) -> list[str]:
    """The position after each move, as text."""
    position = engine.from_text(game, start, **options) if start else engine.start(game, **options)
    out = []
    for move in moves:
        position.push_text(move)
        out.append(position.to_text())
    return out


def same_game(
    game: str, start: str | None, got: list[str], want: list[str], **options: Any
) -> bool:
    """Whether ``got`` plays ``want``'s game: the same position after every move."""
    return len(got) == len(want) and positions(game, start, got, **options) == positions(
        game, start, want, **options
    )
