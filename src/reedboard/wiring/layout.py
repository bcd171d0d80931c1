"""Board layouts: which reed switch and which LED belong to which hole or circle.

A layout is a TOML file (``reedboard/wiring/layouts/NAME.toml``); its comments explain each key. The
loader rejects every mistake with one line naming the file, the line, the key and what is
wrong, so a hobbyist editing a layout for their own board is told exactly where to look.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard.wiring.tomlfile import TomlFile, WiringError, find

__all__ = ["Layout", "Point", "WiringError", "available", "layout_for_game", "load_layout"]

LAYOUTS = Path(__file__).parent / "layouts"
POINT_KEYS = ("x", "y", "row", "col", "led")
DEFAULT_PITCH_MM = 30.0
"""``pitch_mm`` when a layout gives none: a board-game-sized spacing of holes."""
PITCH_RANGE_MM = (25.0, 200.0)
"""What ``pitch_mm`` may be: from 25 mm a point's hole, reed slot (15 mm) and LED window and
the wire channels between points fit; a board with points 20 cm apart is no board game."""
SURFACES = ("holes", "circles", "squares")
"""What a layout's pieces stand in or on: ``holes`` (pegs in holes: the 33-hole board),
``circles`` (pieces on painted circles: Fox and Rabbit), ``squares`` (men on painted squares
or spaces: Skip, Messenger Boy, Parchesi)."""
DEFAULT_PIECE_MM = 16.0
"""``piece_mm`` when a layout gives none: a piece's base diameter."""
PIECE_RANGE_MM = (8.0, 60.0)
DEFAULT_BOARD_MM = 12.0
"""``board_mm`` when a layout gives none: the board's thickness."""
BOARD_RANGE_MM = (8.0, 40.0)
"""What ``board_mm`` may be: from 8 mm a peg hole and a reed slot leave wood between them."""


@dataclass(frozen=True, slots=True)
class Point:
    id: str
    x: int
    """Drawing column, from the left."""
    y: int
    """Drawing row, from the top."""
    row: int
    """The switch's row line in the diode matrix (driven)."""
    col: int
    """The switch's column line in the diode matrix (read)."""
    led: int
    """The point's index in the LED chain."""


@dataclass(frozen=True)
class Layout:
    name: str
    path: Path
    games: tuple[str, ...]
    size: tuple[int, int]
    """The drawing grid: columns, rows."""
    matrix: tuple[int, int]
    """The diode matrix: row lines, column lines."""
    dice_leds: int
    """Pip LEDs after the points' LEDs in the chain (7 a die)."""
    points: dict[str, Point]
    marks: dict[str, Any] = field(default_factory=dict)
    shaded: tuple[str, ...] = ()
    """Marks whose points the wiring diagram shades (``shaded = ["brier_patch"]``)."""
    pitch_mm: float = DEFAULT_PITCH_MM
    """Millimetres between neighbouring points on the wood (the fabrication templates)."""
    surface: str = "holes"
    """One of :data:`SURFACES`: pegs in holes, or pieces standing on circles or squares."""
    piece_mm: float = DEFAULT_PIECE_MM
    """A piece's base diameter (a painted circle is drawn this and a margin across)."""
    board_mm: float = DEFAULT_BOARD_MM
    """The board's thickness (how deep the pockets under circles and squares go)."""

    @property
    def led_count(self) -> int:
        """The whole chain: every point's LED, then the dice's pips."""
        return len(self.points) + self.dice_leds

    @property
    def dice_start(self) -> int:
        """The chain index of the first dice pip LED."""
        return len(self.points)

    def switch_map(self) -> dict[tuple[int, int], str]:
        """(row, col) of each switch → its point id."""
        return {(p.row, p.col): p.id for p in self.points.values()}


def available() -> list[str]:
    """The names of the layouts shipped with reedboard."""
    return sorted(p.stem for p in LAYOUTS.glob("*.toml"))


def load_layout(name_or_path: str | Path) -> Layout:
    """A shipped layout by name (``brier9``) or any layout file by path."""
    return _Loader(find(LAYOUTS, name_or_path, "layout")).layout()


def layout_for_game(game_id: str) -> Layout:
    """The shipped layout whose board a game is played on."""
    for name in available():
        layout = load_layout(name)
        if game_id in layout.games:
            return layout
    raise WiringError(f"no layout lists the game {game_id!r}")


@functools.cache
def _points_played(engine: Any, game: str, games: int = 6, plies: int = 120) -> frozenset[str]:
    """The points ``game``'s pieces stand on or move over in a few seeded random games (once a
    process: a game's board does not change)."""
    rng = random.Random(game)
    seen: set[str] = set()
    for _ in range(games):
        position = engine.start(game)
        for _ in range(plies):
            seen |= position.occupied()
            moves = sorted(position.legal_moves, key=str) if not position.is_over() else []
            if not moves:
                break
            move = rng.choice(moves)
            seen.update(p for p in move.points() if p)
            position.push(move)
    return frozenset(seen)


POINT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,23}")
"""A point's id: ASCII letters, digits, '-' and '_' (it is typed, logged and sent)."""


class _Loader(TomlFile):
    def pair(self, key: str) -> tuple[int, int]:
        value = self.need(key, list)
        if len(value) != 2 or not all(isinstance(v, int) and v > 0 for v in value):
            raise self.fail(key, f"expected two positive whole numbers, got {value!r}")
        return (value[0], value[1])

    def layout(self) -> Layout:
        name = self.need("name", str)
        games = tuple(self.need("games", list))
        size = self.pair("size")
        matrix = self.pair("matrix")
        dice_leds = self.need("dice_leds", int)
        if dice_leds < 0 or dice_leds % 7:
            raise self.fail("dice_leds", f"{dice_leds} is not a multiple of 7 (7 pips a die)")
        raw_points = self.need("points", dict)
        if not raw_points:
            raise self.fail("points", "no points")
        points = {pid: self.point(pid, spec, size, matrix) for pid, spec in raw_points.items()}
        self.check_unique(points)
        marks = self.data.get("marks", {})
        self.check_marks(marks, points)
        shaded = tuple(self.data.get("shaded", ()))
        for mark in shaded:
            if not isinstance(marks.get(mark), list):
                raise self.fail("shaded", f"{mark!r} is no mark of this layout that lists points")
        pitch_mm = self.pitch()
        surface = self.need("surface", str) if "surface" in self.data else "holes"
        if surface not in SURFACES:
            raise self.fail("surface", f"{surface!r} is not {', '.join(SURFACES)}")
        piece_mm = self.millimetres(
            "piece_mm", DEFAULT_PIECE_MM, PIECE_RANGE_MM, "a piece's base diameter, mm"
        )
        if surface == "circles" and piece_mm > pitch_mm - 8:
            raise self.fail(
                "piece_mm",
                f"{piece_mm:g} leaves no room between circles {pitch_mm:g} mm apart (at most"
                f" {pitch_mm - 8:g}: the pitch less 8 mm)",
            )
        board_mm = self.millimetres(
            "board_mm", DEFAULT_BOARD_MM, BOARD_RANGE_MM, "the board's thickness, mm"
        )
        self.check_games(games, points)
        return Layout(
            name,
            self.path,
            games,
            size,
            matrix,
            dice_leds,
            points,
            marks,
            shaded,
            pitch_mm,
            surface,
            piece_mm,
            board_mm,
        )

    def millimetres(
        self, key: str, default: float, limits: tuple[float, float], what: str
    ) -> float:
        """A length in mm within ``limits``, or ``default`` when absent."""
        value = float(self.get(key, float, default, self.data, key))
        low, high = limits
        if not low <= value <= high:  # (nan and inf are neither)
            raise self.fail(key, f"{value:g} is outside {low:g}-{high:g} ({what})")
        return value

    def pitch(self) -> float:
        """``pitch_mm``: the millimetres between neighbouring points (a default when absent)."""
        value = float(self.get("pitch_mm", float, DEFAULT_PITCH_MM, self.data, "pitch_mm"))
        low, high = PITCH_RANGE_MM
        if not low <= value <= high:  # (nan and inf are neither)
            raise self.fail(
                "pitch_mm",
                f"{value:g} is outside {low:g}-{high:g} (millimetres between neighbouring points)",
            )
        return value

    def check_games(self, games: tuple[Any, ...], points: dict[str, Point]) -> None:
        """Each game listed is a game, and its board fits this one: every point its pieces
        stand on or move over in a few seeded random games (throws included) is a point here
        (a layout missing one would pass the wiring commands and then stop the daemon at its
        first frame)."""
        from reedboard import engine  # (a layout's games are checked when it is loaded)

        for game in games:
            if not isinstance(game, str):
                raise self.fail("games", f"{game!r} is no game id")
            try:
                needed = _points_played(engine, game)
            except engine.EngineError as exc:
                raise self.fail("games", str(exc)) from None
            missing = sorted(needed - set(points))
            if missing:
                raise self.fail(
                    "games",
                    f"{game}'s board has point {missing[0]!r}, which this layout lacks"
                    f" ({len(missing)} missing)",
                )

    def point(self, pid: str, spec: Any, size: tuple[int, int], matrix: tuple[int, int]) -> Point:
        key = f"points.{pid}"
        if not POINT_ID.fullmatch(pid):
            raise self.fail(
                "points", f"{pid[:20]!r} is no point id (letters, digits, '-' and '_'; ASCII)"
            )
        if not isinstance(spec, dict):
            raise self.fail(key, f"expected a table {{ {', '.join(POINT_KEYS)} }}")
        for extra in sorted(set(spec) - set(POINT_KEYS)):
            raise self.fail(key, f"unknown key {extra!r} (a point has {', '.join(POINT_KEYS)})")
        for k in POINT_KEYS:
            if k not in spec:
                what = "no switch" if k in ("row", "col") else "missing"
                raise self.fail(f"{key}.{k}", f"{what} (every point needs {', '.join(POINT_KEYS)})")
            v = spec[k]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise self.fail(f"{key}.{k}", f"expected a whole number from 0, got {v!r}")
        limits = {
            "x": (size[0], "drawing columns"),
            "y": (size[1], "drawing rows"),
            "row": (matrix[0], "matrix rows"),
            "col": (matrix[1], "matrix columns"),
        }
        for k, (limit, what) in limits.items():
            if spec[k] >= limit:
                raise self.fail(
                    f"{key}.{k}", f"{spec[k]} is outside the {limit} {what} (0-{limit - 1})"
                )
        return Point(pid, spec["x"], spec["y"], spec["row"], spec["col"], spec["led"])

    def check_unique(self, points: dict[str, Point]) -> None:
        switches: dict[tuple[int, int], str] = {}
        leds: dict[int, str] = {}
        places: dict[tuple[int, int], str] = {}
        for p in points.values():
            if p.led >= len(points):
                raise self.fail(
                    f"points.{p.id}.led",
                    f"{p.led} is out of range 0-{len(points) - 1} (one LED a point; the dice's"
                    " LEDs follow)",
                )
            if p.led in leds:
                raise self.fail(f"points.{p.id}.led", f"{p.led} is also {leds[p.led]}'s LED")
            if (p.row, p.col) in switches:
                other = switches[(p.row, p.col)]
                raise self.fail(
                    f"points.{p.id}", f"row {p.row}, col {p.col} is also {other}'s switch"
                )
            if (p.x, p.y) in places:
                raise self.fail(
                    f"points.{p.id}",
                    f"x {p.x}, y {p.y} is also where {places[(p.x, p.y)]} is drawn",
                )
            leds[p.led] = p.id
            switches[(p.row, p.col)] = p.id
            places[(p.x, p.y)] = p.id

    def check_marks(self, marks: Any, points: dict[str, Point]) -> None:
        if not isinstance(marks, dict):
            raise self.fail("marks", "expected a table")
        for key, value in marks.items():
            ids = (
                value
                if isinstance(value, list)
                else list(value.values())
                if isinstance(value, dict)
                else [value]
            )
            for pid in ids:
                if pid not in points:
                    raise self.fail(f"marks.{key}", f"{pid!r} is not a point of this layout")
