"""A table assistant: what a game played at the table, not on a sensed board, answers on the
command line (``reedboard GAME WHAT ...``). The game describes its questions as data and
answers each with lines of text; the CLI builds its parsers from them and knows no game.

A bad argument raises :class:`~reedboard.engine.errors.InvalidMoveError` (a ValueError) whose
message
names it, in one line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Arg:
    """One argument of a question: positional (``name`` alone), an option taking a value
    (``option``), or a flag (``flag``)."""

    name: str
    help: str = ""
    metavar: str | None = None
    option: bool = False
    flag: bool = False
    default: str | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    name: str
    help: str
    args: tuple[Arg, ...]
    answer: Callable[[Mapping[str, Any]], list[str]]
    """The answer's lines, given every argument by name (options and flags with ``-`` as
    ``_``; a flag is a bool, an option not given is its default)."""


@dataclass(frozen=True)
class TableAssistant:
    help: str
    questions: tuple[Question, ...]
    common: tuple[Arg, ...] = ()
    """Arguments every question takes (a table's optional rules)."""
