"""The store's writes off the loop (reedboard/store/writer.py): the session goes on reading the
board while a move is being made durable, and says and lights nothing of it before."""

from __future__ import annotations

import sqlite3
import time
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
def test_a_failed_write_loses_nothing_and_is_written_when_the_store_takes_writes_again(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    rig, writer = writer_rig(db)
    try:
        rig.move("9", "4")
        writer.wait(5)
        rig.session.flush(rig.t)
        other = sqlite3.connect(str(db), isolation_level=None)
        other.execute("ALTER TABLE moves RENAME TO gone")  # the disk says no from here on
        rig.move("16", "9")
        rig.move("4", "1")
        writer.wait(5)
        rig.session.flush(rig.t)
        kinds = rig.kinds()
        assert kinds.count("store-error") == 1 and writer.behind
        assert kinds[-3:] == ["store-error", "move", "move"]  # said before the moves kept
        said = rig.session.alerts[-3]["text"]
        assert "saving is behind" in said and said.count(str(db)) == 1  # (the path once)
        times = [a["t"] for a in rig.session.alerts]
        assert times == sorted(times)
        assert rig.moves == ["9-4", "16-9", "4-1"]  # the game goes on, on the board
        rig.press("new")  # no new game (nor the daemon stopped) while moves wait to be saved
        rig.session.flush(rig.t)
        assert rig.kinds()[-1] == "store-behind" and rig.moves == ["9-4", "16-9", "4-1"]
        other.execute("ALTER TABLE gone RENAME TO moves")  # the store takes writes again
        other.close()
        deadline = time.monotonic() + 10
        while writer.behind and time.monotonic() < deadline:
            time.sleep(0.05)
        writer.wait(5)
        rig.session.flush(rig.t)
        assert rig.kinds().count("store-ok") == 1 and not writer.behind
        record = writer.unfinished()
        assert record is not None and record.moves == ("9-4", "16-9", "4-1")
    finally:
        writer.close()


@pytest.mark.error_logs
def test_a_store_locked_by_another_program_for_longer_than_its_timeout_loses_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    rig, writer = writer_rig(db)
    try:
        writer.wait(5)
        rig.session.flush(rig.t)
        other = hold_write_lock(db)  # another program's transaction, held
        rig.move("9", "4")
        rig.move("16", "9")
        assert writer.wait(15)  # past the store's busy timeout: kept, not lost
        rig.session.flush(rig.t)
        assert "store-error" in rig.kinds() and writer.behind
        other.execute("COMMIT")
        other.close()
        deadline = time.monotonic() + 10
        while writer.behind and time.monotonic() < deadline:
            time.sleep(0.05)
        rig.session.flush(rig.t)
        assert "store-ok" in rig.kinds()
        record = writer.unfinished()
        assert record is not None and record.moves == ("9-4", "16-9")
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
