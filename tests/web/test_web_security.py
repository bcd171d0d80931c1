"""No other page can drive the board: the web view against another origin in real Chromium (a
page on another port, a file:// page), a forged Host (DNS rebinding), a page without the
per-page token, a file named from the web, deep and huge messages, and the headers that keep
the page out of frames."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from tests.web.browser import ARGS, CHROMIUM  # noqa: E402
from tests.web.live import LiveDaemon  # noqa: E402
from tests.web.test_web_server import Page, connect, page_token  # noqa: E402


def _board(live: LiveDaemon) -> Any:
    return live.call(lambda: (live.daemon.board.snapshot(), live.daemon.session.moves[:]))


def test_a_forged_host_is_refused_and_addresses_and_this_machine_are_not(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        port = live.url.rsplit(":", 1)[1].strip("/")

        async def requests() -> None:
            async with aiohttp.ClientSession() as s:
                for host, status in (
                    ("evil.example", 421),
                    (f"evil.example:{port}", 421),
                    ("", 421),
                    (f"localhost:{port}", 200),
                    (f"127.0.0.1:{port}", 200),
                    (f"[::1]:{port}", 200),
                    (f"192.168.1.5:{port}", 200),  # an address is no rebinding
                ):
                    async with s.get(live.url, headers={"Host": host}) as r:
                        assert r.status == status, host
                with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                    await s.ws_connect(live.url + "ws", headers={"Host": "evil.example"})
                assert err.value.status == 421

        asyncio.run(requests())


def test_another_origin_cannot_open_the_websocket_and_the_page_may_not_be_framed(
    tmp_path: Path,
) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        port = live.url.rsplit(":", 1)[1].strip("/")

        async def requests() -> None:
            async with aiohttp.ClientSession() as s:
                for origin in (
                    "http://127.0.0.1:9999",
                    "http://evil.example",
                    "null",
                    f"https://127.0.0.1:{port}",
                ):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                        await s.ws_connect(live.url + "ws", headers={"Origin": origin})
                    assert err.value.status == 403, origin
                own = await s.ws_connect(
                    live.url + "ws", headers={"Origin": f"http://127.0.0.1:{port}"}
                )
                await own.close()
                async with s.get(live.url) as r:
                    assert r.headers["X-Frame-Options"] == "DENY"
                    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
                async with s.get(live.url + "static/app.js") as r:
                    assert r.headers["X-Frame-Options"] == "DENY"

        asyncio.run(requests())


def test_an_action_without_the_page_token_or_naming_a_file_changes_nothing(
    tmp_path: Path,
) -> None:
    with LiveDaemon(tmp_path, "messenger-boy") as live:
        before = _board(live)

        async def play() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                assert page.csrf and page.csrf == await page_token(s, live.url)
                # (the last character changed: a token ending in "0" kept it, the flake)
                last = "1" if page.csrf.endswith("0") else "0"
                for forged in ("", "x" * 36, page.csrf[:-1] + last):
                    bare = Page(page.ws, forged)
                    bare.state = page.state
                    await bare.send(do="press", button="roll")
                await page.read(lambda p: len(p.refused) == 3)
                assert all("not the board's own" in text for text in page.refused)
                fifo = tmp_path / "fifo"
                os.mkfifo(fifo)
                for path in ("/dev/zero", str(fifo), "/etc/passwd"):
                    await page.send(do="new-game", game="messenger-boy", options={"orders": path})
                await page.read(lambda p: len(p.refused) == 6)
                assert all("orders names a file" in text for text in page.refused[3:])
                # deep and huge messages: refused, or the socket closed; nothing changes
                await page.ws.send_str("[" * 30_000 + "]" * 30_000)  # (under the size cap)
                deep: Any = page.csrf
                for _ in range(50):
                    deep = {"a": deep}
                await page.send(do="press", button="roll", extra=deep)
                await page.read(lambda p: len(p.refused) == 8)
                assert all("not an action" in text for text in page.refused[6:])
                await page.ws.send_str(json.dumps({"do": "press", "pad": "x" * 100_000}))
                msg = await page.ws.receive()
                while msg.type == aiohttp.WSMsgType.TEXT:
                    msg = await page.ws.receive()
                assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                again = await connect(s, live.url)  # the view goes on
                assert again.state["moves"] == []

        asyncio.run(play())
        assert _board(live) == before


@pytest.fixture
def chromium() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


EVIL = """<!doctype html><html><body><script>
const done = (what) => { document.body.dataset.done = what; };
const ws = new WebSocket("ws://127.0.0.1:PORT/ws");
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === "state") {
    ws.send(JSON.stringify({do: "move", from: "5", to: "17", board_seq: m.board_seq,
                            version: m.version}));
    ws.send(JSON.stringify({do: "press", button: "new", version: m.version}));
    setTimeout(() => done("sent"), 500);
  }
};
ws.onerror = () => done("refused");
ws.onclose = () => { if (!document.body.dataset.done) done("closed"); };
</script></body></html>"""


def test_a_page_of_another_origin_in_chromium_cannot_move_a_piece(
    chromium: Any, tmp_path: Path
) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        before = _board(live)
        port = live.url.rsplit(":", 1)[1].strip("/")
        (tmp_path / "evil.html").write_text(EVIL.replace("PORT", port))
        handler = type(
            "Quiet",
            (http.server.SimpleHTTPRequestHandler,),
            {"log_message": lambda *a: None},
        )
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), lambda *a: handler(*a, directory=str(tmp_path))
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            context = chromium.new_context()
            for url in (
                f"http://127.0.0.1:{server.server_address[1]}/evil.html",  # another port
                (tmp_path / "evil.html").as_uri(),  # a file on this machine
            ):
                page = context.new_page()
                page.goto(url)
                page.wait_for_function("document.body.dataset.done", timeout=10000)
                assert page.evaluate("document.body.dataset.done") in ("refused", "closed")
                page.close()
            context.close()
        finally:
            server.shutdown()
        assert _board(live) == before


def test_connections_that_send_their_headers_slowly_are_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from reedboard.daemon.web import server

    monkeypatch.setattr(server, "HEADER_TIMEOUT", 0.5)
    with LiveDaemon(tmp_path, "solitaire") as live:
        port = int(live.url.rsplit(":", 1)[1].strip("/"))
        slow = []
        for _ in range(50):  # each sends half its headers, and then nothing
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(s)
        for s in slow:
            assert s.recv(100) == b""  # closed by the board, not held for ever
            s.close()
        # a whole first request, then the next one's headers a byte at a time
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 204")
        closed = False
        for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: yes":
            try:
                s.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
        if not closed:
            s.settimeout(5)
            closed = s.recv(100) == b""
        assert closed
        s.close()

        async def still() -> None:
            async with aiohttp.ClientSession() as session, session.get(live.url) as r:
                assert r.status == 200

        asyncio.run(still())


def test_a_page_may_choose_the_configs_own_file_by_its_name_and_no_other(tmp_path: Path) -> None:
    from reedboard.engine.messenger_boy import SHIPPED_ORDERS

    mine = tmp_path / "house-orders.toml"
    mine.write_bytes(SHIPPED_ORDERS.read_bytes())
    with LiveDaemon(tmp_path, "messenger-boy", options={"orders": str(mine)}) as live:

        async def play() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                for bad in (str(mine), "/etc/passwd", "other.toml"):  # a path, or another name
                    await page.send(do="new-game", game="messenger-boy", options={"orders": bad})
                await page.read(lambda p: len(p.refused) == 3)
                assert all("orders names a file" in text for text in page.refused)
                await page.send(do="new-game", game="messenger-boy", options={"orders": mine.name})
                await asyncio.sleep(0.5)
                assert len(page.refused) == 3  # taken: the config's file, chosen by name

        asyncio.run(play())
        options = live.call(lambda: dict(live.daemon.session.options))
        assert options.get("orders") == str(mine)
