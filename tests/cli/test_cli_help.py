"""``reedboard --help`` is printed from the command table without building the parser: it must
be what argparse prints, at every terminal width, and the wrapping must be textwrap's."""

from __future__ import annotations

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
