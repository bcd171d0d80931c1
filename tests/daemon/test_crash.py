"""`kill -9` at random moments: a restarted daemon loses no committed move and plays on.

The daemon runs as a real process on the simulated board, driven through its console; each
"move: …" line it prints comes after the move is in the store. It is killed with SIGKILL at
random moments (mid-move, right after a commit), restarted on the same store, and the seed's
solitaire key is played to the end across the crashes."""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from reedboard.store.games import GameStore
from tests.engine.test_solitaire import SEED_KEY


def over(a: str, b: str) -> str:
    from reedboard import engine

    return str(engine.cross33(engine.Diagonals.NONE).over[(int(a), int(b))])


class Daemon:
    def __init__(self, db: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reedboard",
                "run",
                "--game",
                "solitaire",
                "--database",
                str(db),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for("new-game:", "resumed:")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *commands: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()

    def wait_for(self, *prefixes: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"daemon said none of {prefixes}"
            line = self.lines.get(timeout=left)
            if line.startswith(prefixes):
                return line

    def kill(self) -> list[str]:
        """SIGKILL; returns every move the daemon had announced."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        said = []
        while not self.lines.empty():
            said.append(self.lines.get())
        return said


def test_kill_9_at_random_moments_loses_no_committed_move(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rng = random.Random(9)
    announced: list[str] = []
    kills = 0
    daemon = Daemon(db)
    try:
        ply = 0
        while ply < len(SEED_KEY):
            a, b = SEED_KEY[ply].split("-")
            daemon.send(f"lift {a}", f"lift {over(a, b)}", f"place {b}")
            if rng.random() < 0.3 and kills < 6:  # kill: mid-move or just after the commit
                time.sleep(rng.choice([0.0, 0.03, 0.07, 0.2]))
                tail = daemon.kill()
                kills += 1
                announced += [line.split(": ", 1)[1] for line in tail if line.startswith("move: ")]
                store = GameStore(db)
                record = store.unfinished()
                store.close()
                assert record is not None
                stored = list(record.moves)
                assert stored[: len(announced)] == announced  # nothing announced is lost
                assert stored == SEED_KEY[: len(stored)]
                ply = len(stored)
                daemon = Daemon(db)
                continue
            announced.append(daemon.wait_for("move: ").split(": ", 1)[1])
            ply += 1
        daemon.wait_for("game-over: ")
    finally:
        daemon.kill()
    assert kills >= 3
    store = GameStore(db)
    games = list(store.games())
    store.close()
    assert len(games) == 1
    assert list(games[0].moves) == SEED_KEY
    assert games[0].outcome is not None and "player" in games[0].outcome
