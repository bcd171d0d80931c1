"""Two-player Fox and Rabbit solved whole (reedboard/engine/dice_solver.py): the solver's value
iteration
on small graphs whose values are known, and the shipped table checked against the rules: every
position's value is what its throws and best moves make it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.engine import dice_solver
from reedboard.engine.dice_solver import TERMINAL_LOSS, TERMINAL_WIN, Graph, solve
from reedboard.engine.fox_and_rabbit import SOLVED

GAME = "fox-and-rabbit"


def graph(*throws: list[tuple[float, bool, list[int]]]) -> Graph:
    g = Graph("me")
    for i, t in enumerate(throws):
        g.texts.append(f"node {i}")
        g.throws.append(t)
    return g


def test_a_throw_is_the_mean_of_its_outcomes_and_a_choice_the_best_for_the_chooser() -> None:
    # node 0: half the time a win, half the time node 1; node 1: I choose between a win and a
    # loss, or (the other throw) the opponent chooses between them
    g = graph(
        [(0.5, True, [TERMINAL_WIN]), (0.5, True, [1])],
        [(0.5, True, [TERMINAL_WIN, TERMINAL_LOSS]), (0.5, False, [TERMINAL_WIN, TERMINAL_LOSS])],
    )
    assert solve(g) == pytest.approx([0.75, 0.5])
    # against a player who picks at random, the opponent's choice is a coin
    assert solve(g, opponent="random") == pytest.approx([0.875, 0.75])
    with pytest.raises(ValueError, match="opponent: 'worst'"):
        solve(g, opponent="worst")


def test_a_game_that_may_never_end_is_worth_its_chance_of_winning_in_finite_time() -> None:
    # node 0 wins a third of the time and comes back to itself otherwise: it wins at last
    loop = graph([(1 / 3, True, [TERMINAL_WIN]), (2 / 3, True, [0])])
    assert solve(loop) == pytest.approx([1.0], abs=1e-6)
    # a node that only ever comes back to itself never wins
    assert solve(graph([(1.0, True, [0])])) == [0.0]
    # the opponent keeps the game going for ever rather than lose
    assert solve(graph([(1.0, False, [TERMINAL_WIN, 0])])) == [0.0]


def test_the_table_is_written_and_read_back(tmp_path: Path) -> None:
    g = graph([(1.0, True, [TERMINAL_WIN, TERMINAL_LOSS])], [(1.0, False, [TERMINAL_WIN])])
    dice_solver.write(tmp_path / "t.txt.gz", g, [1.0, 0.25])
    assert dice_solver.read(tmp_path / "t.txt.gz") == {"node 0": 1.0, "node 1": 0.25}


@pytest.fixture(scope="module")
def table() -> dict[str, float]:
    return dice_solver.read(SOLVED)


def test_the_shipped_table_holds_for_the_rules(table: dict[str, float]) -> None:
    """Each sampled position's value is the mean over the 36 throws of the best move's value
    for the side to move (the rabbit the most, the fox the least), as the engine plays them."""
    assert len(table) > 19_000
    sample = random.Random(14).sample(sorted(table), 300)
    for text in sample:
        position = engine.from_text(GAME, text)
        total = 0.0
        for throw, p in position.chance_outcomes():
            position.push(throw)
            total += p * _best(position, table)
            position.pop()
        assert total == pytest.approx(table[text], abs=5e-6), text


def _best(position: engine.Position, table: dict[str, float]) -> float:
    def worth(p: engine.Position) -> float:
        over = p.outcome()
        if over is not None:
            return 1.0 if over.winner == "WR" else 0.0
        return table[p.to_text()]

    if position.is_chance() or position.outcome() is not None:
        return worth(position)  # the throw had no move: the turn passed
    values = []
    for move in position.legal_moves:
        position.push(move)
        values.append(worth(position))
        position.pop()
    return max(values) if position.turn == "WR" else min(values)


def test_every_position_of_random_games_is_in_the_table(table: dict[str, float]) -> None:
    rng = random.Random(3)
    for _ in range(30):
        p = engine.start(GAME)
        while p.outcome() is None:
            if p.is_chance():
                assert p.to_text() in table
            p.push(rng.choice(list(p.legal_moves)))


@pytest.mark.slow
def test_the_shipped_table_is_what_the_solver_makes(table: dict[str, float]) -> None:
    g = dice_solver.explore(engine.start(GAME), "WR")
    values = solve(g)
    assert dict(zip(g.texts, values, strict=True)) == pytest.approx(table, abs=2e-6)
