"""The engine against an independent model of the rules, move set by move set, over random
games of every cross-board game and every diagonal pattern."""

from __future__ import annotations

import random

import pytest

import engine
from tests.engine.reference import Ref

CASES = [
    ("fox-and-geese", {"diagonals": "alternate"}),
    ("fox-and-geese", {"diagonals": "all"}),
    ("fox-and-geese", {"diagonals": "none"}),
    ("fox-and-geese-mcloughlin", {}),
    ("fox-and-geese-mcloughlin", {"diagonals": "all", "empty": "20,33"}),
    ("fox-and-geese-mcloughlin", {"sideways_points": ""}),
    ("solitaire", {}),
    ("solitaire", {"start": "1", "finish": "33"}),
    ("solitaire", {"diagonals": "alternate"}),
]


def reference_for(game: str, position: engine.Position, options: dict[str, str]) -> Ref:
    o = position.options
    kw: dict[str, object] = {"diagonals": o.diagonals.value}
    if game == "fox-and-geese-mcloughlin":
        kw["sideways"] = o.sideways_points
    if game == "solitaire":
        kw["finish"] = o.finish_hole
    return Ref.from_text(game, position.to_text(), **kw)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_engine_matches_reference_model_over_random_games(
    game: str, options: dict[str, str]
) -> None:
    rng = random.Random(f"{game}{options}")
    for _ in range(12):
        position = engine.start(game, **options)
        ref = reference_for(game, position, options)
        for _ply in range(80):
            assert position.to_text() == ref.text()
            mine = sorted(str(m) for m in position.legal_moves)
            assert mine == sorted(ref.moves()), position.to_text()
            over = position.outcome()
            expected = ref.winner()
            assert (over is None) == (expected is None), position.to_text()
            if over is not None:
                assert expected is not None
                assert over.winner == expected[0]
                break
            # prefer captures now and then so that long chains and endings are reached
            moves = list(position.legal_moves)
            jumps = [m for m in moves if len(m.path) > 2]
            move = rng.choice(jumps if jumps and rng.random() < 0.5 else moves)
            position.push(move)
            ref = ref.play(str(move))
