"""``reedboard doctor`` off a Pi: each check a line with what to do, on a machine made to look
like a Pi (its model file, no SPI device, no udev rule, a vcgencmd that reports under-voltage)
and on this one."""

from __future__ import annotations

import io
import os
import threading
import tty
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from reedboard.bridge.firmware.wire import VERSION, frame
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.cli.doctor import Finding, Machine, diagnose
from reedboard.cli.main import main
from reedboard.daemon.config import Config
from reedboard.wiring.build import load_build


def _pi(tmp_path: Path, throttled: str) -> Machine:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    tool = tmp_path / "vcgencmd"  # (no library gives a vcgencmd: a two-line stand-in)
    tool.write_text(f"#!/bin/sh\necho throttled={throttled}\n")
    tool.chmod(0o755)
    return Machine(
        model=model, udev=tmp_path / "rules.d", spidev=str(tmp_path / "spidev*"), vcgencmd=str(tool)
    )


def test_a_pi_without_spi_under_voltage_and_no_udev_rule_is_told_what_to_do(
    tmp_path: Path,
) -> None:
    config = Config(build="pi-cross33", database=tmp_path / "games.sqlite3")
    said = {f.text.split(":")[0]: f for f in diagnose(config, _pi(tmp_path, "0x50005"))}
    assert said["Raspberry Pi 4 Model B Rev 1.5"].status == "ok"
    assert said["SPI is off (the LEDs need it)"].status == "fail"
    assert said["power"].status == "fail" and "under-voltage now" in said["power"].text
    leds = load_build("pi-cross33").layout.led_count  # the points' LEDs and the dice's
    assert said["LEDs"].status == "ok" and f"{leds} draw up to {leds * 60} mA" in said["LEDs"].text
    (tmp_path / "spidev0.0").touch()
    pico = replace(config, build="pico-cross33")
    found = {f.text.split(":")[0]: f for f in diagnose(pico, _pi(tmp_path, "0x50000"))}
    assert found["power"].status == "warn"  # it happened since boot, not now
    assert found["udev"].status == "warn" and "99-reedboard-pico.rules" in found["udev"].text
    (tmp_path / "rules.d").mkdir()
    (tmp_path / "rules.d" / "99-reedboard-pico.rules").touch()
    again = {f.text.split(":")[0]: f for f in diagnose(pico, _pi(tmp_path, "0x0"))}
    assert again["udev"].status == "ok" and again["power"].status == "ok"


def test_off_a_pi_it_says_what_it_could_not_check_and_a_store_it_cannot_write_fails(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    config_file = tmp_path / "reedboard.toml"
    config_file.write_text(f'database = "{blocker}/games.sqlite3"\n')
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["doctor", "--config", str(config_file)])
    lines = out.getvalue().splitlines()
    assert code == 1
    assert all(line.split(":")[0] in ("ok", "warn", "fail", "unchecked") for line in lines)
    assert any(line.startswith("unchecked: not a Raspberry Pi") for line in lines) or any(
        "Raspberry Pi" in line for line in lines
    )
    assert any(line.startswith("fail: the game store:") for line in lines)


def test_a_game_the_builds_board_does_not_play_fails_naming_the_game_build_and_its_games(
    tmp_path: Path,
) -> None:
    config_file = tmp_path / "reedboard.toml"
    config_file.write_text(
        f'game = "skip"\nbuild = "pi-cross33"\ndatabase = "{tmp_path}/games.sqlite3"\n'
    )
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["doctor", "--config", str(config_file)])
    games = load_build("pi-cross33").layout.games
    line = next(x for x in out.getvalue().splitlines() if x.startswith("fail: game:"))
    assert code == 1
    assert f"build pi-cross33 does not play skip (it plays {', '.join(games)})" in line
    assert f'set game = "{games[0]}" in {config_file}' in line
    fine = Config(game=games[0], build="pi-cross33", database=tmp_path / "games.sqlite3")
    said = {f.text.split(":")[0]: f for f in diagnose(fine, Machine(model=tmp_path / "none"))}
    assert said["game"].status == "ok"


def _pico_on(tmp_path: Path, port: str, seconds: float = 3.0) -> Finding:
    """What doctor says of pico-cross33 with its ``[serial] port`` on ``port``."""
    shipped = load_build("pico-cross33").path.read_text()
    build = tmp_path / "pico-here.toml"
    build.write_text(shipped.replace('port = "/dev/reedboard-pico"', f'port = "{port}"'))
    config = Config(build=str(build), database=tmp_path / "games.sqlite3")
    machine = Machine(model=tmp_path / "none", pico_seconds=seconds)
    return {f.text.split(":")[0]: f for f in diagnose(config, machine)}["pico"]


def test_the_picos_firmware_answering_on_its_port_is_named_with_its_protocol(
    tmp_path: Path,
) -> None:
    layout = load_build("pico-cross33").layout
    fw = Firmware("micropython", layout.matrix[0] * layout.matrix[1], layout.led_count)
    try:
        found = _pico_on(tmp_path, fw.port)
    finally:
        fw.close()
    assert str(found) == f"ok: pico: firmware {VERSION} on {fw.port}"
    pi = Config(build="pi-cross33", database=tmp_path / "games.sqlite3")
    said = {f.text.split(":")[0]: f for f in diagnose(pi, Machine(model=tmp_path / "none"))}
    assert str(said["pico"]) == "ok: pico: none in this build"


@pytest.mark.error_logs  # the link logs its refusal
def test_a_firmware_of_another_protocol_fails_with_the_install_command(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)

    def pico() -> None:  # an rb2 firmware: it answers the Pi's hello with its own
        try:
            while b"V" not in os.read(master, 4096):
                pass
            os.write(master, frame("H rb2 36 47 00 ff"))
        except OSError:
            pass

    threading.Thread(target=pico, daemon=True).start()
    try:
        found = _pico_on(tmp_path, os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert found.status == "fail"
    assert f"runs firmware for link protocol rb2, this reedboard speaks {VERSION}" in found.text
    assert found.text.endswith("(reedboard firmware install pico-here)")


def test_a_silent_port_warns_that_the_firmware_may_not_be_installed(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    try:
        found = _pico_on(tmp_path, port, seconds=0.5)
    finally:
        os.close(master)
        os.close(slave)
    assert str(found) == (
        f"warn: pico: no answer on {port} in 0.5 s: is the firmware installed?"
        " (reedboard firmware install pico-here)"
    )


def test_a_missing_port_warns_to_plug_the_pico_in_and_install_the_udev_rule(
    tmp_path: Path,
) -> None:
    port = tmp_path / "reedboard-pico"
    found = _pico_on(tmp_path, str(port))
    assert str(found) == (
        f"warn: pico: {port} is missing: is the Pico plugged in, and the udev rule installed?"
    )


def test_a_pico_port_another_reader_holds_is_said_busy_not_shared(tmp_path: Path) -> None:
    # the daemon holds the Pico's port (it opens it exclusively): doctor does not read beside it
    import serial

    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    held = serial.serial_for_url(port, timeout=0.2, exclusive=True)
    try:
        found = _pico_on(tmp_path, port, seconds=0.5)
    finally:
        held.close()
        os.close(master)
        os.close(slave)
    assert str(found) == f"unchecked: pico: {port} is busy (the daemon holds it?)"
