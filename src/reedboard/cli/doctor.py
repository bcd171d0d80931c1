"""``reedboard doctor``: what stands between this machine and a working board, a line each with
what to do. On a machine that is not a Raspberry Pi it says what it could not check.

Each check is a small function of the config (and of where the system keeps things, so a test
can point it elsewhere) returning one :class:`Finding`."""

from __future__ import annotations

import argparse
import errno
import glob
import grp
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reedboard.cli.output import say

MODEL = Path("/proc/device-tree/model")
UDEV = Path("/etc/udev/rules.d")
WS2812_MA = 60
"""What one WS2812 draws at full white (20 mA a colour)."""


@dataclass(frozen=True)
class Finding:
    status: str
    """``ok``, ``warn``, ``fail`` (the board will not work as it stands) or ``unchecked``."""
    text: str

    def __str__(self) -> str:
        return f"{self.status}: {self.text}"


@dataclass(frozen=True)
class Machine:
    """Where the checks look (a test points them at its own folders)."""

    model: Path = MODEL
    udev: Path = UDEV
    spidev: str = "/dev/spidev*"
    vcgencmd: str | None = None
    pico_seconds: float = 3.0
    """How long the Pico's firmware has to say hello."""

    def pi_model(self) -> str | None:
        try:
            return self.model.read_bytes()[:200].decode("ascii", "replace").strip("\0 \n")
        except OSError:
            return None


def check_pi(config: Any, machine: Machine) -> Finding:
    model = machine.pi_model()
    if model is None or "Raspberry Pi" not in model:
        return Finding(
            "unchecked", "not a Raspberry Pi: SPI, groups and power are not checked here"
        )
    return Finding("ok", model)


def check_spi(config: Any, machine: Machine) -> Finding:
    if machine.pi_model() is None:
        return Finding("unchecked", "SPI: not a Raspberry Pi")
    build = _build(config)
    if build is None or build.leds.driver != "ws2812-spi":
        return Finding("ok", "SPI: not used by this build")
    if glob.glob(machine.spidev):
        return Finding("ok", "SPI is on")
    return Finding(
        "fail",
        "SPI is off (the LEDs need it): sudo raspi-config nonint do_spi 0, or dtparam=spi=on in"
        " /boot/firmware/config.txt, then reboot",
    )


def check_groups(config: Any, machine: Machine) -> Finding:
    if os.geteuid() == 0:
        return Finding("ok", "groups: running as root")
    mine = {grp.getgrgid(g).gr_name for g in os.getgroups()}
    wanted = [g for g in ("gpio", "spi", "dialout") if _group_exists(g)]
    missing = [g for g in wanted if g not in mine]
    if not missing:
        return Finding("ok", f"groups: {', '.join(wanted) or 'none needed here'}")
    return Finding(
        "warn",
        f"this user is not in {', '.join(missing)}: sudo usermod -aG {','.join(missing)}"
        f" {os.environ.get('USER', '$USER')}, then log in again",
    )


def check_udev(config: Any, machine: Machine) -> Finding:
    build = _build(config)
    if build is None or build.driver != "pico":
        return Finding("ok", "udev: no Pico in this build")
    if machine.udev.is_dir() and any(machine.udev.glob("*reedboard*")):
        return Finding("ok", "udev: the Pico's rule is installed")
    return Finding(
        "warn",
        f"udev: no reedboard rule in {machine.udev}: sudo cp deploy/99-reedboard-pico.rules"
        f" {machine.udev}/ && sudo udevadm control --reload (the Pico then has a fixed name)",
    )


def check_pico(config: Any, machine: Machine) -> Finding:
    build = _build(config)
    if build is None or build.driver != "pico":
        return Finding("ok", "pico: none in this build")
    from reedboard.bridge.firmware.wire import VERSION
    from reedboard.bridge.handshake import refusal
    from reedboard.bridge.link import PicoBoard
    from reedboard.daemon.core import board_for
    from reedboard.hardware.board_io import BoardError

    port = build.serial_port
    install = f"reedboard firmware install {build.name}"
    if port.startswith("/") and not os.path.exists(port):
        return Finding(
            "warn", f"pico: {port} is missing: is the Pico plugged in, and the udev rule installed?"
        )
    try:
        board = board_for(build)  # as the daemon and `wiring check` open it
    except BoardError as exc:
        if any(os.strerror(code) in str(exc) for code in (errno.EBUSY, errno.EAGAIN)):
            return Finding("unchecked", f"pico: {port} is busy (the daemon holds it?)")
        return Finding("warn", f"pico: {exc}")
    assert isinstance(board, PicoBoard)
    with board:
        deadline = time.monotonic() + machine.pico_seconds
        while board.version is None and time.monotonic() < deadline:
            time.sleep(0.02)  # the link asks for the hello; its reader thread takes it
        version = board.version
    if version is None:
        return Finding(
            "warn",
            f"pico: no answer on {port} in {machine.pico_seconds:g} s: is the firmware installed?"
            f" ({install})",
        )
    if version != VERSION:
        return Finding("fail", f"pico: {refusal(version, port, build.name)}")
    return Finding("ok", f"pico: firmware {version} on {port}")


def check_power(config: Any, machine: Machine) -> Finding:
    tool = machine.vcgencmd or shutil.which("vcgencmd")
    if tool is None:
        return Finding("unchecked", "power: no vcgencmd here (it is on Raspberry Pi OS)")
    try:
        done = subprocess.run(
            [tool, "get_throttled"], capture_output=True, text=True, timeout=5, check=False
        )
        value = int(done.stdout.strip().rpartition("=")[2], 16)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        return Finding("unchecked", f"power: vcgencmd get_throttled gave no answer ({exc})")
    if value & 0x1:
        return Finding(
            "fail", "power: under-voltage now: use a 5.1 V 3 A (Pi 4) or 5 A (Pi 5) supply"
        )
    if value & 0x10000:
        return Finding("warn", "power: under-voltage happened since boot: check the supply")
    return Finding("ok", "power: no under-voltage since boot")


def check_game(config: Any, machine: Machine) -> Finding:
    build = _build(config)
    if build is None:
        return Finding("ok", f"game: {config.game} on the simulated board")
    games = build.layout.games
    if config.game in games:
        return Finding("ok", f"game: build {build.name} plays {config.game}")
    where = getattr(config, "path", None) or "the config"
    return Finding(
        "fail",
        f"game: build {build.name} does not play {config.game} (it plays {', '.join(games)}):"
        f' set game = "{games[0]}" in {where}, or a build whose board plays {config.game}',
    )


def check_leds(config: Any, machine: Machine) -> Finding:
    build = _build(config)
    if build is None:
        return Finding("ok", "LEDs: the simulated board")
    count = build.layout.led_count
    full = count * WS2812_MA
    cap = build.leds.max_milliamps
    text = (
        f"LEDs: {count} draw up to {full} mA at full white; the build caps them at {cap} mA"
        f" (brightness {build.leds.brightness:g})"
    )
    if cap > 4000:
        return Finding("warn", text + ": more than a 5 V 4 A supply gives beside the Pi")
    return Finding("ok", text)


def check_store(config: Any, machine: Machine) -> Finding:
    from reedboard.store.games import StoreError, check_path

    try:
        check_path(config.database)
    except StoreError as exc:
        return Finding("fail", f"the game store: {exc}")
    return Finding("ok", f"the game store: {config.database} can be written")


def check_cache(config: Any, machine: Machine) -> Finding:
    from reedboard.referee.solved import cache_dir

    folder = cache_dir()
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.is_dir() and os.access(probe, os.W_OK | os.X_OK):
        return Finding("ok", f"the solver's cache: {folder} can be written")
    return Finding(
        "warn",
        f"the solver's cache: {folder} cannot be made or written: Solitaire's hints will be a"
        " bounded search (set XDG_CACHE_HOME to a folder that can be)",
    )


CHECKS: tuple[Callable[[Any, Machine], Finding], ...] = (
    check_pi,
    check_spi,
    check_groups,
    check_udev,
    check_pico,
    check_power,
    check_game,
    check_leds,
    check_store,
    check_cache,
)


def diagnose(config: Any, machine: Machine | None = None) -> list[Finding]:
    machine = machine or Machine()
    out = []
    for check in CHECKS:
        try:
            out.append(check(config, machine))
        except Exception as exc:  # a check that fails is a line, never the end of the rest
            out.append(Finding("warn", f"{check.__name__.removeprefix('check_')}: {exc}"))
    return out


def cmd_doctor(args: argparse.Namespace) -> int:
    from reedboard.daemon.config import Config, load_config

    config = load_config(args.config) if args.config else Config()
    findings = diagnose(config)
    for finding in findings:
        say(str(finding))
    return 1 if any(f.status == "fail" for f in findings) else 0


def _build(config: Any) -> Any:
    if not getattr(config, "build", None):
        return None
    from reedboard.wiring.build import load_build

    return load_build(config.build)


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True
