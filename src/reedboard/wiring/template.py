"""1:1 templates for a board's woodwork, in millimetres: each point's peg hole, reed slot, LED
window and wire channels, the board's outline and the dice's pip windows.

A point's hole centre is ``(x, y) * pitch + margin``: the layout's ``pitch_mm``, a margin of
one pitch, y downward as the layouts draw it, everything seen from the top. A :class:`Sheet`
holds the shapes of each operation; template_svg and template_files write it out.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from reedboard.hardware.dice_pips import PIPS_PER_DIE
from reedboard.wiring.build import Build
from reedboard.wiring.layout import Layout, Point

HOLE_DIAMETER = 6.3
"""A peg hole for a piece whose peg holds a 6 x 3 mm magnet, with room to slide."""
HOLE_DEPTH = 3.5
REED_LENGTH = 15.0
"""The slot for a reed switch's glass body (about 2 x 14 mm), with room for glue."""
REED_WIDTH = 2.6
REED_DEPTH = 3.0
DEFAULT_REED_OFFSET = 4.0
"""Millimetres from a hole's centre to its reed slot's: a reed does not close with the magnet
over its middle (the field crosses both blades alike), so the slot sits to one side."""
REED_OFFSET_RANGE = (0.0, 8.0)
"""Offsets that keep a slot clear of the next hole at the smallest pitch (25 mm); the CLI's
``--reed-offset`` range."""
STRIP_OFFSETS = (0.0, 2.0, 4.0, 6.0, 8.0)
"""The test strip's reed offsets (and the one asked for, when it is none of these)."""
LED_SIZE = 5.4
"""A 5050 WS2812B's pocket."""
LED_SHIFT = 6.0
"""From a hole's centre to its LED window's, across the reed slot (downward): the window clear
of the peg hole in plan (a piece standing on its point would hide the light otherwise)."""
CHANNEL_WIDTH = 3.0
CHANNEL_DEPTH = 3.0
STREET_SHIFT = 2.0
"""Row channels run this far above the middle of the street between two rows of points,
column channels this far below (and left and right of a crossing's middle), so the two kinds
of wire keep apart."""
PIP_DIAMETER = 4.0
PIP_SPACING = 7.0
DIE_SIZE = 2 * PIP_SPACING + 8.0
DICE_GAP = 8.0
DICE_INSET = 10.0
"""From the board's edge to the dice's faces."""
CLEARANCE = 3.0
"""Wood kept between the dice and any other cut."""
LABEL_SIZE = 2.5
PIP_PLACES = ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2))
"""Each pip's (column, row) on a die's face, in LED order (reedboard.hardware.dice_pips)."""


@dataclass(frozen=True, slots=True)
class Style:
    layer: str
    """The DXF layer."""
    colour: str
    """The SVG's and the PDF's colour."""
    aci: int
    """The DXF layer's colour (AutoCAD colour index)."""


STYLES = {
    "outline": Style("OUTLINE", "#000000", 7),
    "peg-holes": Style("PEG_HOLES", "#c0392b", 1),
    "reed-slots": Style("REED_SLOTS", "#1f4fa0", 5),
    "led-windows": Style("LED_WINDOWS", "#2d8a3e", 3),
    "wire-channels": Style("WIRE_CHANNELS", "#a0329b", 6),
    "dice-pips": Style("DICE_PIPS", "#b7860b", 2),
}
"""Each operation's DXF layer and colours, in the order they are drawn."""
OPERATIONS = tuple(STYLES)
LABELS = Style("NOTES", "#555555", 8)
"""The point ids, the dice's and the test strip's labels, and (in a DXF) the notes."""


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    d: float
    """Diameter."""


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    """The top-left corner."""
    w: float
    h: float

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[tuple[float, float], ...]
    """A polyline's vertices, in order."""


Shape = Circle | Rect | Line


@dataclass(frozen=True, slots=True)
class Label:
    x: float
    y: float
    """The baseline's start (its middle when centred)."""
    text: str
    size: float = LABEL_SIZE
    centred: bool = False


@dataclass(frozen=True)
class Operation:
    key: str
    """One of :data:`OPERATIONS`: an SVG group's id, a DXF layer (upper case)."""
    note: str
    """What to cut: sizes and depths, one line."""
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class Sheet:
    name: str
    """The files' stem."""
    title: str
    width: float
    height: float
    operations: tuple[Operation, ...]
    labels: tuple[Label, ...]

    def operation(self, key: str) -> Operation:
        return next(op for op in self.operations if op.key == key)


def centre(layout: Layout, point: Point) -> tuple[float, float]:
    """A point's hole centre on the wood (mm from the board's top-left corner)."""
    margin = layout.pitch_mm
    return (point.x * layout.pitch_mm + margin, point.y * layout.pitch_mm + margin)


def reed_slot(x: float, y: float, offset: float) -> Rect:
    return Rect(x + offset - REED_LENGTH / 2, y - REED_WIDTH / 2, REED_LENGTH, REED_WIDTH)


def led_window(x: float, y: float) -> Rect:
    return Rect(x - LED_SIZE / 2, y + LED_SHIFT - LED_SIZE / 2, LED_SIZE, LED_SIZE)


def notes(offset: float) -> dict[str, str]:
    return {
        "outline": "the board's outline; seen from the top: mirror left-right to work from below",
        "peg-holes": f"{HOLE_DIAMETER:g} mm diameter, {HOLE_DEPTH:g} mm deep, from the top"
        " (pegs with 6 x 3 mm magnets)",
        "reed-slots": f"{REED_WIDTH:g} x {REED_LENGTH:g} mm, {REED_DEPTH:g} mm deep, from below;"
        f" centred {offset:g} mm right of the hole's centre (a reed is dead over its middle)",
        "led-windows": f"{LED_SIZE:g} mm square pockets for 5050 LEDs, from below, leaving 1-2 mm"
        " of wood (or drilled through)",
        "wire-channels": f"{CHANNEL_WIDTH:g} mm wide, {CHANNEL_DEPTH:g} mm deep, from below: one"
        " along each matrix row (the slots' right ends) and column (their left ends)",
        "dice-pips": f"{PIP_DIAMETER:g} mm windows over a 5050 LED each, 7 pips a die",
    }


def board_sheet(build: Build, reed_offset: float = DEFAULT_REED_OFFSET) -> Sheet:
    """The whole board: every operation, every point's id."""
    layout = build.layout
    width, height = board_size(layout)
    points = sorted(layout.points.values(), key=lambda p: p.led)
    centres = [centre(layout, p) for p in points]
    holes = tuple(Circle(x, y, HOLE_DIAMETER) for x, y in centres)
    slots = tuple(reed_slot(x, y, reed_offset) for x, y in centres)
    leds = tuple(led_window(x, y) for x, y in centres)
    labels = tuple(
        Label(x + HOLE_DIAMETER / 2 + 1, y - REED_WIDTH / 2 - 2, p.id)
        for p, (x, y) in zip(points, centres, strict=True)
    )
    channels = wire_channels(layout, reed_offset)
    taken = [*slots, *leds, *(Rect(c.x - c.d / 2, c.y - c.d / 2, c.d, c.d) for c in holes)]
    taken += [_label_box(label) for label in labels]
    pips, dice_labels, width, height = dice(layout, width, height, taken, channels)
    ops: dict[str, tuple[Shape, ...]] = {
        "outline": (Rect(0.0, 0.0, width, height),),
        "peg-holes": holes,
        "reed-slots": slots,
        "led-windows": leds,
        "wire-channels": channels,
        "dice-pips": pips,
    }
    said = notes(reed_offset)
    return Sheet(
        build.name,
        f"reedboard build {build.name}: layout {layout.name}, {layout.pitch_mm:g} mm pitch,"
        f" {width:g} x {height:g} mm, 1:1",
        width,
        height,
        tuple(Operation(key, said[key], ops[key]) for key in OPERATIONS),
        labels + dice_labels,
    )


def board_size(layout: Layout) -> tuple[float, float]:
    """The drawing grid's points with a one-pitch margin all round (the dice may add a band)."""
    cols, rows = layout.size
    pitch = layout.pitch_mm
    return ((cols + 1) * pitch, (rows + 1) * pitch)


def wire_channels(layout: Layout, reed_offset: float) -> tuple[Line, ...]:
    """A channel for each matrix row, joining its slots' right ends, and for each column,
    joining their left ends, the nearest next end each time from the topmost. Channels run in
    the streets between the points: a row's in the street below its points, a column's in the
    one above, crossing the rows of points in the gaps between slot and next hole; a spur
    leads to each slot's end."""
    rows, cols = layout.matrix
    pitch = layout.pitch_mm
    gap = _gap(pitch, reed_offset)
    lines: list[Line] = []
    for side, count, of in ((1, rows, "row"), (-1, cols, "col")):
        street = side * (pitch / 2 - STREET_SHIFT)
        crossings = [pitch * (c + 1) + gap - side * STREET_SHIFT for c in range(-1, layout.size[0])]
        for line in range(count):
            ends = [
                (x + reed_offset + side * REED_LENGTH / 2, y)
                for p in layout.points.values()
                if getattr(p, of) == line
                for x, y in [centre(layout, p)]
            ]
            if len(ends) > 1:
                lines.append(Line(_route(_order(ends), street, crossings)))
    return tuple(lines)


def _gap(pitch: float, reed_offset: float) -> float:
    """From a point's centre to the middle of the clear wood on its right, between its slot
    (or hole, or LED window) and the next point's."""
    start = max(reed_offset + REED_LENGTH / 2, HOLE_DIAMETER / 2, LED_SIZE / 2)
    end = pitch - max(HOLE_DIAMETER / 2, LED_SIZE / 2, REED_LENGTH / 2 - reed_offset)
    return (start + end) / 2


def _order(ends: list[tuple[float, float]]) -> list[tuple[float, float]]:
    left = sorted(ends, key=lambda e: (e[1], e[0]))
    path = [left.pop(0)]
    while left:
        x, y = path[-1]
        step = min(left, key=lambda e: (abs(e[0] - x) + abs(e[1] - y), e[1], e[0]))
        left.remove(step)
        path.append(step)
    return path


def _route(
    ends: list[tuple[float, float]], street: float, crossings: list[float]
) -> tuple[tuple[float, float], ...]:
    """A polyline of horizontal and vertical runs through ``ends`` in order: from each end to
    its street (``street`` below it), along it, across rows of points at one of
    ``crossings``, along the next end's street and up (or down) to that end."""
    path = [ends[0]]
    for (xa, ya), (xb, yb) in itertools.pairwise(ends):
        sa, sb = ya + street, yb + street
        if math.isclose(sa, sb):
            path += [(xa, sa), (xb, sb), (xb, yb)]
        else:
            x = min(crossings, key=lambda c: (abs(c - xa) + abs(c - xb), abs(c - xb)))
            path += [(xa, sa), (x, sa), (x, sb), (xb, sb), (xb, yb)]
    return tuple(p for i, p in enumerate(path) if i == 0 or p != path[i - 1])


def dice(
    layout: Layout, width: float, height: float, taken: list[Rect], channels: tuple[Line, ...]
) -> tuple[tuple[Circle, ...], tuple[Label, ...], float, float]:
    """The pip windows of the layout's dice in the first free corner of the board (bottom
    right, bottom left, top right, top left), else in a band added below; their labels, and
    the board's width and height."""
    count = layout.dice_leds // PIPS_PER_DIE
    if not count:
        return (), (), width, height
    block_w = count * DIE_SIZE + (count - 1) * DICE_GAP
    above = LABEL_SIZE + 1  # the dice's labels, over their faces
    width = max(width, block_w + 2 * DICE_INSET)
    right, bottom = width - DICE_INSET - block_w, height - DICE_INSET - DIE_SIZE
    top = DICE_INSET + above
    for x, y in ((right, bottom), (DICE_INSET, bottom), (right, top), (DICE_INSET, top)):
        if _free(Rect(x, y - above, block_w, DIE_SIZE + above), taken, channels):
            break
    else:
        x, y = right, height + above
        height = y + DIE_SIZE + DICE_INSET
    pips: list[Circle] = []
    labels: list[Label] = []
    margin = (DIE_SIZE - 2 * PIP_SPACING) / 2
    for die in range(count):
        left = x + die * (DIE_SIZE + DICE_GAP)
        first = layout.dice_start + die * PIPS_PER_DIE
        labels.append(Label(left, y - 1, f"die {die + 1}: LEDs {first}-{first + PIPS_PER_DIE - 1}"))
        pips += [
            Circle(left + margin + c * PIP_SPACING, y + margin + r * PIP_SPACING, PIP_DIAMETER)
            for c, r in PIP_PLACES
        ]
    return tuple(pips), tuple(labels), width, height


def _free(area: Rect, taken: list[Rect], channels: tuple[Line, ...]) -> bool:
    grown = Rect(
        area.x - CLEARANCE, area.y - CLEARANCE, area.w + 2 * CLEARANCE, area.h + 2 * CLEARANCE
    )
    if any(grown.overlaps(r) for r in taken):
        return False
    return not any(
        _crosses(grown, a, b) for line in channels for a, b in itertools.pairwise(line.points)
    )


def _crosses(r: Rect, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the segment a-b passes through the rectangle (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - r.x),
        (dx, r.x + r.w - a[0]),
        (-dy, a[1] - r.y),
        (dy, r.y + r.h - a[1]),
    ):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return t0 <= t1


def _label_box(label: Label) -> Rect:
    width = 0.6 * label.size * len(label.text)
    return Rect(label.x, label.y - label.size, width, label.size)


def strip_offsets(reed_offset: float) -> tuple[float, ...]:
    """The test strip's offsets: :data:`STRIP_OFFSETS` and the one asked for."""
    return tuple(sorted({*STRIP_OFFSETS, reed_offset}))


def strip_sheet(build: Build, offsets: tuple[float, ...] = STRIP_OFFSETS) -> Sheet:
    """A strip of holes, each with its reed slot at one of ``offsets``, labelled: drilled
    before the board, it shows which offset closes the reed for these magnets and this wood."""
    top = 14.0
    pitch = build.layout.pitch_mm  # the board's: a piece on the next hole must leave a reed open
    width = (len(offsets) + 1) * pitch
    height = top + LED_SHIFT + LED_SIZE / 2 + 12
    centres = [(pitch * (i + 1), top) for i in range(len(offsets))]
    said = notes(DEFAULT_REED_OFFSET)
    said["reed-slots"] = (
        f"{REED_WIDTH:g} x {REED_LENGTH:g} mm, {REED_DEPTH:g} mm deep, from below; each centred"
        " the labelled distance right of its hole's centre"
    )
    ops: dict[str, tuple[Shape, ...]] = {
        "outline": (Rect(0.0, 0.0, width, height),),
        "peg-holes": tuple(Circle(x, y, HOLE_DIAMETER) for x, y in centres),
        "reed-slots": tuple(
            reed_slot(x, y, off) for (x, y), off in zip(centres, offsets, strict=True)
        ),
        "led-windows": tuple(led_window(x, y) for x, y in centres),
    }
    labels = [Label(4.0, 6.0, f"reed offset test strip, build {build.name}: 1:1", 3.0)]
    labels += [
        Label(x, height - 4, f"{off:g} mm", 3.5, centred=True)
        for (x, _), off in zip(centres, offsets, strict=True)
    ]
    return Sheet(
        f"{build.name}-test-strip",
        f"reedboard reed offset test strip for {build.name}: {width:g} x {height:g} mm, 1:1",
        width,
        height,
        tuple(Operation(key, said[key], shapes) for key, shapes in ops.items()),
        tuple(labels),
    )
