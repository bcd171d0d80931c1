"""Remote play's settings: the broker's URL, its credentials, the match and this board's seats,
from a config's ``[remote]`` table or the command line. Every bad value is one line naming its
key; nothing here touches the network."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from reedboard.daemon.addresses import is_loopback
from reedboard.errors import ControllerError

SEP = ","
"""Joins a board's seats into its name (``WR,BR``)."""
MATCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A match id: it is a topic level, so no ``/``, ``+``, ``#`` or spaces."""

KEYS = (
    "broker",
    "match",
    "seats",
    "username",
    "password",
    "cafile",
    "certfile",
    "keyfile",
    "keepalive",
    "reveal_timeout",
    "invite",
    "insecure",
)
INVITE_PREFIX = "rb1."
MAX_INVITE = 2048
KEY_LENGTH = 43
"""An Ed25519 public key's 32 bytes in base64url without padding."""


class RemoteSettingsError(ControllerError, ValueError):
    """A remote setting that cannot be used: one line naming the key."""

    def __init__(self, key: str, what: str) -> None:
        super().__init__(f"{key}: {what}")
        self.key = key
        self.what = what


@dataclass(frozen=True)
class Invite:
    """An invite's content (reedboard/daemon/remote/invite.py makes them): ``rb1.`` and
    base64url JSON."""

    match: str
    broker: str
    """The broker's URL (no credentials)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Seat -> public key: the inviting board's seats (a spectator's: every seat known)."""
    secret: str | None = None
    """A player's invite: what the joining board proves it holds (a spectator's has none)."""

    def code(self) -> str:
        body: dict[str, Any] = {"match": self.match, "broker": self.broker, "keys": self.keys}
        if self.secret is not None:
            body["secret"] = self.secret
        data = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        return INVITE_PREFIX + base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    @classmethod
    def parse(cls, code: object, key: str = "invite") -> Invite:
        """An invite's code; RemoteSettingsError (one line naming ``key``) when it is not one."""
        text = code.strip() if isinstance(code, str) else ""
        if not text.startswith(INVITE_PREFIX):
            raise RemoteSettingsError(key, f"an invite is a code that begins {INVITE_PREFIX}")
        if len(text) > MAX_INVITE:
            raise RemoteSettingsError(key, f"a code of {len(text)} characters is no invite")
        body = text[len(INVITE_PREFIX) :]
        try:
            data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except ValueError:  # (binascii.Error, UnicodeDecodeError and JSON's are ValueErrors)
            raise RemoteSettingsError(key, "the invite is damaged (copy it again)") from None
        if not isinstance(data, dict):
            raise RemoteSettingsError(key, "the invite is damaged (copy it again)")
        match, broker, keys, secret = (data.get(k) for k in ("match", "broker", "keys", "secret"))
        if not isinstance(match, str) or not MATCH.fullmatch(match):
            raise RemoteSettingsError(key, "the invite names no match")
        if not isinstance(broker, str):
            raise RemoteSettingsError(key, "the invite names no broker")
        parse_broker(broker, key)
        if not isinstance(keys, dict) or not keys or not all(map(_seat_key, keys.items())):
            raise RemoteSettingsError(key, "the invite holds no board's key")
        if secret is not None and not isinstance(secret, str):
            raise RemoteSettingsError(key, "the invite's secret is damaged")
        return cls(match, broker, dict(keys), secret)


def _seat_key(item: tuple[object, object]) -> bool:
    seat, public = item
    return (
        isinstance(seat, str)
        and bool(MATCH.fullmatch(seat))
        and isinstance(public, str)
        and len(public) == KEY_LENGTH
    )


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


@dataclass(frozen=True)
class RemoteSettings:
    broker: Broker
    match: str
    seats: tuple[str, ...]
    username: str | None = None
    password: str | None = None
    cafile: Path | None = None
    certfile: Path | None = None
    keyfile: Path | None = None
    keepalive: int = 10
    """Seconds between pings: the broker sends this board's last will ("offline") after
    1.5 times this without a word from it."""
    reveal_timeout: float = 60.0
    """Seconds a board may hold back its dice reveal once both commitments are made: then the
    game is recorded as abandoned by it."""
    invite: Invite | None = None
    """The invite this board joined by (its keys are pinned; its secret proven)."""
    home: Path | None = None
    """Where this board's key and the keys it pinned are kept (the daemon's: beside its store,
    ``<store>.remote/``); None keeps them for this run only."""

    @property
    def board(self) -> str:
        """This board's name on the broker: its seats, joined by ``,`` (a topic level may not
        hold ``+``, MQTT's wildcard)."""
        return SEP.join(self.seats)


def parse_broker(text: str, key: str = "broker") -> tuple[Broker, str | None, str | None]:
    """``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT`` (port 1883 / 8883 when left out), with
    optional ``user:password@``; returns the broker and those credentials."""
    if not isinstance(text, str) or not text.strip():
        raise RemoteSettingsError(key, "give the broker as mqtt://HOST:PORT or mqtts://HOST:PORT")
    try:
        url = urlsplit(text.strip())
        port = url.port
    except ValueError as exc:
        raise RemoteSettingsError(key, f"{text!r} is no broker URL ({exc})") from None
    if url.scheme not in ("mqtt", "mqtts"):
        raise RemoteSettingsError(
            key, f"{text!r}: the scheme must be mqtt:// or mqtts://, not {url.scheme or 'none'}"
        )
    if not url.hostname:
        raise RemoteSettingsError(key, f"{text!r} names no host (mqtt://HOST:PORT)")
    if url.path not in ("", "/") or url.query or url.fragment:
        raise RemoteSettingsError(key, f"{text!r}: nothing may follow HOST:PORT")
    if port == 0:
        raise RemoteSettingsError(key, f"{text!r}: port 0 is no port (1-65535)")
    tls = url.scheme == "mqtts"
    broker = Broker(url.hostname, port or (8883 if tls else 1883), tls)
    user = unquote(url.username) if url.username else None
    password = unquote(url.password) if url.password else None
    return broker, user, password


def parse_seats(value: object, key: str = "seats") -> tuple[str, ...]:
    """A list of seats (``["fox"]``), or a comma-separated string (``fox`` or ``WR,BR``)."""
    if isinstance(value, str):
        value = [s.strip() for s in value.split(",")]
    if not isinstance(value, list) or not value:
        raise RemoteSettingsError(key, 'give the seats played on this board, e.g. ["fox"]')
    seats: list[str] = []
    for seat in value:
        if not isinstance(seat, str) or not MATCH.fullmatch(seat):
            raise RemoteSettingsError(key, f"{seat!r} is no seat name")
        if seat in seats:
            raise RemoteSettingsError(key, f"{seat} is given twice")
        seats.append(seat)
    return tuple(seats)


def parse_match(value: object, key: str = "match") -> str:
    if not isinstance(value, str) or not MATCH.fullmatch(value):
        raise RemoteSettingsError(
            key,
            f"{value!r} is no match id (1-64 letters, digits, '_', '.', '-';"
            " no '/', '+', '#' or spaces)",
        )
    return value


def check_seats(settings: RemoteSettings, players: tuple[str, ...], key: str = "seats") -> None:
    """Each seat must be one of the game's sides, and the other board needs one left."""
    for seat in settings.seats:
        if seat not in players:
            raise RemoteSettingsError(
                key, f"{seat} is no side of this game (its sides: {', '.join(players)})"
            )
    if set(settings.seats) >= set(players):
        raise RemoteSettingsError(
            key, f"{', '.join(settings.seats)} leaves no side for the other board"
        )


def from_values(
    values: dict[str, object], base: Path | None = None, prefix: str = ""
) -> RemoteSettings:
    """Settings from a ``[remote]`` table (``prefix`` "remote." names its keys in errors) or
    the command line's values; relative file paths are taken from ``base``."""

    def name(key: str) -> str:
        return f"{prefix}{key}"

    for key in values:
        if key not in KEYS:
            raise RemoteSettingsError(name(key), f"unknown key (known here: {', '.join(KEYS)})")
    invite = Invite.parse(values["invite"], name("invite")) if "invite" in values else None
    if invite is not None:  # the broker and match come from it, unless given (then the same)
        values = {"broker": invite.broker, "match": invite.match, **values}
        if values["match"] != invite.match:
            raise RemoteSettingsError(name("match"), f"the invite is to match {invite.match}")
    for key in ("broker", "match", "seats"):
        if key not in values:
            raise RemoteSettingsError(name(key), "missing (remote play needs broker, match, seats)")
    broker, user, password = parse_broker(values["broker"], name("broker"))  # type: ignore[arg-type]
    for key in ("username", "password"):
        given = values.get(key)
        if given is not None and (not isinstance(given, str) or not given):
            raise RemoteSettingsError(name(key), "must be a non-empty string")
    username = str(values["username"]) if "username" in values else user
    password = str(values["password"]) if "password" in values else password
    if password is not None and username is None:
        raise RemoteSettingsError(name("password"), "a password needs a username")
    files: dict[str, Path | None] = {}
    for key in ("cafile", "certfile", "keyfile"):
        given = values.get(key)
        if given is None:
            files[key] = None
            continue
        if not isinstance(given, str) or not given.strip() or "\0" in given:
            raise RemoteSettingsError(name(key), "must be a file's path")
        try:
            path = Path(given).expanduser()
        except RuntimeError:  # ~nosuchuser
            raise RemoteSettingsError(name(key), f"{given!r}: no such home folder") from None
        if not path.is_absolute() and base is not None:
            path = base / path
        if not path.is_file():
            raise RemoteSettingsError(name(key), f"no file {path}")
        files[key] = path
    if (files["certfile"] is None) != (files["keyfile"] is None):
        raise RemoteSettingsError(
            name("keyfile"), "a client certificate needs certfile and keyfile"
        )
    if not broker.tls and any(files.values()):
        raise RemoteSettingsError(
            name("broker"), f"certificates are for mqtts://, not {broker.url}"
        )
    insecure = values.get("insecure", False)
    if not isinstance(insecure, bool):
        raise RemoteSettingsError(name("insecure"), "must be true or false")
    if not broker.tls and not insecure and not is_loopback(broker.host):
        raise RemoteSettingsError(
            name("broker"),
            f"{broker.url} is not encrypted and not on this machine: use mqtts:// (TLS), or"
            " say insecure = true (--insecure) on a network you trust",
        )
    keepalive = values.get("keepalive", 10)
    if not isinstance(keepalive, int) or isinstance(keepalive, bool) or not 1 <= keepalive <= 3600:
        raise RemoteSettingsError(name("keepalive"), f"{keepalive!r} is outside 1-3600 seconds")
    timeout = values.get("reveal_timeout", 60)
    if (
        not isinstance(timeout, int | float)
        or isinstance(timeout, bool)
        or not 5 <= timeout <= 3600
    ):
        raise RemoteSettingsError(name("reveal_timeout"), f"{timeout!r} is outside 5-3600 seconds")
    return RemoteSettings(
        broker=broker,
        match=parse_match(values["match"], name("match")),
        seats=parse_seats(values["seats"], name("seats")),
        username=username,
        password=password,
        cafile=files["cafile"],
        certfile=files["certfile"],
        keyfile=files["keyfile"],
        keepalive=keepalive,
        reveal_timeout=float(timeout),
        invite=invite,
    )
