"""A store that cannot be trusted is said so, never shown as empty; the variables that name it
are checked; SIGHUP stops the daemon cleanly with its game kept."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.store.games import GameStore, StoreError, default_path
from tests.daemon.test_crash import Daemon


def _store_with_games(path: Path, games: int = 30) -> None:
    store = GameStore(path)
    for _ in range(games):
        game = store.new_game("solitaire", {}, engine.start("solitaire").to_text())
        for ply in range(20):
            store.add_move(game, ply, f"m{ply}")
        store.end_game(game, "abandoned")
    store.close()
    db = sqlite3.connect(path)  # all in the main file, as after a clean stop
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()


@pytest.mark.parametrize("page", [-1, -2, 3])
def test_a_damaged_page_is_one_line_saying_what_to_do_never_an_empty_history(
    tmp_path: Path, page: int
) -> None:
    db = tmp_path / "games.sqlite3"
    _store_with_games(db)
    data = bytearray(db.read_bytes())
    size = 4096
    start = (len(data) // size + page) * size if page < 0 else page * size
    data[start : start + 300] = b"\x55" * 300  # a page's header and first cells overwritten
    db.write_bytes(bytes(data))
    for argv in (["history", "--database", str(db)], ["run", "--database", str(db), "--no-web"]):
        done = subprocess.run(
            [sys.executable, "-m", "reedboard", *argv],
            input="",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, (argv, done.stdout[-300:], done.stderr[-300:])
        assert done.stderr.count("\n") == 1 and "the game store is damaged" in done.stderr
        assert ".recover" in done.stderr


def test_the_store_variable_is_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for value, what in (("   ", "names no file"), (":memory:", "keeps nothing")):
        monkeypatch.setenv("REEDBOARD_DB", value)
        with pytest.raises(StoreError, match=what) as err:
            default_path()
        assert str(err.value).startswith("REEDBOARD_DB=")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("REEDBOARD_DB", "~/g.sqlite3")
    assert default_path() == tmp_path / "g.sqlite3"  # the home folder, not a folder named ~


def test_sighup_stops_the_daemon_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    daemon = Daemon(db)
    daemon.send("move 5-17")
    daemon.wait_for("move:")
    daemon.proc.send_signal(signal.SIGHUP)
    assert daemon.proc.wait(timeout=15) == 0
    store = GameStore(db, readonly=True)
    record = store.unfinished("solitaire")
    store.close()
    assert record is not None and record.moves == ("5-17",)


def test_a_folder_where_sqlite_keeps_its_file_is_named(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    GameStore(db).close()
    for beside in (tmp_path / "games.sqlite3-shm", tmp_path / "games.sqlite3-wal"):
        for left in tmp_path.glob("games.sqlite3-*"):
            if left.is_file():
                left.unlink()
        beside.mkdir()
        with pytest.raises(StoreError) as err:
            GameStore(db)
        assert str(err.value).startswith(f"{beside}: a folder") and "read-only" not in str(
            err.value
        )
        beside.rmdir()
