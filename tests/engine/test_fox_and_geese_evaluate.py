"""The Fox and Geese ratings the computer players search with (``evaluate``): McLoughlin's
geese are paid for coming on as a front and charged for a goose left en prise; the two-fox
game's rating is the one it had before."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cross33 import cross33
from engine.fox_and_geese import FoxAndGeese, McLoughlinFoxAndGeese

MC = "fox-and-geese-mcloughlin"
ROW = {h: r for h, (r, _) in enumerate(cross33(engine.start(MC).options.diagonals).coords) if h}


def _text(pieces: dict[int, str], turn: str = "G") -> str:
    return "".join(pieces.get(h, ".") for h in range(1, 34)) + " " + turn


def _played(game: str, seed: int, plies: int) -> engine.Position:
    rng = random.Random(seed)
    p = engine.start(game)
    for _ in range(plies):
        if p.is_over():
            break
        p.push(rng.choice(list(p.legal_moves)))
    return p


def test_a_goose_with_a_hole_behind_it_is_en_prise_and_costs_the_geese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the fox on 10 over the goose on 17: 24 behind it is filled (a solid front) or empty
    geese = {h: "G" for h in range(18, 34)}
    solid = engine.from_text(MC, _text({10: "F", 17: "G", **geese, 22: "."}))
    holed = engine.from_text(MC, _text({10: "F", 17: "G", **geese, 24: "."}))
    assert isinstance(solid, McLoughlinFoxAndGeese) and isinstance(holed, McLoughlinFoxAndGeese)
    assert solid.count("G") == holed.count("G") and solid.geese_advance() == holed.geese_advance()
    assert solid.geese_en_prise() == 0
    assert holed.geese_en_prise() == 1
    with_term = (solid.evaluate("geese"), holed.evaluate("geese"))
    monkeypatch.setattr(McLoughlinFoxAndGeese, "en_prise_weight", 0.0)
    without = (solid.evaluate("geese"), holed.evaluate("geese"))
    assert with_term[0] == without[0]  # nothing en prise: no charge
    assert with_term[1] == without[1] - 2.0  # two points for the goose the fox can jump


def test_the_geese_coming_on_a_row_rate_higher(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same seven geese, a row further on; the fox in the top arm either way
    back = engine.from_text(MC, _text({2: "F", **{h: "G" for h in range(21, 28)}}))
    front = engine.from_text(MC, _text({2: "F", **{h: "G" for h in range(14, 21)}}))
    assert isinstance(back, McLoughlinFoxAndGeese) and isinstance(front, McLoughlinFoxAndGeese)
    assert front.geese_advance() == back.geese_advance() + 7
    gain = front.evaluate("geese") - back.evaluate("geese")
    assert gain > 0
    monkeypatch.setattr(McLoughlinFoxAndGeese, "advance_weight", 0.0)
    assert gain == front.evaluate("geese") - back.evaluate("geese") + 7 * 0.25


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_a_goose_step_forward_adds_a_row_of_advance_and_no_step_loses_one(
    seed: int, plies: int
) -> None:
    p = _played(MC, seed, plies)
    assert isinstance(p, McLoughlinFoxAndGeese)
    assert p.geese_advance() == sum(6 - ROW[h] for h in p.holes_of("G"))
    if p.is_over() or p.turn != "geese":
        return
    before = p.geese_advance()
    for move in list(p.legal_moves):
        p.push(move)
        step = ROW[move.start] - ROW[move.end]  # type: ignore[attr-defined]
        assert step in (0, 1)
        assert p.geese_advance() == before + step
        p.pop()


@pytest.mark.parametrize("game", ["fox-and-geese", MC])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_rating_is_one_sides_gain_and_the_others_loss(game: str, seed: int, plies: int) -> None:
    p = _played(game, seed, plies)
    assert p.evaluate("fox") == -p.evaluate("geese")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_two_fox_rating_is_unchanged(seed: int, plies: int) -> None:
    """Goose taken 10, fox move 1, fox room 0.5, goose move -0.5: nothing else (the terms
    McLoughlin's geese added did not make the two-fox geese trap random foxes more often)."""
    p = _played("fox-and-geese", seed, plies)
    assert isinstance(p, FoxAndGeese)
    goose_moves = sum(
        1 for g in p.holes_of("G") for to in p.board.steps[g] if p.cells[to] == ord(".")
    )
    expected = 10.0 * (24 - p.count("G")) + p.fox_mobility() + 0.5 * p.fox_room()
    expected -= 0.5 * goose_moves
    assert p.evaluate("fox") == pytest.approx(expected)
