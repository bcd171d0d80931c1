"""The geese's strategy read off the layers (reedboard/analysis/mcloughlin_strategy.py), its file
(reedboard/engine/fox_and_geese/strategy.py) and the verifier that checks it by the engine's
rules alone (reedboard/analysis/mcloughlin_verify.py), on a small variant solved here: the fox
winning at 5 geese, positions of 7 geese."""

from __future__ import annotations

from pathlib import Path

import pytest

from reedboard.analysis import mcloughlin
from reedboard.analysis.mcloughlin import Variant
from reedboard.analysis.mcloughlin_strategy import CHOICES, extract
from reedboard.analysis.mcloughlin_verify import VerifyError, start_of, verify
from reedboard.engine.fox_and_geese import strategy as fmt

WIN_AT = 5
POSITIONS = [
    "F..GG...GGG.....G....G........... F",
    "F..GGG..GGG............G......... F",
]
"""Fox to move, the geese winning (found by the solver's query), 11-12 answers deep."""


@pytest.fixture(scope="module")
def layers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("w5")
    mcloughlin.solve(Variant("alternate", (7, 13), WIN_AT), 7, folder)  # about 2 s
    return folder


def options() -> dict[str, object]:
    return {"fox_wins_at": WIN_AT}


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("choose", CHOICES)
def test_every_rule_gives_a_strategy_the_rules_accept(
    layers: Path, position: str, choose: str
) -> None:
    got = extract(options(), layers, position, choose)
    strategy = fmt.read(got.data)
    assert len(strategy) == got.answers > 0
    checked = verify(strategy, start_of(strategy, position))
    assert checked.answers == got.answers  # every entry is on some line
    assert checked.longest >= got.deepest > 0


def entries(position: str, layers: Path) -> tuple[fmt.Strategy, list[tuple[int, int, int]]]:
    strategy = fmt.read(extract(options(), layers, position).data)
    return strategy, list(strategy.entries())


@pytest.mark.parametrize("position", POSITIONS)
def test_any_one_entry_changed_or_left_out_fails(layers: Path, position: str) -> None:
    strategy, rows = entries(position, layers)
    start = start_of(strategy, position)
    for i, (key, source, target) in enumerate(rows):
        for bad in (
            [*rows[:i], (key, source, source), *rows[i + 1 :]],  # not a move
            [*rows[:i], (key, target, source), *rows[i + 1 :]],  # a goose stepping back
            rows[:i] + rows[i + 1 :],  # no answer
        ):
            broken = fmt.read(fmt.write(strategy.rules, strategy.fox_wins_at, bad))
            with pytest.raises(VerifyError):
                verify(broken, start)


def test_a_legal_answer_that_does_not_win_fails(layers: Path) -> None:
    """Each entry replaced by every other legal goose move there: the verifier fails, or the
    move wins too (then the strategy goes on from where it leads, which it may not hold)."""
    strategy, rows = entries(POSITIONS[0], layers)
    start = start_of(strategy, POSITIONS[0])
    caught = 0
    for i, (key, source, target) in enumerate(rows):
        geese = [h for h in range(1, 34) if key >> 6 >> (h - 1) & 1]
        fox = key & 63
        text = "".join("G" if h in geese else "F" if h == fox else "." for h in range(1, 34))
        here = type(start).from_text(
            text + " G", **dict(w.split("=") for w in strategy.rules.split())
        )
        for move in here.legal_moves:
            if tuple(move.path) == (source, target):
                continue
            bad = [*rows[:i], (key, *move.path), *rows[i + 1 :]]
            try:
                verify(fmt.read(fmt.write(strategy.rules, strategy.fox_wins_at, bad)), start)
            except VerifyError:
                caught += 1
    assert caught > len(rows)


def test_the_file_round_trips_and_refuses_damage() -> None:
    rows = [(5 << 6 | 1, 9, 4), (3 << 6 | 2, 10, 5), (1 << 40, 33, 30)]
    data = fmt.write("diagonals=alternate sideways_points=7,13", 6, rows)
    strategy = fmt.read(data)
    assert list(strategy.entries()) == sorted(rows)
    assert strategy.answer(5 << 6 | 1) == (9, 4)
    assert strategy.answer(5 << 6 | 2) is None
    with pytest.raises(fmt.StrategyFileError, match="not a reedboard strategy"):
        fmt.read(b"RBSOLWIN" + data[8:])
    with pytest.raises(fmt.StrategyFileError, match="damaged"):
        fmt.read(data[:-3])
    with pytest.raises(ValueError, match="one answer a position"):
        fmt.write("x", 6, [*rows, (rows[0][0], 1, 2)])


def test_a_position_the_geese_lose_is_refused(layers: Path) -> None:
    with pytest.raises(mcloughlin.ExactError, match="the geese do not win"):
        extract(options(), layers, "F..GG...GG.......G............... F")
