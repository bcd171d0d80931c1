"""The command line's own inputs: numbers in range, --help and --version, a closed pipe,
hardware that is not there, and paths (the config's keys, the scripts, firmware --dry-run)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import shlex
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard.cli.args import DEMO_PLIES, PERFT_DEPTH, number, whole
from reedboard.cli.main import main
from reedboard.cli.parser import EVERY, build_parser
from reedboard.daemon.config import load_config
from reedboard.wiring.build import load_build

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def call(*argv: str) -> tuple[int, str, str]:
    """main() with its own captured output (for Hypothesis: no fixture between examples)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def one_error_line(err: str) -> str:
    assert err.startswith("reedboard: error: ") and err.endswith("\n") and err.count("\n") == 1
    return err


# -- numbers ---------------------------------------------------------------------------------

# (the command line before the number, how the number is given, low, high, whole)
NUMBERS = [
    (["perft", "solitaire"], "{}", 0, PERFT_DEPTH, True),
    (["demo"], "--speed={}", 0.1, 1000, False),
    (["demo"], "--plies={}", 0, DEMO_PLIES, True),
    (["demo"], "--seed={}", 0, 2**63 - 1, True),
    (["wiring", "check", "pi-cross33"], "--timeout={}", 0.1, 3600, False),
    (["wiring", "template", "pi-cross33", "--out", "o"], "--reed-offset={}", 0, 8, False),
]  # history's game number is the store's (reedboard/store/games.py's helper): its own test


def bad_numbers(low: float, high: float, is_whole: bool) -> st.SearchStrategy[str]:
    out_of_range = st.one_of(
        st.integers(max_value=math.ceil(low) - 1),
        st.integers(min_value=math.floor(high) + 1),
        st.floats(max_value=float(low), exclude_max=True),
        st.floats(min_value=float(high), exclude_min=True),
        st.sampled_from(["nan", "inf", "-inf", "NaN", "1e-300", "-0.0001", "1e400", "-1e400"]),
    )
    words = st.text(max_size=12).filter(lambda t: not _is_number(t))
    fractions = st.floats(min_value=float(low), max_value=float(high)).filter(lambda f: f != int(f))
    strategies = [out_of_range.map(str), words]
    if is_whole:
        strategies.append(fractions.map(str))
    return st.one_of(strategies).filter(lambda t: not _fits(t, low, high, is_whole))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _fits(text: str, low: float, high: float, is_whole: bool) -> bool:
    try:
        value = int(text) if is_whole else float(text)
    except ValueError:
        return False
    return math.isfinite(value) and low <= value <= high


@pytest.mark.parametrize(("before", "form", "low", "high", "is_whole"), NUMBERS)
@given(data=st.data())
def test_a_number_out_of_range_is_one_line_naming_the_argument(
    before: list[str],
    form: str,
    low: float,
    high: float,
    is_whole: bool,
    data: st.DataObject,
) -> None:
    text = data.draw(bad_numbers(low, high, is_whole))
    code, out, err = call(*before, form.format(text))
    assert (code, out) == (2, "")
    one_error_line(err)
    assert err.startswith(f"reedboard: error: {before[0]}") and "argument" in err


@pytest.mark.parametrize(("before", "form", "low", "high", "is_whole"), NUMBERS)
@given(data=st.data())
def test_a_number_in_range_is_taken(
    before: list[str], form: str, low: float, high: float, is_whole: bool, data: st.DataObject
) -> None:
    if is_whole:
        value: float = data.draw(st.integers(min_value=int(low), max_value=int(high)))
        assert whole(int(low), int(high))(str(value)) == value
    else:
        value = data.draw(st.floats(min_value=low, max_value=high))
        assert number(low, high)(repr(value)) == value


def test_the_numbers_named_in_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in [
        (["demo", "--speed", "0"], "'0' is outside 0.1 to 1000"),
        (["demo", "--speed", "-1"], "'-1' is outside 0.1 to 1000"),
        (["demo", "--speed", "nan"], "'nan' is not a finite number"),
        (["demo", "--speed", "inf"], "'inf' is not a finite number"),
        (["demo", "--speed", "1e-300"], "'1e-300' is outside"),
        (["perft", "solitaire", "5000"], "argument DEPTH: '5000' is outside 0 to 40"),
        (["perft", "solitaire", "-1"], "argument DEPTH: '-1' is outside 0 to 40"),
        (["history", "99999999999999999999999"], "no game 99999999999999999999999"),
        (["history", "9" * 5000], "no game 99999999999999999999... (5000 digits)"),
    ]:
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), argv
        assert said in one_error_line(err), err


def test_perft_at_depth_0_counts_the_position_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "perft", "solitaire", "0")[:2] == (0, "1\n")


# -- --help and --version --------------------------------------------------------------------


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser, str | None]]:
    """Every command and subcommand: (its words, its parser, its line in its parent's list)."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append(((*path, name), sub, helps.get(name)))
                out += commands(sub, (*path, name))
    return out


ALL_COMMANDS = [words for words, _, _ in commands(build_parser(EVERY))]


def test_every_command_has_a_one_line_description_in_its_parents_list() -> None:
    found = commands(build_parser(EVERY))
    assert len(found) >= 20
    for words, _, help_line in found:
        assert help_line and "\n" not in help_line, words


@pytest.mark.parametrize("words", [(), *ALL_COMMANDS], ids=lambda w: " ".join(w) or "reedboard")
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], words: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *words, "--help")
    assert (code, err) == (0, "")
    usage, description = out.split("\n\n")[:2]
    assert usage.startswith(f"usage: reedboard {' '.join(words)}".rstrip())
    assert description.strip() and "\n" not in description, out  # the one-line description


def test_version_is_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--version")
    assert (code, out, err) == (0, f"reedboard {version('reedboard')}\n", "")


# -- a closed pipe ---------------------------------------------------------------------------

PRINTING = [
    ["games"],
    ["moves", "fox-and-geese"],
    ["perft", "solitaire", "3", "--divide"],
    ["apply", "solitaire", "5-17"],
    ["hint", "solitaire"],
    ["wiring", "diagram", "pi-cross33"],
    ["wiring", "table", "pico-brier9"],
    ["wiring", "bom", "pico-parchesi101"],
    ["firmware", "config", "pico-cross33"],
    ["firmware", "install", "pico-cross33", "--dry-run"],
    ["demo", "--speed", "1000", "--plies", "3"],
    ["jack-rabbits", "hand", "2H,3H"],
    ["--help"],
    ["moves", "--help"],
    ["--version"],
]


def _env(argv: list[str], request: pytest.FixtureRequest) -> dict[str, str]:
    """The command's environment: `hint solitaire` finds Solitaire's winning set built."""
    env = dict(os.environ)
    if argv[:2] == ["hint", "solitaire"]:
        env["XDG_CACHE_HOME"] = str(request.getfixturevalue("solitaire_cache"))
    return env


@pytest.mark.parametrize("argv", PRINTING, ids=" ".join)
def test_a_closed_pipe_is_silent(argv: list[str], request: pytest.FixtureRequest) -> None:
    """`reedboard ... | head -1`, at its hardest: the reader is gone before the first write."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "reedboard", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=_env(argv, request),
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("argv", PRINTING, ids=" ".join)
def test_a_closed_standard_output_is_silent(
    argv: list[str], request: pytest.FixtureRequest
) -> None:
    """Started with standard output closed (``>&-``): Python has no sys.stdout at all."""
    words = " ".join(shlex.quote(a) for a in argv)
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m reedboard {words} >&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(argv, request),
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_a_closed_standard_error_takes_no_error_to_standard_output() -> None:
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m reedboard moves chess 2>&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")


def test_head_reads_the_first_line_and_nothing_is_said() -> None:
    done = subprocess.run(
        f"{sys.executable} -m reedboard moves fox-and-rabbit-4 | head -1; "
        'echo "status ${PIPESTATUS[0]}"',
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout == "dice=1,1\nstatus 0\n" and done.stderr == ""


def test_the_daemon_plays_on_when_its_output_is_closed(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "reedboard", "run", "--database", str(tmp_path / "g.db")],
            input="move 9-4\n",
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")
    assert run_history(tmp_path / "g.db") == "1\tfox-and-geese\t1 move\tplaying\n"


def run_history(db: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "reedboard", "history", "--database", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout


# -- hardware that is not there --------------------------------------------------------------


def pico_build(tmp_path: Path, port: Path) -> Path:
    text = load_build("pico-cross33").path.read_text()
    build = tmp_path / "pico.toml"
    build.write_text(text.replace('port = "/dev/reedboard-pico"', f'port = "{port}"'))
    return build


def test_a_pico_build_without_its_pico_is_said_at_once_and_creates_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    port = tmp_path / "reedboard-pico"
    build = pico_build(tmp_path, port)
    config = tmp_path / "reedboard.toml"
    config.write_text(f'build = "pico.toml"\ndatabase = "{tmp_path}/games/g.sqlite3"\n')
    said = f"reedboard: error: cannot open {port}: No such file or directory"
    for argv in (["run", "--config", str(config)], ["wiring", "check", str(build)]):
        start = time.monotonic()
        code, out, err = run(capsys, *argv)
        assert time.monotonic() - start < 2, argv
        assert (code, out) == (2, ""), argv
        assert one_error_line(err).startswith(said), err
    assert not (tmp_path / "games").exists()


def test_wiring_check_of_a_pico_that_does_not_answer_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tty

    import reedboard.cli.wiring

    monkeypatch.setattr(reedboard.cli.wiring, "PICO_ANSWER_SECONDS", 0.5)
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        code, out, err = run(
            capsys, "wiring", "check", str(pico_build(tmp_path, os.ttyname(slave)))
        )
    finally:
        os.close(master)
        os.close(slave)
    assert (code, out) == (2, "")  # not a word of the check: it would blame every switch
    assert "no answer from the reedboard firmware in 0.5 s" in one_error_line(err)


def _gpio_here() -> bool:
    probe = "from gpiozero import Device; Device._default_pin_factory()"
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    return (
        subprocess.run([sys.executable, "-c", probe], capture_output=True, env=env).returncode == 0
    )


def test_run_without_gpio_fails_first_in_one_line_and_creates_nothing(tmp_path: Path) -> None:
    if _gpio_here():
        pytest.skip("this machine has GPIO: the board would open")
    text = (ROOT / "deploy" / "reedboard.toml").read_text()
    assert 'database = "/var/lib/reedboard/games.sqlite3"' in text
    config = tmp_path / "reedboard.toml"
    config.write_text(text.replace("/var/lib/reedboard", str(tmp_path / "var-lib-reedboard")))
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    done = subprocess.run(
        [sys.executable, "-m", "reedboard", "run", "--config", str(config)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert one_error_line(done.stderr).startswith(
        "reedboard: error: build pi-cross33: cannot open the board: "
    ), done.stderr  # and not one of gpiozero's warnings
    assert not (tmp_path / "var-lib-reedboard").exists()
    check = subprocess.run(
        [sys.executable, "-m", "reedboard", "wiring", "check", "pi-cross33"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert (check.returncode, check.stdout) == (2, "")
    assert one_error_line(check.stderr).startswith(
        "reedboard: error: build pi-cross33: cannot open the board: "
    ), check.stderr


# -- paths -----------------------------------------------------------------------------------


def test_every_path_key_of_the_config_is_taken_from_its_folder_with_home_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, folder, elsewhere = tmp_path / "home", tmp_path / "etc", tmp_path / "elsewhere"
    for f in (home, folder, elsewhere):
        f.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(elsewhere)
    (folder / "orders.toml").write_text('[squares]\n"5" = { kind = "lose-turn" }\n')
    build = pico_build(folder, Path("/dev/null"))
    config = folder / "reedboard.toml"
    config.write_text(f'database = "g.sqlite3"\nbuild = "{build.name}"\n')
    loaded = load_config(config)
    assert (loaded.database, loaded.build) == (folder / "g.sqlite3", str(build))
    config.write_text(
        'game = "messenger-boy"\ndatabase = "~/g.sqlite3"\n[options]\norders = "~/o.toml"\n'
    )
    (home / "o.toml").write_text((folder / "orders.toml").read_text())
    loaded = load_config(config)
    assert loaded.database == home / "g.sqlite3"
    assert loaded.options["orders"] == str(home / "o.toml")
    config.write_text('database = ""\n')
    with pytest.raises(ValueError, match=r"reedboard.toml:1: database: an empty path"):
        load_config(config)


def test_a_database_under_home_is_made_there_not_in_a_folder_named_tilde(tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    config = tmp_path / "reedboard.toml"
    config.write_text('game = "solitaire"\ndatabase = "~/g.sqlite3"\n')
    done = subprocess.run(
        [sys.executable, "-m", "reedboard", "run", "--config", str(config)],
        input="move 5-17\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=elsewhere,
        env={**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert (home / "g.sqlite3").exists()
    assert list(elsewhere.iterdir()) == []


def test_run_sh_runs_in_the_callers_folder(tmp_path: Path) -> None:
    trace = tmp_path / "x.jsonl"
    trace.write_text('{"game": "solitaire", "occupied": []}\n')
    done = subprocess.run(
        ["sh", str(ROOT / "scripts" / "run.sh"), "replay", "x.jsonl", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == "solitaire"


def test_firmware_dry_run_prints_commands_that_work_after_it_exits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "firmware", "install", "pico-brier9", "--dry-run")
    assert code == 0
    first, *commands = out.splitlines()
    assert first == "reedboard firmware config pico-brier9 > config.json"
    assert list(tmp_path.iterdir()) == []  # a dry run writes nothing
    for command in commands:
        assert command.startswith("mpremote connect /dev/reedboard-pico ")
        for word in command.split():
            if "/" in word and not word.startswith("/dev/"):
                assert Path(word).is_file(), word  # still there after the command has exited
    assert " config.json :" in commands[0]
    code, config, _ = run(capsys, "firmware", "config", "pico-brier9")
    assert json.loads(config)["build"] == "pico-brier9"


def gpio_config(tmp_path: Path) -> Path:
    """pi-cross33 without its SPI LEDs (no spidev here), and a store in a folder not yet made."""
    text = load_build("pi-cross33").path.read_text()
    build = tmp_path / "pi.toml"
    build.write_text(text.replace('driver = "ws2812-spi"', 'driver = "none"'))
    config = tmp_path / "reedboard.toml"
    config.write_text(f'build = "pi.toml"\ndatabase = "{tmp_path}/games/g.sqlite3"\n')
    return config


def test_gpio_pins_that_cannot_be_had_are_said_first_and_create_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mock_factory: object
) -> None:
    from gpiozero import DigitalOutputDevice

    busy = DigitalOutputDevice("GPIO4")  # matrix row 0, held by someone else
    try:
        code, out, err = run(capsys, "run", "--config", str(gpio_config(tmp_path)))
    finally:
        busy.close()
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith("reedboard: error: build pi: cannot open the board: ")
    assert "GPIO4" in err
    assert not (tmp_path / "games").exists()


def test_spi_that_is_off_is_said_with_how_to_turn_it_on_and_frees_the_pins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, mock_factory: object
) -> None:
    import types

    from gpiozero import DigitalOutputDevice

    from tests.hardware.fake_spidev import FakeSpiDev

    class NoSpiDevice(FakeSpiDev):  # spidev on a Pi with SPI off: no /dev/spidev0.0
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=NoSpiDevice))
    code, out, err = run(capsys, "wiring", "check", "pi-cross33")
    assert (code, out) == (2, "")
    assert one_error_line(err) == (
        "reedboard: error: build pi-cross33: cannot open the board: /dev/spidev0.0 is missing:"
        " turn SPI on (dtparam=spi=on in /boot/firmware/config.txt, then reboot;"
        " `reedboard doctor` checks it)\n"
    )
    DigitalOutputDevice("GPIO4").close()  # matrix row 0: given back when the LEDs failed


def test_a_gpio_board_that_opens_is_run_and_its_store_made(
    tmp_path: Path, mock_factory: object
) -> None:
    import asyncio

    from reedboard.daemon.core import Daemon

    config = load_config(gpio_config(tmp_path))
    said: list[str] = []
    daemon = Daemon(config, out=said.append)

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        async with asyncio.timeout(5):
            while not any(s.startswith("new-game:") for s in said):
                await asyncio.sleep(0.01)
        daemon.stop.set()
        await asyncio.wait_for(task, 5)

    asyncio.run(scenario())
    assert (tmp_path / "games" / "g.sqlite3").exists()
