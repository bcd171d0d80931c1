"""`reedboard wiring template`: 1:1 fabrication files for every shipped build. The geometry is
checked against the layout (hole centre = (x, y) * pitch + one pitch), in the SVG, the DXF
(read back with ezdxf) and the PDF (its pages' drawing operators, decompressed)."""

from __future__ import annotations

import itertools
import math
import re
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from ezdxf.filemanagement import readfile

from reedboard.cli.main import main
from reedboard.wiring.build import available, load_build
from reedboard.wiring.layout import Layout, WiringError, load_layout
from reedboard.wiring.template import (
    DEFAULT_REED_OFFSET,
    HOLE_DIAMETER,
    REED_LENGTH,
    STRIP_OFFSETS,
    STYLES,
    board_sheet,
)
from reedboard.wiring.template_files import write_templates
from reedboard.wiring.template_pdf import EDGE, FOOTER, PAPERS, tiling

NS = "{http://www.w3.org/2000/svg}"
PT = 72 / 25.4
"""PDF points per millimetre."""
BUILDS = available()
LAYERS = {"OUTLINE", "PEG_HOLES", "REED_SLOTS", "LED_WINDOWS", "WIRE_CHANNELS", "DICE_PIPS"}


def test_every_shipped_build_is_covered() -> None:
    assert BUILDS == [
        "pi-cross33",
        "pico-brier9",
        "pico-cross33",
        "pico-messenger84",
        "pico-parchesi101",
        "pico-skip8",
    ]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every build's files, written once (the board's A4, and pi-cross33's on Letter too)."""
    folder = tmp_path_factory.mktemp("templates")
    for name in BUILDS:
        written = write_templates(load_build(name), folder)
        assert {p.name for p in written} == {
            f"{name}{part}.{kind}" for part in ("", "-test-strip") for kind in ("svg", "dxf", "pdf")
        }
    write_templates(load_build("pi-cross33"), folder / "letter", paper="letter")
    return folder


def expected_centres(layout: Layout) -> set[tuple[float, float]]:
    p = layout.pitch_mm
    return {(round(pt.x * p + p, 3), round(pt.y * p + p, 3)) for pt in layout.points.values()}


def svg_group(root: ET.Element, key: str) -> ET.Element:
    group = root.find(f"{NS}g[@id='{key}']")
    assert group is not None, key
    return group


def svg_circles(root: ET.Element, key: str) -> list[tuple[float, float, float]]:
    return [
        (float(c.get("cx", "nan")), float(c.get("cy", "nan")), float(c.get("r", "nan")))
        for c in svg_group(root, key).iter(f"{NS}circle")
    ]


def svg_rects(root: ET.Element, key: str) -> list[tuple[float, float, float, float]]:
    return [
        tuple(float(r.get(a, "nan")) for a in ("x", "y", "width", "height"))  # type: ignore[misc]
        for r in svg_group(root, key).iter(f"{NS}rect")
    ]


def svg_lines(root: ET.Element) -> list[list[tuple[float, float]]]:
    return [
        [(float(x), float(y)) for x, y in (p.split(",") for p in line.get("points", "").split())]
        for line in svg_group(root, "wire-channels").iter(f"{NS}polyline")
    ]


# -- the SVG ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILDS)
def test_the_svg_has_a_peg_hole_at_every_point(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    holes = svg_circles(root, "peg-holes")
    assert len(holes) == len(layout.points)
    assert {(round(x, 3), round(y, 3)) for x, y, _ in holes} == expected_centres(layout)
    assert all(math.isclose(2 * r, HOLE_DIAMETER) for _, _, r in holes)
    note = svg_group(root, "peg-holes").get("data-note", "")
    assert "6.3 mm diameter" in note and "3.5 mm deep" in note


@pytest.mark.parametrize("name", BUILDS)
def test_the_svg_is_the_board_at_1_to_1_in_mm(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    width, height = float(root.get("width", "")[:-2]), float(root.get("height", "")[:-2])
    assert root.get("width", "").endswith("mm") and root.get("height", "").endswith("mm")
    assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"  # type: ignore[index]
    cols, rows = layout.size
    assert math.isclose(width, (cols + 1) * layout.pitch_mm)  # a pitch's margin each side
    points_height = (rows + 1) * layout.pitch_mm
    assert height >= points_height - 1e-9
    assert svg_rects(root, "outline") == [(0.0, 0.0, width, height)]
    pips = svg_circles(root, "dice-pips")
    if height > points_height + 1e-9:  # a band added for the dice: only they are in it
        assert all(y > points_height for _, y, _ in pips)
    shapes = [
        (x - r, y - r, x + r, y + r)
        for key in ("peg-holes", "dice-pips")
        for x, y, r in svg_circles(root, key)
    ]
    shapes += [
        (x, y, x + w, y + h)
        for key in ("reed-slots", "led-windows")
        for x, y, w, h in svg_rects(root, key)
    ]
    shapes += [(x, y, x, y) for line in svg_lines(root) for x, y in line]
    for x0, y0, x1, y1 in shapes:
        assert x0 >= 0 and x1 <= width and y0 >= 0 and y1 <= height


@pytest.mark.parametrize("name", BUILDS)
def test_reed_slots_sit_the_offset_right_of_their_holes(tmp_path: Path, name: str) -> None:
    build = load_build(name)
    write_templates(build, tmp_path, reed_offset=6.5)
    root = ET.parse(tmp_path / f"{name}.svg").getroot()
    slots = {
        (round(x + w / 2 - 6.5, 3), round(y + h / 2, 3))
        for x, y, w, h in svg_rects(root, "reed-slots")
    }
    assert slots == expected_centres(build.layout)
    assert "6.5 mm right of the hole" in svg_group(root, "reed-slots").get("data-note", "")


@pytest.mark.parametrize("name", BUILDS)
def test_a_wire_channel_joins_the_slots_of_each_matrix_line(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    lines = svg_lines(root)
    p, half = layout.pitch_mm, REED_LENGTH / 2
    wanted = []
    for side, attr, count in ((1, "row", layout.matrix[0]), (-1, "col", layout.matrix[1])):
        for n in range(count):
            ends = {
                (round(pt.x * p + p + DEFAULT_REED_OFFSET + side * half, 3), round(pt.y * p + p, 3))
                for pt in layout.points.values()
                if getattr(pt, attr) == n
            }
            if len(ends) > 1:
                wanted.append(ends)
    assert len(lines) == len(wanted)
    found = [{(round(x, 3), round(y, 3)) for x, y in line} for line in lines]
    for ends in wanted:  # each line's channel passes every one of its slots' ends
        assert any(ends <= vertices for vertices in found), sorted(ends)
    holes = svg_circles(root, "peg-holes")
    windows = svg_rects(root, "led-windows")
    for line in lines:
        for (xa, ya), (xb, yb) in itertools.pairwise(line):
            assert xa == xb or ya == yb  # runs along and across the grain, no diagonals
            for cx, cy, r in holes:  # and no channel cuts a hole or an LED window
                assert distance_to_segment((cx, cy), (xa, ya), (xb, yb)) > r
            for x, y, w, h in windows:
                assert not segment_in_rect((xa, ya), (xb, yb), (x, y, w, h))


def distance_to_segment(
    c: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    (x, y), (xa, ya), (xb, yb) = c, a, b
    length = (xb - xa) ** 2 + (yb - ya) ** 2
    t = (
        0.0
        if length == 0
        else max(0.0, min(1.0, ((x - xa) * (xb - xa) + (y - ya) * (yb - ya)) / length))
    )
    return math.dist(c, (xa + t * (xb - xa), ya + t * (yb - ya)))


def segment_in_rect(
    a: tuple[float, float], b: tuple[float, float], rect: tuple[float, float, float, float]
) -> bool:
    """For runs along x or y: whether the run overlaps the rectangle."""
    x, y, w, h = rect
    lo_x, hi_x = sorted((a[0], b[0]))
    lo_y, hi_y = sorted((a[1], b[1]))
    return lo_x < x + w and hi_x > x and lo_y < y + h and hi_y > y


@pytest.mark.parametrize("name", BUILDS)
def test_the_dice_pips_are_clear_of_everything_else(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    pips = svg_circles(root, "dice-pips")
    assert len(pips) == layout.dice_leds
    others = [(x - r, y - r, 2 * r, 2 * r) for x, y, r in svg_circles(root, "peg-holes")]
    others += svg_rects(root, "reed-slots") + svg_rects(root, "led-windows")
    for px, py, pr in pips:
        for x, y, w, h in others:
            assert not (px + pr > x and px - pr < x + w and py + pr > y and py - pr < y + h)
        for line in svg_lines(root):
            for a, b in itertools.pairwise(line):
                assert distance_to_segment((px, py), a, b) > pr


# -- the DXF ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILDS)
def test_the_dxf_is_in_mm_with_a_layer_an_operation(out: Path, name: str) -> None:
    layout = load_build(name).layout
    doc = readfile(out / f"{name}.dxf")
    assert doc.header["$INSUNITS"] == 4
    assert LAYERS | {"NOTES"} <= {layer.dxf.name for layer in doc.layers}
    msp = doc.modelspace()
    holes = msp.query('CIRCLE[layer=="PEG_HOLES"]')
    assert len(holes) == len(layout.points)
    height = float(ET.parse(out / f"{name}.svg").getroot().get("height", "")[:-2])
    centres = {(round(c.dxf.center.x, 3), round(height - c.dxf.center.y, 3)) for c in holes}
    assert centres == expected_centres(layout)  # y up in the DXF: the same drawing
    assert len(msp.query('LWPOLYLINE[layer=="REED_SLOTS"]')) == len(layout.points)
    assert len(msp.query('LWPOLYLINE[layer=="LED_WINDOWS"]')) == len(layout.points)
    assert len(msp.query('CIRCLE[layer=="DICE_PIPS"]')) == layout.dice_leds
    assert len(msp.query('LWPOLYLINE[layer=="OUTLINE"]')) == 1
    assert len(msp.query('LWPOLYLINE[layer=="WIRE_CHANNELS"]')) > 0


# -- the PDF ----------------------------------------------------------------------------------


def pdf_pages(path: Path) -> list[tuple[tuple[float, float], bytes]]:
    """Each page's size (points) and its decompressed drawing operators."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    objs = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj(.*?)endobj", data, re.S)}
    root = next(b for b in objs.values() if b"/Type /Pages" in b)

    def box(body: bytes) -> tuple[float, float] | None:
        m = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", body)
        return (float(m[1]), float(m[2])) if m else None

    pages = []
    for kid in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[(.*?)\]", root, re.S)[1]):  # type: ignore[index]
        body = objs[int(kid)]
        size = box(body) or box(root)
        assert size is not None
        stream = objs[int(re.search(rb"/Contents (\d+) 0 R", body)[1])]  # type: ignore[index]
        raw = stream.split(b"stream\n", 1)[1].rsplit(b"endstream", 1)[0]
        pages.append((size, zlib.decompress(raw) if b"/FlateDecode" in stream else raw))
    return pages


NUMBER = rb"(-?\d+(?:\.\d+)?)"


@pytest.mark.parametrize("name", [*BUILDS, "letter/pi-cross33"])
def test_the_pdf_is_tiled_at_1_to_1_with_a_100_mm_bar_on_every_page(out: Path, name: str) -> None:
    paper = "letter" if name.startswith("letter/") else "a4"
    build = load_build(name.removeprefix("letter/"))
    sheet = board_sheet(build)
    tiles = tiling(sheet, paper)
    pages = pdf_pages(out / f"{name}.pdf")
    assert len(pages) == 1 + tiles.cols * tiles.rows  # what to cut, then the tiles
    assert tiles.cols * tiles.page[0] - 2 * EDGE * tiles.cols >= sheet.width
    page_w, page_h = sorted(PAPERS[paper], reverse=tiles.landscape)
    bar_x, bar_y = EDGE * PT, (FOOTER - 9) * PT  # (PDF y runs up from the page's foot)
    for size, ops in pages:
        assert size == (round(page_w * PT, 2), round(page_h * PT, 2))
        assert not re.search(rb"\bcm\b", ops)  # nothing scaled: a mm is a mm
        bars = [
            tuple(map(float, m))
            for m in re.findall(
                NUMBER + b" " + NUMBER + b" " + NUMBER + b" " + NUMBER + b" re", ops
            )
        ]
        assert any(
            math.isclose(x, bar_x, abs_tol=0.01)
            and math.isclose(y, bar_y, abs_tol=0.01)
            and math.isclose(w, 283.46, abs_tol=0.01)  # 100 mm
            for x, y, w, _ in bars
        ), bars
        assert b"(100 mm: measure before drilling) Tj" in ops
    # every hole is drawn on its tile at 1:1: its circle starts at its rightmost point
    tw, th = tiles.tile
    assert (tw, th) == (page_w - 2 * EDGE, page_h - EDGE - FOOTER)
    for x, y in expected_centres(build.layout):
        col, row = int(x // tw), int(y // th)
        _, ops = pages[1 + row * tiles.cols + col]
        px = (x + HOLE_DIAMETER / 2 - col * tw + EDGE) * PT
        py = (page_h - (y - row * th + EDGE)) * PT
        moves = [tuple(map(float, m)) for m in re.findall(NUMBER + b" " + NUMBER + b" m", ops)]
        assert any(
            math.isclose(mx, px, abs_tol=0.011) and math.isclose(my, py, abs_tol=0.011)
            for mx, my in moves
        ), (x, y)


# -- the test strip ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILDS)
def test_the_test_strip_has_a_slot_at_each_offset_labelled(out: Path, name: str) -> None:
    check_strip(out / f"{name}-test-strip", STRIP_OFFSETS, load_build(name).layout.pitch_mm)


def test_the_offset_asked_for_is_on_the_test_strip(tmp_path: Path) -> None:
    write_templates(load_build("pico-skip8"), tmp_path, reed_offset=3.0)
    check_strip(tmp_path / "pico-skip8-test-strip", (0.0, 2.0, 3.0, 4.0, 6.0, 8.0), 35.0)


def check_strip(stem: Path, offsets: tuple[float, ...], pitch: float) -> None:
    """A hole a pitch apart (the board's: the next point must leave a reed open) for each
    offset, its slot that far right of it, and the offset written under it."""
    root = ET.parse(stem.with_suffix(".svg")).getroot()
    holes = sorted(svg_circles(root, "peg-holes"))
    slots = sorted(svg_rects(root, "reed-slots"))
    assert len(holes) == len(slots) == len(offsets)
    got = [round(x + w / 2 - hx, 3) for (hx, _, _), (x, _, w, _) in zip(holes, slots, strict=True)]
    assert got == list(offsets)
    assert all(math.isclose(b[0] - a[0], pitch) for a, b in itertools.pairwise(holes))
    labels = {t.text: float(t.get("x", "nan")) for t in root.iter(f"{NS}text")}
    for (hx, _, _), offset in zip(holes, offsets, strict=True):
        assert math.isclose(labels[f"{offset:g} mm"], hx)  # each slot's offset under its hole
    doc = readfile(stem.with_suffix(".dxf"))
    assert doc.header["$INSUNITS"] == 4
    assert len(doc.modelspace().query('CIRCLE[layer=="PEG_HOLES"]')) == len(offsets)
    assert len(doc.modelspace().query('LWPOLYLINE[layer=="REED_SLOTS"]')) == len(offsets)
    texts = {t.dxf.text for t in doc.modelspace().query("TEXT")}
    assert {f"{offset:g} mm" for offset in offsets} <= texts
    assert len(pdf_pages(stem.with_suffix(".pdf"))) >= 2


# -- the command ------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_writes_the_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "new" / "folder"
    code, out, err = run(
        capsys, "wiring", "template", "pico-brier9", "--out", str(folder), "--paper", "letter"
    )
    assert (code, err) == (0, "")
    names = ["pico-brier9", "pico-brier9-test-strip"]
    for stem in names:
        for kind in ("svg", "dxf", "pdf"):
            assert f"wrote {folder / f'{stem}.{kind}'}\n" in out
            assert (folder / f"{stem}.{kind}").stat().st_size > 0
    assert "100 mm" in out
    assert pdf_pages(folder / "pico-brier9.pdf")[0][0] == (612.0, 792.0)  # Letter


def one_error(err: str) -> str:
    assert re.fullmatch(r"reedboard: error: [^\n]+\n", err), err
    return err


def test_an_unknown_build_is_one_line_naming_the_known_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "wiring", "template", "pico-chess", "--out", str(tmp_path / "o"))
    assert code == 2 and out == ""
    assert "'pico-chess'" in one_error(err)
    assert all(name in err for name in BUILDS)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("where", ["a-file", "a-file/under"])
def test_an_unwritable_out_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    (tmp_path / "a-file").write_text("")
    code, out, err = run(capsys, "wiring", "template", "pi-cross33", "--out", str(tmp_path / where))
    assert code == 2 and out == ""
    assert str(tmp_path / where) in one_error(err)


@pytest.mark.parametrize("offset", ["-1", "8.5", "nan", "four"])
def test_a_bad_reed_offset_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, offset: str
) -> None:
    code, _, err = run(
        capsys,
        "wiring",
        "template",
        "pi-cross33",
        "--out",
        str(tmp_path),
        f"--reed-offset={offset}",
    )
    assert code == 2 and "--reed-offset" in one_error(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("module", ["ezdxf", "fpdf"])
def test_without_the_kit_extra_one_line_says_to_install_it(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    module: str,
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    code, out, err = run(capsys, "wiring", "template", "pi-cross33", "--out", str(tmp_path / "o"))
    assert code == 2 and out == ""
    assert ".venv/bin/pip install -e '.[kit]'" in one_error(err)
    assert f"{'fpdf2' if module == 'fpdf' else module} is not installed" in err
    assert not (tmp_path / "o").exists()  # nothing half done


# -- the layouts' pitch -----------------------------------------------------------------------


def test_every_shipped_layout_gives_a_board_game_sized_pitch() -> None:
    for name in ("cross33", "brier9", "skip8", "messenger84", "parchesi101"):
        layout = load_layout(name)
        assert "pitch_mm" in layout.path.read_text()
        assert 25 <= layout.pitch_mm <= 40


def pitched(tmp_path: Path, line: str) -> Path:
    text = load_layout("cross33").path.read_text()
    assert "\npitch_mm = 30.0\n" in text
    path = tmp_path / "cross33.toml"
    path.write_text(text.replace("\npitch_mm = 30.0\n", f"\n{line}\n"))
    return path


def test_a_layout_without_a_pitch_gets_the_default(tmp_path: Path) -> None:
    assert load_layout(pitched(tmp_path, "")).pitch_mm == 30.0
    assert load_layout(pitched(tmp_path, "pitch_mm = 27")).pitch_mm == 27.0


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("0", "0 is outside 25-200"),
        ("-30.0", "-30 is outside 25-200"),
        ("12.5", "12.5 is outside 25-200"),
        ("nan", "nan is outside 25-200"),
        ("inf", "inf is outside 25-200"),
        ('"thirty"', "expected a number, got 'thirty'"),
        ("true", "expected a number, got True"),
    ],
)
def test_a_bad_pitch_is_one_line_naming_file_line_and_key(
    tmp_path: Path, value: str, what: str
) -> None:
    path = pitched(tmp_path, f"pitch_mm = {value}")
    line = next(
        n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("pitch_mm")
    )
    with pytest.raises(WiringError) as err:
        load_layout(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:{line}: pitch_mm: "), message
    assert what in message


def test_the_operations_are_the_layers() -> None:
    assert {style.layer for style in STYLES.values()} == LAYERS


@pytest.mark.parametrize("name", BUILDS)
def test_no_led_window_lies_under_a_peg_hole(out: Path, name: str) -> None:
    # a piece on its point would hide the LED's light (a builder's report: 0.35 mm into the hole)
    root = ET.parse(out / f"{name}.svg").getroot()
    holes = svg_circles(root, "peg-holes")
    for x, y, w, h in svg_rects(root, "led-windows"):
        for cx, cy, r in holes:
            nearest_x = min(max(cx, x), x + w)
            nearest_y = min(max(cy, y), y + h)
            assert math.hypot(cx - nearest_x, cy - nearest_y) > r, (name, cx, cy)
