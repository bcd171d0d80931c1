"""The computer players' search (reedboard/engine/search.py): every move it returns is legal, in
every
game, at every level, from random positions; it leaves the position as it was; it repeats from
its seed; alpha-beta with its table finds the plain minimax value, expectimax the plain
expectation; a win in one is taken at every level."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine import Position
from reedboard.engine.levels import TOP_LEVEL, WIN
from reedboard.engine.search import LEVELS, PROOF_SHARE, _Search, choose, level
from tests.engine.random_play import random_position

GAMES = engine.game_ids()
SMALL = 60
"""A node budget small enough for many examples (the levels' own are larger)."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("number", sorted(LEVELS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_every_move_is_legal_and_the_position_is_left_alone(
    game: str, number: int, seed: int, plies: int
) -> None:
    position = random_position(game, seed, plies)
    text, stack = position.to_text(), position.move_stack
    move = choose(position, number, random.Random(seed), nodes=SMALL)
    assert position.to_text() == text and position.move_stack == stack
    if position.is_over() or position.is_chance():
        assert move is None
    else:
        assert move is not None and move in position.legal_moves


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_move(game: str) -> None:
    position = random_position(game, 7, 9)
    moves = {str(choose(position, 3, random.Random(11), nodes=200)) for _ in range(3)}
    assert len(moves) == 1


def test_the_levels() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5] and TOP_LEVEL == 5
    assert [LEVELS[n].nodes for n in range(2, 6)] == sorted(LEVELS[n].nodes for n in range(2, 6))
    for bad in (0, 6, -1):
        with pytest.raises(ValueError, match=f"level {bad} is not one of 1-5"):
            level(bad)
    with pytest.raises(ValueError):
        choose(engine.start("skip"), 9)


@pytest.mark.parametrize(
    ("game", "text", "winning"),
    [
        ("fox-and-rabbit", "WR@e6 RF@i1 turn=WR dice=3,1", "WR e6-e9"),
        ("fox-and-rabbit-4", "WR@a1 BR@e4 RF@i1 GF@a9 turn=BR dice=3,4", "BR e4-e1"),
        ("messenger-boy", "R@A40 B@B3 turn=R spin=3", "R A40-43"),
        (
            "parchesi",
            "Y1@L10 Y2@Ynest Y3@Ynest Y4@Y5 R1@Rnest R2@Rnest R3@Rnest R4@Rnest turn=Y spin=3",
            "Y Y5-home",
        ),
    ],
)
@pytest.mark.parametrize("number", sorted(LEVELS))
def test_a_win_in_one_is_taken_at_every_level(
    game: str, text: str, winning: str, number: int
) -> None:
    position = engine.from_text(game, text)
    move = choose(position, number, random.Random(number))
    after = position.copy()
    assert move is not None
    after.push(move)
    assert after.outcome() is not None and after.outcome().winner == position.turn  # type: ignore[union-attr]
    assert move == position.parse_move(winning)


# -- the search finds what plain search finds -------------------------------------------------


def minimax(p: Position[Any, Any], depth: int, ply: int) -> float:
    """Plain negamax, every move, no table: the value for the side to move."""
    if p.outcome() is not None:
        return p.returns().get(p.turn, 0.0) * (WIN - ply)
    if depth == 0:
        me = p.turn
        other = next(s for s in p.players if s != me)
        return p.evaluate(me) - p.evaluate(other)
    best = float("-inf")
    for m in list(p.legal_moves):
        p.push(m)
        best = max(best, -minimax(p, depth - 1, ply + 1))
        p.pop()
    return best


@pytest.mark.parametrize("game", ["fox-and-geese", "fox-and-geese-mcloughlin", "skip"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 40), depth=st.integers(1, 3))
def test_alpha_beta_with_its_table_finds_the_minimax_value(
    game: str, seed: int, plies: int, depth: int
) -> None:
    position = random_position(game, seed, plies)
    if position.is_over():
        return
    work = position.copy(stack=False)
    moves = list(work.legal_moves)
    search = _Search(work, budget=10**9)
    for d in range(1, depth + 1):  # as iterative deepening does: the table carried along
        search.cut = False
        move, value = search._root(moves, d)
        moves = [move] + [m for m in moves if m != move]
    assert value == pytest.approx(minimax(position.copy(stack=False), depth, 0))
    after = position.copy(stack=False)
    after.push(move)
    assert -minimax(after, depth - 1, 1) == pytest.approx(value)  # the move is worth it


def expectimax(
    p: Position[Any, Any], depth: int, ply: int, players: tuple[str, ...], throws: int = 0
) -> list[float]:
    """Plain max^n expectimax: every move, every throw weighed by its probability (up to two
    throws in a row, as the search)."""
    if p.outcome() is not None:
        r = p.returns()
        return [r.get(s, 0.0) * (WIN - ply) for s in players]
    if depth == 0 or throws >= 2 or (not p.is_chance() and not p.legal_moves):
        own = [p.evaluate(s) for s in players]
        return [v - (sum(own) - v) / (len(own) - 1) for v in own]
    if p.is_chance():
        total = [0.0] * len(players)
        for throw, prob in p.chance_outcomes():
            p.push(throw)
            for i, v in enumerate(expectimax(p, depth, ply, players, throws + 1)):
                total[i] += prob * v
            p.pop()
        return total
    me = players.index(p.turn)
    best: list[float] | None = None
    for m in list(p.legal_moves):
        p.push(m)
        values = expectimax(p, depth - 1, ply + 1, players)
        p.pop()
        if best is None or values[me] > best[me]:
            best = values
    assert best is not None
    return best


@pytest.mark.parametrize("game", ["fox-and-rabbit", "parchesi", "messenger-boy"])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_expectimax_weighs_every_throw(game: str, seed: int, plies: int) -> None:
    position = random_position(game, seed, plies)
    if position.is_over() or position.is_chance():  # the computer chooses no throw (it throws)
        return
    work = position.copy(stack=False)
    search = _Search(work, budget=10**9)
    search.cut = False
    _, value = search._root(list(work.legal_moves), 2)
    players = tuple(position.players)
    want = expectimax(position.copy(stack=False), 2, 0, players)[players.index(position.turn)]
    assert value == pytest.approx(want)


def test_a_higher_level_searches_more() -> None:
    position = engine.start("fox-and-geese")
    counts = {n: 0 for n in (2, 5)}
    for n in counts:
        search = _Search(position.copy(stack=False), LEVELS[n].nodes)
        search.best(list(position.legal_moves), LEVELS[n].depth)
        counts[n] = search.visited
    assert counts[5] > counts[2]


def _late_mcloughlin_wins(count: int) -> list[Any]:
    """Late positions of random McLoughlin games (geese nearly home) where a win is proved."""
    from reedboard.engine.fox_and_geese import solver as solver

    found = []
    rng = random.Random(14)
    while len(found) < count:
        position = engine.start("fox-and-geese-mcloughlin")
        while not position.is_over() and len(found) < count:
            position.push(rng.choice(list(position.legal_moves)))
            if len(position.move_stack) > 30 and solver.best_move(position, expansions=200):
                found.append(position.copy())
                break
    return found


def test_the_top_level_plays_a_win_the_games_solver_proves() -> None:
    from reedboard.engine.fox_and_geese import solver as solver

    for position in _late_mcloughlin_wins(3):
        move = choose(position, TOP_LEVEL, random.Random(0))
        assert move is not None and move in position.legal_moves
        assert move == solver.best_move(position, expansions=LEVELS[TOP_LEVEL].nodes // PROOF_SHARE)
        after = position.copy()
        after.push(move)
        mover = position.turn
        value = solver.solve(after, expansions=20_000).value
        assert value == (solver.FOX_WINS if mover == "fox" else solver.GEESE_WIN), (
            position.to_text(),
            str(move),
        )
    assert engine.start("fox-and-geese").proved_move(1000) is None  # no solver: no proof
