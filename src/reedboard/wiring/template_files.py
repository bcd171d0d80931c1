"""The fabrication files `reedboard wiring template` writes: the board and the test strip as
SVG, DXF (ezdxf) and PDF (fpdf2, tiled), all at 1:1 in millimetres. ezdxf and fpdf2 are the
``kit`` extra: without it, one line says to install it, before anything is written."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from reedboard.engine.errors import ReedboardError
from reedboard.wiring.build import Build
from reedboard.wiring.template import (
    DEFAULT_REED_OFFSET,
    LABELS,
    STYLES,
    Circle,
    Rect,
    Sheet,
    board_sheet,
    strip_offsets,
    strip_sheet,
)
from reedboard.wiring.template_pdf import write_pdf
from reedboard.wiring.template_svg import svg

KIT = {"ezdxf": "ezdxf", "fpdf": "fpdf2"}
"""The kit extra's modules and their packages."""
INSUNITS_MM = 4
"""DXF ``$INSUNITS``: millimetres."""


class TemplateError(ReedboardError):
    """Fabrication files that cannot be written: one line saying why."""


def require_kit() -> None:
    """ezdxf and fpdf2 can be imported, or a :class:`TemplateError` says how to get them."""
    for module, package in KIT.items():
        try:
            importlib.import_module(module)
        except ImportError:
            raise TemplateError(
                f"wiring template needs the kit extra ({' and '.join(KIT.values())};"
                f" {package} is not installed): .venv/bin/pip install -e '.[kit]'"
            ) from None


def _write_svg(sheet: Sheet, path: Path, paper: str) -> None:
    path.write_text(svg(sheet), encoding="utf-8")


def _write_dxf(sheet: Sheet, path: Path, paper: str) -> None:
    write_dxf(sheet, path)


def _write_pdf(sheet: Sheet, path: Path, paper: str) -> None:
    write_pdf(sheet, path, paper)


def write_templates(
    build: Build, folder: Path, *, paper: str = "a4", reed_offset: float = DEFAULT_REED_OFFSET
) -> list[Path]:
    """Write ``<build>.svg``, ``.dxf`` and ``.pdf`` and ``<build>-test-strip.svg``, ``.dxf`` and
    ``.pdf`` into ``folder`` (made when missing); returns their paths."""
    require_kit()
    board = board_sheet(build, reed_offset)
    strip = strip_sheet(build, strip_offsets(reed_offset))
    if folder.exists() and not folder.is_dir():
        raise TemplateError(f"--out {folder}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TemplateError(f"--out {folder}: cannot make the folder ({exc.strerror})") from None
    paths: list[Path] = []
    for sheet in (board, strip):
        for kind, write in KINDS.items():
            path = folder / f"{sheet.name}.{kind}"
            try:
                write(sheet, path, paper)
            except OSError as exc:
                raise TemplateError(f"{path}: cannot write it ({exc.strerror or exc})") from None
            paths.append(path)
    return paths


def write_dxf(sheet: Sheet, path: Path) -> None:
    """The sheet in millimetres (``$INSUNITS`` 4), one layer an operation and NOTES for the
    labels and what to cut; y upward, as DXF has it, so the drawing is the SVG's."""
    from ezdxf.enums import TextEntityAlignment
    from ezdxf.filemanagement import new

    doc = new("R2010", setup=False, units=INSUNITS_MM)
    doc.header["$INSUNITS"] = INSUNITS_MM
    doc.header["$MEASUREMENT"] = 1  # metric
    msp = doc.modelspace()

    def up(x: float, y: float) -> tuple[float, float]:
        return (x, sheet.height - y)

    for op in sheet.operations:
        style = STYLES[op.key]
        layer = doc.layers.add(style.layer, color=style.aci)
        layer.description = op.note
        attribs = {"layer": style.layer}
        for shape in op.shapes:
            if isinstance(shape, Circle):
                msp.add_circle(up(shape.x, shape.y), shape.d / 2, dxfattribs=attribs)
            elif isinstance(shape, Rect):
                x, y, w, h = shape.x, shape.y, shape.w, shape.h
                corners = [up(x, y), up(x + w, y), up(x + w, y + h), up(x, y + h)]
                msp.add_lwpolyline(corners, close=True, dxfattribs=attribs)
            else:
                msp.add_lwpolyline([up(x, y) for x, y in shape.points], dxfattribs=attribs)
    doc.layers.add(LABELS.layer, color=LABELS.aci)
    notes = {"layer": LABELS.layer}
    for label in sheet.labels:
        text = msp.add_text(label.text, height=label.size, dxfattribs=notes)
        align = TextEntityAlignment.BOTTOM_CENTER if label.centred else TextEntityAlignment.LEFT
        text.set_placement(up(label.x, label.y), align=align)
    lines = [sheet.title, *(f"{STYLES[op.key].layer}: {op.note}" for op in sheet.operations)]
    for i, line in enumerate(lines):  # under the board
        msp.add_text(line, height=3.0, dxfattribs=notes).set_placement((0.0, -8.0 - 6.0 * i))
    doc.saveas(path)


KINDS: dict[str, Callable[[Sheet, Path, str], None]] = {
    "svg": _write_svg,
    "dxf": _write_dxf,
    "pdf": _write_pdf,
}
"""Each file's writer by its suffix: a sheet, the path and the paper (for the PDF's pages)."""
