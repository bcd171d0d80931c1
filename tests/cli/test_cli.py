"""The `reedboard` command line, exactly as docs/design.md "The CLI" specifies it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from reedboard import engine
from reedboard.cli.main import main
from tests.engine.test_solitaire import SEED_KEY


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game_id_one_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert out.splitlines() == engine.game_ids()
    assert {"fox-and-geese", "fox-and-geese-mcloughlin", "solitaire"} <= set(out.split())


def test_apply_replays_the_seed_key_to_a_won_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "apply", "solitaire", *SEED_KEY)
    assert code == 0
    assert json.loads(out) == {
        "position": "................o................ -",
        "outcome": {"winner": "player", "reason": "solved"},
    }


def test_apply_with_no_moves_prints_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "apply", "fox-and-geese")
    assert json.loads(out) == {"position": "......GGF.FGGGGGGGGGGGGGGGGGGGGGG F", "outcome": None}


def test_apply_an_illegal_move_exits_2_with_one_line_naming_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "apply", "solitaire", "5-17", "5-17")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "illegal move '5-17'" in err and "oooo.oooo.ooo" in err


def test_apply_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    # McLoughlin: fox on 17, geese on 18 and 27-33 (eight); the fox must jump 18
    text = "................FG........GGGGGGG F"
    code, out, _ = run(capsys, "apply", "fox-and-geese-mcloughlin", "--position", text, "17x19")
    assert code == 0
    assert json.loads(out) == {
        "position": "..................F.......GGGGGGG G",
        "outcome": None,
    }


def test_apply_checks_the_position_against_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = "................FG........GGGGGGG F"
    code, _, err = run(capsys, "apply", "fox-and-geese", "--position", text)
    assert code == 2
    assert "1 foxes on the board, the game has 2" in err


def test_moves_lists_legal_moves_one_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "solitaire")
    assert code == 0
    assert sorted(out.split()) == ["15-17", "19-17", "29-17", "5-17"]


def test_moves_takes_a_position_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    text = "o...o............................ -"
    _, out, _ = run(capsys, "moves", "solitaire", "--position", text, "-o", "diagonals=all")
    assert out.split() == ["1-11"]


def test_perft_prints_the_count_alone_on_its_last_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "perft", "solitaire", "4")
    assert code == 0
    assert out.splitlines()[-1] == "400"
    _, out, _ = run(capsys, "perft", "fox-and-geese", "3", "--divide")
    lines = out.splitlines()
    assert lines[-1] == "176"
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == 176


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "chess"], "unknown game 'chess'"),
        (["moves", "solitaire", "--position", "oo -"], "bad solitaire position"),
        (["moves", "solitaire", "-o", "start"], "write it as KEY=VALUE"),
        (["moves", "solitaire", "-o", "start=99"], "start: there is no hole 99"),
        (["apply", "solitaire", "5_17"], "bad solitaire move '5_17'"),
    ],
)
def test_user_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("reedboard: error: ") and err.count("\n") == 1
    assert message in err


def test_the_installed_console_script_runs() -> None:
    exe = shutil.which("reedboard") or shutil.which("reedboard", path=sys.prefix + "/bin")
    assert exe, "the reedboard console script is not installed"
    done = subprocess.run(
        [exe, "perft", "fox-and-geese", "2"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "28"


def test_moves_with_dice_lists_the_moves_for_that_throw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "moves", "fox-and-rabbit", "--dice", "5,2")
    assert code == 0
    assert out.splitlines() == ["WR a1-f3", "WR a1-c6"]
    text = "WR@c6 RF@i1 turn=RF"
    _, out, _ = run(capsys, "moves", "fox-and-rabbit", "--position", text, "--dice", "2,2")
    assert out.splitlines() == ["RF i1-g3"]


def test_moves_without_dice_at_a_throw_lists_the_36_throws(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "moves", "fox-and-rabbit-4")
    assert len(out.splitlines()) == 36 and "dice=6,1" in out.split()


def test_apply_takes_throws_and_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "apply", "fox-and-rabbit", "dice=5,2", "WR", "a1-c6", "3,3", "RF i1-f4"
    )
    assert code == 0
    assert json.loads(out) == {"position": "WR@c6 RF@f4 turn=RF extra", "outcome": None}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "solitaire", "--dice", "1,2"], "waits for no throw"),
        (
            [
                "moves",
                "fox-and-rabbit",
                "--position",
                "WR@a1 RF@i1 turn=WR dice=1,1",
                "--dice",
                "2,3",
            ],
            "waits for no throw",
        ),
        (["moves", "fox-and-rabbit", "--dice", "7,2"], "bad fox-and-rabbit move '7,2'"),
        (["apply", "fox-and-rabbit", "dice=5,2", "WR"], "bad fox-and-rabbit move 'WR'"),
        (["apply", "fox-and-rabbit", "dice=5,2", "WR a1-b1"], "illegal move 'WR a1-b1'"),
    ],
)
def test_dice_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err
