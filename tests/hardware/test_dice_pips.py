"""Dice shown as pips: 7 LEDs a die at the end of the chain."""

from __future__ import annotations

import pytest

from reedboard.hardware.dice_pips import FACES, pip_lights
from reedboard.hardware.led_chain import render
from reedboard.hardware.lights import GREEN, OFF, WHITE, Light, Pattern
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.wiring.layout import load_layout


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_lights_as_many_pips_as_it_shows(value: int) -> None:
    lit = pip_lights((value, value))
    assert sum(lit[:7]) == sum(lit[7:]) == value


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_is_symmetric_under_a_half_turn(value: int) -> None:
    # pip i and pip 6-i are opposite each other through the centre
    assert {6 - p for p in FACES[value]} == FACES[value]


def test_two_dice_fill_the_first_and_second_seven_leds() -> None:
    lit = pip_lights((1, 6))
    one = "...#..."  # the centre
    six = "###.###"  # all but the centre
    assert "".join("#" if on else "." for on in lit) == one + six


def test_no_throw_darkens_every_pip() -> None:
    assert pip_lights(None) == (False,) * 14


@pytest.mark.parametrize(
    ("values", "message"), [((0, 3), "not 0"), ((7,), "not 7"), ((1, 2, 3), "at most 2")]
)
def test_what_no_die_shows_is_rejected(values: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pip_lights(values)


def test_show_dice_lights_the_last_14_leds_of_the_chain() -> None:
    layout = load_layout("brier9")
    board = SimulatedBoard(layout)
    board.show({"a1": Light(GREEN)})
    board.show_dice((5, 2))
    chain = board.chain()
    assert len(chain) == 81 + 14
    assert chain[layout.points["a1"].led] == GREEN
    pips = chain[81:]
    assert pips == [WHITE if on else OFF for on in pip_lights((5, 2))]
    assert sum(p == WHITE for p in pips) == 7
    board.show_dice(None)
    assert board.chain()[81:] == [OFF] * 14


def test_blink_is_on_then_off_and_steady_stays_on() -> None:
    layout = load_layout("cross33")
    frame = {"17": Light(WHITE, Pattern.BLINK), "1": Light(GREEN)}
    led17, led1 = layout.points["17"].led, layout.points["1"].led
    on, off = render(layout, frame, None, 0.1), render(layout, frame, None, 0.35)
    assert on[led17] == WHITE and off[led17] == OFF
    assert on[led1] == off[led1] == GREEN
