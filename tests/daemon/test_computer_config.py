"""Choosing the computer: the config's ``computer`` and ``level``, ``run --computer --level``,
``hint --level``; and the daemon playing against a person on the simulated board."""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.daemon.config import Config, load_config
from reedboard.daemon.core import Daemon
from reedboard.wiring.tomlfile import WiringError
from tests.engine.random_play import random_position


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_config_names_the_computers_sides_and_level(tmp_path: Path) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text('game = "fox-and-rabbit-4"\ncomputer = ["RF", "gf"]\nlevel = 5\n')
    config = load_config(path)
    assert config.computer == ("RF", "gf") and config.level == 5
    path.write_text('game = "fox-and-geese"\ncomputer = "geese"\n')
    config = load_config(path)
    assert config.computer == ("geese",) and config.level == 3  # one side; the default level
    path.write_text('game = "fox-and-geese"\n')
    assert load_config(path).computer == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "skip"\ncomputer = ["green"]', r":2: computer: 'green' is no side of skip"),
        ('game = "parchesi"\ncomputer = ["green"]', r":2: computer: 'green' is no side of"),
        ('game = "skip"\ncomputer = 3', r":2: computer: expected a list of sides"),
        ('game = "skip"\ncomputer = [1]', r":2: computer: expected a list of sides"),
        ('game = "skip"\nlevel = 0', r":2: level: 0 is outside 1-5"),
        ('game = "skip"\nlevel = 6', r":2: level: 6 is outside 1-5"),
        ('game = "skip"\nlevel = "top"', r":2: level: expected a whole number"),
        ('game = "skip"\nlevel = 2.5', r":2: level: expected a whole number"),
        ('game = "skip"\nlevel = true', r":2: level: expected a whole number"),
    ],
)
def test_a_bad_computer_or_level_is_one_line_naming_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(text + "\n")
    with pytest.raises(WiringError, match=message) as err:
        load_config(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--computer", "green"], "--computer: 'green' is no side of skip"),
        (["--computer", "red,"], "--computer 'red,': name a side, like fox"),
        (["--computer", ""], "--computer '': name a side, like fox"),
        (["--level", "0"], "argument --level: '0' is outside 1 to 5"),
        (["--level", "x"], "argument --level: 'x' is not a whole number (1 to 5)"),
    ],
)
def test_run_refuses_bad_computer_flags_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    db = tmp_path / "g.sqlite3"
    code, out, err = run(capsys, "run", "--game", "skip", "--database", str(db), *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("reedboard: error: ")
    assert not db.exists()  # nothing was made


def test_run_checks_the_configs_sides_against_the_game_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(f'game = "fox-and-geese"\ncomputer = ["fox"]\ndatabase = "{tmp_path}/g.db"\n')
    code, _, err = run(capsys, "run", "--config", str(path), "--game", "skip")
    assert (
        code == 2
        and err == "reedboard: error: computer: 'fox' is no side of skip (sides: red, blue)\n"
    )


SENSED = [g for g in engine.game_ids() if g != "solitaire"]


@pytest.mark.parametrize("game", SENSED)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**16), level=st.integers(1, 4))
def test_hint_at_a_level_prints_a_legal_move(game: str, seed: int, level: int) -> None:
    position = random_position(game, seed, random.Random(seed).randint(0, 12))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["hint", game, "--position", position.to_text(), "--level", str(level)])
    assert code == 0
    said = out.getvalue().strip()
    if position.is_over() or position.is_chance():
        assert said == "none"
    else:
        assert position.parse_move(said) in position.legal_moves


def test_hint_is_the_top_level_unless_told_and_takes_a_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    position = "WR@e6 RF@i1 turn=WR dice=3,1"
    code, out, _ = run(capsys, "hint", "fox-and-rabbit", "--position", position)
    assert code == 0 and out == "WR e6-e9\n"  # home: a win
    top = run(capsys, "hint", "skip", "--level", "5")[1]
    assert top == run(capsys, "hint", "skip")[1]  # the top level is the default
    code, _, err = run(capsys, "hint", "skip", "--level", "6")
    assert code == 2 and "argument --level: '6' is outside 1 to 5" in err


def test_the_daemon_plays_the_computers_side_and_its_move_plays_itself_on_the_simulator(
    tmp_path: Path,
) -> None:
    said: list[str] = []
    config = Config(
        game="fox-and-geese",
        database=tmp_path / "g.sqlite3",
        settle=0.01,
        computer=("fox",),
        level=2,
    )
    daemon = Daemon(config, out=said.append)

    async def said_n(prefix: str, n: int, task: asyncio.Task[None]) -> str:
        while sum(1 for s in said if s.startswith(prefix)) < n and not task.done():
            await asyncio.sleep(0.01)
        return [s for s in said if s.startswith(prefix)][n - 1]

    async def scenario() -> list[str]:
        task = asyncio.create_task(daemon.run())
        rng = random.Random(4)
        async with asyncio.timeout(20):
            for turn in range(1, 4):
                shown = await said_n("carry-out:", turn, task)  # the fox's move, lit
                move = re.fullmatch(r"carry-out: (\S+) \(computer\)", shown)
                assert move is not None, shown
                await said_n("move:", 2 * turn - 1, task)  # carried out by the board's hand
                while daemon.computer is not None and daemon.session.position.turn != "geese":
                    await asyncio.sleep(0.01)
                while daemon.session.state.value != "playing":
                    await asyncio.sleep(0.01)
                reply = rng.choice(list(daemon.session.position.legal_moves))
                daemon.command(f"move {reply}")  # the geese's move, by hand
                await said_n("move:", 2 * turn, task)
        assert not task.done(), task.exception()
        daemon.stop.set()
        await asyncio.wait_for(task, 5)
        return [str(m) for m in daemon.session.moves]

    moves = asyncio.run(scenario())
    assert len(moves) >= 6
    replay = engine.start("fox-and-geese")
    for m in moves:
        replay.push_text(m)  # every move legal, in order
    assert not [s for s in said if s.startswith(("mismatch:", "error:", "takeback:"))]
