"""The black box (reedboard/daemon/blackbox.py): the daemon on the simulated board records the
game's sensor events as a trace that replays to the same moves; a new game starts a new
recording; a write that fails is said once and the game goes on; past its line cap the oldest
lines go and the trace is kept under its truncated name."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon import blackbox
from reedboard.daemon.blackbox import BlackBox, blackbox_path
from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.referee.dice import SeededDice
from reedboard.sim.trace import Trace, check_trace, load_trace, replay
from tests.daemon.loop import run

GAME = "fox-and-rabbit"


def daemon_of(tmp_path: Path, said: list[str] | None = None) -> Daemon:
    out = said.append if said is not None else (lambda _text: None)
    config = Config(game=GAME, database=tmp_path / "games.sqlite3")
    return Daemon(config, out=out, dice=SeededDice(7))


async def plies(daemon: Daemon, n: int) -> None:
    """Wait until the game has ``n`` moves (throws count), and the session has said them."""
    while len(daemon.session.position.move_stack) < n or daemon.session.events.holding:
        await asyncio.sleep(0.01)


async def play(daemon: Daemon, commands: list[str], start: int = 0) -> None:
    """Each console command in turn (a move made as a hand makes it), waiting for its ply."""
    for n, command in enumerate(commands, start=start + 1):
        assert daemon.command(command) is None, command
        await plies(daemon, n)


def moves(daemon: Daemon) -> list[str]:
    return [str(m) for m in daemon.session.position.move_stack]


def replayed(daemon: Daemon, trace: Trace) -> list[str]:
    config = daemon.config
    session = replay(trace, settle=config.settle, grace=config.grace, hold=config.hold)
    return [str(m) for m in session.position.move_stack]


def test_the_black_box_replays_to_the_daemons_moves(tmp_path: Path) -> None:
    daemon = daemon_of(tmp_path)

    async def scenario() -> None:
        await play(daemon, ["move dice=5,2", "move WR a1-c6", "move dice=3,3", "move RF i1-f4"])
        daemon.command("press roll")  # thrown by the daemon's own dice: values not given here
        await plies(daemon, 5)

    run(daemon, scenario)
    assert moves(daemon)[:4] == ["dice=5,2", "WR a1-c6", "dice=3,3", "RF i1-f4"]
    assert len(moves(daemon)) == 5
    path = tmp_path / "games.sqlite3.blackbox.jsonl"
    assert path == blackbox_path(daemon.config.database) and path.is_file()
    trace = load_trace(path)
    assert trace.game == GAME
    assert trace.occupied == {"a1", "i1"}  # where the pieces stood when the game began
    kinds = [next(k for k in ("point", "dice", "button") if k in line) for line in trace.lines]
    assert kinds == (["dice", "button"] + ["point"] * 2) * 2 + ["dice", "button"]
    assert [line["dice"] for line in trace.lines if "dice" in line] == [
        [5, 2],
        [3, 3],
        list(daemon.session.position.throw_values(daemon.session.position.move_stack[4])),
    ]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # renamed, not left
    assert replayed(daemon, trace) == moves(daemon)


def test_a_new_game_starts_a_new_recording(tmp_path: Path) -> None:
    daemon = daemon_of(tmp_path)

    async def scenario() -> None:
        await play(daemon, ["move dice=5,2", "move WR a1-c6"])
        daemon.command("press new")  # (the simulated board's hand sets the start out)
        while daemon.session.position.move_stack or daemon.board.snapshot() != {"a1", "i1"}:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        await play(daemon, ["move dice=4,1", "move WR a1-b5"])

    run(daemon, scenario)
    assert moves(daemon) == ["dice=4,1", "WR a1-b5"]
    trace = load_trace(blackbox_path(daemon.config.database))
    assert trace.occupied == {"a1", "i1"}  # the board when `new` began the game
    points = [line for line in trace.lines if "point" in line]
    assert {"t": points[0]["t"], "point": "a1", "on": False} == points[0]  # none of the old game
    assert not [line for line in trace.lines if line.get("button") == "new"]
    assert [line["dice"] for line in trace.lines if "dice" in line] == [[4, 1]]
    assert replayed(daemon, trace) == moves(daemon)


@pytest.mark.error_logs
def test_a_write_that_fails_is_said_once_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    daemon = daemon_of(tmp_path)
    box = daemon.blackbox
    box.path = folder / "games.sqlite3.blackbox.jsonl"
    box.truncated_path = folder / "games.sqlite3.blackbox.truncated.jsonl"
    box.every = 0.05
    tries: list[Path] = []
    write = blackbox._write_file

    def counted(path: Path, *args: Any) -> None:
        tries.append(path)
        write(path, *args)

    monkeypatch.setattr(blackbox, "_write_file", counted)
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root writes into a read-only folder: a folder in the way fails
        folder.chmod(0o755)
        box.path.mkdir()
        box.truncated_path.mkdir()

    async def scenario() -> None:
        await play(daemon, ["move dice=5,2"])
        while len(tries) < 2:
            await asyncio.sleep(0.01)
        await play(daemon, ["move WR a1-c6", "move dice=3,3"], start=1)
        await asyncio.sleep(0.2)

    try:
        with caplog.at_level(logging.WARNING, logger="reedboard"):
            run(daemon, scenario)
    finally:
        folder.chmod(0o755)
    assert moves(daemon) == ["dice=5,2", "WR a1-c6", "dice=3,3"]  # the game went on
    assert len(tries) >= 3  # tried again, and at the stop
    said = [r for r in caplog.records if r.name == "reedboard.daemon.blackbox"]
    assert len(said) == 1, [r.getMessage() for r in said]
    assert said[0].levelno == logging.ERROR and "\n" not in said[0].getMessage()
    assert str(box.path) in said[0].getMessage() and not said[0].exc_info
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_past_its_line_cap_the_oldest_lines_go_under_the_truncated_name(tmp_path: Path) -> None:
    daemon = daemon_of(tmp_path)
    box = daemon.blackbox
    box.limit, box.every = 5, 0.05
    full = BlackBox(tmp_path / "full.blackbox.jsonl")  # the same game, uncapped
    daemon.extensions.append(full)
    whole = blackbox_path(daemon.config.database)

    async def scenario() -> None:
        await play(daemon, ["move dice=5,2"])
        while not whole.exists():  # written whole while it is short
            await asyncio.sleep(0.01)
        await play(daemon, ["move WR a1-c6", "move dice=3,3", "move RF i1-f4"], start=1)

    run(daemon, scenario)
    assert not whole.exists()  # the whole trace's file gave way to the truncated one
    cut = load_trace(blackbox_path(daemon.config.database, truncated=True))
    uncut = load_trace(tmp_path / "full.blackbox.jsonl")
    assert len(uncut.lines) == 8 and len(cut.lines) == 5
    untimed = [
        [{k: v for k, v in line.items() if k != "t"} for line in t.lines] for t in (cut, uncut)
    ]
    assert untimed[0] == untimed[1][-5:]  # (each box counts from its own start)
    assert cut.occupied == {"i1"}  # what the dropped lines left (a throw, the rabbit lifted)
    assert uncut.occupied == {"a1", "i1"}
    check_trace(cut)  # it reads and checks as a trace
    assert replayed(daemon, uncut) == moves(daemon)
