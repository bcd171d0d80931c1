"""Rules questions on one position: the games, perft, legal moves, moves applied, a hint."""

from __future__ import annotations

import argparse
import json
from typing import Any

from reedboard import engine
from reedboard.engine import EngineError, Position


def parse_options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise EngineError(f"bad --option {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def position_from(args: argparse.Namespace) -> Position[Any, Any]:
    cls = engine.game(args.game)
    options = parse_options(args.option)
    if args.position is None:
        return cls.start(**options)
    return cls.from_text(args.position, **options)


def _outcome_json(position: Position[Any, Any]) -> dict[str, object]:
    over = position.outcome()
    return {"position": position.to_text(), "outcome": over.as_dict() if over else None}


def cmd_perft(args: argparse.Namespace) -> int:
    position = position_from(args)
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
    position = position_from(args)
    if args.dice is not None:
        _throw(position, args.dice)
    for move in position.legal_moves:
        print(move)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    position = position_from(args)
    _push_all(position, args.moves)
    print(json.dumps(_outcome_json(position)))
    return 0
