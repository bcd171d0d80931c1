"""An SVG of a board's wiring: every point with its id, switch row/column and LED index, and
the pin of every row line, column line and button."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reedboard.wiring.build import Build
from reedboard.wiring.layout import Layout

PITCH = 64
MARGIN = 150


def diagram(layout: Layout, build: Build | None = None) -> str:
    cols, rows = layout.size
    width = MARGIN + cols * PITCH + 40
    legend_lines = 4 + (len(build.buttons) if build else 0)
    height = MARGIN + rows * PITCH + 40 + 18 * legend_lines
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#f7efe0"/>',
        f'<text x="12" y="22" font-size="16" font-weight="bold">{escape(title(layout, build))}'
        "</text>",
    ]
    # the matrix's lines, drawn as the labels beside the board
    nrows, ncols = layout.matrix
    row_pins = build.matrix.rows if build else tuple("" for _ in range(nrows))
    col_pins = build.matrix.cols if build else tuple("" for _ in range(ncols))
    y0 = 44
    out.append(f'<text x="12" y="{y0}" font-size="12">matrix rows (driven):</text>')
    for r in range(nrows):
        pin = f" = {row_pins[r]}" if row_pins[r] else ""
        out.append(
            f'<text x="12" y="{y0 + 16 * (r + 1)}" font-size="11" fill="#7a1f1f">'
            f"row {r}{escape(pin)}</text>"
        )
    x0 = MARGIN
    out.append(f'<text x="{x0}" y="{y0}" font-size="12">matrix columns (read):</text>')
    for c in range(ncols):
        pin = f" = {col_pins[c]}" if col_pins[c] else ""
        x = x0 + (c % 4) * 130
        y = y0 + 16 * (c // 4 + 1)
        out.append(
            f'<text x="{x}" y="{y}" font-size="11" fill="#1f3f7a">col {c}{escape(pin)}</text>'
        )
    top = MARGIN
    shaded = {pid for mark in layout.shaded for pid in layout.marks[mark]}  # as the layout says
    for point in layout.points.values():
        cx = MARGIN + point.x * PITCH + PITCH // 2
        cy = top + point.y * PITCH + PITCH // 2
        fill = "#f5a59b" if point.id in shaded else "#fffaf0"
        out.append(f'<circle cx="{cx}" cy="{cy}" r="24" fill="{fill}" stroke="#5a3d1e"/>')
        out.append(
            f'<text x="{cx}" y="{cy - 6}" font-size="13" text-anchor="middle"'
            f' font-weight="bold">{escape(point.id)}</text>'
        )
        out.append(
            f'<text x="{cx}" y="{cy + 7}" font-size="9" text-anchor="middle" fill="#7a1f1f">'
            f"r{point.row} c{point.col}</text>"
        )
        out.append(
            f'<text x="{cx}" y="{cy + 17}" font-size="9" text-anchor="middle" fill="#2d6a2d">'
            f"LED {point.led}</text>"
        )
    y = top + rows * PITCH + 30
    notes = [
        "each point: id; r/c = its switch's matrix row and column; LED = index in the chain",
        f"dice: {layout.dice_leds} pip LEDs after the points, indices "
        f"{layout.dice_start}-{layout.led_count - 1}"
        if layout.dice_leds
        else "no dice LEDs",
    ]
    if build:
        leds = build.leds
        if leds.driver == "ws2812-spi":
            notes.append(f"LED data: SPI{leds.spi_bus} MOSI (GPIO10) through a level shifter")
        elif leds.driver == "ws2812":
            notes.append(f"LED data: {leds.pin} through a level shifter")
        elif leds.driver == "ledboard":
            notes.append("LEDs: " + ", ".join(leds.pins))
        notes += [f"button {name}: {pin} to ground" for name, pin in build.buttons.items()]
    for note in notes:
        out.append(f'<text x="12" y="{y}" font-size="12">{escape(note)}</text>')
        y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def title(layout: Layout, build: Build | None) -> str:
    if build is None:
        return f"reedboard layout {layout.name}"
    where = "Raspberry Pi GPIO" if build.driver == "gpio" else "Raspberry Pi Pico"
    return f"reedboard build {build.name}: layout {layout.name} on a {where}"


def pin_table(build: Build) -> str:
    """A build's pins as a Markdown table (docs/building.md's pin tables are this output)."""
    board = "Pico" if build.driver == "pico" else "Pi"
    rows = [f"| matrix row {r} (driven) | {pin} |" for r, pin in enumerate(build.matrix.rows)] + [
        f"| matrix column {c} (read) | {pin} |" for c, pin in enumerate(build.matrix.cols)
    ]
    rows += [f"| button {name} (to ground) | {pin} |" for name, pin in build.buttons.items()]
    leds = build.leds
    if leds.driver == "ws2812":
        rows.append(f"| LED data (through a level shifter) | {leds.pin} |")
    elif leds.driver == "ws2812-spi":
        rows.append(f"| LED data (SPI{leds.spi_bus} MOSI, through a level shifter) | GPIO10 |")
    elif leds.driver == "ledboard":
        rows += [f"| LED {i} | {pin} |" for i, pin in enumerate(leds.pins)]
    return f"| {build.name}: what | {board} pin |\n| --- | --- |\n" + "\n".join(rows) + "\n"
