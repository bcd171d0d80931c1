"""Dice sources and applying a throw to a position."""

from __future__ import annotations

import collections

import pytest

from reedboard import engine
from reedboard.referee.dice import DiceError, ScriptedDice, SeededDice, SystemDice, roll_for


def test_system_dice_cover_every_face_and_nothing_else() -> None:
    dice = SystemDice()
    counts = collections.Counter(v for _ in range(3000) for v in dice.roll(2, 6))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 6000 fair faces: each near 1000; 700 is > 10 standard deviations away
    assert min(counts.values()) > 700


def test_seeded_dice_repeat_for_the_same_seed() -> None:
    first = SeededDice(7)
    second = SeededDice(7)
    assert [first.roll(2, 6) for _ in range(20)] == [second.roll(2, 6) for _ in range(20)]
    other = SeededDice(8)
    again = SeededDice(7)
    assert [other.roll(2, 6) for _ in range(20)] != [again.roll(2, 6) for _ in range(20)]


def test_scripted_dice_give_their_throws_in_order() -> None:
    dice = ScriptedDice([(5, 2), (3, 3)])
    dice.feed([1, 6])
    assert [dice.roll(2, 6) for _ in range(3)] == [(5, 2), (3, 3), (1, 6)]
    assert dice.remaining == 0


def test_scripted_dice_say_when_they_run_out() -> None:
    dice = ScriptedDice([(5, 2)])
    dice.roll(2, 6)
    with pytest.raises(DiceError, match="no throw left for throw 2"):
        dice.roll(2, 6)


def test_scripted_dice_reject_a_throw_no_die_could_show() -> None:
    with pytest.raises(DiceError, match=r"throw 1 is \[7, 2\].*2 dice of 1 to 6"):
        ScriptedDice([(7, 2)]).roll(2, 6)


def test_roll_for_applies_the_throw_as_a_chance_event() -> None:
    p = engine.start("fox-and-rabbit")
    assert roll_for(p, ScriptedDice([(5, 2)])) == (5, 2)
    assert p.to_text() == "WR@a1 RF@i1 turn=WR dice=5,2"
    p.pop()
    assert p.to_text() == "WR@a1 RF@i1 turn=WR"


def test_roll_for_a_game_without_dice_says_so() -> None:
    with pytest.raises(DiceError, match="solitaire has no dice"):
        roll_for(engine.start("solitaire"), SeededDice(1))


def test_roll_when_no_throw_is_awaited_is_illegal() -> None:
    p = engine.from_text("fox-and-rabbit", "WR@a1 RF@i1 turn=WR dice=5,2")
    with pytest.raises(engine.IllegalMoveError):
        roll_for(p, ScriptedDice([(1, 1)]))
