"""The store's writes off the loop (reedboard/store/writer.py): the session goes on reading the
board while a move is being made durable, and says and lights nothing of it before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reedboard.hardware.lights import GREEN
from reedboard.store.games import GameStore
from reedboard.store.writer import StoreWriter
from tests.referee.rig import Rig


def writer_rig(path: Path, game: str = "fox-and-geese") -> tuple[Rig, StoreWriter]:
    writer = StoreWriter(GameStore(path))
    return Rig(game, store=writer), writer  # type: ignore[arg-type]


def hold_write_lock(path: Path) -> sqlite3.Connection:
    """Another process's transaction on the file: the writer's next write waits for it."""
    other = sqlite3.connect(str(path), isolation_level=None, timeout=10)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_move_is_said_and_lit_only_once_it_is_on_disk(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rig, writer = writer_rig(db)
    try:
        writer.wait()
        rig.session.flush(rig.t)
        other = hold_write_lock(db)
        rig.lift("9")
        in_hand = rig.frame
        assert rig.lit(GREEN)
        rig.place("4")
        assert rig.moves == ["9-4"]  # the game has it ...
        assert writer.saving and "move" not in rig.kinds()  # ... the players not yet
        rig.lift("17")  # the loop goes on reading the board meanwhile
        assert rig.frame == in_hand  # nothing lit for the new position before it is saved
        other.execute("COMMIT")
        other.close()
        assert writer.wait(5)
        rig.session.flush(rig.t)
        assert rig.kinds()[-1] == "move" and rig.session.alerts[-1]["text"] == "9-4"
        twin = Rig("fox-and-geese")  # the same hand on a session with a plain store
        twin.move("9", "4")
        twin.lift("17")
        assert rig.frame == twin.frame and twin.lit(GREEN)  # what was held back, now shown
        assert [a["kind"] for a in rig.session.alerts] == twin.kinds()
        record = writer.unfinished()
        assert record is not None and record.moves == ("9-4",)
    finally:
        writer.close()


def test_alerts_keep_their_order_and_times_when_held_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rig, writer = writer_rig(db)
    try:
        writer.wait()
        rig.session.flush(rig.t)
        other = hold_write_lock(db)
        rig.move("9", "4")
        rig.press("hint")
        held = rig.t
        other.execute("COMMIT")
        other.close()
        writer.wait(5)
        rig.session.flush(held + 1)
        tail = rig.session.alerts[-3:]
        assert [a["kind"] for a in tail] == ["move", "button", "hint"]
        assert tail[0]["t"] < tail[1]["t"] <= round(held, 3)
    finally:
        writer.close()


@pytest.mark.error_logs
def test_a_failed_write_is_said_once_and_leaves_a_clean_prefix(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rig, writer = writer_rig(db)
    try:
        rig.move("9", "4")
        writer.wait(5)
        rig.session.flush(rig.t)
        other = sqlite3.connect(str(db), isolation_level=None)
        other.execute("ALTER TABLE moves RENAME TO gone")  # the disk says no from here on
        other.close()
        rig.move("16", "9")
        rig.move("4", "1")
        writer.wait(5)
        rig.session.flush(rig.t)
        kinds = rig.kinds()
        assert kinds.count("store-error") == 1
        assert kinds[-3:] == ["store-error", "move", "move"]  # said before the unsaved moves
        times = [a["t"] for a in rig.session.alerts]
        assert times == sorted(times)
        assert rig.moves == ["9-4", "16-9", "4-1"]  # the game goes on, on the board
        check = sqlite3.connect(str(db))
        assert check.execute("SELECT move FROM gone ORDER BY ply").fetchall() == [("9-4",)]
        check.close()
    finally:
        writer.close()


def test_close_writes_what_is_queued(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    writer = StoreWriter(GameStore(db))
    game = writer.new_game("solitaire", {}, "start")
    for ply in range(50):
        writer.add_move(game, ply, f"m{ply}")
    writer.close()
    store = GameStore(db)
    record = store.game(game)
    store.close()
    assert record is not None and record.moves == tuple(f"m{ply}" for ply in range(50))
