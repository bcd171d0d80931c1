"""A :class:`~reedboard.wiring.template.Sheet` as a PDF at 1:1, tiled on A4 or Letter pages
(fpdf2, the ``kit`` extra): a first page with what to cut and how to join the pages, then one
page a tile, each with a cross at its tile's corners (the crosses of neighbouring pages meet)
and every page with a 100 mm bar to measure before drilling."""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reedboard.wiring.template import LABELS, STYLES, Circle, Rect, Shape, Sheet, box

if TYPE_CHECKING:
    from fpdf import FPDF

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Portrait page sizes, mm."""
EDGE = 10.0
"""Unprinted page margin, mm (most printers cannot print closer)."""
FOOTER = 22.0
"""The strip under each tile for its name and the scale bar, mm."""
SCALE_BAR_MM = 100.0
SCALE_BAR_HEIGHT = 3.0
SCALE_BAR_LABEL = "100 mm: measure before drilling"
POINTS_PER_MM = 72 / 25.4
MARK = 6.0
"""A registration cross's arm, mm."""
LINE = 0.2


@dataclass(frozen=True)
class Tiling:
    paper: str
    landscape: bool
    page: tuple[float, float]
    """The page's width and height as printed, mm."""
    tile: tuple[float, float]
    """The part of the sheet each page shows, mm."""
    cols: int
    rows: int

    def name(self, col: int, row: int) -> str:
        """A tile's name: its column's letter and its row's number (A1 top left)."""
        letters = string.ascii_uppercase
        col_name = letters[col] if col < 26 else letters[col // 26 - 1] + letters[col % 26]
        return f"{col_name}{row + 1}"

    def scale_bar(self) -> tuple[float, float, float, float]:
        """The scale bar's x, y (top left), width and height on every page, mm."""
        return (EDGE, self.page[1] - FOOTER + 9, SCALE_BAR_MM, SCALE_BAR_HEIGHT)


def tiling(sheet: Sheet, paper: str) -> Tiling:
    """The fewer pages of portrait and landscape (portrait when equal)."""
    best: Tiling | None = None
    for landscape in (False, True):
        w, h = PAPERS[paper]
        if landscape:
            w, h = h, w
        tile = (w - 2 * EDGE, h - EDGE - FOOTER)
        cols, rows = math.ceil(sheet.width / tile[0]), math.ceil(sheet.height / tile[1])
        if best is None or cols * rows < best.cols * best.rows:
            best = Tiling(paper, landscape, (w, h), tile, cols, rows)
    assert best is not None
    return best


def write_pdf(sheet: Sheet, path: Path, paper: str) -> Tiling:
    from fpdf import FPDF

    tiles = tiling(sheet, paper)
    pdf = FPDF(orientation="L" if tiles.landscape else "P", unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margins(EDGE, EDGE)
    pdf.set_creator("reedboard wiring template")
    pdf.set_title(sheet.title)
    try:  # ask viewers to print at 100 % (fpdf2 2.8)
        from fpdf.prefs import ViewerPreferences

        pdf.viewer_preferences = ViewerPreferences(print_scaling="None")
    except (ImportError, TypeError):  # pragma: no cover (older fpdf2: the page says it)
        pass
    pdf.set_line_width(LINE)
    pdf.set_font("helvetica", size=10)
    _legend(pdf, sheet, tiles)
    for row in range(tiles.rows):
        for col in range(tiles.cols):
            pdf.add_page()
            _tile(pdf, sheet, tiles, col, row)
    pdf.output(str(path))
    return tiles


def _legend(pdf: FPDF, sheet: Sheet, tiles: Tiling) -> None:
    pdf.add_page()
    width = tiles.page[0] - 2 * EDGE
    pdf.set_xy(EDGE, EDGE)
    pdf.set_font("helvetica", style="B", size=12)
    pdf.multi_cell(width, 6, sheet.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=10)
    last = tiles.name(tiles.cols - 1, tiles.rows - 1)
    lines = [
        "Print at 100 % (no 'fit to page'), then measure the bar at the foot of every page:"
        " it must be 100 mm. Drill the test strip first.",
        f"{tiles.cols * tiles.rows} pages after this one, A1 (top left) to {last}: columns A, B,"
        " ... left to right, rows 1, 2, ... top to bottom. Cut each page along its frame and"
        " butt the pages together so the crosses at their corners meet.",
        "Everything is seen from the top of the board: mirror it left-right to cut from below.",
        *(
            f"{STYLES[op.key].layer.lower().replace('_', ' ')}: {op.note}"
            for op in sheet.operations
        ),
    ]
    for line in lines:
        pdf.ln(2)
        pdf.multi_cell(width, 5, line, new_x="LMARGIN", new_y="NEXT")
    _footer(pdf, tiles, "what to cut")


def _tile(pdf: FPDF, sheet: Sheet, tiles: Tiling, col: int, row: int) -> None:
    tw, th = tiles.tile
    dx, dy = EDGE - col * tw, EDGE - row * th  # sheet mm -> page mm
    view = Rect(col * tw, row * th, tw, th)
    with pdf.rect_clip(EDGE, EDGE, tw, th):
        for op in sheet.operations:
            pdf.set_draw_color(*_rgb(STYLES[op.key].colour))
            for shape in op.shapes:
                if box(shape, hair=0.1).overlaps(view):
                    _draw(pdf, shape, dx, dy)
        pdf.set_text_color(*_rgb(LABELS.colour))
        near = Rect(view.x - 60, view.y - 10, view.w + 120, view.h + 20)  # (a label's reach)
        for label in sheet.labels:
            if not near.overlaps(Rect(label.x, label.y, 0.001, 0.001)):
                continue
            pdf.set_font_size(label.size * POINTS_PER_MM)
            shift = pdf.get_string_width(label.text) / 2 if label.centred else 0
            pdf.text(label.x + dx - shift, label.y + dy, label.text)
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(160, 160, 160)
    pdf.rect(EDGE, EDGE, tw, th)  # the frame to cut along
    pdf.set_draw_color(0, 0, 0)
    for x in (EDGE, EDGE + tw):
        for y in (EDGE, EDGE + th):
            pdf.line(x - MARK, y, x + MARK, y)
            pdf.line(x, y - MARK, x, y + MARK)
            pdf.ellipse(x - MARK / 3, y - MARK / 3, 2 * MARK / 3, 2 * MARK / 3)
    _footer(
        pdf,
        tiles,
        f"page {tiles.name(col, row)} of A1-{tiles.name(tiles.cols - 1, tiles.rows - 1)}",
    )


def _footer(pdf: FPDF, tiles: Tiling, what: str) -> None:
    x, y, w, h = tiles.scale_bar()
    pdf.set_font("helvetica", size=9)
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_fill_color(0, 0, 0)
    paper = "Letter" if tiles.paper == "letter" else tiles.paper.upper()
    pdf.text(x + MARK + 2, y - 3, f"{what}; {paper}, 1:1: print at 100 %")  # (past the cross)
    for i in range(0, 10, 2):  # a black segment every other 10 mm
        pdf.rect(x + i * w / 10, y, w / 10, h, style="F")
    pdf.rect(x, y, w, h, style="D")
    pdf.text(x, y + h + 4, SCALE_BAR_LABEL)


def _draw(pdf: FPDF, shape: Shape, dx: float, dy: float) -> None:
    if isinstance(shape, Circle):
        r = shape.d / 2
        pdf.ellipse(shape.x - r + dx, shape.y - r + dy, shape.d, shape.d)
    elif isinstance(shape, Rect):
        pdf.rect(shape.x + dx, shape.y + dy, shape.w, shape.h)
    else:
        pdf.polyline([(x + dx, y + dy) for x, y in shape.points])


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
