"""What the page is sent, from the referee's state (reedboard/daemon/web/state.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.daemon.web.shapes import hint_said
from reedboard.daemon.web.state import (
    guidance,
    hex_colour,
    layout_message,
    leds_message,
    pieces_shown,
)
from reedboard.daemon.words import event_words
from reedboard.hardware.lights import BLUE, GREEN, WHITE, Light, Pattern
from reedboard.referee.decide import KNOCK
from reedboard.referee.events import HintShown
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


def test_a_hint_is_said_as_a_player_would_say_it() -> None:
    """A hint leads with what to do, the notation last (not ``hint: WR a1-e7 (from a1 to
    e7)``), in the panel and the event list alike."""
    position = engine.start("messenger-boy")
    for spin in ("spin=1", "spin=2"):  # Red has no move with a 1; Blue may start with a 2
        position.push(position.parse_move(spin))
    move = next(m for m in position.legal_moves if m.routes())
    assert str(move) == "B start A" and move.routes() == (("A1",),)
    assert hint_said(position, move, position.hint_points(move)) == (
        "hint: put the blue boy on A1 (B start A)"
    )
    solitaire = engine.start("solitaire")
    jump = solitaire.parse_move("5-17")
    assert hint_said(solitaire, jump, solitaire.hint_points(jump)) == (
        "hint: the peg jumps from 5 over 10 to 17 (5-17)"
    )
    fox = engine.game("fox-and-geese-mcloughlin").from_text(".............GGFG.GGGGG.GGGGGGGGG F")
    (take,) = fox.legal_moves
    said = "hint: the fox jumps from 16 over 17 to 18 (16x18)"
    assert hint_said(fox, take, fox.hint_points(take)) == said
    assert event_words(HintShown(0.0, take), fox, "McLoughlin") == said  # the same in the events
    rabbit = engine.from_text("fox-and-rabbit", "WR@a1 RF@i1 turn=WR dice=5,2")
    step = next(m for m in rabbit.legal_moves if str(m) == "WR a1-c6")
    assert hint_said(rabbit, step, rabbit.hint_points(step)) == (
        "hint: move White Rabbit from a1 to c6 (WR a1-c6)"
    )
    parchesi = engine.start("parchesi")
    parchesi.push(parchesi.parse_move("spin=5"))
    enter = parchesi.parse_move("Y enter")
    assert (
        hint_said(parchesi, enter, ()) == "hint: move the yellow man from the nest to L4 (Y enter)"
    )
    skip = engine.from_text(
        "skip", "bbbbb.../......../......../....b.../...r..../......../......../...rrrrr r"
    )
    capture = skip.parse_move("d4xe5")
    assert hint_said(skip, capture, ()) == (
        "hint: move the red man from d4 to e5, taking the blue man (d4xe5)"
    )
