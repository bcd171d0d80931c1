"""Remote play over mqtts://: a Mosquitto with TLS, a client certificate required and a
password file; a board with the right certificate and password connects and a spectator
with them follows it; a wrong password is one line and the board plays on."""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon.config import Config
from reedboard.daemon.remote.settings import Broker, RemoteSettings
from reedboard.daemon.remote.watch import WatchError, watch
from tests.daemon.remote_rig import MOSQUITTO, Board, free_port, until

GAME = "fox-and-geese-mcloughlin"


def openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)


def certificate(folder: Path, name: str, ip: bool) -> None:
    openssl(
        folder,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        f"{name}.key",
        "-out",
        f"{name}.csr",
        "-subj",
        f"/CN={'127.0.0.1' if ip else name}",
    )
    (folder / f"{name}.ext").write_text("subjectAltName=IP:127.0.0.1\n" if ip else "\n")
    openssl(
        folder,
        "x509",
        "-req",
        "-in",
        f"{name}.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        f"{name}.crt",
        "-days",
        "2",
        "-extfile",
        f"{name}.ext",
    )


@pytest.fixture
def tls_broker(tmp_path: Path) -> Any:
    if not MOSQUITTO.exists() or not shutil.which("openssl"):
        pytest.skip("mosquitto or openssl is not installed (scripts/system-packages.txt)")
    folder = tmp_path / "tls"
    folder.mkdir()
    openssl(
        folder,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=reedboard test CA",
    )
    certificate(folder, "server", True)
    certificate(folder, "board", False)
    subprocess.run(
        ["mosquitto_passwd", "-c", "-b", str(folder / "passwd"), "reedboard", "s3cret"],
        check=True,
        capture_output=True,
    )
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(
        f"user root\nlistener {port} 127.0.0.1\nallow_anonymous false\n"
        f"password_file {folder / 'passwd'}\ncafile {folder / 'ca.crt'}\n"
        f"certfile {folder / 'server.crt'}\nkeyfile {folder / 'server.key'}\n"
        "require_certificate true\npersistence false\n"
    )
    log = (folder / "mosquitto.log").open("wb")
    proc = subprocess.Popen([str(MOSQUITTO), "-c", str(conf)], stdout=log, stderr=log)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            break
        time.sleep(0.05)
    yield port, folder
    proc.kill()
    proc.wait()
    log.close()


def tls_settings(port: int, folder: Path, password: str, seats: tuple[str, ...]) -> RemoteSettings:
    return RemoteSettings(
        broker=Broker("127.0.0.1", port, True),
        match="m1",
        seats=seats,
        username="reedboard",
        password=password,
        cafile=folder / "ca.crt",
        certfile=folder / "board.crt",
        keyfile=folder / "board.key",
        keepalive=2,
    )


def test_a_board_connects_over_tls_with_its_certificate_and_password(
    tls_broker: tuple[int, Path], tmp_path: Path
) -> None:
    port, folder = tls_broker

    async def main() -> None:
        good = Board(
            "a",
            Config(
                game=GAME,
                database=tmp_path / "a.sqlite3",
                remote=tls_settings(port, folder, "s3cret", ("fox",)),
            ),
        )
        bad = Board(
            "b",
            Config(
                game=GAME,
                database=tmp_path / "b.sqlite3",
                remote=tls_settings(port, folder, "wrong", ("geese",)),
            ),
        )
        good.start()
        bad.start()
        try:
            await until(lambda: good.link.connected, "connected over TLS")
            seen: list[str] = []
            await asyncio.wait_for(
                watch(tls_settings(port, folder, "s3cret", ("watch",)), seen.append, 2), 10
            )
            assert "fox: online" in seen or any(s.startswith("fox: 0 plies") for s in seen)
            await until(lambda: bool(bad.said("remote-link")), "the wrong password said")
            assert not bad.link.connected and "playing on here" in bad.said("remote-link")[0]
            assert bad.said("remote-link")[0].count("\n") == 0
            with pytest.raises(WatchError, match=re.escape("broker mqtts://127.0.0.1")):
                await watch(tls_settings(port, folder, "wrong", ("watch",)), seen.append, 1)
        finally:
            for board in (good, bad):
                with contextlib.suppress(Exception):
                    await board.stop()

    asyncio.run(main())
