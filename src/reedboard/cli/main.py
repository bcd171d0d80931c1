"""The ``reedboard`` command line (DESIGN.md "The CLI").

Every error the user can cause ends in one line on stderr naming what was wrong, and exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.cli.args import Parser, UsageError, number, path, whole
from reedboard.engine import EngineError, Position
from reedboard.engine.errors import ReedboardError
from reedboard.engine.search import TOP_LEVEL
from reedboard.errors import CommandError

PERFT_DEPTH = 40
"""The deepest perft: far deeper than any count would finish, well short of the stack's end."""
DEMO_PLIES = 1000
"""The longest demo."""
PICO_ANSWER_SECONDS = 3.0
"""How long `wiring check` waits for a Pico's firmware to answer."""


def _options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise EngineError(f"bad --option {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _position(args: argparse.Namespace) -> Position[Any, Any]:
    cls = engine.game(args.game)
    options = _options(args.option)
    if args.position is None:
        return cls.start(**options)
    return cls.from_text(args.position, **options)


def _outcome_json(position: Position[Any, Any]) -> dict[str, object]:
    over = position.outcome()
    return {"position": position.to_text(), "outcome": over.as_dict() if over else None}


def cmd_games(args: argparse.Namespace) -> int:
    for game_id in engine.game_ids():
        print(game_id)
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    position = _position(args)
    if args.divide:
        split = engine.divide(position, args.depth)
        for move, count in split.items():
            print(f"{move}: {count}")
        print(sum(split.values()))
    else:
        print(engine.perft(position, args.depth))
    return 0


def _throw(position: Position[Any, Any], dice: str) -> None:
    """Apply ``--dice A,B`` to a position that waits for a throw."""
    if not position.is_chance():
        raise EngineError(
            f"--dice {dice}: {position.game_id} position {position.to_text()!r} waits for no throw"
        )
    position.push_text(dice)


def _push_all(position: Position[Any, Any], tokens: list[str]) -> None:
    """Play the moves in order; a move written with a space (``WR a1-c6``) may come as two."""
    i = 0
    while i < len(tokens):
        text = tokens[i]
        try:
            move = position.parse_move(text)
        except EngineError:
            if i + 1 >= len(tokens):
                raise
            text = f"{text} {tokens[i + 1]}"
            move = position.parse_move(text)
            i += 1
        position.push(move)
        i += 1


def cmd_moves(args: argparse.Namespace) -> int:
    position = _position(args)
    if args.dice is not None:
        _throw(position, args.dice)
    for move in position.legal_moves:
        print(move)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    position = _position(args)
    _push_all(position, args.moves)
    print(json.dumps(_outcome_json(position)))
    return 0


def cmd_wiring_diagram(args: argparse.Namespace) -> int:
    from reedboard.wiring.build import load_build
    from reedboard.wiring.diagram import diagram
    from reedboard.wiring.layout import load_layout

    if args.layout:
        svg = diagram(load_layout(args.target))
    else:
        build = load_build(args.target)
        svg = diagram(build.layout, build)
    if args.output is None or str(args.output) == "-":
        print(svg, end="")
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(svg)
        print(f"wrote {args.output}")
    return 0


def cmd_wiring_check(args: argparse.Namespace) -> int:
    import asyncio

    from reedboard.daemon.core import board_for
    from reedboard.wiring.build import load_build
    from reedboard.wiring.check import check_wiring

    build = load_build(args.target)
    board = board_for(build)  # a Pico not on its port, or no GPIO here, is said at once

    async def run() -> int:
        async with board:
            ready = getattr(board, "ready", None)
            if ready is not None:  # a Pico: its firmware must answer before any switch is read
                await ready(PICO_ANSWER_SECONDS)
            problems = await check_wiring(board, build.layout, print, timeout=args.timeout)
        return 1 if problems else 0

    return asyncio.run(run())


def cmd_run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from reedboard.daemon.config import Config, load_config
    from reedboard.daemon.core import Daemon

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = (
        load_config(args.config) if args.config else Config(game=args.game or engine.DEFAULT_GAME)
    )
    if args.game and args.config:
        config = replace(config, game=args.game)
    if args.database:
        config = replace(config, database=args.database)
    if remote := _remote_args(args, required=False):  # issue 16: two boards, one game
        from reedboard.daemon.remote.settings import check_seats

        check_seats(remote, engine.start(config.game, **config.options).players, "--seats")
        config = replace(config, remote=remote)
    config = _computer_flags(config, args)
    config = _web_flags(config, args)
    daemon = Daemon(config, out=_say)
    where = f"build {config.build}" if config.build else "the simulated board"
    _say(f"reedboard: {config.game} on {where}; games in {config.database}")
    asyncio.run(daemon.run(console=config.build is None))
    return 0


def _remote_args(args: argparse.Namespace, *, required: bool) -> Any:
    """``--remote URL --match ID [--seats S,...]`` as remote settings (None when not given
    and not required); a bad or missing one is one line naming the option."""
    from reedboard.daemon.remote.settings import from_values

    given = {
        key: value
        for key, value in (("broker", args.remote), ("match", args.match))
        if value is not None
    }
    if getattr(args, "seats", None) is not None:
        given["seats"] = args.seats
    if not given and not required:
        return None
    if not required and "seats" not in given:
        raise UsageError("run: --remote needs --match ID and --seats SIDE[,SIDE]")
    for key, option in (("broker", "--remote URL"), ("match", "--match ID")):
        if key not in given:
            raise UsageError(f"{args.command}: {option} is needed with the others")
    if required:
        given["seats"] = "watch"  # a spectator plays no side
    names = {"broker": "--remote", "match": "--match", "seats": "--seats"}
    from reedboard.daemon.remote.settings import RemoteSettingsError

    try:
        return from_values(given)
    except RemoteSettingsError as exc:
        raise UsageError(f"{args.command} {names.get(exc.key, exc.key)}: {exc.what}") from None


def cmd_watch(args: argparse.Namespace) -> int:
    import asyncio

    try:
        from reedboard.daemon.remote.watch import watch
    except ImportError as exc:
        needs = f"watch needs aiomqtt ({exc}): pip install 'reedboard[remote]'"
        raise CommandError(needs) from None
    settings = _remote_args(args, required=True)
    asyncio.run(watch(settings, _say, args.count))
    return 0


def _web_flags(config: Any, args: argparse.Namespace) -> Any:
    """``--web HOST:PORT`` and ``--no-web`` over the config's ``[web]``; a public address
    without a token is refused here, before anything is opened."""
    from reedboard.daemon.config import parse_listen
    from reedboard.daemon.web import check_port, check_settings

    web = config.web
    if args.web is not None:
        try:
            host, port = parse_listen(args.web)
        except ValueError as exc:
            raise UsageError(f"run: --web {exc}") from None
        web = replace(web, host=host, port=port, enabled=True)
    if args.no_web:
        web = replace(web, enabled=False)
    check_settings(web)
    check_port(web)  # a port in use is said before the board or the store is opened
    return replace(config, web=web)


def _computer_flags(config: Any, args: argparse.Namespace) -> Any:
    """``run --computer SIDES --level N`` over the config's ``computer`` and ``level``."""
    from reedboard.daemon.computer import seats

    if args.level is not None:
        config = replace(config, level=args.level)
    if args.computer is not None:
        names = [n.strip() for n in args.computer.split(",")]
        if not all(names):
            raise CommandError(f"--computer {args.computer!r}: name a side, like fox")
        try:
            seats(config.game, config.options, names)
        except (ValueError, engine.EngineError) as exc:
            raise CommandError(f"--computer: {exc}") from None
        config = replace(config, computer=tuple(names))
    elif args.game and config.computer:  # the config's seats, checked for the game asked
        try:
            seats(config.game, config.options, config.computer)
        except (ValueError, engine.EngineError) as exc:
            raise CommandError(f"computer: {exc}") from None
    return config


def _say(text: str) -> None:
    """The daemon's output: a closed standard output (``| head``) silences it, the game goes
    on."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        _silence_stdout()


def cmd_firmware(args: argparse.Namespace) -> int:
    import tempfile

    from reedboard.bridge.deploy import install, install_commands, pico_config
    from reedboard.wiring.build import load_build

    build = load_build(args.target)
    if build.driver != "pico":
        raise CommandError(f"build {build.name} is not a Pico build (driver {build.driver!r})")
    if args.firmware_command == "config":
        print(json.dumps(pico_config(build), indent=1))
        return 0
    port = args.port or build.serial_port or "/dev/reedboard-pico"
    if args.dry_run:  # the commands to run by hand, with a config.json they write first
        print(f"reedboard firmware config {shlex.quote(args.target)} > config.json")
        for command in install_commands(port, Path("config.json")):
            print(shlex.join(command))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            lines = install(build, port, Path(tmp))
        except subprocess.CalledProcessError as exc:  # mpremote said why on stderr
            raise CommandError(
                f"{shlex.join(exc.cmd)} failed (exit {exc.returncode}): is the Pico on {port}?"
            ) from None
    for line in lines:
        print(line)
    return 0


def cmd_wiring_table(args: argparse.Namespace) -> int:
    from reedboard.wiring.build import load_build
    from reedboard.wiring.diagram import pin_table

    print(pin_table(load_build(args.target)), end="")
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """A game's table assistant (reedboard/engine/table.py): one question answered."""
    question = args.question
    try:
        lines = question.answer(vars(args))
    except engine.EngineError as exc:
        raise CommandError(str(exc)) from None
    for line in lines:
        print(line)
    return 0


def _add_table_assistants(sub: Any) -> None:
    """A command for each game played at the table, built from its questions."""
    for game_id in engine.game_ids():
        assistant = engine.game(game_id).table_assistant()
        if assistant is None:
            continue
        parser = sub.add_parser(game_id, help=assistant.help)
        questions = parser.add_subparsers(dest="table_question", metavar="WHAT", required=True)
        common = Parser(add_help=False)  # only lends its arguments to the parsers below
        for arg in assistant.common:
            _add_table_arg(common, arg)
        for question in assistant.questions:
            p = questions.add_parser(question.name, parents=[common], help=question.help)
            for arg in question.args:
                _add_table_arg(p, arg)
            p.set_defaults(func=cmd_table, question=question)


def _add_table_arg(parser: argparse.ArgumentParser, arg: Any) -> None:
    if arg.flag:
        parser.add_argument(f"--{arg.name}", action="store_true", help=arg.help)
    elif arg.option:
        parser.add_argument(
            f"--{arg.name}",
            metavar=arg.metavar,
            help=arg.help or None,
            default=arg.default,
            choices=list(arg.choices) or None,
        )
    else:
        parser.add_argument(arg.name, metavar=arg.metavar, help=arg.help or None)


def cmd_demo(args: argparse.Namespace) -> int:
    from reedboard.cli.demo import demo

    if not engine.game(args.game).sensed:
        raise CommandError(
            f"{args.game} is played at the table, not on a sensed board: nothing to demo"
            f" (see `reedboard {args.game} --help`)"
        )
    colour = False if args.no_colour else None
    demo(
        args.game,
        seed=args.seed,
        plies=args.plies,
        speed=args.speed,
        colour=colour,
        out=lambda text: print(text, flush=True),
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    import logging

    from reedboard.sim.trace import faults, load_trace, replay

    trace = load_trace(args.trace)
    quiet = logging.NullHandler()  # a bug survived is said once, as a fault, not as a traceback
    logging.getLogger("reedboard").addHandler(quiet)
    try:
        session = replay(trace, args.game)
    finally:
        logging.getLogger("reedboard").removeHandler(quiet)
    result = session.result()
    if args.json:  # DESIGN.md's one object; faults are among its alerts
        print(json.dumps(result))
        return 0
    for move in result["moves"]:
        print(move)
    print(result["position"])
    over = session.position.outcome()
    print(f"outcome: {over}" if over else "outcome: game goes on")
    for alert in result["alerts"]:
        if alert["kind"] in ("mismatch", "ambiguous", "roll-first", "move-first", "pass"):
            print(f"alert {alert['t']:.3f}: {alert['kind']}: {alert['text']}")
    found = faults(trace, session)
    for fault in found:
        print(f"reedboard: error: {fault}", file=sys.stderr)
    return 2 if found else 0


def cmd_hint(args: argparse.Namespace) -> int:
    from reedboard.referee.hints import suggest
    from reedboard.referee.solved import solves

    position = _position(args)
    top = args.level is None or args.level == TOP_LEVEL  # a lower level is the search's own
    winning = _winning_set(position.options) if top and solves(position) else None
    move = suggest(position, winning, TOP_LEVEL if args.level is None else args.level)
    print(move if move is not None else "none")
    return 0


def _winning_set(options: Any) -> Any:
    """Solitaire's winning set for the game's finish: from the cache, or built now (progress
    and the reason on stderr)."""
    from reedboard.referee import solved

    progress = solved.ProgressPrinter(sys.stderr, [("reachable", 1.0)])
    try:
        return solved.winning_set(
            options.finish_hole,
            build_missing=True,
            progress=progress,
            say=lambda text: print(f"reedboard: {text}", file=sys.stderr, flush=True),
        )
    finally:  # a CacheError (a set built but unreadable) is one line naming the file
        progress.done()


def cmd_analyse(args: argparse.Namespace) -> int:
    """Peg Solitaire solved whole: the four counts (reedboard/engine/solitaire_solver.py);
    McLoughlin's
    Fox and Geese: a proof search within a budget (reedboard/engine/fox_geese_solver.py)."""
    from reedboard.engine import fox_geese_solver
    from reedboard.engine import solitaire_solver as solver
    from reedboard.referee import solved

    cls = engine.game(args.game)
    if cls.game_id == fox_geese_solver.GAME:
        return _analyse_fox_geese(args)
    if cls.game_id != solver.GAME:
        raise CommandError(
            f"analyse: solves {solver.GAME} and {fox_geese_solver.GAME}, not {args.game}"
        )
    if args.budget is not None:
        raise CommandError(
            f"analyse: --budget is for {fox_geese_solver.GAME}; {solver.GAME}'s analysis runs whole"
        )
    options = cls.options_from(_options(args.option))
    if options.diagonals is not engine.Diagonals.NONE:
        raise solver.SolverError(
            "analyse: the Peg Solitaire solver plays orthogonal jumps only (diagonals=none),"
            f" not diagonals={options.diagonals.value}"
        )
    solver.require_numpy()
    start, finish = options.start, options.finish_hole
    if args.position is not None:  # from a position of one's own: no cache is written
        position = cls.from_text(args.position, **_options(args.option))
        board = solver.bits_of(position.holes_of("o"))  # type: ignore[attr-defined]
        if not board:
            raise CommandError(f"analyse: position {args.position!r} has no pegs")
        group = solver.symmetries_keeping(board, finish)
        where = f"position {position.to_text()!r}"
    else:
        board = solver.FULL ^ solver.HOLE_BIT[start]
        group = solver.symmetries_fixing(start, finish)
        where = f"the start with {start} empty"
    print(
        f"reedboard: solitaire from {where} to one peg on {finish}: positions equal under"
        f" the {len(group)} symmetries that keep both in place count once",
        file=sys.stderr,
    )

    def keep(reach: Any, _group: Any) -> None:  # the search from the finish: the hint cache
        try:
            solved.write(solved.cache_path(finish), finish, solver.lookup_levels(reach))
        except OSError as exc:
            print(f"reedboard: the winning set was not cached: {exc}", file=sys.stderr)

    progress = solved.ProgressPrinter(sys.stderr, [("reachable", 0.92), ("winning", 0.08)])
    cache = args.position is None and start == finish  # the search from the finish itself
    try:
        counts = solver.analyse_from(board, finish, progress, keep if cache else None)
    finally:
        progress.done()
    print(f"reachable: {counts.reachable}")
    print(f"winning: {counts.winning}")
    print(f"solutions: {counts.solutions}")
    print(f"sequences: {counts.sequences}")
    return 0


ANALYSE_BUDGET = 60.0
"""Seconds `analyse fox-and-geese-mcloughlin` searches by default."""
MAX_BUDGET = 7 * 24 * 3600.0
"""The longest budget `analyse` takes (a week)."""


def _analyse_fox_geese(args: argparse.Namespace) -> int:
    """McLoughlin's Fox and Geese: who wins, proved within the budget, or how far it got."""
    from reedboard.engine import fox_geese_solver as search

    position = _position(args)
    search.check_options(position.options)  # refused before anything is said
    budget = ANALYSE_BUDGET if args.budget is None else args.budget
    where = "the start" if args.position is None else f"position {position.to_text()!r}"
    print(
        f"reedboard: {search.GAME} from {where}: proof search for at most {budget:g} s",
        file=sys.stderr,
        flush=True,
    )

    def progress(positions: int, expanded: int, pn: int, dn: int, seconds: float) -> None:
        print(
            f"searched: {positions:,} positions, {expanded:,} expansions,"
            f" fox {_number(pn)} / geese {_number(dn)} ({seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    result = search.solve(position, budget, progress)
    if result.value is not None:
        print(f"value: {result.value} {'wins' if result.value == 'fox' else 'win'} (proved)")
    else:
        print(f"value: not proved within {budget:g} s")
    print(f"proof number (fox wins): {_number(result.proof)}")
    print(f"disproof number (geese win): {_number(result.disproof)}")
    print(f"positions: {result.positions}")
    print(f"expansions: {result.expanded}")
    print(f"seconds: {result.seconds:.1f}")
    for state in result.moves:
        if state.value is not None:
            said = f"{state.value} {'wins' if state.value == 'fox' else 'win'}"
        else:
            said = f"open (fox {_number(state.proof)} / geese {_number(state.disproof)})"
        print(f"move {state.move}: {said}")
    return 0


def _number(n: int) -> str:
    """A proof or disproof number as `analyse` shows it (infinity as ``inf``)."""
    from reedboard.engine.fox_geese_solver import INF

    return "inf" if n >= INF else str(n)


MAX_GAME_ID = 2**63 - 1
"""The largest number SQLite gives a game."""


def _game_number(text: str, path: Path) -> int:
    """``history GAME``: a game's number as the list shows it."""
    if not (text.isascii() and text.isdigit()):
        raise CommandError(f"history: {text!r} is not a game number (see `reedboard history`)")
    digits = text.lstrip("0")
    if len(digits) > len(str(MAX_GAME_ID)) or not 1 <= int(digits or "0") <= MAX_GAME_ID:
        shown = text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"
        raise CommandError(f"{path}: no game {shown}")  # int() of 4301 digits or more fails
    return int(digits)


def cmd_history(args: argparse.Namespace) -> int:
    from reedboard.store.games import GameStore, default_path

    path = args.database or default_path()
    number = None if args.game_id is None else _game_number(args.game_id, path)
    if not path.exists():
        raise CommandError(f"{path}: no game store yet (games are stored once played)")
    store = GameStore(path, readonly=True)  # read as it stands: not migrated, not written
    try:
        if number is None:
            for g in store.games():
                moves = f"{len(g.moves)} move" + ("" if len(g.moves) == 1 else "s")
                print(f"{g.id}\t{g.game}\t{moves}\t{g.status}")
            return 0
        record = store.game(number)
        if record is None:
            raise CommandError(f"{path}: no game {number}")
        print(history_text(record), end="")
        return 0
    finally:
        store.close()


def history_text(record: Any) -> str:
    """A stored game as text (``history GAME``, the web view's export): its header lines, one
    numbered line a move, its outcome."""
    lines = [f"# game {record.id}: {record.game}"]
    if record.options:
        lines.append(f"# options: {json.dumps(record.options, sort_keys=True)}")
    lines.append(f"# start: {record.start}")
    notes = _history_notes(record)  # issue 13: the jump that lost a winnable Solitaire game
    for ply, move in enumerate(record.moves, start=1):
        lines.append(f"{ply}. {move}" + (f"  # {notes[ply]}" if ply in notes else ""))
    lines.append(f"# outcome: {record.status}")
    return "\n".join(lines) + "\n"


def _history_notes(record: Any) -> dict[int, str]:
    """Notes on a stored game's moves: a Solitaire game's losing jump, once the winning set
    for its finish is cached (history never builds it)."""
    from reedboard.engine import solitaire_solver as solver
    from reedboard.referee import solved

    if record.game != solver.GAME:
        return {}
    try:
        position = engine.game(record.game).from_text(record.start, **record.options)
        if not solved.solves(position):
            return {}
        ws = solved.winning_set(solved.finish_of(position.options))
        if ws is None:
            return {}
        return solved.lost_plies(record.game, record.options, record.start, record.moves, ws)
    except EngineError:  # numpy missing, or a record the store's checks let through
        return {}


def _game_parser(
    sub: argparse._SubParsersAction[Parser],
    name: str,
    help: str,
    *,
    game: str = "a game id (see `reedboard games`)",
    position: str = "start from this position's text form",
    options: str = "a game option, e.g. diagonals=all, start=5, empty=16,18 (repeatable)",
    description: str | None = None,
) -> Parser:
    """A command on one game: GAME, --position TEXT and -o KEY=VALUE (repeatable)."""
    p = sub.add_parser(name, help=help, description=description)
    p.add_argument("game", metavar="GAME", help=game)
    p.add_argument("--position", metavar="TEXT", help=position)
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help=options)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="reedboard",
        description="An augmented wooden board for old board games: rules engine and daemon.",
    )
    parser.add_argument("--version", action="version", version=f"reedboard {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("games", help="list the game ids, one a line")
    p.set_defaults(func=cmd_games)

    p = _game_parser(sub, "perft", "count the leaf positions to a depth (the count is last)")
    p.add_argument(
        "depth",
        metavar="DEPTH",
        type=whole(0, PERFT_DEPTH),
        help=f"how many plies deep (0 to {PERFT_DEPTH})",
    )
    p.add_argument("--divide", action="store_true", help="also print the count under each move")
    p.set_defaults(func=cmd_perft)

    p = _game_parser(sub, "moves", "list the legal moves, one a line")
    p.add_argument("--dice", metavar="A,B", help="throw these dice first (dice games)")
    p.set_defaults(func=cmd_moves)

    wiring = sub.add_parser("wiring", help="board wiring: diagram, pin table and check")
    wsub = wiring.add_subparsers(dest="wiring_command", metavar="WHAT", required=True)
    p = wsub.add_parser("diagram", help="write an SVG of a build's (or layout's) wiring")
    p.add_argument(
        "target", metavar="BUILD", help="a build name or file (or a layout with --layout)"
    )
    p.add_argument("--layout", action="store_true", help="TARGET is a layout, not a build")
    p.add_argument("-o", "--output", metavar="FILE", type=path, help="write here (default: stdout)")
    p.set_defaults(func=cmd_wiring_diagram)
    p = wsub.add_parser("table", help="the pins of a build as a Markdown table")
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.set_defaults(func=cmd_wiring_table)
    p = wsub.add_parser("check", help="light each LED, then test each switch with a magnet")
    p.add_argument("target", metavar="BUILD", help="a build name or file")
    p.add_argument(
        "--timeout",
        type=number(0.1, 3600),
        default=15.0,
        metavar="SECONDS",
        help="how long to wait at each point (0.1 to 3600; default 15)",
    )
    p.set_defaults(func=cmd_wiring_check)

    p = sub.add_parser("run", help="the daemon (on the simulated board without a build)")
    p.add_argument("--config", metavar="FILE", type=path, help="a config file (see README)")
    p.add_argument("--game", metavar="ID", help=f"the game to play (default {engine.DEFAULT_GAME})")
    p.add_argument("--database", metavar="FILE", type=path, help="the game store (SQLite)")
    p.add_argument("--remote", metavar="URL", help="play with another board: mqtt://HOST:PORT")
    p.add_argument("--match", metavar="ID", help="the match both boards name (with --remote)")
    p.add_argument("--seats", metavar="SIDE,...", help="the sides played here (with --remote)")
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
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("watch", help="follow a remote match read-only, a line per move")
    p.add_argument("--remote", metavar="URL", required=True, help="the broker: mqtt://HOST:PORT")
    p.add_argument("--match", metavar="ID", required=True, help="the match to follow")
    p.add_argument(
        "--count", metavar="N", type=whole(1, 1_000_000), help="stop after N lines (1-1000000)"
    )
    p.set_defaults(func=cmd_watch)

    firmware = sub.add_parser("firmware", help="the Pico firmware: its config, installing it")
    fsub = firmware.add_subparsers(dest="firmware_command", metavar="WHAT", required=True)
    p = fsub.add_parser("config", help="print the config.json a Pico build needs")
    p.add_argument("target", metavar="BUILD", help="a Pico build name or file")
    p.set_defaults(func=cmd_firmware)
    p = fsub.add_parser("install", help="copy the firmware and its config to a Pico (mpremote)")
    p.add_argument("target", metavar="BUILD", help="a Pico build name or file")
    p.add_argument("--port", help="the Pico's serial port (default: the build's)")
    p.add_argument("--dry-run", action="store_true", help="only print the mpremote commands")
    p.set_defaults(func=cmd_firmware)

    _add_table_assistants(sub)

    p = sub.add_parser("demo", help="a scripted game through the whole stack, drawn here")
    p.add_argument(
        "--game",
        default=engine.DEMO_GAME,
        metavar="ID",
        help=f"the game (default {engine.DEMO_GAME})",
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
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("replay", help="feed a recorded sensor trace through the controller")
    p.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines)")
    p.add_argument("--game", metavar="ID", help="replay as this game instead of the trace's")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("history", help="list stored games, or print one as text")
    p.add_argument("game_id", metavar="GAME", nargs="?", help="a game number (as the list shows)")
    p.add_argument("--database", metavar="FILE", type=path, help="the game store (SQLite)")
    p.set_defaults(func=cmd_history)

    p = _game_parser(sub, "hint", "the suggested move, or none")
    p.add_argument(
        "--level",
        type=whole(1, TOP_LEVEL),
        metavar="N",
        help=f"the move the computer plays at this level (1 to {TOP_LEVEL}; default the top)",
    )
    p.set_defaults(func=cmd_hint)

    p = _game_parser(
        sub,
        "analyse",
        "Peg Solitaire solved, or who wins McLoughlin's Fox and Geese (proof search)",
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
    p.set_defaults(func=cmd_analyse)

    p = _game_parser(sub, "apply", "play moves and print the position and outcome as JSON")
    p.add_argument(
        "moves",
        metavar="MOVE",
        nargs="*",
        help="moves in the game's text form; throws as dice=A,B",
    )
    p.set_defaults(func=cmd_apply)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand its one-line help as the description its --help shows."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if sub.description is None:
                    sub.description = helps.get(name)
                _describe(sub)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("reedboard")
    except PackageNotFoundError:
        return "(not installed: no package metadata)"


def _silence_stdout() -> None:
    """Standard output is a closed pipe (``reedboard moves GAME | head -1``): send what is left
    nowhere, so that neither we nor Python's exit says "Broken pipe"."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a test's capture: no file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _flush() -> None:
    if sys.stdout is not None:  # None: started with standard output closed (>&-)
        sys.stdout.flush()


def _error(text: str) -> int:
    """One line on standard error, ``reedboard: error: ...``; exit code 2."""
    line = " ".join(text.split()) or "failed"
    if sys.stderr is not None:  # closed (2>&-): the exit code says it (print would use stdout)
        with contextlib.suppress(OSError, ValueError):
            print(f"reedboard: error: {line}", file=sys.stderr, flush=True)
    return 2


def build_command_line(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed arguments; UsageError (one line) for a bad command line."""
    parser = build_parser()
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


def main(argv: Sequence[str] | None = None) -> int:
    """The ``reedboard`` command: 0 when it did what was asked (``wiring check``: 1 when the
    board is wired wrong), 2 with one line ``reedboard: error: ...`` when it could not."""
    if sys.stdout is None:  # started with standard output closed (>&-): write nowhere
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (for the process's whole life)
    try:
        try:
            args = build_command_line(argv)
        except SystemExit as done:  # --help, --version: printed
            _flush()
            return done.code if isinstance(done.code, int) else 0
        code = int(args.func(args))
        _flush()  # a closed pipe is found here, not at Python's exit
        return code
    except BrokenPipeError:  # `reedboard moves GAME | head -1`: nobody reads on
        _silence_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: no traceback
        return 130
    except (ReedboardError, OSError, UnicodeError) as exc:  # every error of ours, and files
        return _error(str(exc))
