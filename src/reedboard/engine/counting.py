"""Perft: count the leaf positions of the game tree to a depth, to pin the move generator down."""

from __future__ import annotations

from typing import Any

from reedboard.engine.position import Position


def perft(position: Position[Any, Any], depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position`` (throws count as
    moves at chance nodes). A finished game has no moves, so its subtree counts 0 below it."""
    if depth <= 0:
        return 1
    moves = list(position.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.push(move)
        total += perft(position, depth - 1)
        position.pop()
    return total


def divide(position: Position[Any, Any], depth: int) -> dict[str, int]:
    """Perft split by first move (for finding where two generators disagree)."""
    out: dict[str, int] = {}
    for move in list(position.legal_moves):
        position.push(move)
        out[str(move)] = perft(position, depth - 1)
        position.pop()
    return out
