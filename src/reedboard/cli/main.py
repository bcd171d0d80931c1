"""The ``reedboard`` command line (docs/design.md "The CLI").

Every error the user can cause ends in one line on stderr naming what was wrong, and exit 2.
"""

from __future__ import annotations

import importlib
import os
import sys

from reedboard.cli.output import silence_stdout
from reedboard.engine.errors import ReedboardError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at every start
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence


def command(name: str) -> Callable[[argparse.Namespace], int]:
    """A command's function from its name, ``module:function`` in this package: its module
    (and what it imports) loads only when the command runs."""
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(f"reedboard.cli.{module}"), function)  # type: ignore[no-any-return]


def games(args: argparse.Namespace | None = None) -> int:
    """``reedboard games``: the game ids, one a line (no game module loaded)."""
    from reedboard.engine.registry import game_ids

    print("\n".join(game_ids()))
    return 0


def _top_help() -> str | None:
    from reedboard.cli.commands import top_help

    return top_help()


MAX_LINE = 1000
"""The longest error line said (anything longer is cut, with ``...``)."""


def _flush() -> None:
    if sys.stdout is not None:  # None: started with standard output closed (>&-)
        sys.stdout.flush()


def _error(text: str) -> int:
    """One line on standard error, ``reedboard: error: ...``; exit code 2."""
    line = " ".join(text.split()) or "failed"
    if len(line) > MAX_LINE:  # (a 50 MB point name is not a 50 MB line)
        line = line[: MAX_LINE - 3] + "..."
    if sys.stderr is not None:  # closed (2>&-): the exit code says it (print would use stdout)
        import contextlib  # here, not at every start

        with contextlib.suppress(OSError, ValueError):
            print(f"reedboard: error: {line}", file=sys.stderr, flush=True)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """The ``reedboard`` command: 0 when it did what was asked (``wiring check``: 1 when the
    board is wired wrong), 2 with one line ``reedboard: error: ...`` when it could not."""
    if sys.stdout is None:  # started with standard output closed (>&-): write nowhere
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (for the process's whole life)
    try:
        try:
            given = list(sys.argv[1:] if argv is None else argv)
            if given in (["-h"], ["--help"]) and (text := _top_help()) is not None:
                print(text, end="")  # the list of commands: no parser built
                _flush()
                return 0
            if given == ["games"]:  # the one command with nothing to parse: no parser built
                code = games()
                _flush()
                return code
            from reedboard.cli.parser import build_command_line

            args = build_command_line(given)
        except SystemExit as done:  # --help, --version: printed
            _flush()
            return done.code if isinstance(done.code, int) else 0
        code = int(command(args.func)(args))
        _flush()  # a closed pipe is found here, not at Python's exit
        return code
    except BrokenPipeError:  # `reedboard moves GAME | head -1`: nobody reads on
        silence_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: no traceback
        return 130
    except (ReedboardError, OSError, UnicodeError) as exc:  # every error of ours, and files
        return _error(str(exc))
