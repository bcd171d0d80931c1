"""The daemon's extensions: opened before the game starts, started once it has, stopped in
reverse; a button one takes never reaches the session; each hears every turn of the loop; one
that fails to stop stops no other."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.daemon.extension import Extension, Host
from reedboard.hardware.board_io import BoardEvent, ButtonEvent
from tests.daemon.loop import run


class Recorder(Extension):
    def __init__(self, name: str, log: list[Any], takes: tuple[str, ...] = ()) -> None:
        self.name, self.log, self.takes = name, log, takes

    async def open(self, daemon: Host) -> None:
        self.log.append(("open", self.name, len(daemon.session.alerts)))

    async def start(self, daemon: Host) -> None:
        self.log.append(("start", self.name, len(daemon.session.alerts)))

    async def stop(self) -> None:
        self.log.append(("stop", self.name))

    def button(self, button: str) -> bool:
        self.log.append(("button", self.name, button))
        return button in self.takes

    def heard(self, event: BoardEvent | None, now: float) -> None:
        if isinstance(event, ButtonEvent):
            self.log.append(("heard", self.name, event.button))


def daemon_with(tmp_path: Path, *extensions: Extension) -> Daemon:
    config = Config(game="fox-and-geese", database=tmp_path / "g.sqlite3")
    daemon = Daemon(config, out=lambda _text: None)
    daemon.extensions += extensions
    return daemon


def test_opened_before_the_game_started_once_it_has_stopped_in_reverse(tmp_path: Path) -> None:
    log: list[Any] = []
    daemon = daemon_with(tmp_path, Recorder("a", log), Recorder("b", log))

    async def play() -> None:
        await asyncio.sleep(0.05)

    run(daemon, play)
    steps = [entry[:2] for entry in log]
    assert steps == [
        ("open", "a"),
        ("open", "b"),
        ("start", "a"),
        ("start", "b"),
        ("stop", "b"),
        ("stop", "a"),
    ]
    opened = log[0][2]
    assert log[2][2] > opened  # the game began between open and start (its first alerts)


def test_a_button_an_extension_takes_never_reaches_the_session(tmp_path: Path) -> None:
    log: list[Any] = []
    taker, after = Recorder("taker", log, takes=("hint",)), Recorder("after", log)
    daemon = daemon_with(tmp_path, taker, after)

    async def play() -> None:
        daemon.command("press hint")
        while ("heard", "after", "hint") not in log:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # a hint the session searched would be said by now

    run(daemon, play)
    assert ("button", "taker", "hint") in log
    assert ("button", "after", "hint") not in log  # the first that takes it, takes it
    assert ("heard", "taker", "hint") in log  # every extension hears the turn of the loop
    assert not [a for a in daemon.session.alerts if a["kind"] == "hint"]


def test_a_button_no_extension_takes_reaches_the_session(tmp_path: Path) -> None:
    log: list[Any] = []
    daemon = daemon_with(tmp_path, Recorder("a", log))

    async def play() -> None:
        daemon.command("press hint")
        while not [a for a in daemon.session.alerts if a["kind"] == "hint"]:
            await asyncio.sleep(0.01)

    run(daemon, play)
    assert ("button", "a", "hint") in log


class Broken(Recorder):
    async def stop(self) -> None:
        await super().stop()
        raise RuntimeError("a part that fails to stop")


@pytest.mark.error_logs
def test_one_extension_failing_to_stop_stops_no_other(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log: list[Any] = []
    daemon = daemon_with(tmp_path, Recorder("a", log), Broken("broken", log))

    async def play() -> None:
        await asyncio.sleep(0.05)

    run(daemon, play)
    assert [e for e in log if e[0] == "stop"] == [("stop", "broken"), ("stop", "a")]
    assert "Broken did not stop cleanly" in caplog.text


@pytest.mark.error_logs
def test_the_loops_errors_are_said_once_a_second_in_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from reedboard.daemon.core import QuietErrors

    now = [0.0]
    quiet = QuietErrors(clock=lambda: now[0])
    flood = OSError(24, "Too many open files")
    with caplog.at_level("ERROR", logger="reedboard"):
        for n in range(100_000):  # a storm of accept() failures in under a second
            now[0] = n * 1e-6
            quiet(None, {"message": "socket.accept() out of system resource", "exception": flood})  # type: ignore[arg-type]
        now[0] = 1.5
        quiet(None, {"message": "socket.accept() out of system resource", "exception": flood})  # type: ignore[arg-type]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert lines[1].endswith("(and 99999 more)")
    assert not any(r.exc_info for r in caplog.records)


@pytest.mark.error_logs
def test_a_socket_the_mqtt_client_closed_under_its_writer_is_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # paho-mqtt adds its writer as it sends; a broker gone away closed the socket first: the
    # client reconnects, so it is said (info), not an error that fails a run
    from reedboard.daemon.core import QuietErrors

    quiet = QuietErrors(clock=lambda: 0.0)
    closed = OSError(9, "Bad file descriptor")
    message = "Exception in callback BaseSelectorEventLoop.add_writer(22, <function Client>)"
    with caplog.at_level("INFO", logger="reedboard"):
        quiet(None, {"message": message, "exception": closed})  # type: ignore[arg-type]
        quiet(None, {"message": "Exception in callback other()", "exception": closed})  # type: ignore[arg-type]
    levels = [r.levelname for r in caplog.records]
    assert levels == ["INFO", "ERROR"]


@pytest.mark.error_logs
def test_the_mqtt_clients_disconnect_no_one_awaits_is_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # aiomqtt sets its disconnect future with the broker's error after the link has left
    # (CI: a board leaving the broker in test_remote_hostile, "[code:128] Unspecified
    # error"); asyncio says it was never retrieved: said (info), not an error that fails a run
    aiomqtt = pytest.importorskip("aiomqtt")
    from reedboard.daemon.core import QuietErrors

    quiet = QuietErrors(clock=lambda: 0.0)
    gone = aiomqtt.MqttCodeError(128, "Unspecified error")
    message = "Future exception was never retrieved"
    with caplog.at_level("INFO", logger="reedboard"):
        quiet(None, {"message": message, "exception": gone})  # type: ignore[arg-type]
        quiet(None, {"message": message, "exception": ValueError("ours")})  # type: ignore[arg-type]
    levels = [r.levelname for r in caplog.records]
    assert levels == ["INFO", "ERROR"]
