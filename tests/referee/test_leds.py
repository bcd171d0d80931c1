"""The LED policy: a frame only ever names points the board has, whatever the game shows."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine.marks import Mark
from reedboard.hardware.lights import AMBER, GREEN, RED, WHITE, Light
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.hints import suggest
from reedboard.referee.leds import View, ends, frame, route_points
from reedboard.wiring.layout import layout_for_game, load_layout
from tests.hardware.led_patterns import VirtualClock
from tests.referee.rig import Rig

SENSED = [g for g in engine.game_ids() if engine.game(g).sensed]


def _options(game: str, players: int) -> dict[str, Any]:
    fields = engine.game(game).Options.__dataclass_fields__
    return {"players": players} if "players" in fields else {}


@given(
    st.sampled_from(SENSED),
    st.sampled_from([2, 3, 4]),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=2**32),
)
def test_every_hint_candidate_and_landing_of_every_game_is_a_board_point(
    game: str, players: int, plies: int, seed: int
) -> None:
    """At random positions of every sensed game (entering men, nests, home, throws, chains),
    what the LEDs may show is on the board: each legal move's hint points and route, the
    hint, and the session's view at rest, after `hint`, after `confirm`, with a piece lifted."""
    options = _options(game, players)
    layout = layout_for_game(game)
    board = set(layout.points)
    rng = random.Random(seed)
    position = engine.start(game, **options)
    for _ in range(plies):
        moves = list(position.legal_moves)
        if not moves:
            break
        for move in moves:  # throws show nothing; every other move only board points
            assert set(ends(move)) <= board, move
            assert set(route_points(move)) <= board, move
            assert bool(move.routes()) == bool(move.points()), move
        position.push(rng.choice(moves))
    if game != "solitaire" or len(position.occupied()) < 20:  # its search is slow when full
        hint = suggest(position)
        assert hint is None or set(ends(hint)) <= board

    rig = Rig(game, position.to_text(), options=options)

    def check() -> None:
        view = rig.session.view(rig.t)
        shown = set(view.landings) | set(view.hint) | set(view.candidate)
        if view.fix is not None:
            shown.add(view.fix[0])
        assert shown <= board, (position.to_text(), view)
        assert set(rig.frame) <= board

    check()
    if game != "solitaire":
        rig.press("hint")
        check()
    rig.press("confirm")
    check()
    occupied = sorted(rig.board.snapshot())
    if occupied:
        rig.lift(rng.choice(occupied))  # its landings light green
        check()


@pytest.mark.parametrize("game", SENSED)
def test_hint_at_every_position_of_a_game_lights_only_board_points(game: str) -> None:
    """A seeded game of each kind, the `hint` button pressed at every position where a piece
    is to move (men entering from off the board or a nest, chains, captures, home): the lit
    points are on the board. Solitaire's search is slow on a full board: from ply 22 on."""
    board = set(layout_for_game(game).points)
    rng = random.Random(game)
    position = engine.start(game)
    for ply in range(40):
        moves = list(position.legal_moves)
        if not moves:
            break
        if not position.is_chance() and (game != "solitaire" or ply >= 22):
            rig = Rig(game, position.to_text())
            rig.press("hint")
            hint = rig.session.alerts[-1]["text"]
            assert hint != "none" and set(rig.frame) <= board
            assert set(ends(position.parse_move(hint))) <= set(rig.frame), (game, hint)
        position.push(rng.choice(moves))


@pytest.mark.error_logs
def test_a_frame_never_names_a_point_the_board_lacks(caplog: pytest.LogCaptureFixture) -> None:
    """The last guard: a bug that asks for a point the layout lacks leaves it dark, says so
    in the log, and the board goes on (a driver would refuse the whole frame)."""
    layout = layout_for_game("messenger-boy")
    with caplog.at_level(logging.ERROR, logger="reedboard"):
        shown = frame(layout, View(landings=frozenset({"B1"}), hint=("", "A1")))
    assert shown == {"A1": Light(AMBER), "B1": Light(GREEN)}
    assert "'' " in caplog.text or "['']" in caplog.text


def test_a_move_from_off_the_board_shows_only_where_it_lands() -> None:
    position = engine.from_text("messenger-boy", "R@- B@- turn=R")
    enter = position.parse_move("R start B")
    assert enter.points() == ("", "B1")  # the engine's path: from off the board
    assert ends(enter) == route_points(enter) == ("B1",)
    chain = engine.start("solitaire").parse_move("5-17")
    assert ends(chain) == route_points(chain) == ("5", "17")
    rabbit = engine.from_text("fox-and-rabbit", "WR@a1 RF@i1 turn=WR dice=5,2")
    assert ends(rabbit.parse_move("WR a1-c6")) == ("a1", "c6")


@pytest.mark.parametrize("name", ["cross33", "brier9", "skip8", "messenger84", "parchesi101"])
def test_the_game_over_sweep_crosses_every_column_of_every_board(name: str) -> None:
    """The game-over frame on each board, run through the compositor: every column that has
    points lights in turn, left to right, then the board is dark; the Brier Patch (given
    here on every board) stays red throughout, never swept."""
    layout = load_layout(name)
    brier = frozenset(sorted(layout.points)[:2])
    clock = VirtualClock()
    board = SimulatedBoard(layout, clock=clock)
    marks = (Mark("brier-patch", brier),)
    board.show(frame(layout, View(sweep=True, marks=marks)))
    columns = []
    while True:
        chain = board.chain()
        assert all(chain[layout.points[p].led] == RED for p in brier)
        columns.append(sorted({p.x for p in layout.points.values() if chain[p.led] == WHITE}))
        if (due := board.leds.next_tick()) is None:
            break
        clock.t = due
        board.leds.tick(due)
    used = sorted({p.x for p in layout.points.values() if p.id not in brier})
    assert [c for c in columns if c] == [[x] for x in used]
    assert columns[-1] == []
