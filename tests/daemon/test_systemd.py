"""The daemon under systemd: READY, STATUS and WATCHDOG reach a real notify socket; the unit
file and the example config hold together."""

from __future__ import annotations

import asyncio
import configparser
import socket
from pathlib import Path

import pytest

from reedboard.daemon.config import Config, load_config
from reedboard.daemon.core import Daemon

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_ready_and_watchdog_reach_the_notify_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(sock_path))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # ping every 0.1 s
    daemon = Daemon(Config(game="solitaire", database=tmp_path / "g.db"), out=lambda _t: None)

    async def scenario() -> list[str]:
        task = asyncio.create_task(daemon.run())
        got: list[str] = []
        loop = asyncio.get_running_loop()
        while sum(m == "WATCHDOG=1" for m in got) < 2:
            data = await loop.run_in_executor(None, sock.recv, 1024)
            got.append(data.decode())
        daemon.stop.set()
        await asyncio.wait_for(task, 5)
        got.append((await loop.run_in_executor(None, sock.recv, 1024)).decode())
        return got

    try:
        messages = asyncio.run(scenario())
    finally:
        sock.close()
    assert messages[0] == "READY=1"
    assert messages[1] == "STATUS=playing solitaire"
    assert messages.count("WATCHDOG=1") >= 2
    assert messages[-1] == "STOPPING=1"


def test_the_unit_is_a_notify_service_with_a_watchdog_and_an_unprivileged_user() -> None:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.read(DEPLOY / "reedboard.service")
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["User"] == "reedboard" != "root"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "dialout"}
    assert "reedboard run --config /etc/reedboard/reedboard.toml" in service["ExecStart"]


def test_the_example_config_loads() -> None:
    config = load_config(DEPLOY / "reedboard.toml")
    assert config.build == "pi-cross33" and config.game == "fox-and-geese"
    assert str(config.database) == "/var/lib/reedboard/games.sqlite3"
