"""A full disk, made real with RLIMIT_FSIZE in a process of its own (Python ignores SIGXFSZ,
so a write past the limit fails with EFBIG as on a full card): the moves are kept, said once,
and written when there is room again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import resource, sys, time
from reedboard.store.games import GameStore
from reedboard.store.writer import StoreWriter
path = sys.argv[1]
writer = StoreWriter(GameStore(path))
game = writer.new_game("solitaire", {}, "start")
writer.wait()
import os
size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 4096, hard))  # the disk is full
for ply in range(400):
    writer.add_move(game, ply, "m%d-%s" % (ply, "x" * 200))
writer.wait()
print("behind", writer.behind, "failure", writer.take_failure() is not None)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
deadline = time.monotonic() + 20
while writer.behind and time.monotonic() < deadline:
    time.sleep(0.05)
print("behind", writer.behind, "caught", writer.take_caught_up() is not None)
writer.close()
store = GameStore(path, readonly=True)
record = store.game(game)
print("moves", len(record.moves), record.moves[-1].split("-")[0])
"""


def test_a_full_disk_keeps_every_move_and_writes_them_when_there_is_room(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "games.sqlite3")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines == ["behind True failure True", "behind False caught True", "moves 400 m399"], (
        lines,
        done.stderr[-500:],
    )
    assert "cannot store" in done.stderr and "(kept)" in done.stderr  # said, and kept
