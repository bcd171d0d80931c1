"""One error root: every error reedboard raises on purpose is a ReedboardError (defined by the
engine, the bottom package), each package has its own under it, the engine's keep their
built-in bases, and the command line turns any of them into one line and exit 2."""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import pkgutil

import pytest

import reedboard.cli.main
import reedboard.cli.rules
from reedboard import engine
from reedboard.cli.args import UsageError
from reedboard.daemon.core import DaemonError
from reedboard.engine import errors
from reedboard.engine.errors import ReedboardError
from reedboard.errors import CommandError, ControllerError
from reedboard.hardware.board_io import BoardError
from reedboard.referee.dice import DiceError
from reedboard.sim.trace import TraceError
from reedboard.store.games import StoreError
from reedboard.wiring.tomlfile import WiringError


def test_every_package_has_its_error_under_the_one_root() -> None:
    for package_root in (errors.EngineError, WiringError, BoardError, ControllerError):
        assert issubclass(package_root, ReedboardError)
    for error in (UsageError, DaemonError, DiceError, StoreError, TraceError, CommandError):
        assert issubclass(error, ControllerError)
    assert engine.ReedboardError is ReedboardError


PENDING: set[str] = set()
"""Errors not yet under the root."""


def our_errors() -> dict[str, type[BaseException]]:
    """Every public exception class our packages define (the MicroPython firmware aside)."""
    out: dict[str, type[BaseException]] = {}
    root = importlib.import_module("reedboard")
    for info in pkgutil.walk_packages(root.__path__, "reedboard."):
        if info.name.startswith("reedboard.bridge.firmware") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if name.startswith("_"):  # private: caught where it is raised, never let out
                continue
            if issubclass(cls, BaseException) and cls.__module__ == module.__name__:
                out[f"{module.__name__}.{name}"] = cls
    return out


def test_every_error_class_of_ours_is_under_the_root() -> None:
    errors_found = our_errors()
    assert "reedboard.store.games.StoreError" in errors_found
    outside = {name for name, cls in errors_found.items() if not issubclass(cls, ReedboardError)}
    assert outside == PENDING


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (errors.InvalidMoveError, ValueError),
        (errors.IllegalMoveError, ValueError),
        (errors.InvalidPositionError, ValueError),
        (errors.InvalidOptionError, ValueError),
        (errors.UnknownGameError, LookupError),
        (WiringError, ValueError),
        (TraceError, ValueError),
        (DiceError, ValueError),
    ],
)
def test_errors_keep_their_built_in_bases(error: type[Exception], builtin: type[Exception]) -> None:
    assert issubclass(error, errors.EngineError | WiringError | ControllerError)
    assert issubclass(error, builtin)


def test_the_root_imports_nothing() -> None:
    with open(errors.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert [ast.unparse(n) for n in imports] == ["from __future__ import annotations"]


class NewError(ReedboardError):
    """An error some package adds later: the command line needs no change for it."""


def test_the_command_line_catches_the_root(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def games(args: argparse.Namespace) -> int:
        raise NewError("something named\nwhat was wrong")

    monkeypatch.setattr(reedboard.cli.rules, "cmd_moves", games)
    assert reedboard.cli.main.main(["moves", "solitaire"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "reedboard: error: something named what was wrong\n")


def test_a_bug_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def games(args: argparse.Namespace) -> int:
        raise KeyError("a bug")

    monkeypatch.setattr(reedboard.cli.rules, "cmd_moves", games)
    with pytest.raises(KeyError):
        reedboard.cli.main.main(["moves", "solitaire"])
