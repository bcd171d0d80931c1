"""The ``reedboard`` command line's parser: every command, its arguments and help.

Only the command asked for gets its arguments built (``reedboard --help`` lists them all)."""

from __future__ import annotations

import argparse

import reedboard
from reedboard.cli.args import (
    ANALYSE_BUDGET,
    DEMO_PLIES,
    MAX_BUDGET,
    PERFT_DEPTH,
    Parser,
    UsageError,
    number,
    path,
    whole,
    whole_list,
)
from reedboard.cli.commands import COMMANDS, DESCRIPTION
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.registry import DEFAULT_GAME, DEMO_GAME, TABLE_ASSISTANTS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at every start
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


EVERY = "*"
"""``build_parser(EVERY)``: every command with its arguments (the tests read them all)."""


class _Unasked:
    """A command's parser while another command runs: its arguments are not built (a command
    line names one command; building them all costs every start a few milliseconds)."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        pass

    def set_defaults(self, **kwargs: object) -> None:
        pass

    def add_subparsers(self, **kwargs: object) -> _Unasked:
        return self

    def add_parser(self, *args: object, **kwargs: object) -> _Unasked:
        return self


class _Commands:
    """The top-level commands: each is listed (``reedboard --help``, and a name is checked),
    but only the command asked for gets its arguments."""

    def __init__(self, action: argparse._SubParsersAction[Parser], asked: str | None) -> None:
        self.action, self.asked = action, asked

    def builds(self, name: str) -> bool:
        return self.asked in (name, EVERY)

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        kwargs["help"] = COMMANDS[name]  # the one list of commands and their help
        if self.builds(name):
            return self.action.add_parser(name, **kwargs)
        # Listed and known by name, but no parser made: argparse's own entry for the listing
        # (what add_parser adds besides the parser); the name maps to nothing until asked.
        help = kwargs.get("help")
        self.action._choices_actions.append(self.action._ChoicesPseudoAction(name, (), help))
        self.action._name_parser_map[name] = None  # type: ignore[assignment]
        return _Unasked()


def _game_parser(
    sub: _Commands,
    name: str,
    *,
    game: str = "a game id (see `reedboard games`)",
    position: str = "start from this position's text form",
    options: str = "a game option, e.g. diagonals=all, start=5, empty=16,18 (repeatable)",
    description: str | None = None,
) -> Any:
    """A command on one game: GAME, --position TEXT and -o KEY=VALUE (repeatable)."""
    p = sub.add_parser(name, description=description)
    p.add_argument("game", metavar="GAME", help=game)
    p.add_argument("--position", metavar="TEXT", help=position)
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help=options)
    return p


INSECURE = "allow a broker on another machine without TLS (a network you trust)"


def build_parser(asked: str | None = None) -> argparse.ArgumentParser:
    """The command line; only ``asked``, the command given, gets its arguments (and a table
    assistant's questions: a game module to load), or every command for :data:`EVERY`."""
    parser = Parser(
        prog="reedboard",
        description=DESCRIPTION,
    )
    parser.add_argument("--version", action="version", version=f"reedboard {_version()}")
    sub = _Commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True), asked)

    p = sub.add_parser("games")
    p.set_defaults(func="main:games")

    p = _game_parser(sub, "perft")
    p.add_argument(
        "depth",
        metavar="DEPTH",
        type=whole(0, PERFT_DEPTH),
        help=f"how many plies deep (0 to {PERFT_DEPTH})",
    )
    p.add_argument("--divide", action="store_true", help="also print the count under each move")
    p.set_defaults(func="rules:cmd_perft")

    p = _game_parser(sub, "moves")
    p.add_argument("--dice", metavar="A,B", help="throw these dice first (dice games)")
    p.set_defaults(func="rules:cmd_moves")

    wiring = sub.add_parser("wiring")
    wsub = wiring.add_subparsers(dest="wiring_command", metavar="WHAT", required=True)
    p = wsub.add_parser("diagram", help="write an SVG of a build's (or layout's) wiring")
    p.add_argument(
        "target", metavar="BUILD", help="a build name or file (or a layout with --layout)"
    )
    p.add_argument("--layout", action="store_true", help="TARGET is a layout, not a build")
    p.add_argument("-o", "--output", metavar="FILE", type=path, help="write here (default: stdout)")
    p.set_defaults(func="wiring:cmd_wiring_diagram")
    p = wsub.add_parser("table", help="the pins of a build as a Markdown table")
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.set_defaults(func="wiring:cmd_wiring_table")
    p = wsub.add_parser("bom", help="a build's parts list (bill of materials), Markdown or CSV")
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.add_argument(
        "--format", choices=("md", "csv"), default="md", help="md (a Markdown table) or csv"
    )
    p.add_argument("-o", "--out", metavar="FILE", type=path, help="write here (default: stdout)")
    p.set_defaults(func="wiring:cmd_wiring_bom")
    p = wsub.add_parser("check", help="light each LED, then test each switch with a magnet")
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.add_argument(
        "--timeout",
        type=number(0.1, 3600),
        default=15.0,
        metavar="SECONDS",
        help="how long to wait at each point (0.1 to 3600; default 15)",
    )
    p.add_argument(
        "--leds-only", action="store_true", help="only light the LEDs (the matrix not soldered)"
    )
    p.add_argument(
        "--rows",
        type=whole_list,
        metavar="R[,R...]",
        help="test only the points on these matrix rows (a half-soldered matrix)",
    )
    p.add_argument(
        "--cols",
        type=whole_list,
        metavar="C[,C...]",
        help="test only the points on these matrix columns (with --rows: on both)",
    )
    p.add_argument(
        "--crosstalk",
        action="store_true",
        help="fill every point, then lift one at a time: finds missing or reversed diodes",
    )
    p.add_argument(
        "--port", help="a Pico build's serial port (default: the build's; e.g. /dev/ttyACM0)"
    )
    p.set_defaults(func="wiring:cmd_wiring_check")
    p = wsub.add_parser(
        "learn", help="learn a board wired in another order: write a layout with its wiring"
    )
    p.add_argument("target", metavar="BUILD", help="a build name or file (its layout's geometry)")
    p.add_argument(
        "-o", "--out", metavar="FILE", type=path, required=True, help="the new layout (.toml)"
    )
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument(
        "--timeout",
        type=number(0.1, 3600),
        default=15.0,
        metavar="SECONDS",
        help="how long to wait at each point (0.1 to 3600; default 15)",
    )
    p.set_defaults(func="wiring:cmd_wiring_learn")
    p = wsub.add_parser(
        "template", help="1:1 fabrication files for the board's woodwork: SVG, DXF, tiled PDF"
    )
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.add_argument(
        "-o", "--out", metavar="FOLDER", type=path, required=True, help="where (made when missing)"
    )
    p.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="the PDF's pages (default a4)"
    )
    p.add_argument(
        "--reed-offset",
        type=number(0, 8),
        default=4.0,
        metavar="MM",
        help="from a hole's centre to its reed slot's (0 to 8; default 4)",
    )
    p.set_defaults(func="wiring:cmd_wiring_template")

    p = sub.add_parser("run")
    p.add_argument("--config", metavar="FILE", type=path, help="a config file (see docs/daemon.md)")
    p.add_argument("--game", metavar="ID", help=f"the game to play (default {DEFAULT_GAME})")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option over the config's [options], e.g. players=3 (repeatable)",
    )
    p.add_argument("--database", metavar="FILE", type=path, help="the game store (SQLite)")
    p.add_argument("--remote", metavar="URL", help="play with another board: mqtt://HOST:PORT")
    p.add_argument("--match", metavar="ID", help="the match both boards name (with --remote)")
    p.add_argument("--seats", metavar="SIDE,...", help="the sides played here (with --remote)")
    p.add_argument(
        "--join",
        metavar="CODE",
        help="join the match of an invite (reedboard invite), with --seats",
    )
    p.add_argument("--insecure", action="store_true", help=INSECURE)
    p.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="serve the web view here (default 127.0.0.1:8080, or the config's [web] listen)",
    )
    p.add_argument("--no-web", action="store_true", help="do not serve the web view")
    p.add_argument(
        "--computer",
        metavar="SIDES",
        help="the sides the computer plays, by piece or colour (fox; WR,RF; yellow,red)",
    )
    p.add_argument(
        "--level",
        type=whole(1, TOP_LEVEL),
        metavar="N",
        help=f"the computer's level (1 to {TOP_LEVEL}; default 3)",
    )
    p.set_defaults(func="run:cmd_run")

    p = sub.add_parser("watch")
    p.add_argument("--remote", metavar="URL", help="the broker: mqtt://HOST:PORT")
    p.add_argument("--match", metavar="ID", help="the match to follow")
    p.add_argument(
        "--join", metavar="CODE", help="a spectator's invite: only what its keys sign is shown"
    )
    p.add_argument("--insecure", action="store_true", help=INSECURE)
    p.add_argument(
        "--count", metavar="N", type=whole(1, 1_000_000), help="stop after N lines (1-1000000)"
    )
    p.set_defaults(func="run:cmd_watch")

    p = sub.add_parser("invite")
    p.add_argument("--config", metavar="FILE", type=path, help="the config with the [remote] table")
    p.add_argument("--database", metavar="FILE", type=path, help="the game store (SQLite)")
    p.add_argument("--remote", metavar="URL", help="the broker: mqtt://HOST:PORT")
    p.add_argument("--match", metavar="ID", help="the match to invite to")
    p.add_argument("--seats", metavar="SIDE,...", help="the sides this board plays")
    p.add_argument(
        "--watch", action="store_true", help="a spectator's invite (read-only; no secret)"
    )
    p.add_argument("--insecure", action="store_true", help=INSECURE)
    p.set_defaults(func="run:cmd_invite")

    p = sub.add_parser("doctor")
    p.add_argument("--config", metavar="FILE", type=path, help="the daemon's config")
    p.set_defaults(func="doctor:cmd_doctor")

    p = sub.add_parser("report")
    p.add_argument("--config", metavar="FILE", type=path, help="the daemon's config")
    p.add_argument("-o", "--output", metavar="FILE", type=path, help="the archive (.tar.gz)")
    p.set_defaults(func="report:cmd_report")

    p = sub.add_parser("broker-files")
    p.add_argument("--match", metavar="ID", required=True, help="the match")
    p.add_argument(
        "--board",
        metavar="SEATS",
        action="append",
        required=True,
        help="a board, by the seats it plays (fox; WR,BR); once per board",
    )
    p.add_argument("--out", metavar="FOLDER", type=path, default=".", help="where (default .)")
    p.set_defaults(func="run:cmd_broker_files")

    firmware = sub.add_parser("firmware")
    fsub = firmware.add_subparsers(dest="firmware_command", metavar="WHAT", required=True)
    p = fsub.add_parser("config", help="print the config.json a Pico build needs")
    p.add_argument("target", metavar="BUILD", help="a Pico build name or file")
    p.set_defaults(func="wiring:cmd_firmware")
    p = fsub.add_parser("install", help="copy the firmware and its config to a Pico (mpremote)")
    p.add_argument("target", metavar="BUILD", help="a Pico build name or file")
    p.add_argument("--port", help="the Pico's serial port (default: the build's)")
    p.add_argument("--dry-run", action="store_true", help="only print the mpremote commands")
    p.set_defaults(func="wiring:cmd_firmware")

    for game_id in TABLE_ASSISTANTS:  # its questions: only when it is asked
        p = sub.add_parser(game_id)
        if sub.builds(game_id):
            from reedboard.cli.table import add_questions

            add_questions(p, game_id)

    p = sub.add_parser("demo")
    p.add_argument(
        "--game",
        default=DEMO_GAME,
        metavar="ID",
        help=f"the game (default {DEMO_GAME})",
    )
    p.add_argument(
        "--seed", type=whole(0, 2**63 - 1), default=1, help="the random game's seed (default 1)"
    )
    p.add_argument(
        "--plies",
        type=whole(0, DEMO_PLIES),
        default=40,
        help=f"at most this many moves and throws (0 to {DEMO_PLIES}; default 40)",
    )
    p.add_argument(
        "--speed",
        type=number(0.1, 1000),
        default=4.0,
        help="times faster than a person (0.1 to 1000; default 4)",
    )
    p.add_argument("--no-colour", action="store_true", help="no terminal colours")
    p.set_defaults(func="sim:cmd_demo")

    p = sub.add_parser("replay")
    p.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines)")
    p.add_argument("--game", metavar="ID", help="replay as this game instead of the trace's")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func="sim:cmd_replay")

    p = sub.add_parser("history")
    p.add_argument("game_id", metavar="GAME", nargs="?", help="a game number (as the list shows)")
    p.add_argument("--database", metavar="FILE", type=path, help="the game store (SQLite)")
    p.set_defaults(func="history:cmd_history")

    p = _game_parser(sub, "hint")
    p.add_argument(
        "--level",
        type=whole(1, TOP_LEVEL),
        metavar="N",
        help=f"the move the computer plays at this level (1 to {TOP_LEVEL}; default the top)",
    )
    p.set_defaults(func="analyse:cmd_hint")

    p = _game_parser(
        sub,
        "analyse",
        game="the game to solve: solitaire or fox-and-geese-mcloughlin",
        position="count (solitaire) or search from this position instead",
        options="solitaire: start=H (the empty hole at the start), finish=H (where the last"
        " peg must stand); fox-and-geese-mcloughlin: empty=A,B, sideways_points=A,B, diagonals",
    )
    p.add_argument(
        "--budget",
        metavar="SECONDS",
        type=number(0.01, MAX_BUDGET),
        help=f"fox-and-geese-mcloughlin: search at most this long (default {ANALYSE_BUDGET:g})",
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help="fox-and-geese-mcloughlin: solve the game whole by retrograde analysis (a C"
        " program built once; says first what it costs; -o fox_wins_at=N too)",
    )
    p.add_argument(
        "--dir",
        metavar="DIR",
        help="with --exact: keep the layer files here (default: the cache folder); a solve"
        " cut short goes on from them",
    )
    p.set_defaults(func="analyse:cmd_analyse")

    p = _game_parser(sub, "apply")
    p.add_argument(
        "moves",
        metavar="MOVE",
        nargs="*",
        help="moves in the game's text form; throws as dice=A,B",
    )
    p.set_defaults(func="rules:cmd_apply")
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand its one-line help as the description its --help shows."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if sub is None:  # a command not asked for: no parser made
                    continue
                if sub.description is None:
                    sub.description = helps.get(name)
                _describe(sub)


def _version() -> str:
    return reedboard.__version__


def build_command_line(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed arguments; UsageError (one line) for a bad command line."""
    # the command asked: the first word that is no option (`reedboard --foo perft ...` is
    # perft's to refuse, in one line)
    asked = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(asked)
    _describe(parser)
    # `apply GAME --position TEXT MOVE...`: argparse leaves moves after an option unparsed
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command != "apply" or any(e.startswith("-") for e in extra):
            raise UsageError(
                f"{args.command}: unrecognized arguments: {' '.join(extra)}"
                f" (see `reedboard {args.command} --help`)"
            )
        args.moves += extra
    return args
