"""Moves from elsewhere (a computer, a remote board, the console) go through the referee's
one commit path, `Session.play(move, source)`: checked by the engine, committed, shown on
the LEDs, and confirmed once the players have moved the pieces so."""

from __future__ import annotations

import random

import pytest

from reedboard import engine
from reedboard.engine import Move
from reedboard.hardware.lights import BLUE, RED, Light, Pattern
from reedboard.referee.events import GameEvent, MoveCarriedOut, MoveCommitted, MoveShown
from reedboard.referee.session import PlayError
from tests.referee.rig import Rig

FOX_CHAIN = "G...F.GG.G.GGG.G.FGGGGG.GGGGG.GGG F"  # the fox on 5 may jump 5x17x15


def carry_out(rig: Rig, move: Move, taken: set[str]) -> None:
    """A hand makes ``move``: lifts the man, sets him down on each landing of a chain, takes
    the jumped men off, sets him down at the end."""
    (route,) = move.routes()
    rig.lift(route[0])
    for landing in route[1:-1]:
        rig.place(landing)
        rig.lift(landing)
    rig.lift(*sorted(taken))
    rig.place(route[-1])


def the_computer(position: engine.Position) -> Move:  # type: ignore[type-arg]
    """A scripted player: the longest jump, else the first move."""
    return max(position.legal_moves, key=lambda m: (len(m.routes()[0]), -len(str(m))))


def test_a_computers_moves_are_lit_carried_out_and_confirmed() -> None:
    rig = Rig("fox-and-geese", FOX_CHAIN)
    heard: list[GameEvent] = []
    rig.session.events.subscribe(heard.append)
    rng = random.Random(5)
    for _ in range(3):
        position = rig.session.position
        move = the_computer(position)
        before = rig.board.snapshot()
        rig.session.play(move, "computer", rig.t)
        after = rig.session.recognizer.expected
        taken = set(before - after) - {move.routes()[0][0]}
        (route,) = move.routes()
        assert {p for p, light in rig.frame.items() if light.colour == BLUE} == set(route)
        assert {p for p, light in rig.frame.items() if light.colour == RED} == taken
        assert all(rig.frame[p] == Light(RED, Pattern.BLINK) for p in taken)
        carry_out(rig, move, taken)
        assert isinstance(heard[-1], MoveCarriedOut) and heard[-1].move == move
        assert rig.frame.get(route[-1]) is None or rig.frame[route[-1]].colour != BLUE
        # the geese's reply, made on the board as usual
        reply = rng.choice(list(rig.session.position.legal_moves))
        (r,) = reply.routes()
        rig.move(r[0], r[-1])
        assert rig.moves[-1] == str(reply)
    committed = [e for e in heard if isinstance(e, MoveCommitted)]
    assert [e.source for e in committed] == ["computer", "board"] * 3
    assert str(committed[0].move) == "5x17x15"  # the jump chain was among them
    assert not [e for e in heard if e.name in ("mismatch", "takeback", "error")]


def test_a_wrong_execution_is_guided_back_to_the_move_shown() -> None:
    rig = Rig("fox-and-geese")
    move = rig.session.position.parse_move("9-4")
    rig.session.play(move, "computer", rig.t)
    rig.lift("9")
    assert rig.frame.get("4") == Light(BLUE)  # where he goes
    rig.place("3")  # the wrong hole
    rig.wait(2.5)
    assert rig.session.mismatch
    assert rig.frame == {"3": Light(RED, Pattern.BLINK)}  # take him off here ...
    rig.lift("3")
    assert not rig.session.mismatch and rig.frame.get("4") == Light(BLUE)  # ... back on track
    rig.place("4")
    assert rig.moves == ["9-4"] and rig.kinds()[-1] == "carried-out"
    assert "takeback" not in rig.kinds()


def test_a_fox_and_rabbit_throw_and_move_from_the_computer() -> None:
    rig = Rig("fox-and-rabbit", dice=[(3, 2)])
    rig.press("roll")  # the rabbit's own throw and move, on the board
    rabbit = next(m for m in rig.session.position.legal_moves if m.routes())
    (r,) = rabbit.routes()
    rig.move(r[0], r[-1])
    assert rig.moves[-1] == str(rabbit)
    position = rig.session.position
    assert position.is_chance()
    rig.session.play(position.throw((6, 1)), "computer", rig.t)  # the fox's throw
    assert rig.board.dice == (6, 1) and rig.kinds()[-1] == "throw"
    fox = next(m for m in rig.session.position.legal_moves if m.routes())
    rig.session.play(fox, "computer", rig.t)
    (f,) = fox.routes()
    assert rig.frame.get(f[-1]) == Light(BLUE)
    rig.move(f[0], f[-1])
    assert rig.kinds()[-1] == "carried-out" and rig.moves[-2:] == ["dice=6,1", str(fox)]


def test_an_illegal_move_or_a_board_in_motion_is_refused_and_changes_nothing() -> None:
    rig = Rig("fox-and-geese")
    with pytest.raises(engine.IllegalMoveError):
        rig.session.play("9-3", "remote", rig.t)
    rig.lift("9")  # a hand on the board
    with pytest.raises(PlayError, match="not at rest"):
        rig.session.play("16-9", "computer", rig.t)
    rig.place("9")
    rig.session.play("9-4", "remote", rig.t)
    with pytest.raises(PlayError, match="still to be carried out"):
        rig.session.play("16-9", "computer", rig.t)
    assert rig.moves == ["9-4"]
    assert [e for e in rig.kinds() if e in ("move", "carry-out")] == ["move", "carry-out"]
    assert MoveShown.kind == "carry-out"


def test_the_referees_state_follows_the_game() -> None:
    from reedboard.referee.session import SessionState

    rig = Rig("fox-and-geese")
    assert rig.session.state is SessionState.PLAYING
    rig.session.play("9-4", "computer", rig.t)
    assert rig.session.state is SessionState.CARRYING_OUT
    rig.move("9", "3")
    rig.wait(2.5)
    assert rig.session.state is SessionState.MISMATCH
    rig.lift("3")
    rig.place("4")
    assert rig.session.state is SessionState.PLAYING
    rig.move("16", "9")
    rig.lift("9")
    rig.place("16")  # the board before 16-9: an earlier position, once it stays
    assert rig.session.state is SessionState.WAITING
    rig.wait(4.5)
    assert rig.session.state is SessionState.PLAYING and rig.moves == ["9-4"]


def test_a_move_carried_out_wrong_is_a_mismatch_though_hands_touch_pieces_meanwhile() -> None:
    from reedboard.referee.session import SessionState

    # the computer's 9-4 set down on 3; meanwhile a hand touches a still goose again and
    # again: the board stays wrong, so it says so after the grace time, as with hands still
    rig = Rig("fox-and-geese")
    rig.session.play("9-4", "computer", rig.t)
    rig.move("9", "3")
    for _ in range(3):
        rig.wait(0.9)
        rig.lift("33")
        rig.wait(0.2)
        rig.place("33")
    assert rig.session.state is SessionState.MISMATCH
