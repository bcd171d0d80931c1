"""A :class:`~reedboard.wiring.template.Sheet` as SVG at 1:1: width and height in millimetres
and a viewBox in millimetres, one group an operation (its id the operation's key, its
``data-note`` what to cut), then the labels."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from reedboard.wiring.template import LABELS, STYLES, Circle, Line, Rect, Shape, Sheet

STROKE = 0.25
"""Line width, mm: thin enough to centre a drill on."""


def n(value: float) -> str:
    """A length in mm as written: at most three decimals, no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg(sheet: Sheet) -> str:
    w, h = n(sheet.width), n(sheet.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm"'
        f' viewBox="0 0 {w} {h}">',
        f"<title>{escape(sheet.title)}</title>",
        "<desc>"
        + escape("; ".join(f"{STYLES[op.key].layer}: {op.note}" for op in sheet.operations))
        + "</desc>",
    ]
    for op in sheet.operations:
        out.append(
            f'<g id="{op.key}" fill="none" stroke="{STYLES[op.key].colour}"'
            f' stroke-width="{STROKE}" data-note={quoteattr(op.note)}>'
        )
        out += [shape_svg(shape) for shape in op.shapes]
        out.append("</g>")
    out.append(f'<g id="labels" font-family="sans-serif" fill="{LABELS.colour}">')
    for label in sheet.labels:
        anchor = ' text-anchor="middle"' if label.centred else ""
        out.append(
            f'<text x="{n(label.x)}" y="{n(label.y)}" font-size="{n(label.size)}"{anchor}>'
            f"{escape(label.text)}</text>"
        )
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def shape_svg(shape: Shape) -> str:
    if isinstance(shape, Circle):
        return f'<circle cx="{n(shape.x)}" cy="{n(shape.y)}" r="{n(shape.d / 2)}"/>'
    if isinstance(shape, Rect):
        return (
            f'<rect x="{n(shape.x)}" y="{n(shape.y)}" width="{n(shape.w)}" height="{n(shape.h)}"/>'
        )
    assert isinstance(shape, Line)
    points = " ".join(f"{n(x)},{n(y)}" for x, y in shape.points)
    return f'<polyline points="{points}"/>'
