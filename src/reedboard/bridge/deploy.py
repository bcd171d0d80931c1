"""Putting the firmware on a Pico: its config.json from a build, and the mpremote commands
that copy it over (``reedboard firmware config|install``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from reedboard.bridge.firmware.wire import BUTTONS
from reedboard.wiring.build import Build

FIRMWARE = Path(__file__).parent / "firmware"
FILES = ("wire.py", "core.py", "hal.py", "main.py")


def _gp(pin: str) -> int:
    return int(pin[2:])


def pico_config(build: Build) -> dict[str, Any]:
    """What main.py reads on the Pico: pins as GP numbers, the matrix, the chain."""
    if build.driver != "pico":
        raise ValueError(f"build {build.name} is not a Pico build (driver {build.driver!r})")
    layout = build.layout
    rows, cols = layout.matrix
    assert build.leds.pin is not None
    return {
        "build": build.name,
        "points": rows * cols,
        "leds": layout.led_count,
        "rows": [_gp(p) for p in build.matrix.rows],
        "cols": [_gp(p) for p in build.matrix.cols],
        "switches": sorted(p.row * cols + p.col for p in layout.points.values()),
        "buttons": [_gp(build.buttons[b]) if b in build.buttons else None for b in BUTTONS],
        "led_pin": _gp(build.leds.pin),
        "active_low": build.matrix.active_low,
        "scan_hz": build.matrix.scan_hz,
        "stable_ms": build.matrix.stable_ms,
        "order": build.leds.order,
    }


def install_commands(port: str, config_path: Path) -> list[list[str]]:
    """The mpremote commands that copy the firmware and its config, then restart the Pico."""
    sources = [str(FIRMWARE / f) for f in FILES] + [str(config_path)]
    return [
        ["mpremote", "connect", port, "fs", "cp", *sources, ":"],
        ["mpremote", "connect", port, "reset"],
    ]


def install(build: Build, port: str, workdir: Path, *, dry_run: bool = False) -> list[str]:
    """Write config.json into ``workdir`` and run (or, dry, only list) the mpremote commands."""
    config_path = workdir / "config.json"
    config_path.write_text(json.dumps(pico_config(build), indent=1) + "\n")
    commands = install_commands(port, config_path)
    lines = [" ".join(c) for c in commands]
    if dry_run:
        return lines
    if shutil.which("mpremote") is None:
        raise FileNotFoundError(
            "mpremote is not installed: pip install mpremote (it comes with reedboard[pi])"
        )
    for command in commands:
        subprocess.run(command, check=True)
    return lines
