"""How the page draws a board, as a JSON-ready dict: where each point stands, the lines the
game's pieces move along, the squares' colours, the regions (a nest, the home), the labels at
the board's edge and in the points, and each side's piece colour.

The points and marks are the layout's (``reedboard/wiring/layouts/``); the lines are the
game's, asked of the engine (the cross board's for the game's options: its diagonals). A few
boards are drawn as what they are rather than as dots joined to their grid neighbours: Skip's
checkered squares, Parchesi's cross (from the tips of its four arms), Messenger Boy's squares
along its tracks. The side colours are the engine's (``reedboard/engine/names.py``), so a
piece is coloured by its side, never guessed from its letter.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from reedboard.engine import Position
from reedboard.engine.cross import Cross33Board
from reedboard.engine.names import side_name
from reedboard.wiring.layout import Layout


@dataclass(frozen=True)
class CrossArms:
    """A race board drawn as a cross: four arms of three lanes round a central home.

    Each arm is named by its tip (the loop point at its far end, where a colour turns off
    into its home path) and its home path's prefix. The loop points before a tip run out along
    one lane, those after it back along the other; the home path climbs the middle lane."""

    loop: str
    """The loop points' prefix (``L0`` … in the direction men move)."""
    size: int
    """Loop points in all."""
    tips: tuple[tuple[str, str], ...]
    """(tip point, home path prefix) for each arm, in loop order; the first arm is drawn at
    the bottom, the next to its right (men go round counter-clockwise)."""
    lane: int = 8
    """Points on each side lane of an arm."""
    home: str = "home"


@dataclass(frozen=True)
class Track:
    """A board drawn as squares joined along tracks, each a list of point ids in order
    (``A1..A21`` is a run of ids)."""

    tracks: tuple[tuple[str, ...], ...]


BOARDS: dict[str, str | CrossArms | Track] = {
    "skip8": "checkered",
    "parchesi101": CrossArms("L", 68, (("L67", "Y"), ("L16", "B"), ("L33", "R"), ("L50", "G"))),
    "messenger84": Track(
        (
            ("A1..A21", "22", "A23..A42", "43"),
            ("B1..B21", "22", "B23..B42", "43"),
        )
    ),
}
"""Boards not drawn as holes joined to their grid neighbours, by layout name."""

GRID_ID = re.compile(r"^([a-z])([0-9]+)$")
RUN = re.compile(r"^([A-Za-z]*)([0-9]+)\.\.\1([0-9]+)$")


def drawing(layout: Layout, position: Position[Any, Any]) -> dict[str, Any]:
    """What the page needs to draw ``layout`` for ``position``'s game (its options)."""
    kind = BOARDS.get(layout.name)
    points = {p.id: (float(p.x), float(p.y)) for p in layout.points.values()}
    size = layout.size
    regions: list[dict[str, Any]] = []
    cells: dict[str, str] = {}
    lines: list[tuple[str, str]] = []
    style = "holes"
    if isinstance(kind, CrossArms):
        style = "squares"
        points, regions, cells = cross(kind, layout)
        size = (2 * kind.lane + 3, 2 * kind.lane + 3)
    elif isinstance(kind, Track):
        style = "squares"
        lines = track_lines(kind, layout)
        cells = {p: "track" for p in layout.points}
        for name in ("starts", "finish"):
            for p in _listed(layout.marks.get(name)):
                cells[p] = name.rstrip("s")
        regions.append(waiting_area(layout))
    elif kind == "checkered":
        style = "squares"
        cells = checkered(layout)
    else:
        lines = game_lines(layout, position)
    return {
        "style": style,
        "size": list(size),
        "points": {p: list(xy) for p, xy in points.items()},
        "lines": [list(pair) for pair in lines],
        "cells": cells,
        "regions": regions,
        "edges": edge_labels(layout) if kind is None or kind == "checkered" else [],
        "labels": point_labels(layout, kind),
        "pieces": piece_styles(position),
    }


def waiting(position: Position[Any, Any]) -> dict[str, int]:
    """The men off the board waiting to come on, by piece letter (``{"R": 1, "B": 1}``):
    Messenger Boy's boys not yet on their Start square, drawn in a region of their own beside
    the board (Parchesi's men wait in nests, which are points of the board)."""
    return position.waiting()


def waiting_area(layout: Layout) -> dict[str, Any]:
    """Where the men waiting to come on are drawn: beside the Start squares, in the board's
    free middle (Messenger Boy's between its lanes), five squares wide."""
    starts = [layout.points[p] for p in _listed(layout.marks.get("starts")) if p in layout.points]
    x = min((p.x for p in starts), default=0) + 3.5
    y = sum(p.y for p in starts) / len(starts) if starts else layout.size[1] / 2
    return {"kind": "waiting", "x": x, "y": y, "w": 5, "h": 0.9}


def game_lines(layout: Layout, position: Position[Any, Any]) -> list[tuple[str, str]]:
    """The lines pieces move along: the cross board's as the game's options draw them
    (diagonals or none), else the grid's orthogonal neighbours."""
    board = getattr(position, "board", None)
    if isinstance(board, Cross33Board):
        return sorted(
            {
                (str(min(a, b)), str(max(a, b)))
                for a, near in enumerate(board.steps)
                for b in near
                if str(a) in layout.points and str(b) in layout.points
            },
            key=lambda ab: (int(ab[0]), int(ab[1])),
        )
    at = {(p.x, p.y): p.id for p in layout.points.values()}
    return [
        (p.id, at[(p.x + dx, p.y + dy)])
        for p in layout.points.values()
        for dx, dy in ((1, 0), (0, 1))
        if (p.x + dx, p.y + dy) in at
    ]


def checkered(layout: Layout) -> dict[str, str]:
    """Each square's colour: dark and light in turn (the bottom left dark, as on a chess
    board), then the layout's coloured marks over them (``green_row`` is green, a mark whose
    name holds ``yellow`` or ``side`` is yellow)."""
    cells = {p.id: "dark" if (p.x + p.y) % 2 == 1 else "light" for p in layout.points.values()}
    for name, value in layout.marks.items():
        colour = next((c for c in ("green", "yellow") if c in name), None)
        colour = colour or ("yellow" if "side" in name else None)
        for p in _listed(value):
            if colour and p in cells:
                cells[p] = colour
    return cells


def _rotate(x: float, y: float, turns: int, middle: float) -> tuple[float, float]:
    """(x, y) turned a quarter counter-clockwise on the screen ``turns`` times round the
    board's middle: the bottom arm to the right one."""
    dx, dy = x - middle, y - middle
    for _ in range(turns % 4):
        dx, dy = dy, -dx
    return middle + dx, middle + dy


def cross(
    arms: CrossArms, layout: Layout
) -> tuple[dict[str, tuple[float, float]], list[dict[str, Any]], dict[str, str]]:
    """Each point's place on a cross, the nests and home as regions, each square's colour."""
    n = arms.lane
    middle = float(n + 1)  # the arms are 3 wide: lanes at middle - 1, middle, middle + 1
    points: dict[str, tuple[float, float]] = {}
    cells: dict[str, str] = {}
    regions: list[dict[str, Any]] = []
    safe = set(_listed(layout.marks.get("safeties")))
    for k, (tip, path) in enumerate(arms.tips):
        t = int(tip.removeprefix(arms.loop))
        place: list[tuple[str, float, float]] = []
        for i in range(n):  # out along the left lane (of the bottom arm), then back
            place.append((f"{arms.loop}{(t - n + i) % arms.size}", middle - 1, middle + 2 + i))
            place.append((f"{arms.loop}{(t + 1 + i) % arms.size}", middle + 1, 2 * middle - i))
        place.append((tip, middle, 2 * middle))
        place += [(f"{path}{j}", middle, 2 * middle - j) for j in range(1, n)]
        side = _side_of(path)
        for point, x, y in place:
            if point in layout.points:
                points[point] = _rotate(x, y, k, middle)
                cells[point] = f"path {side}" if point.startswith(path) else "track"
        nest = f"{path}nest"
        corner = _rotate(middle + (n + 3) / 2, middle + (n + 3) / 2, k, middle)
        if nest in layout.points:
            points[nest] = corner
            cells[nest] = f"nest {side}"
        regions.append({"kind": "nest", "side": side, "x": corner[0], "y": corner[1], "w": n - 1})
    for point in safe & set(points):
        cells[point] += " safe"
    if arms.home in layout.points:
        points[arms.home] = (middle, middle)
        cells[arms.home] = "home"
        regions.append({"kind": "home", "x": middle, "y": middle, "w": 3})
    for point, p in layout.points.items():  # a point the cross does not know: where it is
        points.setdefault(point, (float(p.x), float(p.y)))
    return points, regions, cells


def _side_of(prefix: str) -> str:
    """A home path's colour from its prefix, as the page's class names say it."""
    return {"Y": "yellow", "B": "blue", "R": "red", "G": "green"}.get(prefix, prefix.lower())


def _runs(ids: Iterable[str]) -> Iterator[str]:
    for item in ids:
        if m := RUN.match(item):
            prefix, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            yield from (f"{prefix}{i}" for i in range(a, b + 1))
        else:
            yield item


def track_lines(track: Track, layout: Layout) -> list[tuple[str, str]]:
    """Each square joined to the next along every track (a square two tracks share once)."""
    out: dict[tuple[str, str], None] = {}
    for t in track.tracks:
        ids = [p for p in _runs(t) if p in layout.points]
        for a, b in itertools.pairwise(ids):
            out.setdefault((a, b), None)
    return list(out)


def edge_labels(layout: Layout) -> list[dict[str, Any]]:
    """Coordinates at the board's edge, as on a chess board: the files below the bottom row
    and the ranks left of the first column, when every point is named so (``a1``)."""
    found = [(GRID_ID.match(p.id), p) for p in layout.points.values()]
    if not all(m for m, _ in found):
        return []
    files = {p.x: m.group(1) for m, p in found if m}
    ranks = {p.y: m.group(2) for m, p in found if m}
    bottom, left = max(ranks) + 1, min(files) - 1
    return [{"x": x, "y": bottom - 0.22, "text": t} for x, t in sorted(files.items())] + [
        {"x": left + 0.22, "y": y, "text": t} for y, t in sorted(ranks.items())
    ]


def point_labels(layout: Layout, kind: object) -> dict[str, str]:
    """The name drawn inside a point, where the board's edge cannot say it: the cross board's
    hole numbers, a track's square numbers (``A5``: 5), a race loop's numbers."""
    if kind is None and edge_labels(layout):
        return {}
    if kind == "checkered":
        return {}
    out = {}
    for point in layout.points:
        if isinstance(kind, CrossArms):
            if point.startswith(kind.loop) and point[len(kind.loop) :].isdigit():
                out[point] = point[len(kind.loop) :]
            continue
        digits = re.sub(r"^[A-Za-z]+(?=[0-9])", "", point)
        out[point] = digits if digits.isdigit() else point
    return out


def piece_styles(position: Position[Any, Any]) -> dict[str, dict[str, str]]:
    """Each piece letter of the game's sides seated now: its side, the side's name and
    colour (the engine's), and the ink that reads on it. A letter is its side's first letter
    (``Y`` yellow, ``W`` White Rabbit; any case), or the only side's."""
    sides = list(position.players)
    letters = set("".join(position.pieces().values()))
    letters |= {s[:1].upper() for s in sides} | {s[:1].lower() for s in sides}
    out: dict[str, dict[str, str]] = {}
    for letter in sorted(letters):
        side = next((s for s in sides if s[:1].upper() == letter.upper()), None)
        if side is None and len(sides) == 1:
            side = sides[0]
        if side is None:
            continue
        words = side_name(position.game_id, side)
        out[letter] = {"side": side, "name": words.name, "fill": words.colour}
        out[letter]["ink"] = ink(words.colour)
    return out


def ink(fill: str) -> str:
    """Dark or light text, whichever reads on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#1a1a1a" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _listed(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return []
