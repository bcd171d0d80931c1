"""The virtual board's hand (reedboard/sim/virtual_hand.py): which legal move a drag means, and
the switch changes a careful hand makes for it, read by a real session on the simulated board
on a virtual clock (reedboard/sim/runner.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reedboard import engine
from reedboard.engine import Move, Position
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import Session, SessionState
from reedboard.sim.runner import Clock, Runner
from reedboard.sim.virtual_hand import answer, choose, plain, reaches, switches, whole
from reedboard.wiring.layout import layout_for_game

SENSED = [g for g in engine.game_ids() if engine.game(g).sensed]


def cross(game: str, pieces: dict[int, str], turn: str = "F") -> Position[Any, Any]:
    text = ["."] * 33
    for hole, piece in pieces.items():
        text[hole - 1] = piece
    return engine.from_text(game, "".join(text) + f" {turn}")


class Table:
    """A session on the simulated board, its switches changed by the hand on a virtual clock."""

    def __init__(self, game: str, position: Position[Any, Any] | None = None) -> None:
        start = position or engine.start(game)
        self.clock = Clock()
        layout = layout_for_game(game)
        self.board = SimulatedBoard(layout, start.occupied(), clock=self.clock)
        self.dice = ScriptedDice([])
        self.session = Session(self.board, layout, game, dice=self.dice)
        self.session.start(0.0, start.copy() if position else None)
        self.runner = Runner(self.session, self.board, self.clock, self.dice)
        self.runner.check_states = True
        self.buttons: list[str] = []

    def play(self, move: Move, position: Position[Any, Any]) -> float:
        """Lay ``move`` out as the hand does, 0.1 s a switch change (0.25 s between pieces set
        down); answer the board if it asks; the seconds it took to be taken after the hand let
        go (AssertionError if it was not taken within 10 s)."""
        ply = len(position.move_stack)
        for n, group in enumerate(switches(whole(position, move))):
            if n:
                self.runner.advance(self.clock.t + 0.25)
            for point, on in group:
                (self.runner.place if on else self.runner.lift)(point, self.clock.t + 0.1)
        let_go = self.clock.t
        while self.clock.t < let_go + 10 and len(self.session.position.move_stack) <= ply:
            if self.session.state is SessionState.ASKING:
                for button in answer(position, move):
                    self.buttons.append(button)
                    self.runner.press(button, self.clock.t + 0.1)
            self.runner.advance(self.clock.t + 0.05)
        stack = self.session.position.move_stack
        assert len(stack) > ply, f"{move} not taken: {self.session.state}"
        made, meant = position.copy(), position.copy()
        made.push(stack[ply])
        meant.push(move)
        assert made.to_text() == meant.to_text(), f"{stack[ply]} taken for {move}"
        return self.clock.t - let_go


@pytest.mark.parametrize("game", SENSED)
def test_every_games_moves_laid_out_by_the_hand_are_taken_with_no_button(game: str) -> None:
    rng = random.Random(7)
    waits: list[float] = []
    for _ in range(8):  # games from the start until 30 pieces have moved
        table = Table(game)
        session = table.session
        while len(waits) < 30 and not session.position.is_over():
            position = session.position.copy()
            move = rng.choice(list(position.legal_moves))
            if position.is_chance():
                table.dice.feed(position.throw_values(move))
                table.runner.press("roll", table.clock.t + 0.3)
                table.runner.advance(table.clock.t + 0.3)
                assert len(session.position.move_stack) > len(position.move_stack)
                continue
            waits.append(table.play(move, position))
            table.runner.advance(table.clock.t + 0.3)
            assert table.board.snapshot() == session.position.occupied()
            assert session.state in (SessionState.PLAYING, SessionState.OVER)
        assert table.buttons == []  # the board never had to ask
        kinds = [a["kind"] for a in session.alerts]
        assert "mismatch" not in kinds and "takeback" not in kinds
        assert kinds.count("new-game") == 1
        if len(waits) >= 30:
            break
    assert len(waits) >= 30
    # taken at once, or once the board has stayed so for the hold time (a move a hand may
    # still be making: a chain that may go on, a piece moved on that was just moved)
    assert max(waits) <= table.session.hold + 0.5


def test_a_skip_capture_takes_the_man_off_before_the_taker_comes_down() -> None:
    line = "a1-b2 e8-d7 b1-c2 h8-g7 g1-f2 g7-f6 f2-e3 f6-e5 e1-d2 e5-f4".split()
    position = engine.start("skip")
    for move in line:
        position.push_text(move)
    found = reaches(position, position.occupied(), "e3", "f4")
    assert [str(r.move) for r in found] == ["e3xf4"]
    assert switches(found[0]) == [[("e3", False), ("f4", False), ("f4", True)]]
    # the piece picked up already: the hand does the rest
    picked = reaches(position, position.occupied() - {"e3"}, "e3", "f4")
    assert picked[0].lifted and switches(picked[0]) == [[("f4", False), ("f4", True)]]
    table = Table("skip", position)
    table.play(found[0].move, position)


def test_a_jump_takes_the_jumped_goose_off_after_the_fox_lands() -> None:
    position = engine.start("fox-and-geese-mcloughlin")
    for move in ("17-10", "15-9"):
        position.push_text(move)
    found = reaches(position, position.occupied(), "10", "8")
    assert [str(r.move) for r in found] == ["10x8"]
    assert switches(found[0]) == [[("10", False), ("8", True), ("9", False)]]
    Table("fox-and-geese-mcloughlin", position).play(found[0].move, position)


def test_a_chain_may_be_dragged_jump_by_jump() -> None:
    position = cross("fox-and-geese", {23: "F", 1: "F", 24: "G", 26: "G"})
    first = reaches(position, position.occupied(), "23", "25")
    assert [(str(r.move), r.completes) for r in first] == [("23x25", True), ("23x25x27", False)]
    # the first jump made (as the board shows it), the second dragged on from its landing
    board = position.occupied() - {"23", "24"} | {"25"}
    second = reaches(position, board, "25", "27")
    assert [(str(r.move), r.first, r.last) for r in second] == [("23x25x27", 1, 1)]
    assert switches(second[0]) == [[("25", False), ("27", True), ("26", False)]]
    assert reaches(position, board, "23", "25") == []  # (the fox is no longer on 23)


def test_two_chains_to_one_landing_are_told_apart_by_the_path_dragged() -> None:
    position = cross("fox-and-geese", {9: "F", 1: "F", 10: "G", 18: "G", 16: "G", 24: "G"})
    found = reaches(position, position.occupied(), "9", "25")
    assert {str(r.move) for r in found if r.completes} == {"9x11x25", "9x23x25"}
    east, said = choose(found, ["9", "10", "11", "18", "25"])
    assert east is not None and str(east.move) == "9x11x25" and "9x23x25" in said
    south, _ = choose(found, ["9", "16", "23", "24", "25"])
    assert south is not None and str(south.move) == "9x23x25"
    first, said = choose(found)
    assert first is not None and said.startswith("2 moves go from 9 to 25: played ")


def test_a_parchesi_nest_gives_up_one_man() -> None:
    position = engine.start("parchesi")
    position.push_text("spin=5")
    found = reaches(position, position.occupied(), "Ynest", "L4")
    assert [str(r.move) for r in found] == ["Y enter"]
    assert switches(found[0]) == [[("L4", True)]]  # the nest's switch stays closed
    table = Table("parchesi", position)
    table.play(found[0].move, position)
    assert table.session.position.pieces()["Ynest"] == "YYY"


def test_a_fox_joining_a_rabbit_lifts_it_aside_and_puts_it_back() -> None:
    position = engine.from_text("fox-and-rabbit", "WR@c3 RF@a1 turn=RF dice=2,2")
    move = next(m for m in position.legal_moves if str(m).endswith("-c3"))
    assert switches(whole(position, move)) == [[("a1", False), ("c3", False), ("c3", True)]]
    Table("fox-and-rabbit", position).play(move, position)


def test_where_no_legal_move_goes_the_hand_lifts_and_sets_down() -> None:
    position = engine.start("solitaire")
    assert reaches(position, position.occupied(), "1", "17") == []
    board = position.occupied()
    assert plain(board, {p: 1 for p in board}, "1", "17") == [("1", False), ("17", True)]
    assert plain(board, {"1": 3}, "1", "17") == [("17", True)]  # one of three taken
    assert plain(board, {"1": 1}, "1", "2") == [("1", False)]  # (2 is taken: kept in the hand)


def test_the_hand_answers_the_board_with_confirm_when_one_move_leaves_its_board() -> None:
    position = engine.start("solitaire")
    move = position.parse_move("5-17")
    assert answer(position, move) == ["confirm"]
