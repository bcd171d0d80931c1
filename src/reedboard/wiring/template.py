"""1:1 templates for a board's woodwork, in millimetres: each point's peg hole (a board of
holes) or its painted circle or square and the pocket under it for the reed (pieces standing on
the board), its reed slot and LED window; the channels for the matrix's rows and columns and
for the LED chain; the board's outline, the dice's pip windows, and a band along the foot with
the buttons' and the controller's cut-outs.

A point's centre is ``(x, y) * pitch + margin``: the layout's ``pitch_mm``, a margin of one
pitch, y downward as the layouts draw it, everything seen from the top. A :class:`Sheet` holds
the shapes of each operation; template_svg and template_files write it out.
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
PAINT_MARGIN = 2.0
"""A painted circle is the piece's base and this much all round."""
POCKET_DIAMETER = 16.0
"""The blind hole from below under a circle or square (a 16 mm Forstner bit): it holds the
reed slot's whole length (15 x 2.6 mm: 15.3 mm corner to corner) and the LED window."""
REED_COVER = 3.0
"""Wood left over a pocket: a 6 x 3 mm N42 disc on the top closes a 10-15 AT reed through it
(3-5 mm is the range to start from; the test strip decides)."""
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
"""A matrix row's or column's channel: one wire and the diodes' leads."""
LED_CHAIN_WIDTH = 5.0
LED_CHAIN_DEPTH = 3.0
"""The LED chain's channel: its 5 V, ground and data wires side by side."""
EDGE_LANE = 6.0
"""From the board's left edge to the LED feed's run up to LED 0."""
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
BUTTON_SIZE = 12.4
"""A pocket for a 12 x 12 mm tactile switch (the parts list's Omron B3F-4055)."""
BUTTON_TOP = 2.0
"""Wood left over a button's pocket; its plunger comes up through a hole in it."""
BUTTON_HOLE = 7.0
BUTTON_GAP = 12.0
PICO_POCKET = (52.0, 22.0)
"""A Pico (51 x 21 mm) lying flat, from below."""
PICO_DEPTH = 5.0
PI_HEADER = (56.0, 9.0)
"""A 2x20 box header (2.54 mm pitch) for the ribbon cable to a Pi's 40-pin header."""
BAND_LANE = 4.0
"""From the top of the band along the foot to the LED feed's run along it."""
BAND_TOP = 10.0
"""From the top of the band to the buttons' and the controller's cut-outs."""


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
    "paint": Style("PAINT", "#8a6d3b", 32),
    "reed-pockets": Style("REED_POCKETS", "#d35400", 30),
    "reed-slots": Style("REED_SLOTS", "#1f4fa0", 5),
    "led-windows": Style("LED_WINDOWS", "#2d8a3e", 3),
    "row-channels": Style("ROW_CHANNELS", "#a0329b", 6),
    "col-channels": Style("COL_CHANNELS", "#0e8c8c", 4),
    "led-chain": Style("LED_CHAIN", "#e01e5a", 240),
    "dice-pips": Style("DICE_PIPS", "#b7860b", 2),
    "buttons": Style("BUTTONS", "#4b4b9b", 150),
    "controller": Style("CONTROLLER", "#3b7d23", 94),
}
"""Each operation's DXF layer and colours, in the order they are drawn. A board of holes has
PEG_HOLES; one whose pieces stand on circles or squares has PAINT and REED_POCKETS instead."""
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
    """A point's centre on the wood (mm from the board's top-left corner)."""
    margin = layout.pitch_mm
    return (point.x * layout.pitch_mm + margin, point.y * layout.pitch_mm + margin)


def reed_slot(x: float, y: float, offset: float) -> Rect:
    return Rect(x + offset - REED_LENGTH / 2, y - REED_WIDTH / 2, REED_LENGTH, REED_WIDTH)


def led_window(x: float, y: float) -> Rect:
    return Rect(x - LED_SIZE / 2, y + LED_SHIFT - LED_SIZE / 2, LED_SIZE, LED_SIZE)


def led_centre(x: float, y: float) -> tuple[float, float]:
    """The middle of the LED window of the point centred at ``x``, ``y``."""
    return (x, y + LED_SHIFT)


def paint_size(layout: Layout) -> float:
    """A painted circle's diameter, or a painted square's side."""
    if layout.surface == "circles":
        return layout.piece_mm + 2 * PAINT_MARGIN
    return layout.pitch_mm


def pocket_depth(layout: Layout) -> float:
    """How deep the pocket under a circle or square goes, from below."""
    return layout.board_mm - REED_COVER


def point_shapes(layout: Layout, x: float, y: float, offset: float) -> dict[str, Shape]:
    """One point's shapes by operation: its peg hole, or its painted circle or square and its
    reed pocket; its reed slot and its LED window."""
    shapes: dict[str, Shape] = {}
    if layout.surface == "holes":
        shapes["peg-holes"] = Circle(x, y, HOLE_DIAMETER)
    else:
        size = paint_size(layout)
        shapes["paint"] = (
            Circle(x, y, size)
            if layout.surface == "circles"
            else Rect(x - size / 2, y - size / 2, size, size)
        )
        shapes["reed-pockets"] = Circle(x + offset, y, POCKET_DIAMETER)
    shapes["reed-slots"] = reed_slot(x, y, offset)
    shapes["led-windows"] = led_window(x, y)
    return shapes


def notes(layout: Layout, offset: float, build: Build | None = None) -> dict[str, str]:
    """What to cut, an operation a line (the DXF layer's description, the SVG group's
    ``data-note``, the PDF's first page)."""
    under = layout.board_mm - HOLE_DEPTH - REED_DEPTH
    depth = pocket_depth(layout)
    said = {
        "outline": "the board's outline; seen from the top: mirror left-right to work from below",
        "peg-holes": f"{HOLE_DIAMETER:g} mm diameter, {HOLE_DEPTH:g} mm deep, from the top"
        f" (pegs with 6 x 3 mm magnets in their feet); {under:g} mm of wood over the reed slot"
        f" in the {layout.board_mm:g} mm board",
        "paint": (
            f"{paint_size(layout):g} mm circles to paint on the top, for pieces"
            f" {layout.piece_mm:g} mm across: not cut"
            if layout.surface == "circles"
            else f"{paint_size(layout):g} mm squares to paint on the top: not cut"
        ),
        "reed-pockets": f"{POCKET_DIAMETER:g} mm blind holes from below (Forstner), {depth:g} mm"
        f" deep in the {layout.board_mm:g} mm board, leaving {REED_COVER:g} mm of wood under the"
        " piece's magnet; each centred on its reed slot, the reed glued to its floor",
        "reed-slots": f"{REED_WIDTH:g} x {REED_LENGTH:g} mm, {REED_DEPTH:g} mm deep, from below;"
        f" centred {offset:g} mm right of the point's centre (a reed is dead over its middle)",
        "led-windows": f"{LED_SIZE:g} mm square pockets for 5050 LEDs, from below, leaving 1-2 mm"
        " of wood (or drilled through)",
        "row-channels": f"{CHANNEL_WIDTH:g} mm wide, {CHANNEL_DEPTH:g} mm deep, from below: one"
        " along each matrix row line, joining its reed slots' right ends",
        "col-channels": f"{CHANNEL_WIDTH:g} mm wide, {CHANNEL_DEPTH:g} mm deep, from below: one"
        " along each matrix column line, joining its reed slots' left ends",
        "led-chain": f"{LED_CHAIN_WIDTH:g} mm wide, {LED_CHAIN_DEPTH:g} mm deep, from below: the"
        " LEDs' 5 V, ground and data, from the feed at the controller's cut-out to LED 0, then"
        f" window to window in chain order (LED 0-{layout.led_count - 1}, the dice's pips last)",
        "dice-pips": f"{PIP_DIAMETER:g} mm windows through the top over a 5050 LED each, 7 pips"
        f" a die; under each die a {DIE_SIZE:g} mm square pocket from below, leaving 1-2 mm of"
        " wood, for its 7 LEDs (the LED chain runs pip to pip in it)",
    }
    if layout.surface != "holes":
        said["reed-slots"] = (
            f"{REED_WIDTH:g} x {REED_LENGTH:g} mm: where the reed lies on its pocket's floor,"
            f" centred {offset:g} mm right of the point's centre (a reed is dead over its middle)"
        )
        said["led-windows"] += "; where it meets the reed pocket, cut into its floor"
    if build is not None:
        button_depth = layout.board_mm - BUTTON_TOP
        said["buttons"] = (
            f"{BUTTON_SIZE:g} mm square pockets from below, {button_depth:g} mm deep, each with a"
            f" {BUTTON_HOLE:g} mm hole through its middle for the plunger: a 12 x 12 mm tactile"
            f" switch for each of {', '.join(build.buttons)}"
        )
        if build.driver == "pico":
            w, h = PICO_POCKET
            said["controller"] = (
                f"{w:g} x {h:g} mm pocket from below, {PICO_DEPTH:g} mm deep, open at the right"
                " edge: the Pico lies in it, its USB socket at the edge"
            )
        else:
            w, h = PI_HEADER
            said["controller"] = (
                f"{w:g} x {h:g} mm pocket from below for a 2x20 box header (2.54 mm): the ribbon"
                " cable to the Pi's 40-pin header plugs in there"
            )
    return said


@dataclass(frozen=True)
class Obstacle:
    """A cut a channel must keep clear of, and whose it is."""

    box: Rect
    owner: str
    """A point's id, ``pip N`` (its LED index) or ``controls``."""
    own: bool = False
    """A cut of its owner's that a channel to the owner's LED may enter (its LED window and
    pocket)."""


def board_sheet(build: Build, reed_offset: float = DEFAULT_REED_OFFSET) -> Sheet:
    """The whole board: every operation, every point's id."""
    layout = build.layout
    width, height = board_size(layout)
    points = sorted(layout.points.values(), key=lambda p: p.led)
    centres = [centre(layout, p) for p in points]
    per_point = [point_shapes(layout, x, y, reed_offset) for x, y in centres]
    ops: dict[str, list[Shape]] = {key: [] for key in OPERATIONS}
    for shapes in per_point:
        for key, shape in shapes.items():
            ops[key].append(shape)
    reach = HOLE_DIAMETER / 2 if layout.surface == "holes" else paint_size(layout) / 2
    labels = tuple(
        Label(x + reach + 1, y - REED_WIDTH / 2 - 2, p.id)
        for p, (x, y) in zip(points, centres, strict=True)
    )
    rows, cols = matrix_channels(layout, reed_offset)
    obstacles = [
        Obstacle(box(shape), p.id, own=key in ("led-windows", "reed-pockets"))
        for p, shapes in zip(points, per_point, strict=True)
        for key, shape in shapes.items()
        if key != "paint"
    ]
    taken = [o.box for o in obstacles]
    taken += [box(s) for s in ops["paint"]]
    taken += [_label_box(label) for label in labels]
    chained = build.leds.driver in ("ws2812", "ws2812-spi")
    feed: tuple[Line, ...] = ()
    if chained:
        x0, y0 = led_centre(*centres[0])
        feed = (Line(((EDGE_LANE, height), (EDGE_LANE, y0), (x0, y0))),)
    pips, dice_labels, width, height = dice(layout, width, height, taken, rows + cols + feed)
    obstacles += [
        Obstacle(box(pip), f"pip {layout.dice_start + i}", own=True) for i, pip in enumerate(pips)
    ]
    buttons, controller, band_labels, lane, width, height = controls(build, width, height)
    obstacles += [Obstacle(box(s), "controls") for s in buttons + controller]
    ops["outline"] = [Rect(0.0, 0.0, width, height)]
    ops["row-channels"], ops["col-channels"] = list(rows), list(cols)
    ops["dice-pips"] = [*pips, *die_pockets(pips)]
    ops["buttons"], ops["controller"] = list(buttons), list(controller)
    if chained:
        windows = [led_centre(x, y) for x, y in centres] + [(c.x, c.y) for c in pips]
        owners = [p.id for p in points] + [f"pip {layout.dice_start + i}" for i in range(len(pips))]
        chain = led_chain(layout, reed_offset, controller[0], lane, windows, owners, obstacles)
        ops["led-chain"] = [chain]
    said = notes(layout, reed_offset, build)
    return Sheet(
        build.name,
        f"reedboard build {build.name}: layout {layout.name} ({layout.surface}),"
        f" {layout.pitch_mm:g} mm pitch, {width:g} x {height:g} mm, 1:1",
        width,
        height,
        tuple(Operation(key, said[key], tuple(ops[key])) for key in OPERATIONS if ops[key]),
        labels + dice_labels + band_labels,
    )


def die_pockets(pips: tuple[Circle, ...]) -> list[Rect]:
    """A square pocket from below under each die's face, for its 7 LEDs."""
    margin = (DIE_SIZE - 2 * PIP_SPACING) / 2
    pockets = []
    for first in range(0, len(pips), PIPS_PER_DIE):
        face = pips[first : first + PIPS_PER_DIE]
        x, y = min(p.x for p in face) - margin, min(p.y for p in face) - margin
        pockets.append(Rect(x, y, DIE_SIZE, DIE_SIZE))
    return pockets


def box(shape: Shape, hair: float = 0.0) -> Rect:
    """A shape's bounding box; a line's widened by ``hair`` on every side (so a straight line
    along x or y still overlaps what it crosses)."""
    if isinstance(shape, Circle):
        return Rect(shape.x - shape.d / 2, shape.y - shape.d / 2, shape.d, shape.d)
    if isinstance(shape, Rect):
        return shape
    xs = [x for x, _ in shape.points]
    ys = [y for _, y in shape.points]
    return Rect(
        min(xs) - hair, min(ys) - hair, max(xs) - min(xs) + 2 * hair, max(ys) - min(ys) + 2 * hair
    )


def controls(
    build: Build, width: float, height: float
) -> tuple[tuple[Shape, ...], tuple[Rect], tuple[Label, ...], float, float, float]:
    """A band along the board's foot: the buttons' cut-outs from the left, in the build's
    order (a square pocket and the plunger's hole each), the controller's at the right (the
    Pico's touching the right edge, for its USB socket), and a lane above them for the LED
    feed. Returns the buttons' shapes, the controller's cut-out, the labels, the lane's y and
    the board's width and height."""
    top = height
    y = top + BAND_TOP
    w, h = PICO_POCKET if build.driver == "pico" else PI_HEADER
    row_w = len(build.buttons) * (BUTTON_SIZE + BUTTON_GAP)
    width = max(width, DICE_INSET + row_w + w + DICE_INSET)
    shapes: list[Shape] = []
    labels: list[Label] = []
    for i, name in enumerate(build.buttons):
        x = DICE_INSET + i * (BUTTON_SIZE + BUTTON_GAP)
        shapes.append(Rect(x, y, BUTTON_SIZE, BUTTON_SIZE))
        shapes.append(Circle(x + BUTTON_SIZE / 2, y + BUTTON_SIZE / 2, BUTTON_HOLE))
        labels.append(Label(x + BUTTON_SIZE / 2, y + BUTTON_SIZE + 4, name, centred=True))
    x = width - w if build.driver == "pico" else width - DICE_INSET - w
    controller = Rect(x, y, w, h)
    what = "Pico, USB at the edge" if build.driver == "pico" else "2x20 header to the Pi"
    labels.append(Label(x + w / 2, y + h + 4, what, centred=True))
    height = y + max(BUTTON_SIZE, h) + 4 + DICE_INSET
    return tuple(shapes), (controller,), tuple(labels), top + BAND_LANE, width, height


def led_chain(
    layout: Layout,
    reed_offset: float,
    controller: Rect,
    lane: float,
    windows: list[tuple[float, float]],
    owners: list[str],
    obstacles: list[Obstacle],
) -> Line:
    """The LED chain's channel: from the controller's cut-out along the band's lane to the left
    edge, up it and across to LED 0's window, then from window to window in chain order. Each
    step is the clearest of a few runs along and across the grain (see :func:`_step`); between
    one die's pips, straight."""
    x0, y0 = windows[0]
    start = (controller.x + 6.0, controller.y)
    path = [start, (start[0], lane), (EDGE_LANE, lane), (EDGE_LANE, y0), (x0, y0)]
    lanes = _lanes(layout, reed_offset)
    for i in range(1, len(windows)):
        a, b = windows[i - 1], windows[i]
        if owners[i - 1].startswith("pip") and owners[i].startswith("pip"):
            path.append(b)
        else:
            path += _step(a, b, (owners[i - 1], owners[i]), lanes, layout, obstacles)[1:]
    return Line(tuple(p for i, p in enumerate(path) if i == 0 or p != path[i - 1]))


def _lanes(layout: Layout, reed_offset: float) -> list[float]:
    """The x of the clear wood between each column of points and the next (and outside the
    first and last)."""
    gap = _gap(layout, reed_offset)
    return [layout.pitch_mm * (c + 1) + gap for c in range(-1, layout.size[0])]


def _step(
    a: tuple[float, float],
    b: tuple[float, float],
    ends: tuple[str, str],
    lanes: list[float],
    layout: Layout,
    obstacles: list[Obstacle],
) -> list[tuple[float, float]]:
    """The run from window ``a`` to window ``b``: straight, or across to a lane, along it and
    across again, or (when every such run meets a cut) down a lane to the street between two
    rows of points, along it and up another lane; the one meeting the fewest cuts, then the
    shortest."""
    (xa, ya), (xb, yb) = a, b
    runs: list[list[tuple[float, float]]] = []
    if math.isclose(ya, yb) or math.isclose(xa, xb):
        runs.append([a, b])
    runs += [[a, (x, ya), (x, yb), b] for x in lanes]
    best = min(runs, key=lambda r: (_hits(r, ends, obstacles), _length(r)))
    if _hits(best, ends, obstacles):
        pitch, margin = layout.pitch_mm, layout.pitch_mm
        streets = [margin + pitch * (r + 0.5) for r in range(-1, layout.size[1])]
        near = [s for s in streets if min(abs(s - ya), abs(s - yb)) <= 1.5 * pitch]
        runs = [
            [a, (x1, ya), (x1, s), (x2, s), (x2, yb), b]
            for s in near
            for x1 in lanes
            for x2 in lanes
        ]
        best = min([best, *runs], key=lambda r: (_hits(r, ends, obstacles), _length(r)))
    return best


def _hits(run: list[tuple[float, float]], ends: tuple[str, str], obstacles: list[Obstacle]) -> int:
    """How many cuts the channel (its width) meets along ``run``, the windows and pockets at
    its two ends aside."""
    half = LED_CHAIN_WIDTH / 2
    count = 0
    for o in obstacles:
        if o.own and o.owner in ends:
            continue
        grown = Rect(o.box.x - half, o.box.y - half, o.box.w + 2 * half, o.box.h + 2 * half)
        count += any(_crosses(grown, p, q) for p, q in itertools.pairwise(run))
    return count


def _length(run: list[tuple[float, float]]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(run))


def board_size(layout: Layout) -> tuple[float, float]:
    """The drawing grid's points with a one-pitch margin all round (the dice and the band with
    the buttons and controller add to it)."""
    cols, rows = layout.size
    pitch = layout.pitch_mm
    return ((cols + 1) * pitch, (rows + 1) * pitch)


def matrix_channels(
    layout: Layout, reed_offset: float
) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """A channel for each matrix row, joining its slots' right ends, and for each column,
    joining their left ends, the nearest next end each time from the topmost. Channels run in
    the streets between the points: a row's in the street below its points, a column's in the
    one above, crossing the rows of points in the gaps between slot and next hole; a spur
    leads to each slot's end. Returns the rows' channels and the columns'."""
    rows, cols = layout.matrix
    pitch = layout.pitch_mm
    gap = _gap(layout, reed_offset)
    both: list[tuple[Line, ...]] = []
    for side, count, of in ((1, rows, "row"), (-1, cols, "col")):
        lines: list[Line] = []
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
        both.append(tuple(lines))
    return both[0], both[1]


def _gap(layout: Layout, reed_offset: float) -> float:
    """From a point's centre to the middle of the clear wood on its right, between its slot
    (or hole, pocket or LED window) and the next point's."""
    pitch = layout.pitch_mm
    pocket = POCKET_DIAMETER / 2 if layout.surface != "holes" else 0.0
    start = max(
        reed_offset + REED_LENGTH / 2, reed_offset + pocket, HOLE_DIAMETER / 2, LED_SIZE / 2
    )
    end = pitch - max(
        HOLE_DIAMETER / 2, LED_SIZE / 2, REED_LENGTH / 2 - reed_offset, pocket - reed_offset
    )
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
    """A strip of points of the board's kind (peg holes, or painted circles or squares over
    their pockets), each with its reed slot at one of ``offsets``, labelled: drilled before the
    board, it shows which offset closes the reed for these magnets and this wood."""
    layout = build.layout
    pitch = layout.pitch_mm  # the board's: a piece on the next point must leave a reed open
    reach = POCKET_DIAMETER / 2 if layout.surface != "holes" else 0.0
    if layout.surface == "squares":
        reach = max(reach, pitch / 2)
    elif layout.surface == "circles":
        reach = max(reach, paint_size(layout) / 2)
    top = max(14.0, 8.0 + reach)
    width = (len(offsets) + 1) * pitch
    height = top + max(LED_SHIFT + LED_SIZE / 2, reach) + 12
    centres = [(pitch * (i + 1), top) for i in range(len(offsets))]
    said = notes(layout, DEFAULT_REED_OFFSET)
    said["reed-slots"] = (
        f"{REED_WIDTH:g} x {REED_LENGTH:g} mm, {REED_DEPTH:g} mm deep, from below"
        if layout.surface == "holes"
        else f"{REED_WIDTH:g} x {REED_LENGTH:g} mm, where the reed lies on its pocket's floor"
    ) + "; each centred the labelled distance right of its point's centre"
    ops: dict[str, list[Shape]] = {key: [] for key in OPERATIONS}
    ops["outline"] = [Rect(0.0, 0.0, width, height)]
    for (x, y), off in zip(centres, offsets, strict=True):
        for key, shape in point_shapes(layout, x, y, off).items():
            ops[key].append(shape)
    labels = [Label(4.0, 6.0, f"reed offset test strip, build {build.name}: 1:1", 3.0)]
    labels += [
        Label(x, height - 4, f"{off:g} mm", 3.5, centred=True)
        for (x, _), off in zip(centres, offsets, strict=True)
    ]
    return Sheet(
        f"{build.name}-test-strip",
        f"reedboard reed offset test strip for {build.name} ({layout.surface}):"
        f" {width:g} x {height:g} mm, 1:1",
        width,
        height,
        tuple(Operation(key, said[key], tuple(ops[key])) for key in OPERATIONS if ops[key]),
        tuple(labels),
    )
