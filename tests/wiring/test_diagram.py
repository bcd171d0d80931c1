"""The wiring diagram: every point with its id, switch row/column and LED index; every pin."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from reedboard.cli.main import main
from reedboard.wiring.build import available, load_build
from reedboard.wiring.diagram import diagram

DOCS = Path(__file__).resolve().parents[2] / "docs"


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("name", available())
def test_every_point_and_pin_is_on_the_diagram(name: str) -> None:
    build = load_build(name)
    words = texts(diagram(build.layout, build))
    for point in build.layout.points.values():
        assert point.id in words
        assert f"r{point.row} c{point.col}" in words
        assert f"LED {point.led}" in words
    for r, pin in enumerate(build.matrix.rows):
        assert f"row {r} = {pin}" in words
    for c, pin in enumerate(build.matrix.cols):
        assert f"col {c} = {pin}" in words
    for button, pin in build.buttons.items():
        assert f"button {button}: {pin} to ground" in words


@pytest.mark.parametrize("name", ["pi-cross33", "pico-brier9"])
def test_the_diagrams_in_docs_are_what_the_command_writes(name: str, tmp_path: Path) -> None:
    out = tmp_path / f"{name}.svg"
    assert main(["wiring", "diagram", name, "-o", str(out)]) == 0
    assert (DOCS / f"wiring-{name}.svg").read_text() == out.read_text(), (
        f"regenerate: reedboard wiring diagram {name} -o docs/wiring-{name}.svg"
    )


def test_the_readme_pico_table_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    readme = (DOCS.parent / "README.md").read_text()
    start = readme.index("<!-- pico-brier9 table -->\n") + len("<!-- pico-brier9 table -->\n")
    end = readme.index("<!-- end -->", start)
    assert main(["wiring", "table", "pico-brier9"]) == 0
    assert readme[start:end] == capsys.readouterr().out
