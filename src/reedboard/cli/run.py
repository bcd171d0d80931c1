"""`reedboard run` (the daemon) and `reedboard watch` (a remote match, read-only)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.cli.args import (
    UsageError,
)
from reedboard.cli.output import say
from reedboard.errors import CommandError


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
    config = _option_flags(config, args)
    if remote := _remote_args(args, required=False):  # two boards, one game
        from reedboard.daemon.remote.settings import check_seats

        check_seats(remote, engine.start(config.game, **config.options).players, "--seats")
        config = replace(config, remote=remote)
    config = _computer_flags(config, args)
    config = _web_flags(config, args)
    daemon = Daemon(config, out=say)
    where = f"build {config.build}" if config.build else "the simulated board"
    say(f"reedboard: {config.game} on {where}; games in {config.database}")
    say(f"{daemon.session.cls.title}: {_players(config)}")
    asyncio.run(daemon.run(console=config.build is None))
    return 0


def _remote_args(args: argparse.Namespace, *, required: bool) -> Any:
    """``--remote URL --match ID [--seats S,...]`` as remote settings (None when not given
    and not required); a bad or missing one is one line naming the option."""
    from reedboard.daemon.remote.settings import from_values

    given = {
        key: value
        for key, value in (("broker", args.remote), ("match", args.match), ("invite", args.join))
        if value is not None
    }
    if getattr(args, "seats", None) is not None:
        given["seats"] = args.seats
    if getattr(args, "insecure", False):
        given["insecure"] = True
    if not given.keys() - {"insecure"} and not required:
        return None
    if not required and "seats" not in given:
        raise UsageError(
            "run: --remote needs --match ID and --seats SIDE[,SIDE] (--join CODE needs --seats)"
        )
    if "invite" not in given:
        for key, option in (("broker", "--remote URL"), ("match", "--match ID")):
            if key not in given:
                raise UsageError(f"{args.command}: {option} is needed with the others")
    if required:
        given["seats"] = "watch"  # a spectator plays no side
    names = {
        "broker": "--remote",
        "match": "--match",
        "seats": "--seats",
        "invite": "--join",
        "insecure": "--insecure",
    }
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
        needs = f"watch needs aiomqtt ({exc}): .venv/bin/pip install -e '.[remote]'"
        raise CommandError(needs) from None
    settings = _remote_args(args, required=True)
    asyncio.run(watch(settings, say, args.count))
    return 0


def cmd_invite(args: argparse.Namespace) -> int:
    """Print an invite to this board's match: the code to pass to the other board by hand."""
    from reedboard.daemon.config import Config, load_config

    config = load_config(args.config) if args.config else Config(game=engine.DEFAULT_GAME)
    if args.database:
        config = replace(config, database=args.database)
    args.join = None
    remote = _remote_args(args, required=False) or config.remote
    if remote is None:
        raise UsageError("invite: give --config FILE (with [remote]) or --remote, --match, --seats")
    try:
        from reedboard.daemon.remote.invite import make_invite
    except ImportError as exc:
        needs = f"invite needs cryptography ({exc}): .venv/bin/pip install -e '.[remote]'"
        raise CommandError(needs) from None
    home = remote.home or config.database.with_name(config.database.name + ".remote")
    invite = make_invite(remote.match, remote.broker.url, remote.seats, home, watch=args.watch)
    say(invite.code())
    if args.watch:
        say(f"to follow the match: reedboard watch --join {invite.code()}")
    else:
        say(
            f"on the other board: reedboard run --join {invite.code()} --seats SIDE"
            ' (or invite = "..." in its [remote] table)'
        )
    return 0


def cmd_broker_files(args: argparse.Namespace) -> int:
    """Write a Mosquitto password file and ACL for a match; print each board's login once."""
    from reedboard.daemon.remote.broker import write_broker_files
    from reedboard.daemon.remote.settings import SEP, RemoteSettingsError, parse_match, parse_seats

    try:
        match = parse_match(args.match, "--match")
        boards = [SEP.join(parse_seats(board, "--board")) for board in args.board]
    except RemoteSettingsError as exc:
        raise UsageError(f"broker-files {exc}") from None
    if len(set(boards)) != len(boards):
        raise UsageError("broker-files --board: a board is given twice")
    files = write_broker_files(match, boards, args.out)
    say(f"wrote {files.passwd}, {files.acl} and {files.conf} (include the last in mosquitto.conf)")
    for user, password in files.passwords.items():
        who = "spectators" if user not in boards else f"board {user}"
        say(f"{who}: username = {user!r}, password = {password!r}")
    return 0


def _option_flags(config: Any, args: argparse.Namespace) -> Any:
    """``run -o KEY=VALUE`` over the config's ``[options]`` (a file named relative to here);
    a bad key or value is one line naming it."""
    if not args.option:
        return config
    from reedboard.cli.rules import parse_options

    try:
        given: dict[str, Any] = dict(parse_options(args.option))
        game = engine.game(config.game)
        for key in game.file_options():
            if given.get(key):
                given[key] = str(Path(given[key]).expanduser().resolve())
        options = {**config.options, **given}
        game.options_from(options)
    except engine.EngineError as exc:
        raise UsageError(f"run -o: {exc}") from None
    return replace(config, options=options)


def _players(config: Any) -> str:
    """Who plays whom, in the web view's words (reedboard/daemon/words.py)."""
    from reedboard.daemon.seats import seats
    from reedboard.daemon.words import versus

    position = engine.start(config.game, **config.options)
    return versus(position, seats(config.game, config.options, config.computer), config.level)


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
        web = replace(web, host=host, port=port, enabled=True, problem=None)
    if args.no_web:
        web = replace(web, enabled=False, problem=None)
    check_settings(web)
    check_port(web)  # a port in use is said before the board or the store is opened
    return replace(config, web=web)


def _computer_flags(config: Any, args: argparse.Namespace) -> Any:
    """``run --computer SIDES --level N`` over the config's ``computer`` and ``level``."""
    from reedboard.daemon.seats import seats

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
