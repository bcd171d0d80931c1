"""The game store: every committed move is written to SQLite before the LEDs change.

stdlib ``sqlite3`` in WAL mode with ``synchronous=FULL``: a move the daemon has committed
survives ``kill -9`` and a power cut. After a restart the daemon resumes the unfinished game
of the kind it plays by replaying its moves from its starting position; each kind of game has
at most one unfinished game (starting another abandons it).

The file says what it is: ``PRAGMA application_id`` marks it as reedboard's and ``PRAGMA
user_version`` is its schema version. Opening checks it all before anything else happens: a
folder, a folder that cannot be made, a file that is not SQLite or is another program's, a
store from a newer reedboard, or one the daemon cannot write is refused with one line naming
the file (:class:`StoreError`). An older store is migrated in place, in one transaction
(:data:`MIGRATIONS`); a new one is made as version 0 and migrated like any other. A write that
fails is rolled back whole and raises :class:`StoreError`, so nothing is claimed that is not
stored.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reedboard import engine
from reedboard.errors import ControllerError

if TYPE_CHECKING:
    from reedboard.engine import Position

APPLICATION_ID = 0x72656564
"""``PRAGMA application_id`` of a reedboard store: ``reed`` in ASCII."""

SCHEMA_V0 = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,           -- JSON object of game options
    start    TEXT NOT NULL,           -- the starting position's text form
    started  REAL NOT NULL,           -- unix time
    ended    REAL,                    -- NULL while the game goes on
    outcome  TEXT                     -- JSON {"winner", "reason"}, or "abandoned"
);
CREATE TABLE moves (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    ply      INTEGER NOT NULL,        -- 0 for the first move (throws count as moves)
    move     TEXT NOT NULL,           -- the engine's text form
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""
"""The tables as the first reedboard made them (user_version 0, no application_id)."""

TABLES = {
    "games": ("id", "game", "options", "start", "started", "ended", "outcome"),
    "moves": ("game_id", "ply", "move", "at"),
}
"""The columns every version so far has (a store lacking one is not ours, or is damaged)."""

_WHOLE: dict[str, tuple[int, int, int]] = {}
"""Stores found whole by the integrity check: path -> (inode, mtime, size) then."""

MAX_ID = 2**63 - 1
"""The largest id SQLite can hold."""


def _to_v1(db: sqlite3.Connection) -> None:
    """Version 1: one unfinished game per kind. Version 0 left a kind's game "playing" when
    another kind was started; of each kind's unfinished games the latest goes on, the
    others are abandoned as of their last move."""
    db.execute(
        "UPDATE games SET outcome = 'abandoned',"
        " ended = COALESCE((SELECT MAX(at) FROM moves WHERE game_id = games.id), started)"
        " WHERE ended IS NULL AND id NOT IN"
        " (SELECT MAX(id) FROM games WHERE ended IS NULL GROUP BY game)"
    )
    db.execute("CREATE UNIQUE INDEX one_unfinished_per_game ON games(game) WHERE ended IS NULL")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _to_v2(db: sqlite3.Connection) -> None:
    """Version 2: second thoughts. A move changed for another of the same side before the
    other side played keeps the move it replaced, beside the move at its ply."""
    db.execute(
        "CREATE TABLE changes ("
        " game_id INTEGER NOT NULL REFERENCES games(id),"
        " ply INTEGER NOT NULL,"  # the ply whose move was changed
        " replaced TEXT NOT NULL,"  # the move first taken there (the engine's text form)
        " at REAL NOT NULL)"
    )


def _to_v3(db: sqlite3.Connection) -> None:
    """Version 3: notes. What a game's remote play agreed and refused beside its moves: each
    dice exchange, a fresh exchange refused, a reveal held back, the game abandoned."""
    db.execute(
        "CREATE TABLE notes ("
        " game_id INTEGER NOT NULL REFERENCES games(id),"
        " ply INTEGER NOT NULL,"  # the game's length when it was said
        " kind TEXT NOT NULL,"  # remote-dice, remote-abandoned, ...
        " text TEXT NOT NULL,"
        " at REAL NOT NULL)"
    )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_to_v1, _to_v2, _to_v3)
"""``MIGRATIONS[v]`` takes a store from version ``v`` to ``v + 1``."""

VERSION = len(MIGRATIONS)
"""The schema version this code writes."""


def default_path() -> Path:
    """``$REEDBOARD_DB`` (``~`` is the home folder), else
    ``$XDG_DATA_HOME/reedboard/games.sqlite3``; StoreError naming the variable for a value
    that keeps nothing or names no file."""
    env = os.environ.get("REEDBOARD_DB")
    if env is not None and env != "":
        value = env.strip()
        if not value:
            raise StoreError(f"REEDBOARD_DB={env!r}: names no file (unset it for the default)")
        if value == ":memory:" or value.startswith("file:"):
            raise StoreError(f"REEDBOARD_DB={value!r}: keeps nothing on disk; name a file")
        try:
            return Path(value).expanduser()
        except RuntimeError:  # ~nosuchuser
            raise StoreError(f"REEDBOARD_DB={value!r}: no such home folder") from None
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

    def start_position(self) -> Position[Any, Any]:
        """The game's position before its first move."""
        return engine.game(self.game).from_text(self.start, **self.options)

    def position(self) -> Position[Any, Any]:
        """The game's position now: its start with every stored move played (the one replay
        of a stored game: the session resuming it, the daemon's board, history)."""
        position = self.start_position()
        for text in self.moves:
            position.push_text(text)
        return position

    @property
    def status(self) -> str:
        """For people: ``playing``, ``won by fox (geese-blocked)``, ``abandoned`` …"""
        if self.ended is None:
            return "playing"
        if self.outcome in (None, "abandoned"):
            return self.outcome or "ended"
        try:
            over = json.loads(self.outcome)
        except ValueError:
            over = None
        if not isinstance(over, dict):
            return f"ended ({self.outcome})"
        if over.get("reason") == "abandoned" and over.get("by"):
            return f"abandoned by {over['by']}"
        why = f" ({over['reason']})" if over.get("reason") else ""
        winner = over.get("winner")
        return f"won by {winner}{why}" if winner else f"over, nobody won{why}"


class StoreError(ControllerError):
    """The game store cannot be opened, read or written, or is not ours; the message names
    the file."""


def check_path(path: str | Path) -> None:
    """Say whether a game store could be opened at ``path`` for writing, creating nothing:
    raises :class:`StoreError` as :class:`GameStore` would (for a daemon that must fail
    before it makes anything)."""
    p = Path(path)
    _check_file(p)
    folder = _existing_folder(p)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"{p}: cannot write in its folder {folder}")
    if p.exists():
        GameStore(p, readonly=True).close()
        if not os.access(p, os.W_OK):
            raise StoreError(f"{p}: the game store is read-only, and the daemon must write it")


SQLITE_HEADER = b"SQLite format 3\x00"


def _check_file(path: Path) -> None:
    """A folder, a device, or a file that is not SQLite (SQLite would take a file shorter
    than its header for an empty database, and overwrite it) is no game store."""
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not a game store file")
    if not path.exists():
        return
    if not path.is_file():
        raise StoreError(f"{path}: not a regular file, so not a game store")
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the game store: {exc.strerror or exc}") from None
    if head and head != SQLITE_HEADER:
        raise StoreError(f"{path}: not a reedboard game store (not an SQLite database)")


def _existing_folder(path: Path) -> Path:
    """The nearest folder above ``path`` that exists; refused if it is a file."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise StoreError(f"{path}: cannot make its folder: {folder} is not a folder")
    return folder


class GameStore:
    """The games and their moves. One connection, safe to share between threads (a lock
    keeps its calls apart). ``readonly=True`` opens an existing store only to read it
    (``reedboard history``): nothing is created, written or migrated."""

    def __init__(self, path: str | Path, clock: Any = time.time, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._clock = clock
        self._lock = threading.RLock()
        memory = str(path) == ":memory:"
        if not memory:
            _check_file(self.path)
            if not readonly:
                self._make_folder()
        if readonly and not memory:
            uri = self.path.resolve().as_uri()
            try:
                self._open(f"{uri}?mode=ro")
            except StoreError:
                # a store at rest in a folder we cannot write: SQLite cannot make the WAL's
                # index to read it by, and with no WAL left nothing is missed by reading the
                # file as it stands
                if Path(f"{self.path}-wal").exists():
                    raise
                self._open(f"{uri}?immutable=1")
        else:
            self._open(str(path))

    def _open(self, where: str) -> None:
        try:
            self._db = sqlite3.connect(
                where, uri=where.startswith("file:"), isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the game store: {exc}") from None
        try:
            self._prepare()
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(self._why(exc)) from None
        except BaseException:
            self._db.close()
            raise

    def _make_folder(self) -> None:
        _existing_folder(self.path)
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"{self.path}: cannot make its folder {folder}: {exc.strerror or exc}"
            ) from None

    def _why(self, exc: sqlite3.Error) -> str:
        text = str(exc)
        if "not a database" in text:
            return f"{self.path}: not a reedboard game store (not an SQLite database)"
        if self.readonly:
            return f"{self.path}: cannot read the game store: {text}"
        for beside in (f"{self.path}-shm", f"{self.path}-wal"):
            if Path(beside).is_dir():  # SQLite's own files beside the store: not folders
                return f"{beside}: a folder where SQLite keeps a file of the store: move it"
        if "readonly" in text or "read-only" in text:
            folder = self.path.parent
            if not os.access(folder, os.W_OK | os.X_OK):
                return f"{self.path}: cannot write in its folder {folder} (SQLite's log goes there)"
            return f"{self.path}: the game store is read-only, and the daemon must write it"
        if "unable to open" in text:
            return f"{self.path}: cannot open the game store (can its folder be written?)"
        if "locked" in text or "busy" in text:
            return f"{self.path}: the game store is busy (another reedboard writing it?)"
        return f"{self.path}: cannot open the game store: {text}"

    def _prepare(self) -> None:
        """Check the file is ours and of a version we know; migrate it; prove it writable."""
        db = self._db
        db.execute("BEGIN")  # looked at before anything is changed: it may be somebody else's
        try:
            if self._version() is not None:
                self._check_whole()
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        if self.readonly:
            return
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version is None:  # a new store: made as the first one was, then migrated
                for statement in SCHEMA_V0.split(";"):
                    if statement.strip():
                        db.execute(statement)
                version = 0
            for migrate in MIGRATIONS[version:]:
                migrate(db)
            # written even when nothing changed: a store the daemon cannot write is said now,
            # not after it has said "resumed" and a move is made
            db.execute(f"PRAGMA user_version = {VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    def _check_whole(self) -> None:
        """StoreError when the file is damaged (SQLite's integrity check, which reads every
        page once), saying what to do; a damaged store is never shown as an empty one. A file
        found whole is not read again while it stays as it was (the web view's history opens
        the store for each page)."""
        try:
            st = os.stat(self.path)
            seen = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            seen = None
        key = str(self.path.resolve())
        if seen is not None and _WHOLE.get(key) == seen:
            return
        try:
            found = [row[0] for row in self._db.execute("PRAGMA integrity_check(3)")]
        except sqlite3.DatabaseError as exc:
            found = [str(exc)]
        if found == ["ok"] and seen is not None:
            if len(_WHOLE) > 64:
                _WHOLE.clear()
            _WHOLE[key] = seen
        if found != ["ok"]:
            what = "; ".join(str(f) for f in found)[:200]
            raise StoreError(
                f"{self.path}: the game store is damaged ({what}): keep a copy, then"
                f" recover it (sqlite3 {self.path} .recover) or move it away to start afresh"
            )

    def _version(self) -> int | None:
        """The file's schema version, ``None`` for an empty database; refuses what is not a
        reedboard store or is newer than this code."""
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            name: tuple(c for (c,) in db.execute("SELECT name FROM pragma_table_info(?)", (name,)))
            for (name,) in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        where = self.path
        if app == APPLICATION_ID:
            if version > VERSION:
                raise StoreError(
                    f"{where}: a game store of version {version}, written by a newer reedboard"
                    f" (this one knows versions up to {VERSION})"
                )
            missing = [t for t, cols in TABLES.items() if tables.get(t) != cols]
            if missing:
                raise StoreError(f"{where}: a damaged game store (table {missing[0]} is wrong)")
            return int(version)
        if app != 0:
            raise StoreError(
                f"{where}: not a reedboard game store (an SQLite database of another program,"
                f" application_id {app:#x})"
            )
        if version != 0:
            raise StoreError(
                f"{where}: not a reedboard game store (an SQLite database of user_version"
                f" {version})"
            )
        if not tables:
            return None
        if tables == TABLES:
            return 0  # written by reedboard before stores had a version
        raise StoreError(
            f"{where}: not a reedboard game store (an SQLite database with tables"
            f" {', '.join(sorted(tables))})"
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def version(self) -> int:
        """The store's schema version (``PRAGMA user_version``)."""
        return int(self.pragma("user_version"))

    def pragma(self, name: str) -> Any:
        """A PRAGMA's value (``journal_mode``, ``synchronous``): how the store keeps moves."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        with self._read():
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def new_game(self, game: str, options: dict[str, Any], start: str) -> int:
        """Begin a game; an unfinished game of the same kind is abandoned."""
        with self._write(f"store a new game of {game}") as db:
            now = self._clock()
            db.execute(
                "UPDATE games SET ended = ?, outcome = 'abandoned'"
                " WHERE game = ? AND ended IS NULL",
                (now, game),
            )
            cur = db.execute(
                "INSERT INTO games (game, options, start, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True), start, now),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def add_move(self, game_id: int, ply: int, move: str) -> None:
        """Record the move at ``ply``, replacing whatever stood there and after it (a longer
        jump chain replaces its prefix; a move after a takeback replaces the line)."""
        with self._write(f"store move {ply + 1} ({move}) of game {game_id}") as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "INSERT INTO moves (game_id, ply, move, at) VALUES (?, ?, ?, ?)",
                (game_id, ply, move, self._clock()),
            )

    def add_change(self, game_id: int, ply: int, replaced: str, move: str) -> None:
        """Second thoughts: ``move`` replaces ``replaced`` at ``ply``; both are kept."""
        with self._write(f"store move {ply + 1} ({move}, changed from {replaced})") as db:
            db.execute(
                "INSERT INTO changes (game_id, ply, replaced, at) VALUES (?, ?, ?, ?)",
                (game_id, ply, replaced, self._clock()),
            )
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "INSERT INTO moves (game_id, ply, move, at) VALUES (?, ?, ?, ?)",
                (game_id, ply, move, self._clock()),
            )

    def changes(self, game_id: int) -> list[tuple[int, str]]:
        """The moves changed on second thoughts in a game: (ply, the move first taken)."""
        with self._read():
            rows = self._db.execute(
                "SELECT ply, replaced FROM changes WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        return [(int(ply), str(replaced)) for ply, replaced in rows]

    def add_note(self, game_id: int, ply: int, kind: str, text: str) -> None:
        """A line said in a game that is kept beside its moves (remote play's dice)."""
        with self._write(f"store a note of game {game_id}") as db:
            db.execute(
                "INSERT INTO notes (game_id, ply, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, ply, kind, text[:500], self._clock()),
            )

    def notes(self, game_id: int) -> list[tuple[int, str, str]]:
        """A game's notes, in order: (ply, kind, text)."""
        with self._read():
            rows = self._db.execute(
                "SELECT ply, kind, text FROM notes WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        return [(int(ply), str(kind), str(text)) for ply, kind, text in rows]

    def truncate(self, game_id: int, plies: int) -> None:
        """Keep only the first ``plies`` moves (a takeback)."""
        with self._write(f"take back game {game_id} to move {plies}") as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, plies))

    def end_game(self, game_id: int, outcome: dict[str, Any] | str) -> None:
        text = outcome if isinstance(outcome, str) else json.dumps(outcome, sort_keys=True)
        with self._write(f"store the end of game {game_id}") as db:
            cur = db.execute(
                "UPDATE games SET ended = ?, outcome = ? WHERE id = ?",
                (self._clock(), text, game_id),
            )
            if cur.rowcount != 1:
                raise sqlite3.DataError(f"there is no game {game_id}")

    def reopen(self, game_id: int) -> None:
        """A finished game taken back, or its last move changed for one that does not end
        it: it goes on (and is its kind's one unfinished game)."""
        with self._write(f"reopen game {game_id}") as db:
            db.execute(
                "UPDATE games SET ended = ?, outcome = 'abandoned' WHERE ended IS NULL"
                " AND id != ? AND game = (SELECT game FROM games WHERE id = ?)",
                (self._clock(), game_id, game_id),
            )
            cur = db.execute(
                "UPDATE games SET ended = NULL, outcome = NULL WHERE id = ?", (game_id,)
            )
            if cur.rowcount != 1:
                raise sqlite3.DataError(f"there is no game {game_id}")

    def unfinished(self, game: str | None = None) -> GameRecord | None:
        """The unfinished game of kind ``game`` (of any kind: the latest), if there is one."""
        with self._read():
            if game is None:
                row = self._db.execute(
                    "SELECT id FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1"
                ).fetchone()
            else:
                row = self._db.execute(
                    "SELECT id FROM games WHERE ended IS NULL AND game = ?"
                    " ORDER BY id DESC LIMIT 1",
                    (game,),
                ).fetchone()
            return self.game(row[0]) if row else None

    def game(self, game_id: int) -> GameRecord | None:
        if not 0 <= game_id <= MAX_ID:
            return None
        with self._read():
            row = self._db.execute(
                "SELECT id, game, options, start, started, ended, outcome FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            moves = tuple(
                str(m)
                for (m,) in self._db.execute(
                    "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                )
            )
        try:
            options = json.loads(row[2])
        except (TypeError, ValueError):
            options = None
        if not isinstance(options, dict):
            raise StoreError(f"{self.path}: game {game_id}: its options are not a JSON object")
        return GameRecord(row[0], row[1], options, row[3], row[4], row[5], row[6], moves)

    def games(self) -> Iterator[GameRecord]:
        with self._read():
            ids = [game_id for (game_id,) in self._db.execute("SELECT id FROM games ORDER BY id")]
        for game_id in ids:
            record = self.game(game_id)
            if record is not None:
                yield record

    @contextlib.contextmanager
    def _read(self) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot read the game store: {exc}") from None

    @contextlib.contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it is stored, or none of it and :class:`StoreError`."""
        db = self._db
        with self._lock:
            try:
                if self.readonly:
                    raise sqlite3.OperationalError("opened only to read")
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        with contextlib.suppress(sqlite3.Error):
                            db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot {what}: {exc}") from None
