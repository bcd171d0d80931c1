"""The package's imports point one way: no module imports, at module level or inside a
function, a module that imports it back (directly or round a longer cycle), and the engine
imports nothing else of ours."""

from __future__ import annotations

from pathlib import Path

from tests.house.imports import SRC, cycles, graph, imports


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_the_engine_imports_nothing_else_of_ours() -> None:
    outside = {
        name: sorted(m for m in used if not m.startswith("reedboard.engine"))
        for name, used in graph().items()
        if name.startswith("reedboard.engine")
    }
    assert {name: used for name, used in outside.items() if used} == {}


def test_the_graph_holds_every_module_and_its_imports() -> None:
    edges = graph()
    assert len(edges) > 90
    assert "reedboard.engine.registry" in edges["reedboard.cli.main"]
    # a function-level import counts (the CLI loads a command's module only when it runs)
    assert "reedboard.daemon.core" in edges["reedboard.cli.run"]


def test_the_check_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("from reedboard.x import b\n")
    b = tmp_path / "b.py"
    b.write_text("def f():\n    from reedboard import a\n")
    known = {"reedboard", "reedboard.a", "reedboard.x", "reedboard.x.b"}
    edges = {
        "reedboard.a": imports("reedboard.a", a, known),
        "reedboard.x.b": imports("reedboard.x.b", b, known),
    }
    assert edges == {"reedboard.a": {"reedboard.x.b"}, "reedboard.x.b": {"reedboard.a"}}
    assert cycles(edges) == [["reedboard.a", "reedboard.x.b"]]
    assert cycles({"p": {"q"}, "q": {"r"}, "r": set()}) == []


def test_the_source_folder_is_the_package() -> None:
    assert (SRC / "reedboard" / "__init__.py").is_file()
