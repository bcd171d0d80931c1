"""The daemon's configuration: a small TOML file (``reedboard run --config FILE``).

    game = "ID"                     # a game id (`reedboard games`; default: engine.DEFAULT_GAME)
    build = "pi-cross33"            # a build name or file; leave out for the simulated board
    database = "/var/lib/reedboard/games.sqlite3"
    computer = ["fox"]              # the sides the computer plays, by piece or colour
    level = 3                       # the computer's level, 1 (random-ish) to 5

    [options]                       # game options, as on the command line
    diagonals = "alternate"

    [timing]
    settle_ms = 60                  # quiet time before the board counts as settled
    grace_ms = 2000                 # how long a board that means nothing waits to be a mismatch
    hold_ms = 4000                  # how long a move still in a hand (or a takeback) waits

    [dice]
    seed = 7                        # leave out for the system's cryptographic RNG

    [remote]                        # two boards, one game over MQTT (docs/remote.md; none)
    broker = "mqtt://192.168.1.20:1883"   # or mqtts://; user:password@ may come before HOST
    match = "kitchen-vs-attic"
    seats = ["fox"]                 # the sides played on this board
    # username, password, cafile, certfile, keyfile, keepalive (seconds, default 10)
    [web]                           # the web view (reedboard/daemon/web/)
    enabled = true
    listen = "127.0.0.1:8080"       # another address than loopback needs a token
    token = "..."                   # the page asks for it once; requests without it get 401

Every path in it (``database``, a ``build`` file, a game option that names a file, like
Messenger Boy's ``options.orders``) has ``~`` expanded and, when relative, is taken from the
config file's folder. Every mistake is one line naming the
file, line and key.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.daemon.addresses import is_loopback
from reedboard.daemon.remote.settings import RemoteSettings, RemoteSettingsError, from_values
from reedboard.store.games import default_path
from reedboard.wiring.tomlfile import TomlFile, WiringError, resolve


@dataclass(frozen=True)
class Config:
    game: str = engine.DEFAULT_GAME
    build: str | None = None
    database: Path = field(default_factory=default_path)
    options: dict[str, Any] = field(default_factory=dict)
    settle: float = 0.060
    grace: float = 2.0
    hold: float = 4.0
    dice_seed: int | None = None
    path: Path | None = None
    remote: RemoteSettings | None = None
    """Remote play (reedboard/daemon/remote/): None, the default, plays alone; nothing listens."""
    web: WebSettings = field(default_factory=lambda: web_default())
    computer: tuple[str, ...] = ()
    """The sides the computer plays (reedboard/daemon/computer.py)."""
    level: int = 3


@dataclass(frozen=True)
class WebSettings:
    """``[web]``: whether ``reedboard run`` serves the page, where, and its token."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None
    hosts: tuple[str, ...] = ()
    problem: str | None = None
    """Why ``$REEDBOARD_WEB`` could not be used: said when these settings are used, not when
    a flag (``--web``, ``--no-web``) or a config's ``[web]`` says otherwise."""
    """Names besides this machine's that the page may be reached by (``Host``)."""

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def web_default() -> WebSettings:
    """The web view's settings where neither a config's ``[web]`` nor ``run``'s flags say:
    ``$REEDBOARD_WEB`` (``off``, or ``HOST:PORT``), else on at 127.0.0.1:8080. (The tests
    set it ``off``, so a daemon they start listens nowhere unless asked.)"""
    text = os.environ.get("REEDBOARD_WEB", "").strip()
    if not text:
        return WebSettings()
    if text == "off":
        return WebSettings(enabled=False)
    try:
        host, port = parse_listen(text)
    except ValueError as exc:
        return WebSettings(problem=f"$REEDBOARD_WEB: {exc} (or off)")
    return WebSettings(host=host, port=port)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6): ValueError saying what is wrong."""
    host, sep, port = text.strip().rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isascii() or not port.isdigit():
        raise ValueError(f"{text!r} is not HOST:PORT, like 127.0.0.1:8080")
    if ":" in host:  # only an IPv6 address holds a colon, and it is written in brackets
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{text!r} is not HOST:PORT, like 127.0.0.1:8080") from None
        if not bracketed:
            raise ValueError(f"{text!r}: write an IPv6 address in brackets, like [::1]:8080")
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"{text!r}: port {port} is outside 1-65535")
    return host, int(port)


def _path(f: TomlFile, key: str, text: str) -> Path:
    """A path key: ``~`` expanded, a relative path taken from the config file's folder."""
    if not text.strip():
        raise f.fail(key, "an empty path")
    if "\0" in text:
        raise f.fail(key, f"{text!r} holds a NUL character")
    try:
        return resolve(f.path.parent, text)
    except WiringError as exc:
        raise f.fail(key, str(exc)) from None


def load_config(path: str | Path) -> Config:
    f = TomlFile(Path(path))
    d = f.data
    known = ("game", "build", "database", "options", "timing", "dice", "web", "remote")
    f.no_unknown(d, (*known, "computer", "level"), "")
    game = f.get("game", str, engine.DEFAULT_GAME, d, "game")
    if game not in engine.game_ids():
        raise f.fail("game", f"unknown game {game!r} (games: {', '.join(engine.game_ids())})")
    build = f.get("build", str, None, d, "build")
    if build is not None and build.endswith(".toml"):  # a build file, not a shipped build's name
        build = str(_path(f, "build", build))
    database = f.get("database", str, None, d, "database")
    options = dict(f.table("options", required=False))
    for key in engine.game(game).file_options():  # a file named relative to the config
        value = options.get(key)
        if isinstance(value, str) and value:  # empty: the game's own (Messenger Boy's orders)
            options[key] = str(_path(f, f"options.{key}", value))
    try:
        engine.game(game).options_from(options)
    except engine.EngineError as exc:
        raise f.fail("options", str(exc)) from None
    timing = f.table("timing", required=False)
    f.no_unknown(timing, ("settle_ms", "grace_ms", "hold_ms"), "timing")
    settle = float(f.get("settle_ms", float, 60, timing, "timing.settle_ms"))
    grace = float(f.get("grace_ms", float, 2000, timing, "timing.grace_ms"))
    if not 0 <= settle <= 5000:
        raise f.fail("timing.settle_ms", f"{settle} is outside 0-5000")
    if not 0 <= grace <= 60000:
        raise f.fail("timing.grace_ms", f"{grace} is outside 0-60000")
    hold = float(f.get("hold_ms", float, 4000, timing, "timing.hold_ms"))
    if not 0 <= hold <= 60000:
        raise f.fail("timing.hold_ms", f"{hold} is outside 0-60000")
    dice = f.table("dice", required=False)
    f.no_unknown(dice, ("seed",), "dice")
    seed = f.get("seed", int, None, dice, "dice.seed")
    remote = None
    if "remote" in d:
        try:
            remote = from_values(f.table("remote"), f.path.parent, "remote.")
        except RemoteSettingsError as exc:
            raise f.fail(exc.key, exc.what) from None
    web = f.table("web", required=False)
    f.no_unknown(web, ("enabled", "listen", "token", "hosts"), "web")
    base = web_default()
    host, port = base.host, base.port
    if "listen" in web:
        listen = f.get("listen", str, None, web, "web.listen")  # (its own line if not text)
        try:
            host, port = parse_listen(listen)
        except ValueError as exc:
            raise f.fail("web.listen", str(exc)) from None
    token = f.get("token", str, None, web, "web.token")
    if token is not None and not token.strip():
        raise f.fail("web.token", "an empty token")
    if token is not None and len(token.strip()) < 12 and not is_loopback(host):
        raise f.fail("web.token", "a token of under 12 characters is guessed: make it longer")
    hosts = f.get("hosts", list, [], web, "web.hosts")
    for name in hosts:
        if not isinstance(name, str) or not name.strip() or any(c in name for c in "/ :[]"):
            raise f.fail("web.hosts", f"{name!r} is no host name (a name, without a port)")
    serve = f.get("enabled", bool, bool(web) or base.enabled, web, "web.enabled")
    computer, level = _computer(f, d, game, options)
    return Config(
        game=game,
        build=build,
        database=_path(f, "database", database) if database is not None else default_path(),
        options=options,
        settle=settle / 1000,
        grace=grace / 1000,
        hold=hold / 1000,
        dice_seed=seed,
        path=f.path,
        remote=remote,
        web=WebSettings(serve, host, port, token, tuple(n.strip().lower() for n in hosts)),
        computer=computer,
        level=level,
    )


def _computer(
    f: TomlFile, d: dict[str, Any], game: str, options: dict[str, Any]
) -> tuple[tuple[str, ...], int]:
    """``computer = ["fox"]`` (or one side as a string) and ``level = 1..5``."""
    from reedboard.daemon.seats import check_level, seats

    names = d.get("computer", [])
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise f.fail("computer", f'expected a list of sides, like ["fox"], got {names!r}')
    try:
        seats(game, options, names)
    except ValueError as exc:
        raise f.fail("computer", str(exc)) from None
    level = f.get("level", int, 3, d, "level")
    try:
        check_level(level)
    except ValueError:
        raise f.fail("level", f"{level} is outside 1-5") from None
    return tuple(names), level
