"""Each game's sides in words (``the geese``, ``White Rabbit``, with a colour for a swatch), and
its options in words (``holes left empty at the start``, ``no diagonals``).

The words are data (``reedboard/engine/data/names.toml`` and ``options.toml``), one place for
the web view's player panel and picker and the command line; a side or an option the files do
not name is said by its own id.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from reedboard.engine.files import read_bounded

DATA = Path(__file__).parent / "data" / "names.toml"
OPTIONS = Path(__file__).parent / "data" / "options.toml"
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


@dataclass(frozen=True, slots=True)
class OptionName:
    """An option in words: ``label`` what it is (``holes left empty at the start``), ``help``
    one line more where it helps (else ""), ``values`` a choice's values in words
    (``{"none": "no diagonals"}``)."""

    key: str
    label: str
    help: str = ""
    values: tuple[tuple[str, str], ...] = ()

    def value(self, value: str) -> str:
        """A value of the option in words (the value itself where the table has none)."""
        return dict(self.values).get(value, value)


@functools.cache
def _options() -> dict[str, dict[str, OptionName]]:
    data = tomllib.loads(read_bounded(OPTIONS).decode("utf-8"))
    return {
        game: {
            key: OptionName(
                key,
                words["label"],
                words.get("help", ""),
                tuple((str(k), str(v)) for k, v in words.get("values", {}).items()),
            )
            for key, words in options.items()
        }
        for game, options in data.items()
    }


def option_name(game_id: str, key: str) -> OptionName:
    """The option ``key`` of ``game_id`` in words (its key, ``_`` as spaces, where the table
    has none)."""
    return _options().get(game_id, {}).get(key) or OptionName(key, key.replace("_", " "))


def join(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) < 3:
        return " and ".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
