"""Game knowledge lives in the engine: no other package names no game id, no game's move class,
no game module and no game's own state (the Brier Patch, an escape); it asks the engine's
hooks (marks, physical_steps, evaluate, demo_line, file_options, throw_values, hint_points,
solved_table, analysis)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from reedboard import engine
from reedboard.engine import Move
from reedboard.engine.registry import KNOWN
from tests.house.imports import graph

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "reedboard"
GAME_STATE = {"escape", "brier_patch", "orders", "rotation"}
"""Names of one game's own state that the code outside the engine must not read."""


def game_modules() -> set[str]:
    """The engine's modules and packages that belong to one game, from the registry: each
    registered game's module or package (with its solver, table, cards beside its rules), and
    each engine module that, within the engine, only that game imports (``brier9``,
    ``dice_solver``). Shared parts (the cross board two games play on, ``Throw``) are the
    engine's. Named as they stand under ``reedboard.engine``."""
    games = {module.split(".")[2] for module in KNOWN.values()}
    edges = graph()

    def top(module: str) -> str:
        return module.split(".")[2]

    engine_modules = {top(m) for m in edges if m.startswith("reedboard.engine.")}
    owned = set(games)
    for name in engine_modules - games:
        importers = {
            top(a)
            for a, used in edges.items()
            if a.startswith("reedboard.engine.")
            and any(top(u) == name for u in used if u.startswith("reedboard.engine."))
        } - {name}
        if len(importers) == 1 and importers <= games:  # one game's alone
            owned.add(name)
    return owned


GAME_MODULES = game_modules()


def move_classes() -> set[str]:
    """Every move class a game's modules define (the shared Throw is the engine's, not a
    game's)."""
    out = set()
    for name in GAME_MODULES:
        module = importlib.import_module(f"reedboard.engine.{name}")
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Move) and cls.__module__.startswith(module.__name__):
                out.add(cls_name)
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def named(source: str) -> set[str]:
    """The game ids, move classes, game modules and game state a module's code names (its
    docstrings and comments may speak of games). A move class is only reached through an
    import or ``engine.``: a class of the same name of the controller's own is not one."""
    ids, classes = set(engine.game_ids()), move_classes()
    tree = ast.parse(source)
    docs = _docstrings(tree)
    # Names another library gives (xml's escape, re.escape) are not a game's state.
    foreign = {
        a.asname or a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and not (node.module or "").startswith("reedboard")
        for a in node.names
    } | {
        (a.asname or a.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for a in node.names
        if not a.name.startswith("reedboard")
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign
        ):
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out |= {node.value} & (ids | GAME_STATE)
        elif isinstance(node, ast.Name) and node.id not in foreign:
            out |= {node.id} & GAME_STATE
        elif isinstance(node, ast.Attribute):
            out |= {node.attr} & GAME_STATE
            if node.attr in classes and ast.unparse(node).startswith("engine."):
                out.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.removeprefix("reedboard.").split(".")
            if parts[0] == "engine":
                out |= set(parts[1:2]) & GAME_MODULES
                out |= {a.name for a in node.names} & (GAME_MODULES | classes)
        elif isinstance(node, ast.Import):  # import reedboard.engine.skip
            for alias in node.names:
                parts = alias.name.removeprefix("reedboard.").split(".")
                if parts[0] == "engine":
                    out |= set(parts[1:2]) & GAME_MODULES
    return out


def test_no_module_outside_the_engine_names_a_game_id_move_class_game_module_or_state() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        # reedboard.analysis holds compiled solvers of one game each (McLoughlin's, in C): game
        # knowledge as the engine's is, kept out of it only because it builds and runs programs
        if path.relative_to(PACKAGE).parts[0] in ("engine", "analysis"):
            continue
        if left := named(path.read_text(encoding="utf-8")):
            found[path.relative_to(PACKAGE).as_posix()] = sorted(left)
    assert found == {}


def test_the_game_modules_come_from_the_registry() -> None:
    assert {"fox_and_geese", "solitaire", "skip", "parchesi", "jack_rabbits"} <= GAME_MODULES
    assert {"brier9", "dice_solver"} <= GAME_MODULES  # what Fox and Rabbit alone imports
    shared = {"position", "registry", "search", "throw", "cross", "physical", "errors", "levels"}
    assert not shared & GAME_MODULES


def test_the_check_sees_what_it_looks_for() -> None:
    source = (
        '"""fox-and-geese in a docstring is prose."""\n'
        "from reedboard.engine.fox_and_geese.solver import INF\n"
        "from reedboard.engine import parchesi\n"
        "import reedboard.engine.skip\n"
        'if game == "solitaire" and isinstance(m, engine.PieceMove): x = getattr(p, "escape")\n'
        "y = view.brier_patch\n"
        "class Step: pass\n"
    )
    assert named(source) == {
        "fox_and_geese",
        "skip",
        "parchesi",
        "solitaire",
        "PieceMove",
        "escape",
        "brier_patch",
    }
