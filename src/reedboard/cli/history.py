"""`reedboard history`: the stored games, or one as text."""

from __future__ import annotations

import argparse
from pathlib import Path

from reedboard.errors import CommandError
from reedboard.store.history import history_text

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
