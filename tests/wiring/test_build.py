"""Build files: the shipped builds load, and every wiring mistake is one line naming the file,
the line, the key and what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from reedboard.wiring.build import available, load_build
from reedboard.wiring.tomlfile import WiringError


def test_the_shipped_builds_load() -> None:
    assert {"pi-cross33", "pico-brier9", "pico-cross33"} <= set(available())
    pi = load_build("pi-cross33")
    assert pi.driver == "gpio" and pi.layout.name == "cross33"
    assert pi.matrix.rows[0] == "GPIO4" and len(pi.matrix.cols) == 6
    assert pi.buttons["roll"] == "GPIO19"
    assert "spi" in pi.interfaces  # the SPI LED driver turns SPI on
    brier = load_build("pico-brier9")
    assert brier.serial_port == "/dev/reedboard-pico" and brier.leds.pin == "GP22"
    assert brier.interfaces == ()


def test_pin_names_are_made_canonical(tmp_path: Path) -> None:
    path = Path(load_build("pi-cross33").path)
    text = path.read_text().replace('"GPIO4"', '"BOARD7"').replace('"GPIO5"', '"J8:29"')
    assert load_build(_write(tmp_path, text)).matrix.rows[:2] == ("GPIO4", "GPIO5")


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "edited.toml"
    path.write_text(text)
    return path


def edited(tmp_path: Path, build: str, old: str, new: str) -> Path:
    text = load_build(build).path.read_text()
    assert old in text, old
    return _write(tmp_path, text.replace(old, new, 1))


CASES = [
    # build, old, new, key, what, the text on the line named
    (
        "pi-cross33",
        'undo = "GPIO20"',
        'undo = "GPIO19"',
        "buttons.undo",
        "GPIO19 is also buttons.roll",
        'undo = "GPIO19"',
    ),
    (
        "pi-cross33",
        'hint = "GPIO21"',
        'hint = "BCM4"',
        "buttons.hint",
        "GPIO4 is also matrix.rows[0]",
        'hint = "BCM4"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO10"',
        "buttons.roll",
        "GPIO10 is SPI0 MOSI, which the SPI LED driver uses",
        'roll = "GPIO10"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO8"',
        "buttons.roll",
        "GPIO8 is SPI0 CE0, which the SPI LED driver uses",
        'roll = "GPIO8"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO2"',
        "buttons.roll",
        "GPIO2 is I2C1 SDA, and I2C is on (pi.interfaces)",
        'roll = "GPIO2"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO15"',
        "buttons.roll",
        "GPIO15 is UART RXD, and UART is on (pi.interfaces)",
        'roll = "GPIO15"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO0"',
        "buttons.roll",
        "GPIO0 is the HAT ID EEPROM's ID_SD",
        'roll = "GPIO0"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "GPIO41"',
        "buttons.roll",
        "'GPIO41' is not a Raspberry Pi GPIO pin",
        'roll = "GPIO41"',
    ),
    (
        "pi-cross33",
        'roll = "GPIO19"',
        'roll = "BOARD6"',
        "buttons.roll",
        "'BOARD6' is not a Raspberry Pi GPIO pin",
        'roll = "BOARD6"',
    ),
    (
        "pi-cross33",
        '"GPIO25", "GPIO27"]',
        '"GPIO25"]',
        "matrix.cols",
        "5 pins, layout cross33 has 6 columns",
        "cols =",
    ),
    (
        "pi-cross33",
        'hint = "GPIO21"\n',
        "",
        "buttons.hint",
        "missing (roll, undo, hint and confirm are needed)",
        "[buttons]",
    ),
    (
        "pi-cross33",
        'layout = "cross33"',
        'layout = "hex37"',
        "layout",
        "no layout 'hex37'",
        'layout = "hex37"',
    ),
    (
        "pi-cross33",
        'driver = "ws2812-spi"',
        'driver = "ws2812"',
        "leds.driver",
        "'ws2812' does not go with driver 'gpio'",
        'driver = "ws2812"',
    ),
    (
        "pi-cross33",
        "brightness = 0.4",
        "brightness = 1.5",
        "leds.brightness",
        "1.5 is outside 0-1",
        "brightness =",
    ),
    ("pi-cross33", "scan_hz = 100", "scan_hz = 0", "matrix.scan_hz", "outside 1-5000", "scan_hz ="),
    (
        "pi-cross33",
        "scan_hz = 100",
        'scan_hz = "fast"',
        "matrix.scan_hz",
        "expected a number, got 'fast'",
        "scan_hz =",
    ),
    (
        "pi-cross33",
        "active_low = true",
        "active_low = true\nspeed = 3",
        "matrix.speed",
        "unknown key",
        "speed =",
    ),
    (
        "pi-cross33",
        'order = "GRB"',
        'order = "GRW"',
        "leds.order",
        "'GRW' is not an order of R, G and B",
        "order =",
    ),
    (
        "pico-brier9",
        'roll = "GP18"',
        'roll = "GP25"',
        "buttons.roll",
        "'GP25' is not a Pico GP pin",
        'roll = "GP25"',
    ),
    (
        "pico-brier9",
        'pin = "GP22"',
        'pin = "GP0"',
        "leds.pin",
        "GP0 is also matrix.rows[0]",
        'pin = "GP0"',
    ),
    ("pico-brier9", 'pin = "GP22"\n', "", "leds.pin", "missing", "[leds]"),
]


@pytest.mark.parametrize(("build", "old", "new", "key", "what", "line_text"), CASES)
def test_wiring_mistakes_are_one_line_naming_file_line_and_key(
    tmp_path: Path, build: str, old: str, new: str, key: str, what: str, line_text: str | None
) -> None:
    path = edited(tmp_path, build, old, new)
    with pytest.raises(WiringError) as err:
        load_build(path)
    message = str(err.value)
    assert "\n" not in message
    if line_text is None:
        assert message.startswith(f"{path}: {key}: "), message
    else:
        lines = path.read_text().splitlines()
        line = next(n for n, text in enumerate(lines, 1) if line_text in text)
        assert message.startswith(f"{path}:{line}: {key}: "), message
    assert what in message, message


def test_spi_pins_are_free_without_the_spi_led_driver(tmp_path: Path) -> None:
    path = edited(tmp_path, "pi-cross33", 'driver = "ws2812-spi"', 'driver = "none"')
    text = path.read_text().replace('roll = "GPIO19"', 'roll = "GPIO10"')
    path.write_text(text)
    assert load_build(path).buttons["roll"] == "GPIO10"


def test_ledboard_needs_one_pin_per_point(tmp_path: Path) -> None:
    path = edited(
        tmp_path, "pi-cross33", 'driver = "ws2812-spi"', 'driver = "ledboard"\npins = ["GPIO7"]'
    )
    with pytest.raises(WiringError, match="1 pins leave LED indices out of range"):
        load_build(path)


def test_unknown_build_lists_the_shipped_ones() -> None:
    with pytest.raises(WiringError, match=r"no build 'pi-hex' \(builds: pi-cross33, "):
        load_build("pi-hex")


def test_an_installed_reedboard_has_every_shipped_build_and_layout() -> None:
    """`pip install .` (not -e) on a Pi installs the package data pyproject.toml names: every
    shipped build and layout must be in it, or `build = "pi-cross33"` is "no build"."""
    import tomllib
    from fnmatch import fnmatch

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["reedboard.wiring"]
    wiring = root / "src" / "reedboard" / "wiring"
    shipped = [p.relative_to(wiring).as_posix() for p in wiring.glob("*/*.toml")]
    assert shipped
    for name in shipped:
        assert any(fnmatch(name, pattern) for pattern in patterns), name
