"""``reedboard --help`` is printed from the command table without building the parser: it must
be what argparse prints, at every terminal width, and the wrapping must be textwrap's."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard.cli import commands
from reedboard.cli.main import main
from reedboard.cli.parser import _describe, build_parser


def argparse_help() -> str:
    parser = build_parser()
    _describe(parser)
    return parser.format_help()


@pytest.mark.parametrize("columns", [*range(40, 130), 160, 200, 400])
def test_the_list_of_commands_is_argparse_s_at_every_width(
    columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    ours = commands.top_help()
    if ours is None:  # too narrow for the usage line: argparse prints it
        assert columns < 50
        return
    assert ours == argparse_help()


def test_reedboard_help_prints_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for columns in ("80", "44"):  # ours, then argparse's on a narrow terminal
        monkeypatch.setenv("COLUMNS", columns)
        assert main(["--help"]) == 0
        out = capsys.readouterr().out
        assert out == argparse_help()
        assert "jack-rabbits" in out and "apply" in out


words = st.sampled_from(
    ["read-only", "a", "McLoughlin's", "x-y", "ab-cd-ef", "1-1000000", "--flag", "e.g.", "xy-"]
) | st.text(alphabet="ab-. ", min_size=1, max_size=12).filter(lambda t: "--" not in t.strip("-"))


@given(st.lists(words, min_size=1, max_size=14), st.integers(min_value=16, max_value=70))
def test_the_wrapping_is_textwrap_s(parts: list[str], width: int) -> None:
    """At the widths top_help wraps help to (32 columns or more), with words no longer than
    the width (argparse's help never has longer ones)."""
    text = " ".join(" ".join(parts).split())  # argparse's help is one line, spaces single
    assert commands._wrap(text, width) == textwrap.wrap(text, width)


@pytest.mark.parametrize(
    "argv", [["--foo", "perft", "solitaire", "1"], ["-x", "games"], ["-v", "moves", "solitaire"]]
)
def test_an_option_before_the_command_is_the_command_s_to_refuse(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"reedboard: error: {argv[1]}: unrecognized arguments: {argv[0]}"
        f" (see `reedboard {argv[1]} --help`)\n"
    )


@pytest.mark.parametrize("argv", [["--help"], ["games"]])
def test_the_list_of_commands_and_of_games_load_no_parser_and_no_game(argv: list[str]) -> None:
    code = (
        "import sys; from reedboard.cli.main import main; main(sys.argv[1:]);"
        "print([m for m in sys.modules if m == 'argparse' or m.startswith('reedboard.engine.')"
        " and m not in ('reedboard.engine.errors', 'reedboard.engine.registry')], file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert done.stderr == "[]\n"
    assert ("fox-and-geese" if argv == ["games"] else "COMMAND") in done.stdout
