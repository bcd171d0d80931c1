"""The depths of McLoughlin's geese strategy (reedboard/analysis/mcloughlin_depths.py, their file
in reedboard/engine/fox_and_geese/strategy.py) and the top level's fox that plays them: the
table against a plain recursive walk written here (no memo: every line followed to its end by
the engine's moves), on a small variant solved here and on sampled positions of the shipped
strategy; the fox's move is a deepest one; outside the strategy the fox searches."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from reedboard import engine
from reedboard.analysis import mcloughlin
from reedboard.analysis.mcloughlin import Variant
from reedboard.analysis.mcloughlin_depths import DepthError, depths, position_of
from reedboard.analysis.mcloughlin_strategy import CHOICES, extract
from reedboard.analysis.mcloughlin_verify import start_of, verify
from reedboard.engine.fox_and_geese import strategy as fmt
from reedboard.engine.search import choose

GAME = "fox-and-geese-mcloughlin"
WIN_AT = 5
POSITIONS = [
    "F..GG...GGG.....G....G........... F",
    "F..GGG..GGG............G......... F",
]
"""Fox to move, the geese winning with the fox winning at 5 geese (test_mcloughlin_strategy's)."""


class TooBig(Exception):
    """The plain walk went over its budget."""


class Plain:
    """The deepest line by a plain recursive walk: every fox move followed, the strategy's
    answer after each, to the game's end; nothing remembered between lines."""

    def __init__(self, strategy: fmt.Strategy, budget: int | None = None) -> None:
        self.strategy = strategy
        self.budget = budget
        self.nodes = 0
        self.checked = 0

    def answer(self, position: Any) -> Any:
        key = fmt.key_of(position.holes_of("G"), position.holes_of("F")[0])
        path = self.strategy.answer(key)
        assert path is not None, f"no answer at {position.to_text()}"
        return next(m for m in position.legal_moves if tuple(m.path) == path)

    def geese(self, position: Any) -> int:
        """Plies from ``position`` (geese to move) to the end along the deepest line; the
        table's depth of every entry met is checked on the way."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise TooBig
        key = fmt.key_of(position.holes_of("G"), position.holes_of("F")[0])
        position.push(self.answer(position))
        if position.outcome() is not None:
            assert position.outcome().winner == "geese"
            plies = 1
        else:
            plies = 1 + max(d for _, d in self.fox(position))
        position.pop()
        assert self.strategy.depth(key) == plies, position.to_text()
        self.checked += 1
        return plies

    def fox(self, position: Any) -> list[tuple[Any, int]]:
        """Each fox move here (fox to move) with the plies of the deepest line after it."""
        found = []
        for move in list(position.legal_moves):
            position.push(move)
            assert position.outcome() is None
            found.append((move, 1 + self.geese(position)))
            position.pop()
        return found


def with_depths(data: bytes) -> fmt.Strategy:
    strategy = fmt.read(data)
    fmt.read_depths(fmt.write_depths(strategy, depths(strategy)), strategy)
    return strategy


@pytest.fixture(scope="module")
def layers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("w5")
    mcloughlin.solve(Variant("alternate", (7, 13), WIN_AT), 7, folder)  # about 2 s
    return folder


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("choose_rule", CHOICES)
def test_the_depths_agree_with_a_plain_walk_on_a_small_variant(
    layers: Path, position: str, choose_rule: str
) -> None:
    strategy = with_depths(extract({"fox_wins_at": WIN_AT}, layers, position, choose_rule).data)
    start = start_of(strategy, position)
    plain = Plain(strategy)
    found = plain.fox(start)
    assert plain.checked >= len(strategy)  # every entry met, at least once
    deepest = max(d for _, d in found)
    assert deepest == verify(strategy, start).longest  # the verifier's walk, apart
    assert strategy.fox_depths(start) == found


@pytest.mark.parametrize("position", POSITIONS)
def test_the_fox_plays_a_deepest_move_everywhere_in_a_small_variant(
    layers: Path, position: str
) -> None:
    strategy = with_depths(extract({"fox_wins_at": WIN_AT}, layers, position).data)
    seen = 0
    stack = [start_of(strategy, position)]
    while stack:  # every fox-to-move position of the strategy (each line, again and again)
        here = stack.pop()
        found = Plain(strategy).fox(here)
        deepest = max(d for _, d in found)
        chosen = strategy.longest_move(here)
        assert dict(found)[chosen] == deepest, here.to_text()
        seen += 1
        for move, _ in found:
            after = here.copy(stack=False)
            after.push(move)
            after.push(Plain(strategy).answer(after))
            if after.outcome() is None:
                stack.append(after)
    assert seen >= 5


def test_of_equally_deep_moves_the_fox_keeps_the_most_moves() -> None:
    """Along the top level's game against the strategy (the small variants have no such
    ties): where fox moves are equally deep, the fox plays one that leaves it the most moves
    after the geese's answer."""
    strategy = fmt.shipped()
    assert strategy is not None and strategy.depths is not None
    ties = 0
    position = engine.start(GAME)
    while not position.is_over():
        if position.turn == "fox":
            found = strategy.fox_depths(position) or []
            deepest = [m for m, d in found if d == max(d for _, d in found)]
            options = {m: fox_moves_after(strategy, position, m) for m in deepest}
            chosen = strategy.longest_move(position)
            assert chosen in options and options[chosen] == max(options.values())
            ties += len(set(options.values())) > 1
        position.push(choose(position, 5))
    assert ties > 0  # the rule decided somewhere


def fox_moves_after(strategy: fmt.Strategy, position: Any, move: Any) -> int:
    after = position.copy(stack=False)
    after.push(move)
    after.push(Plain(strategy).answer(after))
    return 0 if after.outcome() is not None else len(list(after.legal_moves))


def test_a_strategy_with_an_answer_left_out_has_no_depths(layers: Path) -> None:
    """Each entry left out in turn: the walk finds a fox move leading out of the strategy,
    except for entries only the start's fox moves lead to (the walk starts from entries)."""
    strategy = fmt.read(extract({"fox_wins_at": WIN_AT}, layers, POSITIONS[0]).data)
    rows = list(strategy.entries())
    refused = 0
    for i in range(len(rows)):
        broken = fmt.read(fmt.write(strategy.rules, strategy.fox_wins_at, rows[:i] + rows[i + 1 :]))
        try:
            depths(broken)
        except DepthError as exc:
            assert "no answer" in str(exc)
            refused += 1
    first = len(list(start_of(strategy, POSITIONS[0]).legal_moves))
    assert refused >= len(rows) - first


def test_the_depths_file_round_trips_and_refuses_another_strategy(layers: Path) -> None:
    strategy = fmt.read(extract({"fox_wins_at": WIN_AT}, layers, POSITIONS[0]).data)
    found = depths(strategy)
    data = fmt.write_depths(strategy, found)
    assert fmt.read_depths(data, strategy) == bytes((d - 1) // 2 for d in found)
    assert [strategy.depth(k) for k in strategy.keys] == found
    other = fmt.read(extract({"fox_wins_at": WIN_AT}, layers, POSITIONS[1]).data)
    with pytest.raises(fmt.StrategyFileError, match="another strategy"):
        fmt.read_depths(data, other)
    with pytest.raises(fmt.StrategyFileError, match="not a reedboard"):
        fmt.read_depths(b"RBMCLSTR" + data[8:], strategy)
    with pytest.raises(fmt.StrategyFileError, match="damaged"):
        fmt.read_depths(data[:-3], strategy)
    with pytest.raises(ValueError, match="odd"):
        fmt.write_depths(strategy, [2] * len(strategy))
    with pytest.raises(ValueError, match="entries"):
        fmt.write_depths(strategy, found[1:])


# -- the shipped strategy ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> fmt.Strategy:
    strategy = fmt.shipped()
    assert strategy is not None and strategy.depths is not None, "package data: engine/data/"
    return strategy


def test_sampled_shipped_depths_follow_their_rule(shipped: fmt.Strategy) -> None:
    """2,000 random entries: the depth is 1 where the answer ends the game, else 2 more than
    the deepest depth a fox move then leads to (by the engine's moves)."""
    rng = random.Random(31)
    for at in rng.sample(range(len(shipped)), 2000):
        assert one_step(shipped, shipped.keys[at]) == shipped.depth(shipped.keys[at])


def one_step(strategy: fmt.Strategy, key: int) -> int:
    position = position_of(strategy, key)
    position.push(Plain(strategy).answer(position))
    if position.outcome() is not None:
        return 1
    after = []
    for move in list(position.legal_moves):
        position.push(move)
        depth = strategy.depth(fmt.key_of(position.holes_of("G"), position.holes_of("F")[0]))
        assert depth is not None
        after.append(depth)
        position.pop()
    return 2 + max(after)


def test_shipped_depths_agree_with_a_plain_walk_late_in_random_lines(
    shipped: fmt.Strategy,
) -> None:
    """30 random lines from the start, each played to its end and then taken back: at each
    fox-to-move position on the way back, until one's plain walk takes more than 3,000
    positions, every fox move's depth by the walk is the table's, and the top level's fox
    plays a deepest one."""
    rng = random.Random(30)
    compared = 0
    for _ in range(30):
        position = engine.start(GAME)
        while not position.is_over():
            if position.turn == "geese":
                position.push(position.strategy_move())
            else:
                position.push(rng.choice(list(position.legal_moves)))
        while position.move_stack:
            position.pop()
            if position.turn != "fox":
                continue
            try:  # on a copy: a walk over budget leaves its moves pushed
                found = Plain(shipped, budget=3_000).fox(position.copy(stack=False))
            except TooBig:
                break
            assert shipped.fox_depths(position) == found
            chosen = choose(position, 5, random.Random(0))
            assert dict(found)[chosen] == max(d for _, d in found)
            compared += 1
    assert compared > 200


def test_the_top_level_fox_holds_out_for_the_deepest_line(shipped: fmt.Strategy) -> None:
    """Level 5 against level 5 from the start: the game lasts the deepest line's plies, every
    fox move from the depths."""
    position = engine.start(GAME)
    deepest = max(d for _, d in shipped.fox_depths(position) or [])
    while not position.is_over():
        if position.turn == "fox":
            assert position.longest_move() is not None
        position.push(choose(position, 5))
    assert len(position.move_stack) == deepest > 100
    assert position.outcome().winner == "geese"


def test_outside_the_strategy_the_fox_searches(shipped: fmt.Strategy) -> None:
    """After a goose move that is not the strategy's, the fox's moves lead out of it: no
    depths, and level 5 plays its search's move."""
    left = 0
    for first in engine.start(GAME).legal_moves:
        position = engine.start(GAME)
        position.push(first)
        answer = position.strategy_move()
        for goose in position.legal_moves:
            if goose == answer:
                continue
            position.push(goose)
            if shipped.fox_depths(position) is None:
                left += 1
                assert position.longest_move() is None
                if left <= 2:  # the search (5,000 positions a move), as without the depths
                    move = choose(position, 5, random.Random(0))
                    depths_, shipped.depths = shipped.depths, None
                    try:
                        assert choose(position, 5, random.Random(0)) == move
                    finally:
                        shipped.depths = depths_
            position.pop()
    assert left > 0


def test_without_its_depths_the_fox_searches(shipped: fmt.Strategy) -> None:
    position = engine.start(GAME)
    assert position.longest_move() is not None
    depths_ = shipped.depths
    shipped.depths = None
    try:
        assert position.longest_move() is None
    finally:
        shipped.depths = depths_


@pytest.mark.slow
def test_every_shipped_depth_follows_its_rule_and_the_start_is_the_verifiers(
    shipped: fmt.Strategy,
) -> None:
    for key in shipped.keys:
        assert one_step(shipped, key) == shipped.depth(key)
    sys.setrecursionlimit(10_000)
    start = start_of(shipped)
    assert max(d for _, d in shipped.fox_depths(start) or []) == verify(shipped, start).longest
