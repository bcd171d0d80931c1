"""Game knowledge lives in the engine: the controller names no game id, no game's move class,
no game module and no game's own state (the Brier Patch, an escape); it asks the engine's
hooks (marks, physical_steps, evaluate, demo_line, file_options, throw_values)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from reedboard import engine
from reedboard.engine import Move

CONTROLLER = Path(__file__).resolve().parents[2] / "src" / "reedboard"
GAME_MODULES = {
    "brier9",
    "cross33",
    "fox_and_geese",
    "fox_and_rabbit",
    "jack_rabbits",
    "messenger_boy",
    "parchesi",
    "skip",
    "solitaire",
}
GAME_STATE = {"escape", "brier_patch", "orders", "rotation"}
"""Names of one game's own state that the controller must not read."""


def move_classes() -> set[str]:
    """Every move class a game module defines (the shared Throw is the engine's, not a game's)."""
    out = set()
    for name in GAME_MODULES:
        module = importlib.import_module(f"reedboard.engine.{name}")
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Move) and cls.__module__ == module.__name__:
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
                out |= set(parts[1:]) & GAME_MODULES
                out |= {a.name for a in node.names} & (GAME_MODULES | classes)
    return out


def test_the_controller_names_no_game_id_move_class_or_game_state() -> None:
    found = {}
    for path in sorted(CONTROLLER.rglob("*.py")):
        if path.relative_to(CONTROLLER).parts[0] == "engine":
            continue
        if left := named(path.read_text(encoding="utf-8")):
            found[str(path.relative_to(CONTROLLER))] = sorted(left)
    assert found == {}


def test_the_check_sees_what_it_looks_for() -> None:
    source = (
        '"""fox-and-geese in a docstring is prose."""\n'
        "from reedboard.engine.cross33 import CrossMove\n"
        "from engine import parchesi\n"
        'if game == "solitaire" and isinstance(m, engine.PieceMove): x = getattr(p, "escape")\n'
        "y = view.brier_patch\n"
        "class Step: pass\n"
    )
    assert named(source) == {
        "cross33",
        "CrossMove",
        "parchesi",
        "solitaire",
        "PieceMove",
        "escape",
        "brier_patch",
    }
