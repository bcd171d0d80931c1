"""`reedboard wiring template`: 1:1 fabrication files for every shipped build. The geometry is
checked against the layout (hole centre = (x, y) * pitch + one pitch), in the SVG, the DXF
(read back with ezdxf) and the PDF (its pages' drawing operators, decompressed)."""

from __future__ import annotations

import itertools
import math
import re
import sys
import tomllib
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
COMMON = {
    "OUTLINE",
    "REED_SLOTS",
    "LED_WINDOWS",
    "ROW_CHANNELS",
    "COL_CHANNELS",
    "LED_CHAIN",
    "DICE_PIPS",
    "BUTTONS",
    "CONTROLLER",
}
"""Every shipped build's board has these layers ..."""
KIND_LAYERS = {"holes": {"PEG_HOLES"}, "circles": {"PAINT", "REED_POCKETS"}}
KIND_LAYERS["squares"] = KIND_LAYERS["circles"]
"""... and these for what its pieces stand in or on."""
KINDS = {
    "pi-cross33": "holes",
    "pico-cross33": "holes",
    "pico-brier9": "circles",
    "pico-skip8": "squares",
    "pico-messenger84": "squares",
    "pico-parchesi101": "squares",
}
"""What each shipped build's pieces stand in or on: pegs in the 33-hole board's holes, Fox and
Rabbit's pieces on circles, the men of Skip, Messenger Boy and Parchesi on squares and spaces."""
HOLES = [name for name in KINDS if KINDS[name] == "holes"]


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


def svg_lines(
    root: ET.Element, keys: tuple[str, ...] = ("row-channels", "col-channels")
) -> list[list[tuple[float, float]]]:
    """The polylines of the groups ``keys`` (the matrix's channels unless told)."""
    return [
        [(float(x), float(y)) for x, y in (p.split(",") for p in line.get("points", "").split())]
        for key in keys
        for line in svg_group(root, key).iter(f"{NS}polyline")
    ]


CHANNELS = ("row-channels", "col-channels", "led-chain")


def svg_has(root: ET.Element, key: str) -> bool:
    return root.find(f"{NS}g[@id='{key}']") is not None


# -- the SVG ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", HOLES)
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
    # below the points only the dice, the buttons, the controller and the LED feed
    for key in ("peg-holes", "paint", "reed-pockets"):
        for _, y, r in svg_circles(root, key) if root.find(f"{NS}g[@id='{key}']") else []:
            assert y + r <= points_height
    for key in ("reed-slots", "led-windows"):
        assert all(y + h <= points_height for _, y, _, h in svg_rects(root, key))
    buttons = svg_rects(root, "buttons") + svg_rects(root, "controller")
    assert buttons and all(y > points_height for _, y, _, _ in buttons)
    keys = [k for k in ("peg-holes", "reed-pockets", "dice-pips") if svg_has(root, k)]
    shapes = [(x - r, y - r, x + r, y + r) for key in keys for x, y, r in svg_circles(root, key)]
    keys = [k for k in ("paint", "reed-slots", "led-windows", "buttons", "controller")]
    shapes += [
        (x, y, x + w, y + h)
        for key in keys
        if svg_has(root, key)
        for x, y, w, h in svg_rects(root, key)
    ]
    shapes += [(x, y, x, y) for line in svg_lines(root, CHANNELS) for x, y in line]
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
    assert "6.5 mm right of the point's centre" in svg_group(root, "reed-slots").get(
        "data-note", ""
    )


@pytest.mark.parametrize("name", BUILDS)
def test_a_wire_channel_joins_the_slots_of_each_matrix_line(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    lines = svg_lines(root)
    p, half = layout.pitch_mm, REED_LENGTH / 2
    wanted = []
    for side, attr, count in ((1, "row", layout.matrix[0]), (-1, "col", layout.matrix[1])):
        group = {
            frozenset((round(x, 3), round(y, 3)) for x, y in line)
            for line in svg_lines(root, (f"{attr}-channels",))
        }
        for n in range(count):
            ends = {
                (round(pt.x * p + p + DEFAULT_REED_OFFSET + side * half, 3), round(pt.y * p + p, 3))
                for pt in layout.points.values()
                if getattr(pt, attr) == n
            }
            if len(ends) > 1:
                wanted.append(ends)
                # a row's in the rows' layer, a column's in the columns'
                assert any(ends <= vertices for vertices in group), (attr, n)
    found = [{(round(x, 3), round(y, 3)) for x, y in line} for line in lines]
    for ends in wanted:  # each line's channel passes every one of its slots' ends
        assert any(ends <= vertices for vertices in found), sorted(ends)
    assert len(lines) == len(wanted)
    holes = svg_circles(root, "peg-holes") if svg_has(root, "peg-holes") else []
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
    keys = [k for k in ("peg-holes", "reed-pockets") if svg_has(root, k)]
    others = [(x - r, y - r, 2 * r, 2 * r) for k in keys for x, y, r in svg_circles(root, k)]
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
    layers = {layer.dxf.name for layer in doc.layers} - {"0", "Defpoints"}
    assert layers == COMMON | KIND_LAYERS[KINDS[name]] | {"NOTES"}
    msp = doc.modelspace()
    marks = msp.query(
        'CIRCLE[layer=="PEG_HOLES"]' if KINDS[name] == "holes" else 'CIRCLE[layer=="REED_POCKETS"]'
    )
    assert len(marks) == len(layout.points)
    shift = 0.0 if KINDS[name] == "holes" else DEFAULT_REED_OFFSET  # (pockets under the slots)
    height = float(ET.parse(out / f"{name}.svg").getroot().get("height", "")[:-2])
    centres = {(round(c.dxf.center.x - shift, 3), round(height - c.dxf.center.y, 3)) for c in marks}
    assert centres == expected_centres(layout)  # y up in the DXF: the same drawing
    assert len(msp.query('LWPOLYLINE[layer=="REED_SLOTS"]')) == len(layout.points)
    assert len(msp.query('LWPOLYLINE[layer=="LED_WINDOWS"]')) == len(layout.points)
    assert len(msp.query('CIRCLE[layer=="DICE_PIPS"]')) == layout.dice_leds
    assert len(msp.query('LWPOLYLINE[layer=="OUTLINE"]')) == 1


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
    # every hole or pocket is drawn on its tile at 1:1: its circle starts at its rightmost point
    tw, th = tiles.tile
    assert (tw, th) == (page_w - 2 * EDGE, page_h - EDGE - FOOTER)
    # (a peg hole, or the pocket under the reed slot, centred the reed offset to the right)
    shift, r = (
        (0.0, HOLE_DIAMETER / 2) if KINDS[build.name] == "holes" else (DEFAULT_REED_OFFSET, 8)
    )
    for x, y in expected_centres(build.layout):
        x += shift
        col, row = int((x + r) // tw), int(y // th)
        _, ops = pages[1 + row * tiles.cols + col]
        px = (x + r - col * tw + EDGE) * PT
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
    root = ET.parse(out / f"{name}-test-strip.svg").getroot()  # the board's kind of point
    assert svg_has(root, "peg-holes") == (KINDS[name] == "holes")
    assert svg_has(root, "paint") == svg_has(root, "reed-pockets") == (KINDS[name] != "holes")


def test_the_offset_asked_for_is_on_the_test_strip(tmp_path: Path) -> None:
    write_templates(load_build("pico-skip8"), tmp_path, reed_offset=3.0)
    check_strip(tmp_path / "pico-skip8-test-strip", (0.0, 2.0, 3.0, 4.0, 6.0, 8.0), 35.0)


def check_strip(stem: Path, offsets: tuple[float, ...], pitch: float) -> None:
    """A hole a pitch apart (the board's: the next point must leave a reed open) for each
    offset, its slot that far right of it, and the offset written under it."""
    root = ET.parse(stem.with_suffix(".svg")).getroot()
    # each point's centre: its LED window's middle, LED_SHIFT below it
    holes = sorted((x + w / 2, y, 0.0) for x, y, w, _ in svg_rects(root, "led-windows"))
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
    marks = doc.modelspace().query('CIRCLE[layer=="PEG_HOLES" | layer=="REED_POCKETS"]')
    assert len(marks) == len(offsets)
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
    assert {style.layer for style in STYLES.values()} == COMMON | set().union(*KIND_LAYERS.values())


@pytest.mark.parametrize("name", HOLES)
def test_no_led_window_lies_under_a_peg_hole(out: Path, name: str) -> None:
    # a piece on its point would hide the LED's light (a builder's report: 0.35 mm into the hole)
    root = ET.parse(out / f"{name}.svg").getroot()
    holes = svg_circles(root, "peg-holes")
    for x, y, w, h in svg_rects(root, "led-windows"):
        for cx, cy, r in holes:
            nearest_x = min(max(cx, x), x + w)
            nearest_y = min(max(cy, y), y + h)
            assert math.hypot(cx - nearest_x, cy - nearest_y) > r, (name, cx, cy)


# -- what the pieces stand on -----------------------------------------------------------------


def test_every_shipped_layout_says_what_its_pieces_stand_on() -> None:
    assert set(KINDS) == set(BUILDS)
    for name, kind in KINDS.items():
        layout = load_build(name).layout
        assert f'\nsurface = "{kind}"' in layout.path.read_text()  # said, not defaulted
        assert layout.surface == kind


@pytest.mark.parametrize("name", BUILDS)
def test_each_board_has_its_kind_of_point(out: Path, name: str) -> None:
    """Pegs go in holes; pieces standing on a painted circle or square get the outline to paint
    and a pocket from below for the reed, deep enough to leave the magnet's reach of wood."""
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    centres = expected_centres(layout)
    n = len(layout.points)
    if KINDS[name] == "holes":
        assert len(svg_circles(root, "peg-holes")) == n
        assert not svg_has(root, "paint") and not svg_has(root, "reed-pockets")
        return
    assert not svg_has(root, "peg-holes")
    if KINDS[name] == "circles":
        paint = svg_circles(root, "paint")
        assert {(round(x, 3), round(y, 3)) for x, y, _ in paint} == centres
        assert all(math.isclose(2 * r, layout.piece_mm + 4) for _, _, r in paint)
        assert f"{layout.piece_mm + 4:g} mm circles to paint" in svg_note(root, "paint")
    else:
        squares = svg_rects(root, "paint")
        assert {(round(x + w / 2, 3), round(y + h / 2, 3)) for x, y, w, h in squares} == centres
        assert all(w == h == layout.pitch_mm for _, _, w, h in squares)
    pockets = svg_circles(root, "reed-pockets")
    assert len(pockets) == n
    slots = {
        (round(x + w / 2, 3), round(y + h / 2, 3)) for x, y, w, h in svg_rects(root, "reed-slots")
    }
    assert {(round(x, 3), round(y, 3)) for x, y, _ in pockets} == slots  # each under its slot
    for _, _, r in pockets:  # the whole slot in its pocket
        assert math.hypot(REED_LENGTH / 2, 2.6 / 2) < r
    note = svg_note(root, "reed-pockets")
    depth = layout.board_mm - 3
    assert f"{depth:g} mm deep in the {layout.board_mm:g} mm board, leaving 3 mm" in note


def svg_note(root: ET.Element, key: str) -> str:
    return svg_group(root, key).get("data-note", "")


def test_a_surface_defaults_to_holes_and_is_checked(tmp_path: Path) -> None:
    text = load_layout("cross33").path.read_text()
    assert '\nsurface = "holes"' in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace('\nsurface = "holes"', ""))
    assert load_layout(path).surface == "holes"
    path.write_text(text.replace('\nsurface = "holes"', '\nsurface = "hexes"'))
    with pytest.raises(WiringError, match=r"board.toml:\d+: surface: 'hexes' is not holes, circ"):
        load_layout(path)
    path.write_text(text.replace('\nsurface = "holes"', '\nsurface = "circles"\npiece_mm = 23'))
    with pytest.raises(WiringError, match=r"piece_mm: 23 leaves no room between circles 30 mm"):
        load_layout(path)
    path.write_text(text.replace("\nboard_mm = 12.0", "\nboard_mm = 4"))
    with pytest.raises(WiringError, match=r"board_mm: 4 is outside 8-40 \(the board's thick"):
        load_layout(path)


# -- the LED chain, the buttons and the controller --------------------------------------------


def led_windows_in_order(root: ET.Element, layout: Layout) -> list[tuple[float, float]]:
    """Every LED window's middle in chain order: the points' by their LED index, then each
    die's pips (dice left to right) in reading order, as reedboard.hardware.dice_pips wires
    them (top left, top right, middle left, centre, middle right, bottom left, bottom right)."""
    p = layout.pitch_mm
    points = sorted(layout.points.values(), key=lambda pt: pt.led)
    windows = [(pt.x * p + p, pt.y * p + p + 6.0) for pt in points]
    pips = sorted(svg_circles(root, "dice-pips"))
    for die in range(0, len(pips), 7):
        face = pips[die : die + 7]
        windows += sorted(((x, y) for x, y, _ in face), key=lambda c: (round(c[1], 3), c[0]))
    return windows


@pytest.mark.parametrize("name", BUILDS)
def test_the_led_chain_visits_every_led_window_once_in_index_order(out: Path, name: str) -> None:
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    (chain,) = svg_lines(root, ("led-chain",))
    windows = led_windows_in_order(root, layout)
    assert len(windows) == layout.led_count
    key = {(round(x, 3), round(y, 3)): i for i, (x, y) in enumerate(windows)}
    visited = [
        key[(round(x, 3), round(y, 3))] for x, y in chain if (round(x, 3), round(y, 3)) in key
    ]
    assert visited == list(range(layout.led_count))
    # the feed enters from the controller's cut-out: the chain starts on its top edge
    ((cx, cy, cw, _),) = svg_rects(root, "controller")
    assert cx <= chain[0][0] <= cx + cw and math.isclose(chain[0][1], cy)
    assert "5 mm wide, 3 mm deep" in svg_note(root, "led-chain")
    assert "LED_CHAIN: 5 mm wide" in (root.findtext(f"{NS}desc") or "")


@pytest.mark.parametrize("name", BUILDS)
def test_the_led_chain_keeps_clear_of_every_other_cut(out: Path, name: str) -> None:
    """The chain's channel (5 mm wide) runs along and across the grain, through no hole, reed
    slot, button or controller, and into no LED window or pocket but those it joins (between
    one die's pips, inside the die's pocket)."""
    layout = load_build(name).layout
    root = ET.parse(out / f"{name}.svg").getroot()
    (chain,) = svg_lines(root, ("led-chain",))
    half = 2.5 - 0.01
    windows = led_windows_in_order(root, layout)
    pockets = svg_circles(root, "reed-pockets") if svg_has(root, "reed-pockets") else []
    die_pockets = [r for r in svg_rects(root, "dice-pips")]
    cuts = [
        (x - half, y - half, w + 2 * half, h + 2 * half)
        for x, y, w, h in svg_rects(root, "reed-slots")
    ]
    cuts += [
        (x - half, y - half, w + 2 * half, h + 2 * half)
        for x, y, w, h in svg_rects(root, "buttons")
    ]
    ((x, y, w, h),) = svg_rects(root, "controller")  # (the feed starts on its edge)
    cuts.append((x - half, y + 0.01, w + 2 * half, h))
    holes = svg_circles(root, "peg-holes") if svg_has(root, "peg-holes") else []
    pips = svg_circles(root, "dice-pips")
    for a, b in itertools.pairwise(chain):
        if all(
            any(x <= c[0] <= x + w and y <= c[1] <= y + h for x, y, w, h in die_pockets)
            for c in (a, b)
        ):
            continue  # from pip to pip in a die's pocket
        assert a[0] == b[0] or a[1] == b[1], (a, b)  # along and across the grain
        for rect in cuts:
            assert not segment_in_rect(a, b, rect), (name, a, b, rect)
        for cx, cy, r in holes:
            assert distance_to_segment((cx, cy), a, b) > r + half
        ends = {(round(c[0], 3), round(c[1], 3)) for c in (a, b)}
        for wx, wy in windows:
            if (round(wx, 3), round(wy, 3)) in ends:
                continue
            if (wx, wy) in [(x, y) for x, y, _ in pips]:
                assert distance_to_segment((wx, wy), a, b) > 2 + half
            else:
                assert not segment_in_rect(
                    a, b, (wx - 2.7 - half, wy - 2.7 - half, 5.4 + 2 * half, 5.4 + 2 * half)
                )
        for px, py, r in pockets:  # a pocket is its point's: the window in it is 4 left, 6 down
            if (round(px - DEFAULT_REED_OFFSET, 3), round(py + 6, 3)) not in ends:
                assert distance_to_segment((px, py), a, b) > r + half - 1e-6, (name, a, b, px, py)


@pytest.mark.parametrize("name", BUILDS)
def test_the_button_cut_outs_are_the_builds_buttons(out: Path, name: str) -> None:
    build = load_build(name)
    wired = [key for key in tomllib.loads(build.path.read_text())["buttons"] if key != "bounce_ms"]
    root = ET.parse(out / f"{name}.svg").getroot()
    pockets = svg_rects(root, "buttons")
    holes = svg_circles(root, "buttons")
    assert len(pockets) == len(holes) == len(wired)
    for (x, y, w, h), (hx, hy, r) in zip(sorted(pockets), sorted(holes), strict=True):
        assert w == h == 12.4 and (round(hx, 3), round(hy, 3)) == (
            round(x + 6.2, 3),
            round(y + 6.2, 3),
        )
        assert 2 * r == 7
    names = {t.text: float(t.get("x", "nan")) for t in root.iter(f"{NS}text")}
    for name_, (x, _, w, _) in zip(wired, sorted(pockets), strict=True):
        assert math.isclose(names[name_], x + w / 2)  # in the build's order, left to right
    for button in wired:
        assert button in svg_note(root, "buttons")
    ((x, y, w, h),) = svg_rects(root, "controller")
    width = float(root.get("width", "")[:-2])
    if build.driver == "pico":  # the Pico's pocket at the right edge, for its USB socket
        assert (w, h) == (52, 22) and math.isclose(x + w, width)
        assert "Pico" in svg_note(root, "controller")
    else:  # a box header for the ribbon to the Pi's 40-pin header
        assert (w, h) == (56, 9) and "2x20 box header" in svg_note(root, "controller")


@pytest.mark.parametrize("name", BUILDS)
def test_the_dxf_has_the_channel_and_cut_out_layers(out: Path, name: str) -> None:
    build = load_build(name)
    layout = build.layout
    doc = readfile(out / f"{name}.dxf")
    msp = doc.modelspace()
    root = ET.parse(out / f"{name}.svg").getroot()
    height = float(root.get("height", "")[:-2])
    for layer, key in (
        ("ROW_CHANNELS", "row-channels"),
        ("COL_CHANNELS", "col-channels"),
        ("LED_CHAIN", "led-chain"),
    ):
        got = [
            [(round(x, 3), round(height - y, 3)) for x, y, *_ in line.get_points()]
            for line in msp.query(f'LWPOLYLINE[layer=="{layer}"]')
        ]
        want = [[(round(x, 3), round(y, 3)) for x, y in line] for line in svg_lines(root, (key,))]
        assert got == want and got, layer
    assert len(msp.query('LWPOLYLINE[layer=="LED_CHAIN"]')) == 1
    assert len(msp.query('LWPOLYLINE[layer=="BUTTONS"]')) == len(build.buttons)
    assert len(msp.query('CIRCLE[layer=="BUTTONS"]')) == len(build.buttons)
    assert len(msp.query('LWPOLYLINE[layer=="CONTROLLER"]')) == 1
    assert len(msp.query('LWPOLYLINE[layer=="DICE_PIPS"]')) == layout.dice_leds // 7  # die pockets
    sizes = {  # each layer's description says its sizes
        "ROW_CHANNELS": "3 mm wide, 3 mm deep",
        "COL_CHANNELS": "3 mm wide, 3 mm deep",
        "LED_CHAIN": "5 mm wide, 3 mm deep",
        "BUTTONS": "12.4 mm square pockets",
        "CONTROLLER": "52 x 22 mm pocket" if build.driver == "pico" else "56 x 9 mm pocket",
    }
    for layer, size in sizes.items():
        assert size in doc.layers.get(layer).description, layer
    texts = " ".join(t.dxf.text for t in msp.query("TEXT"))
    assert "LED_CHAIN: 5 mm wide" in texts  # the legend under the board
