"""What the page is sent, from the referee's state (reedboard/daemon/web/state.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.daemon.web.shapes import hint_words
from reedboard.daemon.web.state import (
    guidance,
    hex_colour,
    layout_message,
    leds_message,
    pieces_shown,
)
from reedboard.hardware.lights import BLUE, GREEN, WHITE, Light, Pattern
from reedboard.referee.decide import KNOCK
from tests.referee.rig import Rig

GAMES = ["solitaire", "fox-and-geese", "fox-and-rabbit", "skip", "parchesi", "messenger-boy"]


@given(st.sampled_from(GAMES), st.data())
def test_a_piece_is_drawn_on_every_closed_switch_and_only_there(
    game: str, data: st.DataObject
) -> None:
    rig = Rig(game)
    points = sorted(rig.layout.points)
    occupied = frozenset(data.draw(st.sets(st.sampled_from(points))))
    letters = rig.session.position.pieces()
    shown = pieces_shown(rig.session, occupied)
    assert set(shown) == occupied
    for point, letter in shown.items():
        assert letter == letters.get(point, "?")


@given(st.sampled_from(GAMES))
def test_the_drawing_has_every_point_at_its_grid_place(game: str) -> None:
    rig = Rig(game)
    message = layout_message(rig.layout, game, [game])
    cols, rows = message["size"]
    assert set(message["points"]) == set(rig.layout.points)
    places = {tuple(p) for p in message["points"].values()}
    assert len(places) == len(rig.layout.points)  # no two points drawn on one place
    assert all(0 <= x < cols and 0 <= y < rows for x, y in places)


def test_leds_are_sent_as_lit_now_and_as_meant() -> None:
    rig = Rig("fox-and-rabbit")
    layout = rig.layout
    chain = [(0, 0, 0)] * layout.led_count
    chain[layout.points["c3"].led] = GREEN
    chain[layout.dice_start] = WHITE
    frame = {"c3": Light(GREEN), "d4": Light(BLUE, Pattern.BLINK)}
    message = leds_message(layout, chain, frame)
    assert message["points"] == {"c3": hex_colour(GREEN)}  # d4's blink is dark at this moment
    assert message["frame"] == {
        "c3": [hex_colour(GREEN), "steady"],
        "d4": [hex_colour(BLUE), "blink"],
    }
    assert message["pips"][0] == "#ffffff" and len(message["pips"]) == layout.dice_leds


def test_guidance_in_words_follows_the_referee() -> None:
    rig = Rig("fox-and-rabbit", dice=[(3, 2)])
    board = rig.board.snapshot
    assert guidance(rig.session, board()) == "press roll"  # (the panel says whose turn)
    rig.press("roll")
    assert guidance(rig.session, board()) == ""
    rig.lift("i1")  # the fox, out of turn, and kept off longer than a knock lasts
    rig.wait(KNOCK + 0.2)  # (and before its switch could be thought broken)
    assert guidance(rig.session, board()) == (
        "the board does not match the game: put a piece on i1"
    )
    rig.place("i1")
    assert guidance(rig.session, board()) == ""


def test_a_hint_for_a_piece_coming_on_says_where_it_lands() -> None:
    position = engine.start("messenger-boy")
    for spin in ("spin=1", "spin=2"):  # Red has no move with a 1; Blue may start with a 2
        position.push(position.parse_move(spin))
    move = next(m for m in position.legal_moves if m.routes())
    assert str(move) == "B start A" and move.routes() == (("A1",),)
    assert hint_words(move, position.hint_points(move)) == "hint: B start A (onto A1)"  # (not
    # "from A1 to A1")
    solitaire = engine.start("solitaire")
    jump = solitaire.parse_move("5-17")
    assert hint_words(jump, solitaire.hint_points(jump)) == "hint: 5-17 (from 5 over 10 to 17)"
