"""The version handshake: a firmware of another protocol is refused with one clear line and the
board reported disconnected, whether it frames its lines as rb1 did (CRC-8) or as rb2 and rb3
do; the right firmware, once installed, is taken. The test plays the Pico on a real pty."""

from __future__ import annotations

import asyncio
import os
import tty

import pytest

from reedboard.bridge.firmware.wire import VERSION, LineParser, frame
from reedboard.bridge.link import PicoBoard
from reedboard.hardware.board_io import LinkEvent
from reedboard.wiring.layout import load_layout

LAYOUT = load_layout("cross33")


async def link_event(board: PicoBoard) -> LinkEvent:
    async with asyncio.timeout(5):
        while not isinstance(event := await anext(board.events), LinkEvent):
            pass
        return event


def run(hello: bytes) -> tuple[LinkEvent, LinkEvent, bytes]:
    master, slave = os.openpty()
    tty.setraw(slave)

    async def scenario() -> tuple[LinkEvent, LinkEvent, bytes]:
        board = PicoBoard(os.ttyname(slave), LAYOUT)
        board.open()
        loop = asyncio.get_running_loop()
        try:
            asked = b""
            async with asyncio.timeout(5):
                while b"V*a5\n" not in asked:
                    asked += await loop.run_in_executor(None, os.read, master, 4096)
            os.write(master, hello)  # the Pico answers in the protocol it knows
            refused = await link_event(board)
            # the Pico gets the firmware of this version and restarts
            os.write(master, frame(f"H {VERSION} 36 47 3c ff"))
            taken = await link_event(board)
            return refused, taken, asked
        finally:
            board.close()
            os.close(master)
            os.close(slave)

    return asyncio.run(scenario())


@pytest.mark.error_logs
@pytest.mark.parametrize(
    ("hello", "version"),
    [
        (b"H rb1 36 47*2a\n", "rb1"),
        (frame("H rb2 36 47 00 ff"), "rb2"),  # CRC-32 framing, no repeated switch events
        (frame("H rb4 36 47 00 ff 7"), "rb4"),
    ],
)
def test_a_firmware_of_another_version_is_refused_by_name(
    hello: bytes, version: str, caplog: pytest.LogCaptureFixture
) -> None:
    refused, taken, asked = run(hello)
    parser = LineParser()
    assert "V" in parser.feed(asked)  # the Pi asked who is there ...
    assert b"V*a5\n" in asked  # ... in rb1's framing too
    assert not refused.up and f"protocol {version}" in refused.detail
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1
    assert f"protocol {version}, this reedboard speaks {VERSION}" in errors[0]
    assert "reedboard firmware install" in errors[0]
    assert taken.up
