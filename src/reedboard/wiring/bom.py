"""A build's parts list (bill of materials): what to buy for one board, counted from its layout
and build, each part with the specification that matters and a typical part number (one that
fits, not the only one).

``reedboard wiring bom BUILD`` prints it as Markdown or CSV.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import astuple, dataclass

from reedboard import engine
from reedboard.wiring.build import Build
from reedboard.wiring.layout import Layout

COLUMNS = ("part", "quantity", "specification", "typical part number", "notes")
SPARES = 0.1
"""Reed switches and magnets: a tenth more than needed (glass cracks, magnets go missing)..."""
MIN_SPARES = 2
"""... and at least this many more."""
HEADROOM = 1.25
"""The LED supply's rating over the build's LED budget (``[leds] max_milliamps``)."""
SUPPLY_AMPS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 40)
"""The currents 5 V supplies are sold for."""
FUSE_AMPS = (0.5, 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10, 12.5, 16, 20, 25, 30, 40)
"""The ratings of 5 x 20 mm fuses."""
MEAN_WELL = ((3, "LRS-15-5"), (5, "LRS-25-5"), (7, "LRS-35-5"), (10, "LRS-50-5"))
"""Mean Well's enclosed 5 V supplies: amps, model."""


@dataclass(frozen=True)
class Part:
    part: str
    quantity: int
    spec: str
    """What matters when buying it (or a substitute)."""
    number: str
    """A typical manufacturer and part number."""
    notes: str = ""


def with_spares(count: int) -> int:
    """``count`` and a tenth more, at least :data:`MIN_SPARES` more."""
    return count + max(MIN_SPARES, math.ceil(count * SPARES))


def supply_amps(milliamps: int) -> int:
    """The 5 V supply for an LED budget: the smallest sold that gives it with headroom."""
    need = milliamps * HEADROOM / 1000
    return next((a for a in SUPPLY_AMPS if a >= need), math.ceil(need))


def fuse_amps(milliamps: int) -> float:
    """The fuse for an LED budget: the largest rating the supply can feed, but never below the
    budget itself."""
    supply = supply_amps(milliamps)
    under = [f for f in FUSE_AMPS if milliamps / 1000 <= f <= supply]
    return under[-1] if under else next((f for f in FUSE_AMPS if f >= supply), supply)


def pieces(game_id: str) -> tuple[int, str]:
    """The most pieces a game has on or beside the board at once (the engine's count: every
    seat filled, the men off the board too), and how it was counted."""
    most = engine.game(game_id).most_men()
    on_board = len(engine.start(game_id).occupied())
    how = "at the start" if most == on_board else "every seat filled, on the board or off it"
    return most, f"{game_id}: {most} {how}"


def magnets(layout: Layout) -> tuple[int, str]:
    """One magnet a piece for the layout's game needing the most pieces, with spares; and the
    note saying so, and where it goes: in a peg's foot on a board of holes, in a piece's base
    on one of circles or squares."""
    counts = [pieces(game) for game in layout.games]
    most = max(counts, default=(0, "no games"))
    said = "; ".join(how for _, how in counts)
    where = (
        "one in the foot of each peg"
        if layout.surface == "holes"
        else "one flush in the base of each piece (a 6 mm hole 3 mm deep), which stands on the"
        f" board's {layout.surface}"
    )
    note = f"{where} ({said}), plus spares"
    if len(counts) > 1:
        note += "; enough for the game with the most: a piece set of each game needs its own"
    return with_spares(most[0]), note


def parts(build: Build) -> list[Part]:
    """The parts list of ``build``."""
    layout = build.layout
    points = len(layout.points)
    rows: list[Part] = []
    if build.driver == "pico":
        rows += [
            Part(
                "Raspberry Pi",
                1,
                "any model with USB and its own supply; runs the daemon",
                "Raspberry Pi 4 Model B",
                "the Pico plugs into it",
            ),
            Part(
                "Raspberry Pi Pico",
                1,
                "RP2040 with MicroPython; reads the matrix and buttons, drives the LEDs",
                "Raspberry Pi SC0915 (Pico)",
                f"pins: `reedboard wiring table {build.name}`",
            ),
            Part("USB cable", 1, "USB-A to micro-USB, data (not charge-only)", "any", "Pi to Pico"),
        ]
    else:
        rows.append(
            Part(
                "Raspberry Pi",
                1,
                "any model with the 40-pin header, on its own supply",
                "Raspberry Pi 4 Model B",
                f"pins: `reedboard wiring table {build.name}`",
            )
        )
    rows += [
        Part(
            "reed switch",
            with_spares(points),
            "form A (normally open, SPST-NO), 10-15 AT, glass 12.7 x 1.8 mm or shorter",
            "Littelfuse (Hamlin) MDSR-7 10-15, or Standex-Meder ORD213",
            f"one under each of the {points} points, plus spares (bending the leads near the"
            " glass cracks it)",
        ),
        Part(
            "diode",
            points,
            "small-signal silicon, 1N4148, DO-35",
            "onsemi 1N4148TR or Vishay 1N4148-TAP",
            "one in series with each switch, cathode (stripe) toward the row line",
        ),
    ]
    rows += _led_parts(build)
    if build.buttons:
        rows.append(
            Part(
                "push button",
                len(build.buttons),
                "momentary, normally open",
                "Omron B3F-4055 (12 x 12 mm)",
                f"{', '.join(build.buttons)}; each between its pin and ground",
            )
        )
    count, note = magnets(layout)
    rows.append(
        Part(
            "magnet",
            count,
            "N42 neodymium disc, 6 x 3 mm, axially magnetised; the same pole down in every piece",
            "K&J Magnetics D42 (1/4 x 1/8 in, N42)",
            note,
        )
    )
    return rows


def _led_parts(build: Build) -> list[Part]:
    """The LEDs and what powers and drives them."""
    leds, layout = build.leds, build.layout
    if leds.driver == "none":
        return []
    if leds.driver == "ledboard":
        n = len(leds.pins)
        return [
            Part("LED", n, "single colour, 3 or 5 mm", "Kingbright WP7113ID (5 mm red)", ""),
            Part("resistor", n, "330 ohm, 1/4 W", "Yageo CFR-25JB-52-330R", "one per LED"),
        ]
    milliamps = leds.max_milliamps
    amps, fuse = supply_amps(milliamps), fuse_amps(milliamps)
    dice = f", {layout.dice_leds} for the dice's pips (7 a die)" if layout.dice_leds else ""
    mean_well = next((m for a, m in MEAN_WELL if a >= amps), "")
    return [
        Part(
            "LED",
            layout.led_count,
            f"WS2812B, 5 V, 5050 RGB, {leds.order} order, about 60 mA at full white",
            "Worldsemi WS2812B",
            f"{len(layout.points)} under the points{dice}; one chain",
        ),
        Part(
            "level shifter",
            1,
            "74AHCT125 powered at 5 V: its TTL-level inputs take 3.3 V data. Not 74HC: 3.3 V"
            " is below a 74HC's high level at 5 V",
            "TI SN74AHCT125N",
            "LED data through one buffer, its OE to ground; spare inputs to ground",
        ),
        Part(
            "capacitor",
            1,
            "1000 uF electrolytic, 10 V or more",
            "Panasonic EEU-FR1A102",
            "across the LED supply at the chain's start",
        ),
        Part(
            "resistor",
            1,
            "330 ohm, 1/4 W",
            "Yageo CFR-25JB-52-330R",
            "in the LED data line, at the first LED",
        ),
        Part(
            "5 V supply",
            1,
            f"5 V, {amps} A or more: the LED budget of {milliamps} mA ([leds] max_milliamps)"
            f" with {round((HEADROOM - 1) * 100)}% headroom",
            f"Mean Well {mean_well}" if mean_well else "Mean Well LRS series",
            "for the LEDs only; its ground joined to the controller's",
        ),
        Part(
            "fuse",
            1,
            f"{fuse:g} A time-lag (slow-blow), 5 x 20 mm, in a holder",
            f"Bel Fuse 5ST {fuse:g}-R",
            "in the supply's + line, before the capacitor (time-lag: it charges at switch-on)",
        ),
    ]


def cells(part: Part) -> list[str]:
    """A part's row as text, in :data:`COLUMNS` order."""
    return [str(value) for value in astuple(part)]


def to_csv(rows: list[Part]) -> str:
    """The parts as CSV, with a header line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(cells(p) for p in rows)
    return out.getvalue()


def to_markdown(rows: list[Part], title: str = "part") -> str:
    """The parts as a Markdown table; ``title`` heads the first column."""
    lines = [f"| {title} | " + " | ".join(COLUMNS[1:]) + " |", "| --- " * len(COLUMNS) + "|"]
    for p in rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells(p)) + " |")
    return "\n".join(lines) + "\n"
