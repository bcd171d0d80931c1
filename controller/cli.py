"""The ``reedboard`` command line (DESIGN.md "The CLI").

Every error the user can cause ends in one line on stderr naming what was wrong, and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import engine
from engine import EngineError, Position


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


def _game_parser(sub: Any, name: str, help: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help, description=help)
    p.add_argument("game", metavar="GAME", help="a game id (see `reedboard games`)")
    p.add_argument("--position", metavar="TEXT", help="start from this position's text form")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. diagonals=all, start=5, empty=16,18 (repeatable)",
    )
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reedboard",
        description="An augmented wooden board for old board games: rules engine and daemon.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("games", help="list the game ids, one a line")
    p.set_defaults(func=cmd_games)

    p = _game_parser(sub, "perft", "count the leaf positions to a depth (the count is last)")
    p.add_argument("depth", metavar="DEPTH", type=int)
    p.add_argument("--divide", action="store_true", help="also print the count under each move")
    p.set_defaults(func=cmd_perft)

    p = _game_parser(sub, "moves", "list the legal moves, one a line")
    p.add_argument("--dice", metavar="A,B", help="throw these dice first (dice games)")
    p.set_defaults(func=cmd_moves)

    p = _game_parser(sub, "apply", "play moves and print the position and outcome as JSON")
    p.add_argument(
        "moves",
        metavar="MOVE",
        nargs="*",
        help="moves in the game's text form; throws as dice=A,B",
    )
    p.set_defaults(func=cmd_apply)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # `apply GAME --position TEXT MOVE...`: argparse leaves moves after an option unparsed
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command != "apply" or any(e.startswith("-") for e in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.moves += extra
    try:
        return int(args.func(args))
    except EngineError as exc:
        print(f"reedboard: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `reedboard moves … | head`
        return 0
