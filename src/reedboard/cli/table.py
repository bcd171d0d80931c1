"""A command for each game played at the table (`reedboard jack-rabbits WHAT ...`), built from its
table assistant's questions."""

from __future__ import annotations

import argparse
from typing import Any

from reedboard import engine
from reedboard.cli.args import Parser
from reedboard.errors import CommandError


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


def add_questions(parser: argparse.ArgumentParser, game_id: str) -> None:
    """The questions of a game's table assistant, as subcommands of its command."""
    assistant = engine.game(game_id).table_assistant()
    if assistant is None:
        raise CommandError(f"{game_id} has no table assistant")
    questions = parser.add_subparsers(dest="table_question", metavar="WHAT", required=True)
    common = Parser(add_help=False)  # only lends its arguments to the parsers below
    for arg in assistant.common:
        _add_table_arg(common, arg)
    for question in assistant.questions:
        p = questions.add_parser(question.name, parents=[common], help=question.help)
        for arg in question.args:
            _add_table_arg(p, arg)
        p.set_defaults(func="table:cmd_table", question=question)


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
