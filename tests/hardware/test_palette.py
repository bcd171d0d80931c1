"""The LEDs' colours are Okabe and Ito's colour-blind-safe palette, and every meaning the
referee lights has its own colour and pattern (reedboard/hardware/lights.py,
reedboard/referee/leds.py); the web view draws the same colours (static/board.js)."""

from __future__ import annotations

from pathlib import Path

from reedboard.engine.marks import Mark, MarkStyle
from reedboard.hardware.lights import AMBER, BLUE, GREEN, RED, WHITE, Light, Pattern
from reedboard.referee import solved
from reedboard.referee.leds import View, frame
from reedboard.wiring.layout import load_layout

OKABE_ITO = {
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (204, 121, 167),  # reddish purple
}
BOARD_JS = Path(__file__).parents[2] / "src/reedboard/daemon/web/static/board.js"


def test_every_signal_colour_is_okabe_ito() -> None:
    signals = [GREEN, AMBER, BLUE, RED, solved.WINNABLE, solved.LOST]
    assert set(signals) <= OKABE_ITO and len(set(signals)) == len(signals)
    assert WHITE == (255, 255, 255)  # place a piece, the pips: white is no hue


def test_each_meaning_has_its_own_colour_and_pattern() -> None:
    layout = load_layout("brier9")
    lights = {
        "landing": frame(layout, View(landings=frozenset({"a1"})))["a1"],
        "hint": frame(layout, View(hint=("a1",)))["a1"],
        "candidate": frame(layout, View(candidate=("a1",)))["a1"],
        "computer": frame(layout, View(computer=("a1",)))["a1"],
        "remove": frame(layout, View(fix=("a1", True)))["a1"],
        "place": frame(layout, View(fix=("a1", False)))["a1"],
        "patch": frame(layout, View(marks=(Mark("patch", frozenset({"a1"}), MarkStyle.STEADY),)))[
            "a1"
        ],
        "sweep": frame(layout, View(sweep=True))["a1"],
        "suspect": Light(RED, Pattern.PULSE),
        "winnable": Light(solved.WINNABLE),
        "lost": Light(solved.LOST),
    }
    pairs = [(light.colour, light.pattern) for light in lights.values()]
    assert len(set(pairs)) == len(pairs), lights


def test_the_page_draws_with_the_leds_colours() -> None:
    page = BOARD_JS.read_text(encoding="utf-8").lower()
    for colour in (GREEN, AMBER, BLUE, RED, solved.WINNABLE, solved.LOST):
        assert "#{:02x}{:02x}{:02x}".format(*colour) in page
