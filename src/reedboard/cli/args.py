"""The command line's argument parser and argument types: every mistake is one line.

argparse prints a usage block and ``reedboard perft: error: ...``; reedboard says one line,
``reedboard: error: perft: ...``, like every other error (``reedboard.cli.main.main`` prints it).
Numbers are checked here, in the argument's type, so a number out of range never reaches a
command.
"""

from __future__ import annotations

import argparse
import math

from reedboard.errors import ControllerError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at every start
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import NoReturn

PERFT_DEPTH = 40
"""The deepest perft: far deeper than any count would finish, well short of the stack's end."""
DEMO_PLIES = 1000
"""The longest demo."""
ANALYSE_BUDGET = 60.0
"""Seconds `analyse fox-and-geese-mcloughlin` searches by default."""
MAX_BUDGET = 7 * 24 * 3600.0
"""The longest budget `analyse` takes (a week)."""


class UsageError(ControllerError):
    """A bad command line: one line naming the command and the argument."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a :class:`UsageError` (one line), not a usage block
    and ``SystemExit``; ``--help`` and ``--version`` still print and exit 0."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("reedboard").strip()
        where = f"{command}: " if command else ""
        raise UsageError(f"{where}{message} (see `{self.prog} --help`)")


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a whole number ({low} to {high})"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is outside {low} to {high}")
        return value

    parse.__name__ = "whole number"
    return parse


def number(low: float, high: float) -> Callable[[str], float]:
    """A finite number from ``low`` to ``high`` (``nan`` and ``inf`` are neither)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a number ({low:g} to {high:g})"
            ) from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a finite number ({low:g} to {high:g})"
            )
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is outside {low:g} to {high:g}")
        return value

    parse.__name__ = "number"
    return parse


def whole_list(text: str) -> list[int]:
    """Whole numbers from 0, split by commas (``0,2,5``); what range they need is the
    command's to check (a board's matrix)."""
    words = text.split(",")
    if not text or not all(w.isascii() and w.isdigit() and len(w) <= 6 for w in words):
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a list of whole numbers from 0 (like 0,2,5)"
        )
    return [int(w) for w in words]


whole_list.__name__ = "list of numbers"


def path(text: str) -> Path:
    """A file path as given, with ``~`` expanded (``--database=~/g.sqlite3`` has no shell to
    expand it)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{_shown(text)} holds a NUL byte")
    from pathlib import Path  # not at import: `reedboard --help` starts without it

    try:
        return Path(text).expanduser()
    except RuntimeError:  # ~nosuchuser
        raise argparse.ArgumentTypeError(f"{_shown(text)}: no such home folder") from None


path.__name__ = "path"


def _shown(text: str) -> str:
    """The argument as quoted in a message, cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")
