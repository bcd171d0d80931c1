"""Builds: how one physical board is wired, as a TOML file in ``reedboard/wiring/builds/``.

A build names its layout and its driver: ``gpio`` (the Pi's own pins through gpiozero) or
``pico`` (a Pico running the firmware bridge). It gives the matrix's row and column pins,
the buttons' pins and the LED driver. The loader checks everything a soldering iron can get
wrong on paper: unknown pins, a pin used twice, a pin an enabled interface needs, a matrix
that does not match the layout, an LED chain that does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard.wiring.layout import Layout, load_layout
from reedboard.wiring.pins import ALWAYS_RESERVED, INTERFACE_PINS, SPI_MOSI, pi_gpio, pico_gpio
from reedboard.wiring.tomlfile import TomlFile, WiringError, find, resolve

BUILDS = Path(__file__).parent / "builds"
BUTTON_NAMES = ("roll", "undo", "hint", "confirm", "new")
LED_DRIVERS = {"gpio": ("ws2812-spi", "ledboard", "none"), "pico": ("ws2812", "none")}


@dataclass(frozen=True)
class MatrixConfig:
    rows: tuple[str, ...]
    """Row lines, driven one at a time; matrix row 0 first."""
    cols: tuple[str, ...]
    """Column lines, read (pulled to the idle level)."""
    active_low: bool = True
    """True: a selected row is driven low and a closed switch reads low (pull-ups)."""
    scan_hz: float = 100.0
    stable_ms: float = 5.0
    """A change is reported only after it has been stable this long."""


@dataclass(frozen=True)
class LedConfig:
    driver: str
    brightness: float = 0.5
    """0-1, applied to every colour."""
    max_milliamps: int = 2000
    """The supply's budget for the LEDs: frames that would draw more are dimmed to fit."""
    order: str = "GRB"
    """The byte order the LED chips expect."""
    spi_bus: int = 0
    spi_device: int = 0
    pin: str | None = None
    """The data pin (Pico)."""
    pins: tuple[str, ...] = ()
    """One pin per LED index (ledboard)."""


@dataclass(frozen=True)
class Build:
    name: str
    path: Path
    layout: Layout
    driver: str
    matrix: MatrixConfig
    buttons: dict[str, str]
    bounce_ms: float
    leds: LedConfig
    serial_port: str | None = None
    interfaces: tuple[str, ...] = ()
    pins: dict[str, str] = field(default_factory=dict)
    """Canonical pin name → what uses it (``matrix.rows[0]``), for diagrams and docs."""


def available() -> list[str]:
    return sorted(p.stem for p in BUILDS.glob("*.toml"))


def load_build(name_or_path: str | Path) -> Build:
    """A shipped build by name (``pi-cross33``) or any build file by path."""
    return _Loader(find(BUILDS, name_or_path, "build")).build()


class _Loader(TomlFile):
    def build(self) -> Build:
        d = self.data
        self.no_unknown(d, ("layout", "driver", "pi", "serial", "matrix", "buttons", "leds"), "")
        layout_name = self.need("layout", str)
        if layout_name.endswith(".toml"):  # a layout file of the builder's own, beside the build
            layout_name = str(resolve(self.path.parent, layout_name))
        try:
            layout = load_layout(layout_name)
        except WiringError as exc:
            raise self.fail("layout", str(exc)) from None
        driver = self.need("driver", str)
        if driver not in LED_DRIVERS:
            raise self.fail("driver", f"{driver!r} is not gpio or pico")
        self.driver = driver
        self.used: dict[int, str] = {}
        self.canonical: dict[str, str] = {}

        pi = self.table("pi", required=False)
        self.no_unknown(pi, ("interfaces",), "pi")
        default = ["i2c", "uart"] if driver == "gpio" else []
        interfaces = tuple(self.get("interfaces", list, default, pi, "pi.interfaces"))
        for name in interfaces:
            if name not in INTERFACE_PINS:
                raise self.fail("pi.interfaces", f"unknown interface {name!r} (spi, i2c, uart)")

        leds = self.leds(layout)
        if driver == "gpio" and leds.driver == "ws2812-spi" and "spi" not in interfaces:
            interfaces = (*interfaces, "spi")
        self.reserved: dict[int, str] = dict(ALWAYS_RESERVED) if driver == "gpio" else {}
        if driver == "gpio":
            for name in interfaces:
                for bcm, what in INTERFACE_PINS[name].items():
                    why = (
                        "which the SPI LED driver uses"
                        if name == "spi" and leds.driver == "ws2812-spi"
                        else f"and {name.upper()} is on (pi.interfaces)"
                    )
                    self.reserved[bcm] = f"{what}, {why}"
            if leds.driver == "ws2812-spi":
                self.used[SPI_MOSI] = "leds (SPI0 MOSI)"

        matrix = self.matrix(layout)
        buttons, bounce = self.buttons()
        if leds.driver == "ledboard":
            pins = tuple(self.pin(f"leds.pins[{i}]", p) for i, p in enumerate(leds.pins))
            leds = LedConfig(**{**leds.__dict__, "pins": pins})
        if leds.pin is not None:
            leds = LedConfig(**{**leds.__dict__, "pin": self.pin("leds.pin", leds.pin)})

        serial = self.table("serial", required=False)
        self.no_unknown(serial, ("port",), "serial")
        port = self.get("port", str, None, serial, "serial.port")
        if driver == "pico" and port is None:
            port = "/dev/reedboard-pico"
        return Build(
            name=self.path.stem,
            path=self.path,
            layout=layout,
            driver=driver,
            matrix=matrix,
            buttons=buttons,
            bounce_ms=bounce,
            leds=leds,
            serial_port=port,
            interfaces=interfaces,
            pins=dict(self.canonical),
        )

    def pin(self, key: str, name: object) -> str:
        """Check one pin and claim it for ``key``; returns its canonical name."""
        if self.driver == "gpio":
            number = pi_gpio(name)
            if number is None:
                raise self.fail(key, f"{name!r} is not a Raspberry Pi GPIO pin")
            canonical = f"GPIO{number}"
            if number in self.reserved:
                raise self.fail(key, f"{canonical} is {self.reserved[number]}")
        else:
            number = pico_gpio(name)
            if number is None:
                raise self.fail(key, f"{name!r} is not a Pico GP pin (GP0-GP22, GP26-GP28)")
            canonical = f"GP{number}"
        if number in self.used:
            raise self.fail(key, f"{canonical} is also {self.used[number]}")
        self.used[number] = key
        self.canonical[canonical] = key
        return canonical

    def matrix(self, layout: Layout) -> MatrixConfig:
        m = self.table("matrix")
        self.no_unknown(m, ("rows", "cols", "active_low", "scan_hz", "stable_ms"), "matrix")
        rows = self.need("rows", list, m, "matrix.rows")
        cols = self.need("cols", list, m, "matrix.cols")
        want_rows, want_cols = layout.matrix
        if len(rows) != want_rows:
            raise self.fail(
                "matrix.rows", f"{len(rows)} pins, layout {layout.name} has {want_rows} rows"
            )
        if len(cols) != want_cols:
            raise self.fail(
                "matrix.cols", f"{len(cols)} pins, layout {layout.name} has {want_cols} columns"
            )
        row_pins = tuple(self.pin(f"matrix.rows[{i}]", p) for i, p in enumerate(rows))
        col_pins = tuple(self.pin(f"matrix.cols[{i}]", p) for i, p in enumerate(cols))
        scan_hz = float(self.get("scan_hz", float, 100.0, m, "matrix.scan_hz"))
        stable_ms = float(self.get("stable_ms", float, 5.0, m, "matrix.stable_ms"))
        if not 1 <= scan_hz <= 5000:
            raise self.fail("matrix.scan_hz", f"{scan_hz} is outside 1-5000")
        if not 0 <= stable_ms <= 1000:
            raise self.fail("matrix.stable_ms", f"{stable_ms} is outside 0-1000")
        active_low = self.get("active_low", bool, True, m, "matrix.active_low")
        return MatrixConfig(row_pins, col_pins, active_low, scan_hz, stable_ms)

    def buttons(self) -> tuple[dict[str, str], float]:
        b = self.table("buttons")
        self.no_unknown(b, (*BUTTON_NAMES, "bounce_ms"), "buttons")
        pins: dict[str, str] = {}
        for name in BUTTON_NAMES:
            if name in b:
                pins[name] = self.pin(f"buttons.{name}", b[name])
            elif name != "new":
                raise self.fail(
                    f"buttons.{name}", "missing (roll, undo, hint and confirm are needed)"
                )
        bounce = float(self.get("bounce_ms", float, 20.0, b, "buttons.bounce_ms"))
        return pins, bounce

    def leds(self, layout: Layout) -> LedConfig:
        t = self.table("leds")
        known = (
            "driver",
            "brightness",
            "max_milliamps",
            "order",
            "spi_bus",
            "spi_device",
            "pin",
            "pins",
        )
        self.no_unknown(t, known, "leds")
        driver = self.need("driver", str, t, "leds.driver")
        if driver not in LED_DRIVERS[self.driver]:
            allowed = ", ".join(LED_DRIVERS[self.driver])
            raise self.fail(
                "leds.driver", f"{driver!r} does not go with driver {self.driver!r} ({allowed})"
            )
        brightness = float(self.get("brightness", float, 0.5, t, "leds.brightness"))
        if not 0 < brightness <= 1:
            raise self.fail("leds.brightness", f"{brightness} is outside 0-1")
        milliamps = self.get("max_milliamps", int, 2000, t, "leds.max_milliamps")
        if milliamps <= 0:
            raise self.fail("leds.max_milliamps", f"{milliamps} must be above 0")
        order = self.get("order", str, "GRB", t, "leds.order")
        if sorted(order) != ["B", "G", "R"]:
            raise self.fail("leds.order", f"{order!r} is not an order of R, G and B")
        pins: tuple[Any, ...] = ()
        if driver == "ledboard":
            pins = tuple(self.need("pins", list, t, "leds.pins"))
            points = len(layout.points)
            if len(pins) not in (points, layout.led_count):
                raise self.fail(
                    "leds.pins",
                    f"{len(pins)} pins leave LED indices out of range: layout {layout.name} has"
                    f" {points} point LEDs (and {layout.dice_leds} dice LEDs); give {points}"
                    f" or {layout.led_count} pins",
                )
        pin = self.get("pin", str, None, t, "leds.pin")
        if driver == "ws2812" and pin is None:
            raise self.fail("leds.pin", "missing (the Pico pin driving the LED chain)")
        return LedConfig(
            driver,
            brightness,
            milliamps,
            order,
            self.get("spi_bus", int, 0, t, "leds.spi_bus"),
            self.get("spi_device", int, 0, t, "leds.spi_device"),
            pin,
            pins,
        )
