"""The game store: every committed move is written to SQLite before the LEDs change.

stdlib ``sqlite3`` in WAL mode with ``synchronous=FULL``: a move the daemon has committed
survives ``kill -9`` and a power cut. After a restart the daemon resumes the last unfinished
game by replaying its moves from its starting position.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
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


def default_path() -> Path:
    """``$REEDBOARD_DB``, else ``$XDG_DATA_HOME/reedboard/games.sqlite3``."""
    if env := os.environ.get("REEDBOARD_DB"):
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "reedboard" / "games.sqlite3"


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    start: str
    started: float
    ended: float | None
    outcome: str | None
    moves: tuple[str, ...]


class StoreError(Exception):
    """The game store cannot be opened or is not ours; the message names the file."""


class GameStore:
    def __init__(self, path: str | Path, clock: Any = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False: controller/writer.py writes from a thread of its own
            # (one thread at a time: it hands the connection back when its queue is empty)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{path}: cannot open the game store: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def pragma(self, name: str) -> Any:
        """A PRAGMA's value (``journal_mode``, ``synchronous``): how the store keeps moves."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def new_game(self, game: str, options: dict[str, Any], start: str) -> int:
        with self._tx():
            cur = self._db.execute(
                "INSERT INTO games (game, options, start, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True), start, self._clock()),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def add_move(self, game_id: int, ply: int, move: str) -> None:
        """Record the move at ``ply``, replacing whatever stood there and after it (a longer
        jump chain replaces its prefix; a move after a takeback replaces the line)."""
        with self._tx():
            self._db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            self._db.execute(
                "INSERT INTO moves (game_id, ply, move, at) VALUES (?, ?, ?, ?)",
                (game_id, ply, move, self._clock()),
            )

    def truncate(self, game_id: int, plies: int) -> None:
        """Keep only the first ``plies`` moves (a takeback)."""
        with self._tx():
            self._db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, plies))

    def end_game(self, game_id: int, outcome: dict[str, Any] | str) -> None:
        text = outcome if isinstance(outcome, str) else json.dumps(outcome, sort_keys=True)
        with self._tx():
            self._db.execute(
                "UPDATE games SET ended = ?, outcome = ? WHERE id = ?",
                (self._clock(), text, game_id),
            )

    def reopen(self, game_id: int) -> None:
        """A finished game taken back: it goes on."""
        with self._tx():
            self._db.execute(
                "UPDATE games SET ended = NULL, outcome = NULL WHERE id = ?", (game_id,)
            )

    def unfinished(self) -> GameRecord | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return self.game(row[0]) if row else None

    def game(self, game_id: int) -> GameRecord | None:
        row = self._db.execute(
            "SELECT id, game, options, start, started, ended, outcome FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        moves = tuple(
            m
            for (m,) in self._db.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        )
        return GameRecord(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6], moves)

    def games(self) -> Iterator[GameRecord]:
        for (game_id,) in self._db.execute("SELECT id FROM games ORDER BY id").fetchall():
            record = self.game(game_id)
            if record is not None:
                yield record

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
