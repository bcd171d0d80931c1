"""The game store: durable (WAL, full sync), checked at opening, versioned and migrated, and a
failed write stores nothing."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.referee.events import GameOver, MoveCommitted, NewGame
from reedboard.store.games import APPLICATION_ID, VERSION, GameStore, StoreError, check_path
from reedboard.store.recorder import Recorder

V0_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,           -- JSON object of game options
    start    TEXT NOT NULL,           -- the starting position's text form
    started  REAL NOT NULL,           -- unix time
    ended    REAL,                    -- NULL while the game goes on
    outcome  TEXT                     -- JSON {"winner", "reason"}, or "abandoned"
);
CREATE TABLE IF NOT EXISTS moves (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    ply      INTEGER NOT NULL,        -- 0 for the first move (throws count as moves)
    move     TEXT NOT NULL,           -- the engine's text form
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""
"""The schema exactly as reedboard wrote it before stores had a version (commit a28f04b)."""

SOLITAIRE = engine.start("solitaire").to_text()
FOX = engine.start("fox-and-geese").to_text()


def v0_store(path: Path) -> None:
    """A store as the old code made and used it: WAL, its tables, three kinds of game, two
    fox-and-geese games left playing (the old bug) and one finished."""
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(V0_SCHEMA)
    games = [
        (1, "fox-and-geese", "{}", FOX, 100.0, None, None),
        (2, "solitaire", "{}", SOLITAIRE, 200.0, 260.0, '{"reason": "solved", "winner": "player"}'),
        (3, "fox-and-geese", '{"diagonals": "all"}', FOX, 300.0, None, None),
        (4, "solitaire", "{}", SOLITAIRE, 400.0, None, None),
        (5, "fox-and-geese", "{}", FOX, 500.0, None, None),
    ]
    db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", games)
    moves = [(1, 0, "9-4", 110.0), (1, 1, "16-9", 120.0), (3, 0, "11-6", 310.0)]
    moves += [(5, 0, "9-10", 510.0), (2, 0, "5-17", 210.0), (4, 0, "29-17", 410.0)]
    db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?)", moves)
    db.close()


def test_the_store_on_disk_is_wal_with_full_sync(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    try:
        assert store.pragma("journal_mode") == "wal"
        assert store.pragma("synchronous") == 2  # FULL: the WAL is synced at every commit
        with pytest.raises(ValueError, match="not a pragma name"):
            store.pragma("synchronous; DROP TABLE moves")
    finally:
        store.close()


def test_a_new_store_is_marked_ours_and_of_the_current_version(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "deep" / "er" / "g.sqlite3")  # its folders are made
    assert store.version() == VERSION >= 1
    assert store.pragma("application_id") == APPLICATION_ID
    store.close()
    store = GameStore(tmp_path / "deep" / "er" / "g.sqlite3")  # and it opens again as is
    assert store.version() == VERSION
    store.close()


def test_a_store_of_the_old_code_is_migrated_in_place_keeping_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    v0_store(path)
    store = GameStore(path)
    try:
        assert store.version() == VERSION
        assert store.pragma("application_id") == APPLICATION_ID
        games = {g.id: g for g in store.games()}
        assert sorted(games) == [1, 2, 3, 4, 5]
        assert {i: g.moves for i, g in games.items()} == {
            1: ("9-4", "16-9"),
            2: ("5-17",),
            3: ("11-6",),
            4: ("29-17",),
            5: ("9-10",),
        }
        assert games[3].options == {"diagonals": "all"}
        # of the fox-and-geese games left playing, the latest goes on; the others were
        # abandoned as of their last move
        assert [games[i].status for i in (1, 2, 3, 4, 5)] == [
            "abandoned",
            "won by player (solved)",
            "abandoned",
            "playing",
            "playing",
        ]
        assert (games[1].ended, games[3].ended, games[2].ended) == (120.0, 310.0, 260.0)
        assert store.unfinished("fox-and-geese") == games[5]
        assert store.unfinished("solitaire") == games[4]
        assert store.unfinished("skip") is None
    finally:
        store.close()


def test_a_failed_migration_leaves_the_old_store_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    v0_store(path)
    _sqlite(path, "CREATE TABLE extra (x)")  # not ours to migrate: refused, left alone
    with pytest.raises(StoreError, match=r"not a reedboard game store.*tables extra, games, moves"):
        GameStore(path)
    _sqlite(
        path,
        "DROP TABLE extra",
        # an index of the name version 1 makes: the migration fails half-way
        "CREATE INDEX one_unfinished_per_game ON moves(move)",
    )
    with pytest.raises(StoreError, match=r"cannot open the game store.*already exists"):
        GameStore(path)
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert db.execute("PRAGMA application_id").fetchone()[0] == 0
    playing = db.execute("SELECT id FROM games WHERE ended IS NULL ORDER BY id").fetchall()
    assert playing == [(1,), (3,), (4,), (5,)]  # the migration's own update was rolled back
    db.close()


def test_a_store_of_a_newer_version_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path).close()
    db = sqlite3.connect(str(path))
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.commit()
    db.close()
    message = (
        f"{path}: a game store of version {VERSION + 1}, written by a newer reedboard"
        f" (this one knows versions up to {VERSION})"
    )
    for readonly in (False, True):
        with pytest.raises(StoreError) as err:
            GameStore(path, readonly=readonly)
        assert str(err.value) == message


def _sqlite(path: Path, *statements: str) -> None:
    db = sqlite3.connect(str(path))
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda p: p.write_text("game = 'solitaire'\n"),
            "not a reedboard game store (not an SQLite",
        ),
        (lambda p: p.write_bytes(b"x"), "not a reedboard game store (not an SQLite database)"),
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200), "not a reedboard"),
        (
            lambda p: _sqlite(p, "CREATE TABLE notes (x)"),
            "not a reedboard game store (an SQLite database with tables notes)",
        ),
        (
            lambda p: _sqlite(p, "PRAGMA application_id = 7", "CREATE TABLE games (x)"),
            "another program, application_id 0x7",
        ),
        (lambda p: _sqlite(p, "PRAGMA user_version = 3"), "user_version 3"),
        (
            lambda p: _sqlite(p, f"PRAGMA application_id = {APPLICATION_ID}", "CREATE TABLE a (x)"),
            "a damaged game store",
        ),
        (lambda p: p.mkdir(), "is a folder, not a game store file"),
        (lambda p: os.mkfifo(p), "not a regular file"),
    ],
    ids=["toml", "short", "garbage", "tables", "app", "version", "damaged", "folder", "fifo"],
)
def test_what_is_not_a_store_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, make: object, message: str
) -> None:
    path = tmp_path / "games.sqlite3"
    make(path)  # type: ignore[operator]
    before = path.read_bytes() if path.is_file() else None
    for readonly in (False, True):
        with pytest.raises(StoreError) as err:
            GameStore(path, readonly=readonly)
        text = str(err.value)
        assert text.startswith(f"{path}: ") and message in text and "\n" not in text
    with pytest.raises(StoreError, match="^" + str(path)):
        check_path(path)
    if before is not None:
        assert path.read_bytes() == before  # nothing written into somebody else's file


def test_a_folder_that_cannot_be_made_is_said(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    path = tmp_path / "file" / "sub" / "g.sqlite3"
    for attempt in (GameStore, check_path):
        with pytest.raises(StoreError) as err:
            attempt(path)
        assert (
            str(err.value) == f"{path}: cannot make its folder: {tmp_path / 'file'} is not a folder"
        )
    assert (tmp_path / "file").read_text() == "x"


def test_check_path_creates_nothing(tmp_path: Path) -> None:
    check_path(tmp_path / "a" / "b" / "g.sqlite3")
    assert list(tmp_path.iterdir()) == []
    GameStore(tmp_path / "g.sqlite3").close()
    check_path(tmp_path / "g.sqlite3")  # an existing store of ours is fine too


# -- a store that cannot be written -----------------------------------------------------------

UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
"""As root, permissions bind only a process without these capabilities."""


def unprivileged(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a command for whom file permissions count (as root: without root's overrides)."""
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: read-only files are writable")
        argv = UNPRIVILEGED + argv
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_store_is_refused_before_anything_is_shown(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    path = folder / "games.sqlite3"
    store = GameStore(path)
    game = store.new_game("fox-and-geese", {}, FOX)
    store.add_move(game, 0, "9-4")
    store.close()
    (path if what == "file" else folder).chmod(0o444 if what == "file" else 0o555)
    try:
        run = [sys.executable, "-m", "reedboard", "run", "--game", "fox-and-geese"]
        done = unprivileged([*run, "--database", str(path)], tmp_path)
        shown = unprivileged(
            [sys.executable, "-m", "reedboard", "history", "--database", str(path)], tmp_path
        )
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""  # not "resumed", not the banner: nothing before the refusal
    said = (
        f"{path}: the game store is read-only, and the daemon must write it"
        if what == "file"
        else f"{path}: cannot write in its folder {folder} (SQLite's log goes there)"
    )
    assert done.stderr == f"reedboard: error: {said}\n"
    # history only reads: it lists the store it cannot write
    assert (shown.returncode, shown.stderr) == (0, ""), shown.stderr
    assert shown.stdout == "1\tfox-and-geese\t1 move\tplaying\n"
    store = GameStore(path)
    assert [g.moves for g in store.games()] == [("9-4",)]
    store.close()


# -- writes -------------------------------------------------------------------------------


def test_a_failed_write_stores_nothing_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    game = store.new_game("fox-and-geese", {}, FOX)
    store.add_move(game, 0, "9-4")
    store.add_move(game, 1, "16-9")
    # the disk is full: SQLite may grow the file by no page more
    pages = store.pragma("page_count")
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    long = "x" * 20000  # a move that needs new pages
    with pytest.raises(StoreError) as err:
        store.add_move(game, 1, long)  # would replace 16-9: the delete must not stay either
    assert str(err.value).startswith(f"{path}: cannot store move 2 ({long[:5]}")
    assert "full" in str(err.value)
    assert store.unfinished("fox-and-geese").moves == ("9-4", "16-9")  # type: ignore[union-attr]
    store.close()
    again = GameStore(path)
    assert again.unfinished("fox-and-geese").moves == ("9-4", "16-9")  # type: ignore[union-attr]
    again.add_move(game, 2, "11-16")  # room again: writing goes on
    assert again.unfinished().moves == ("9-4", "16-9", "11-16")  # type: ignore[union-attr]
    again.close()


def test_writes_to_a_game_that_is_not_there_fail(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    for write in (
        lambda: store.add_move(7, 0, "9-4"),
        lambda: store.end_game(7, "abandoned"),
        lambda: store.reopen(7),
    ):
        with pytest.raises(StoreError, match="game 7"):
            write()
    assert list(store.games()) == []
    store.close()


def test_a_store_opened_to_read_refuses_to_write(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    GameStore(path).close()
    reader = GameStore(path, readonly=True)
    with pytest.raises(StoreError, match="opened only to read"):
        reader.new_game("solitaire", {}, SOLITAIRE)
    reader.close()


def test_a_v0_store_read_without_writing_is_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    v0_store(path)
    reader = GameStore(path, readonly=True)
    assert reader.version() == 0 and len(list(reader.games())) == 5
    reader.close()
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()


def test_each_kind_has_one_unfinished_game(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3", clock=iter(range(100)).__next__)
    fox = store.new_game("fox-and-geese", {}, FOX)
    sol = store.new_game("solitaire", {}, SOLITAIRE)
    assert store.unfinished("fox-and-geese").id == fox  # type: ignore[union-attr]
    assert store.unfinished().id == sol  # type: ignore[union-attr]
    fox2 = store.new_game("fox-and-geese", {}, FOX)  # a new game abandons the old one
    assert store.game(fox).status == "abandoned"  # type: ignore[union-attr]
    store.end_game(fox2, {"winner": "geese", "reason": "foxes-trapped"})
    fox3 = store.new_game("fox-and-geese", {}, FOX)
    store.reopen(fox2)  # a finished game taken back is its kind's one unfinished game
    assert store.game(fox3).status == "abandoned"  # type: ignore[union-attr]
    assert store.unfinished("fox-and-geese").id == fox2  # type: ignore[union-attr]
    assert store.unfinished("solitaire").id == sol  # type: ignore[union-attr]
    with pytest.raises(sqlite3.IntegrityError):  # and the file itself says so
        store._db.execute("UPDATE games SET ended = NULL WHERE id = ?", (fox,))
    store.close()


@pytest.mark.parametrize(
    ("outcome", "status"),
    [
        (None, "playing"),
        ("abandoned", "abandoned"),
        ({"winner": "fox", "reason": "geese-blocked"}, "won by fox (geese-blocked)"),
        ({"winner": None, "reason": "no-jumps"}, "over, nobody won (no-jumps)"),
        ("{not json", "ended ({not json)"),
    ],
)
def test_the_status_is_plain_words(tmp_path: Path, outcome: object, status: str) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game = store.new_game("fox-and-geese", {}, FOX)
    if outcome is not None:
        store.end_game(game, outcome)  # type: ignore[arg-type]
    record = store.game(game)
    assert record is not None and record.status == status
    assert "{" not in status or outcome == "{not json"
    store.close()


def test_a_record_with_broken_options_is_said_by_game(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    game = store.new_game("fox-and-geese", {}, FOX)
    store._db.execute("UPDATE games SET options = '[1' WHERE id = ?", (game,))
    with pytest.raises(StoreError, match=f"^{path}: game {game}: its options are not a JSON"):
        store.game(game)
    assert store.game(2**70) is None and store.game(-1) is None
    store.close()


def test_the_store_may_be_written_from_another_thread(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game = store.new_game("solitaire", {}, SOLITAIRE)
    errors: list[BaseException] = []

    def write(start: int) -> None:
        try:
            for ply in range(start, start + 50):
                store.add_move(game, ply, f"m{ply}")
        except BaseException as exc:  # pragma: no cover - the failure is the assertion
            errors.append(exc)

    writer = threading.Thread(target=write, args=(0,))
    writer.start()
    for _ in range(50):
        store.unfinished("solitaire")  # reads on this thread meanwhile
    writer.join(10)
    assert not errors
    assert store.unfinished().moves == tuple(f"m{i}" for i in range(50))  # type: ignore[union-attr]
    store.close()


def test_options_round_trip(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game = store.new_game("fox-and-geese-mcloughlin", {"empty": [16, 18]}, "x")
    record = store.game(game)
    assert record is not None and record.options == {"empty": [16, 18]}
    assert json.loads(store._db.execute("SELECT options FROM games").fetchone()[0]) == {
        "empty": [16, 18]
    }
    store.close()


def test_a_move_the_store_refused_is_not_claimed(tmp_path: Path) -> None:
    from tests.referee.rig import Rig

    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    rig = Rig("fox-and-geese", store=store)
    rig.move("9", "4")
    store._db.execute("PRAGMA query_only = ON")  # SQLite now refuses every write
    with contextlib.suppress(StoreError):  # said as the session chooses, but never claimed
        rig.move("16", "9")
    said = [a["text"] for a in rig.session.alerts if a["kind"] in ("move", "extend")]
    assert said == ["9-4"]
    store.close()
    again = GameStore(path)
    assert again.unfinished("fox-and-geese").moves == ("9-4",)  # type: ignore[union-attr]
    again.close()


@pytest.mark.parametrize("change", [True, False])
def test_a_move_that_ended_the_game_replaced_by_one_that_does_not_reopens_it(
    tmp_path: Path, change: bool
) -> None:
    # second thoughts (``replaces``) or a longer chain (``extends``) in place of the move
    # that ended the game: the recorder reopens it before writing the move
    store = GameStore(tmp_path / "g.sqlite3")
    record = Recorder(store)
    start = engine.start("fox-and-geese")
    first, other = sorted(start.legal_moves, key=str)[:2]
    record(NewGame(0.0, "fox-and-geese", {}, FOX))
    record(MoveCommitted(1.0, first, 0))
    record(GameOver(1.0, _Outcome()))
    assert store.unfinished("fox-and-geese") is None
    replaced = first if change else None
    record(MoveCommitted(2.0, other, 0, extends=not change, replaces=replaced, reopens=True))
    game = store.unfinished("fox-and-geese")
    assert game is not None and game.moves == (str(other),)
    store.close()


class _Outcome:
    def as_dict(self) -> dict[str, object]:
        return {"winner": "fox", "reason": "test"}
