"""The web view's server without a browser: real HTTP and websocket requests (aiohttp's
client) to a daemon on the simulated board, its token, stale actions, several browsers, and
the command line's checks."""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

aiohttp = pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from reedboard import engine  # noqa: E402
from reedboard.cli.main import main  # noqa: E402
from reedboard.daemon.config import load_config  # noqa: E402
from reedboard.daemon.web import WebError, check_settings  # noqa: E402
from reedboard.daemon.web.server import COOKIE, WebView  # noqa: E402
from reedboard.daemon.web.state import hex_colour  # noqa: E402
from reedboard.hardware.lights import GREEN  # noqa: E402
from reedboard.referee.dice import ScriptedDice  # noqa: E402
from reedboard.wiring.tomlfile import WiringError  # noqa: E402
from tests.web.live import LiveDaemon  # noqa: E402


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class Page:
    """A browser's websocket, as the page uses it."""

    def __init__(self, ws: Any, csrf: str = "") -> None:
        self.ws = ws
        self.csrf = csrf
        """The token the page was served with (sent with every action)."""
        self.state: dict[str, Any] = {}
        self.layout: dict[str, Any] = {}
        self.leds: dict[str, Any] = {}
        self.refused: list[str] = []
        self.kinds: list[str] = []

    async def read(self, until: Any, timeout: float = 15.0) -> None:
        """Take messages until ``until(self)`` holds (on a timeout, what was had is said)."""
        try:
            async with asyncio.timeout(timeout):
                await self._read(until)
        except TimeoutError:
            raise AssertionError(
                f"no such page within {timeout} s: refused {self.refused}, socket closed:"
                f" {self.ws.closed}, last kinds {self.kinds[-8:]}"
            ) from None

    async def _read(self, until: Any) -> None:
        while not until(self):
            received = await self.ws.receive()
            if received.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket closed ({received.type}): refused {self.refused}")
            msg = json.loads(received.data)
            self.kinds.append(msg["type"])
            if msg["type"] == "state":
                self.state = msg
            elif msg["type"] == "layout":
                self.layout = msg
            elif msg["type"] == "leds":
                self.leds = msg
            elif msg["type"] == "refused":
                self.refused.append(msg["text"])

    async def send(self, **action: Any) -> None:
        tokens = {
            "version": self.state["version"],
            "board_seq": self.state["board_seq"],
            "csrf": self.csrf,
        }
        await self.ws.send_str(json.dumps(tokens | action))


async def page_token(session: Any, url: str, **get: Any) -> str:
    """The per-page token the page at ``url`` is served with."""
    async with session.get(url, **get) as r:
        text = await r.text()
    found = re.search(r'<meta name="reedboard-csrf" content="([^"]*)">', text)
    assert found, text[:200]
    return found.group(1)


async def connect(session: Any, url: str) -> Page:
    page = Page(await session.ws_connect(url + "ws"), await page_token(session, url))
    await page.read(lambda p: p.state and p.layout and p.leds)
    return page


# -- the token and the address --------------------------------------------------------------


def test_a_public_address_without_a_token_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite3"
    code, out, err = run_cli(capsys, "run", "--web", "0.0.0.0:8080", "--database", str(db))
    assert code == 2 and out == ""
    assert err.startswith("reedboard: error: web view on 0.0.0.0:8080 is reachable from other")
    assert err.count("\n") == 1 and "token" in err
    assert not db.exists()  # refused before anything was opened
    config = tmp_path / "reedboard.toml"
    config.write_text(f'database = "{db}"\n[web]\nlisten = "[::]:8080"\n')
    code, _, err = run_cli(capsys, "run", "--config", str(config))
    assert code == 2 and "web view on :::8080 is reachable" in err and not db.exists()
    with pytest.raises(WebError, match="token"):
        check_settings(load_config(config).web)


def test_a_port_in_use_is_said_in_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "games.sqlite3"
        code, out, err = run_cli(capsys, "run", "--web", f"127.0.0.1:{port}", "--database", str(db))
    assert code == 2 and out == ""
    assert err == f"reedboard: error: web view: cannot listen on 127.0.0.1:{port}: already in use\n"
    assert not db.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[web]\nlisten = "8080"', "web.listen: '8080' is not HOST:PORT"),
        ('[web]\nlisten = "127.0.0.1:99999"', "port 99999 is outside 1-65535"),
        ('[web]\ntoken = " "', "web.token: an empty token"),
        ('[web]\nenabled = "yes"', "web.enabled: expected a bool"),
        ("[web]\nport = 80", "web.port: unknown key"),
    ],
)
def test_web_config_mistakes_name_file_line_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(text + "\n")
    with pytest.raises(WiringError, match=message) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}:")


def test_bad_web_flags_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    for bad in ("nothing", "host:", ":80", "127.0.0.1:0x50", "127.0.0.1:70000"):
        code, _, err = run_cli(capsys, "run", "--web", bad, "--database", str(db))
        assert code == 2 and err.startswith("reedboard: error: run: --web ")
        assert err.count("\n") == 1
    assert not db.exists()


def test_without_the_token_every_request_is_401_and_changes_nothing(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire", token="s3cret") as live:
        before = live.call(lambda: (live.daemon.board.snapshot(), live.daemon.session.moves[:]))

        async def requests() -> None:
            async with aiohttp.ClientSession() as s:
                for path in ("", "history", "static/app.js", "api/games", "api/games/1/text"):
                    async with s.get(live.url + path) as r:
                        assert r.status == 401, path
                for bad in ({}, {"Authorization": "Bearer wrong"}, {"Cookie": "reedboard_token=x"}):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                        await s.ws_connect(live.url + "ws", headers=bad)
                    assert err.value.status == 401
                async with s.post(live.url + "ws", data='{"do": "lift", "point": "5"}') as r:
                    assert r.status == 401
                async with s.get(live.url) as r:  # the page asks for the token
                    assert "token" in await r.text() and r.status == 401
                # with it: the page, and a websocket that plays
                auth = {"Authorization": "Bearer s3cret"}
                async with s.get(live.url, headers=auth) as r:
                    assert r.status == 200
                async with s.get(live.url + "?token=s3cret&x=1", allow_redirects=False) as r:
                    assert r.status == 303  # kept in the cookie, and sent on without it
                    assert r.headers["Location"] == "/?x=1"
                    signed_in = r.cookies[COOKIE].value
                    assert signed_in and "s3cret" not in signed_in  # (never the token itself)
                    assert r.cookies[COOKIE]["httponly"] and r.cookies[COOKIE]["samesite"]
                cookie = {"Cookie": f"{COOKIE}={signed_in}"}
                async with s.get(live.url + "history", headers=cookie) as r:
                    assert r.status == 200  # the cookie signs the browser in
                async with s.get(live.url + "history", headers={"Cookie": f"{COOKIE}=s3cret"}) as r:
                    assert r.status == 401  # the token itself in a cookie counts for nothing
                # the form: the token in the body, from the page's own origin only
                form = {"token": "s3cret", "back": "/history"}
                async with s.post(live.url + "login", data=form, allow_redirects=False) as r:
                    assert r.status == 303 and r.headers["Location"] == "/history"
                    assert r.cookies[COOKIE].value == signed_in
                async with s.post(live.url + "login", data={"token": "wrong"}) as r:
                    assert r.status == 401 and COOKIE not in r.cookies
                evil = {"Origin": "http://127.0.0.1:9"}
                async with s.post(live.url + "login", data=form, headers=evil) as r:
                    assert r.status == 403
                for path in ("ws?token=s3cret", "history?token=wrong", "api/games?token=s3cret"):
                    async with s.get(live.url + path, allow_redirects=False) as r:
                        assert r.status == 401, path  # a token in any other URL is none
                page = Page(await s.ws_connect(live.url + "ws", headers=auth))
                await page.read(lambda p: bool(p.state))
                assert page.state["moves"] == []

        asyncio.run(requests())
        after = live.call(lambda: (live.daemon.board.snapshot(), live.daemon.session.moves[:]))
        assert after == before


# -- playing through the websocket ----------------------------------------------------------


def test_several_pages_see_each_move_and_a_stale_action_is_refused(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:

        async def play() -> None:
            async with aiohttp.ClientSession() as s:
                a, b = await connect(s, live.url), await connect(s, live.url)
                stale = dict(b.state)
                await a.send(do="lift", point="5")
                await a.read(lambda p: p.state["board_seq"] == 1)
                await b.read(lambda p: p.state["board_seq"] == 1)
                assert "5" not in a.state["pieces"]
                await a.read(lambda p: p.leds["points"] == {"17": hex_colour(GREEN)})  # its landing
                # b clicks from the page it had before a's lift: refused, nothing changes
                b.state = stale
                await b.send(do="lift", point="9")
                await b.read(lambda p: bool(p.refused) and p.state["board_seq"] == 1)
                assert "the board has changed since" in b.refused[0]
                assert "9" in b.state["pieces"] and b.state["board_seq"] == 1
                await a.send(do="place", point="17")
                await a.read(lambda p: p.state["board_seq"] == 2)
                await a.send(do="lift", point="10")
                for page in (a, b):
                    await page.read(lambda p: p.state["moves"] == ["5-17"])
                # a button from a page that has not seen the move: refused
                old = dict(b.state, version=stale["version"])
                b.state = old
                await b.send(do="press", button="undo")
                await b.read(lambda p: len(p.refused) == 2)
                assert "the game has moved on" in b.refused[1]
                assert live.call(lambda: [str(m) for m in live.daemon.session.moves]) == ["5-17"]
                # nonsense is refused in a line
                await a.send(do="lift", point="99")
                await a.send(do="fly")
                await a.ws.send_str("[1, 2]")
                await a.read(lambda p: len(p.refused) == 3)
                assert a.refused == [
                    "board cross33 has no point '99'",
                    "unknown action 'fly'",
                    "not an action (expected a JSON object)",
                ]

        asyncio.run(play())


def test_the_picker_starts_a_game_on_another_board(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:

        async def pick() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                assert {g["id"] for g in page.layout["games"]} >= {"fox-and-rabbit", "skip"}
                await page.send(do="new-game", game="fox-and-rabbit")
                await page.read(lambda p: p.layout["game"] == "fox-and-rabbit")
                await page.read(lambda p: p.state["game"] == "fox-and-rabbit")
                assert page.layout["board"] == "brier9" and len(page.layout["points"]) == 81
                assert page.state["pieces"] == {"a1": "W", "i1": "R"}
                await page.send(do="press", button="roll")
                await page.read(lambda p: p.state["dice"] is not None)
                await page.send(do="new-game", game="jack-rabbits")
                await page.read(lambda p: bool(p.refused))
                assert page.refused[0].startswith("'jack-rabbits' cannot be started here")

        asyncio.run(pick())
        assert live.daemon.session.game_id == "fox-and-rabbit"


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "do",
                "point",
                "from",
                "to",
                "button",
                "game",
                "version",
                "board_seq",
                "computer",
                "level",
            ]
        ),
        st.none()
        | st.integers(-2, 3)
        | st.sampled_from(["lift", "place", "move", "press", "new-game", "5", "17", "roll", ""])
        | st.text(max_size=8),
    )
)
def test_any_action_is_carried_out_or_refused_in_a_line(
    tmp_path_factory: pytest.TempPathFactory, action: dict[str, Any]
) -> None:
    """Whatever a page sends, the server answers with nothing or one line, and a refused
    action changes neither the board nor the game."""
    from reedboard.daemon.config import Config
    from reedboard.daemon.core import Daemon

    tmp = tmp_path_factory.mktemp("act")
    daemon = Daemon(Config(game="solitaire", database=tmp / "g.sqlite3"), out=lambda _: None)
    daemon.session.start(0.0)

    async def act() -> None:
        view = WebView(daemon, daemon.config.web)
        view.attach()
        before = (daemon.board.snapshot(), daemon.session.moves[:], daemon.board.events.pending())
        reply = view.act(json.dumps(action))
        after = (daemon.board.snapshot(), daemon.session.moves[:], daemon.board.events.pending())
        if reply is not None:
            assert "\n" not in reply and reply
            assert after == before
        view.detach()

    asyncio.run(act())
    daemon.store.close()


def test_no_page_hears_of_a_move_before_the_store_has_made_it_durable(tmp_path: Path) -> None:
    from reedboard.daemon.config import Config
    from reedboard.daemon.core import Daemon

    daemon = Daemon(Config(game="solitaire", database=tmp_path / "g.sqlite3"), out=lambda _: None)
    daemon.session.start(0.0)
    saving = [True]
    daemon.session.events.hold = lambda: saving[0]

    async def watch() -> None:
        view = WebView(daemon, daemon.config.web)
        view.attach()
        page: asyncio.Queue[str] = asyncio.Queue()
        view.clients[page] = None  # type: ignore[assignment]  # (no socket: never closed)
        daemon.session.play("5-17", "console", 1.0)  # committed, its write not yet durable
        view.heard(None)
        await asyncio.sleep(0)
        assert page.empty()
        saving[0] = False
        async with asyncio.timeout(5):
            while daemon.session.saving():  # the store's own thread writes it
                await asyncio.sleep(0.01)
        daemon.session.flush(1.1)  # durable: the event is heard, the state follows
        await asyncio.sleep(0)
        states = [json.loads(page.get_nowait()) for _ in range(page.qsize())]
        assert [s["moves"] for s in states if s["type"] == "state"] == [["5-17"]]
        view.detach()

    asyncio.run(watch())
    daemon.store.close()


def test_with_a_real_board_the_page_mirrors_it_and_its_buttons_work(
    tmp_path: Path, mock_factory: object
) -> None:
    """A GPIO board (gpiozero's MockFactory): pieces are moved on the board itself, so a click
    is refused; the buttons go to the board's events like its own; the picker offers the
    games of its board."""
    from reedboard.daemon.core import Daemon
    from tests.cli.test_cli_inputs import gpio_config

    config = load_config(gpio_config(tmp_path))
    config = replace(config, web=replace(config.web, enabled=True, port=0))
    said: list[str] = []
    daemon = Daemon(config, out=said.append)

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        async with asyncio.timeout(10):
            while not any(s.startswith("web view: ") for s in said):
                await asyncio.sleep(0.01)
        url = next(s for s in said if s.startswith("web view: "))[10:]
        async with aiohttp.ClientSession() as s:
            page = await connect(s, url)
            assert page.state["simulated"] is False and page.layout["board"] == "cross33"
            assert [g["id"] for g in page.layout["games"]] == [
                "fox-and-geese",
                "fox-and-geese-mcloughlin",
                "solitaire",
            ]
            await page.send(do="lift", point="9")
            await page.read(lambda p: bool(p.refused))
            assert page.refused == ["pieces are moved on the board itself (this is a real board)"]
            await page.send(do="press", button="undo")
            await page.read(lambda p: any(a["kind"] == "undo" for a in p.state["alerts"]))
            # the press itself is no event for people: what it did (here, why it did nothing)
            assert page.state["alerts"][-1] == {
                "t": page.state["alerts"][-1]["t"],
                "kind": "undo",
                "text": "nothing to take back",
                "words": "nothing to take back",
            }
            assert all(a["kind"] != "button" for a in page.state["alerts"])
        daemon.stop.set()
        await asyncio.wait_for(task, 5)

    asyncio.run(scenario())


def test_the_picker_seats_the_computer_at_a_level(tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:

        async def pick() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                games = {g["id"]: g["sides"] for g in page.layout["games"]}
                assert games["fox-and-geese"] == ["fox", "geese"]
                await page.send(do="new-game", game="fox-and-geese", computer=["dragon"], level=2)
                await page.read(lambda p: bool(p.refused))
                assert "'dragon' is no side of fox-and-geese" in page.refused[-1]
                await page.send(do="new-game", game="fox-and-geese", computer=["geese"], level=9)
                await page.read(lambda p: len(p.refused) == 2)
                assert "9" in page.refused[-1]
                assert live.daemon.session.game_id == "solitaire"  # neither changed anything
                await page.send(do="new-game", game="fox-and-geese", computer=["Geese"], level=2)
                await page.read(lambda p: p.state["game"] == "fox-and-geese")

        asyncio.run(pick())
        computer = live.daemon.computer
        assert computer is not None and computer.sides == frozenset({"geese"})
        assert live.daemon.config.level == 2


def test_a_bad_web_variable_is_one_line_and_the_flags_win_over_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from reedboard.daemon.config import parse_listen

    with pytest.raises(ValueError, match="not HOST:PORT"):
        parse_listen("127.0.0.1:1:2")  # (was taken as the host 127.0.0.1:1, "reachable")
    with pytest.raises(ValueError, match="brackets"):
        parse_listen("::1:8080")
    assert parse_listen("[::1]:8080") == ("::1", 8080)
    db = tmp_path / "games.sqlite3"
    for bad in ("garbage", "127.0.0.1:1:2"):
        monkeypatch.setenv("REEDBOARD_WEB", bad)
        code, _, err = run_cli(capsys, "run", "--database", str(db))
        assert code == 2 and err.startswith("reedboard: error: $REEDBOARD_WEB: ")
        assert err.count("\n") == 1
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run_cli(capsys, "run", "--database", str(db), "--no-web")
    assert code == 0 and "new-game" in out, err  # the flag wins over the variable


def test_a_roll_a_push_behind_is_taken_when_it_still_means_the_same(tmp_path: Path) -> None:
    """The computer's move comes in between a page's state and a roll pressed on it: the roll
    was for the side after the computer's move, which is to throw now, so it throws (it used to
    be refused: "the game has moved on"). An undo from that page is still refused, and so is a
    roll from a page that showed another player to act (a double click that would throw the
    next player's dice)."""
    start = engine.start("fox-and-rabbit")
    throws = [(3, 2), (2, 2), (5, 2), (4, 1), (6, 6), (1, 1)]
    with LiveDaemon(
        tmp_path, "fox-and-rabbit", dice=ScriptedDice(throws), computer=("RF",), level=1
    ) as live:
        session = lambda: live.daemon.session  # noqa: E731

        def settled(side: str) -> bool:
            s = session()
            position = s.position
            return position.turn == side and position.is_chance() and s.state.value == "playing"

        async def play() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                await page.send(do="press", button="roll")
                await page.read(lambda p: p.state["moves"] == ["dice=3,2"])
                after = start.copy()
                after.push(after.parse_move("dice=3,2"))
                move = str(next(iter(after.legal_moves)))
                await page.send(do="type", move=move)
                # a state that shows the computer to act: the page presses roll on it
                await page.read(lambda p: p.state["panel"]["sides"][1]["turn"])
                stale = page.state["version"]
                for _ in range(200):
                    if live.call(lambda: settled("WR")):
                        break
                    await asyncio.sleep(0.05)
                assert live.call(lambda: settled("WR")), live.call(lambda: session().moves)
                plies = live.call(lambda: len(session().position.move_stack))
                page.state = dict(page.state, version=stale)
                await page.send(do="press", button="undo")
                await page.read(lambda p: len(p.refused) == 1)
                assert "the game has moved on" in page.refused[0]
                page.state = dict(page.state, version=stale)
                await page.send(do="press", button="roll")
                await page.read(lambda p: len(p.state["moves"]) == plies + 1)
                assert len(page.refused) == 1  # the roll was taken
                assert live.call(lambda: session().position.move_stack[-1].points()) == ()
                assert live.call(lambda: session().position.turn) == "WR"

        asyncio.run(play())


def test_a_roll_from_a_page_that_showed_another_player_is_refused(tmp_path: Path) -> None:
    start = engine.start("fox-and-rabbit")
    with LiveDaemon(tmp_path, "fox-and-rabbit", dice=ScriptedDice([(3, 2), (2, 2)])) as live:

        async def play() -> None:
            async with aiohttp.ClientSession() as s:
                page = await connect(s, live.url)
                await page.send(do="press", button="roll")
                await page.read(lambda p: p.state["moves"] == ["dice=3,2"])
                stale = page.state["version"]  # White Rabbit to move
                after = start.copy()
                after.push(after.parse_move("dice=3,2"))
                await page.send(do="type", move=str(next(iter(after.legal_moves))))
                await page.read(lambda p: len(p.state["moves"]) == 2)
                page.state = dict(page.state, version=stale)  # Red Fox to throw now
                await page.send(do="press", button="roll")
                await page.read(lambda p: bool(p.refused))
                assert "the game has moved on" in page.refused[0]
                assert live.call(lambda: len(live.daemon.session.position.move_stack)) == 2

        asyncio.run(play())
