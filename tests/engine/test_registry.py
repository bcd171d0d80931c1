"""The registry names every shipped game and its module without importing it; each module
registers exactly the ids the registry gives it."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from reedboard import engine
from reedboard.engine import registry


def test_each_module_registers_exactly_the_ids_the_registry_names() -> None:
    for module in set(registry.KNOWN.values()):
        importlib.import_module(module)
    by_module: dict[str, set[str]] = {}
    for game_id in engine.game_ids():
        by_module.setdefault(engine.game(game_id).__module__, set()).add(game_id)
    expected: dict[str, set[str]] = {}
    for game_id, module in registry.KNOWN.items():
        expected.setdefault(module, set()).add(game_id)
    assert by_module == expected


def test_the_table_assistants_are_the_games_that_have_one() -> None:
    have = {g: a.help for g in engine.game_ids() if (a := engine.game(g).table_assistant())}
    assert have == registry.TABLE_ASSISTANTS


def test_listing_the_games_loads_none() -> None:
    code = (
        "import sys; from reedboard.engine import registry; ids = registry.game_ids();"
        "print(len(ids), sorted(m for m in sys.modules if m.startswith('reedboard.engine.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.split(" ", 1) == [
        str(len(registry.KNOWN)),
        "['reedboard.engine.errors', 'reedboard.engine.registry']\n",
    ]


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(engine.UnknownGameError, match=r"'chess' \(games: fox-and-geese,"):
        engine.game("chess")
