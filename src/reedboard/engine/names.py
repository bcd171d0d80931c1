"""Each game's sides in words: ``the geese``, ``White Rabbit``, with a colour for a swatch.

The words are data (``reedboard/engine/data/names.toml``), one place for the web view's player
panel and the command line; a side the file does not name is said by its own id.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from reedboard.engine.files import read_bounded

DATA = Path(__file__).parent / "data" / "names.toml"
GREY = "#888888"


@dataclass(frozen=True, slots=True)
class SideName:
    """A side in words: ``name`` the side as a whole (``the geese``), ``one`` one of its pieces
    (``a goose``), ``colour`` its swatch (``#rrggbb``)."""

    side: str
    name: str
    one: str
    colour: str = GREY


@functools.cache
def _table() -> dict[str, dict[str, SideName]]:
    data = tomllib.loads(read_bounded(DATA).decode("utf-8"))
    return {
        game: {
            side: SideName(side, words["name"], words.get("one", words["name"]), words["colour"])
            for side, words in sides.items()
        }
        for game, sides in data.items()
    }


def side_name(game_id: str, side: str) -> SideName:
    """``side`` of ``game_id`` in words (its own id where the table has none)."""
    return _table().get(game_id, {}).get(side) or SideName(side, side, side)


def name(game_id: str, side: str) -> str:
    """The side as a whole: ``the geese``, ``White Rabbit``."""
    return side_name(game_id, side).name


def join(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) < 3:
        return " and ".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
