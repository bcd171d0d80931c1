"""The simulated board's hand in a running daemon (reedboard/daemon/virtual_board.py): what it
refuses, `undo` after `new`, and the computer's move left to the players' hands when the hand
is off."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from reedboard.referee.session import SessionState
from reedboard.store.games import GameStore
from tests.web.live import LiveDaemon


def until(test: Callable[[], Any], what: str, timeout: float = 8.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def moves(live: LiveDaemon) -> list[str]:
    return [str(m) for m in live.daemon.session.moves]


def test_the_hand_refuses_what_a_hand_cannot_do_and_changes_nothing(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        hand, board = live.daemon.virtual_board, live.daemon.board
        before = board.snapshot()
        assert live.call(lambda: hand.pick("17")) == "there is no piece on 17 to pick up"
        with pytest.raises(ValueError, match="has no point '99'"):
            live.call(lambda: hand.pick("99"))
        assert board.snapshot() == before
        # no legal move from 1 to 2, and 2 is taken: the piece picked up stays in the hand
        assert live.call(lambda: hand.pick("1")) is None
        assert live.call(lambda: hand.drop("1", "2")) == (
            "2 already has a piece on it (the piece from 1 is off the board)"
        )
        assert board.snapshot() == before - {"1"}
        assert live.call(lambda: hand.drop("1", "1")) is None  # put back
        until(lambda: board.snapshot() == before, "the peg back on 1")
        # while the hand moves pieces, nothing else is done
        assert live.call(lambda: hand.pick("5") or hand.drop("5", "17")) is None
        assert live.call(lambda: hand.pick("12")) == (
            "the board is making a move: wait until it is done"
        )
        until(lambda: moves(live) == ["5-17"], "5-17 taken")
        assert board.snapshot() == live.daemon.session.position.occupied()


def test_undo_after_new_resumes_the_game_but_not_once_a_piece_has_moved(
    tmp_path: Path,
) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        daemon = live.daemon
        hand = daemon.virtual_board
        live.call(lambda: hand.pick("5") or hand.drop("5", "17"))
        until(lambda: moves(live) == ["5-17"], "5-17 taken")
        first = daemon.session.recorder.game_id
        live.call(lambda: daemon.board.press("new"))
        until(lambda: daemon.session.moves == [] and hand.left is not None, "the new game")
        live.call(lambda: hand.pick("29") or hand.drop("29", "17"))
        # a piece moved: undo takes that back (the hand hears the move's event once the store
        # has made it durable, a moment after the session has it)
        until(lambda: moves(live) == ["29-17"] and hand.left is None, "29-17 taken, heard")
        live.call(lambda: daemon.board.press("undo"))
        until(
            lambda: moves(live) == [] and daemon.session.state is SessionState.PLAYING,
            "29-17 taken back, the pegs put back",
        )
        assert daemon.session.recorder.game_id != first  # (still the new game)
        live.call(lambda: daemon.board.press("undo"))  # nothing to take back, nothing resumed
        until(lambda: "undo: nothing to take back" in live.lines, "nothing to take back")
        assert moves(live) == [] and daemon.board.snapshot() == daemon.session.position.occupied()
    store = GameStore(tmp_path / "games.sqlite3")
    assert [(g.moves, g.outcome) for g in store.games()] == [
        (("5-17",), "abandoned"),
        ((), None),
    ]
    store.close()


def test_with_the_hand_off_the_computers_move_waits_for_the_players(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese", computer=("geese",), level=1) as live:
        daemon = live.daemon
        hand = daemon.virtual_board
        live.call(lambda: setattr(hand, "carries_out", False))
        fox = next(m for m in daemon.session.position.legal_moves if not m.jump)
        a, b = (str(p) for p in fox.points())
        assert live.call(lambda: hand.pick(a) or hand.drop(a, b)) is None  # (drags still work)
        until(lambda: daemon.session.state is SessionState.CARRYING_OUT, "the geese's move lit")
        time.sleep(1.0)
        assert daemon.session.state is SessionState.CARRYING_OUT  # nobody carried it out
        assert daemon.board.snapshot() != daemon.session.position.occupied()
