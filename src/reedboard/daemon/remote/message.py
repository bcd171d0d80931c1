"""What travels between boards: small JSON messages, and the topics they travel on.

Topics, under ``reedboard/<match>/``:

Every board publishes only under its own name (``<board>``: its seats joined by ``,``), so a
broker's ACL can hold each board to its own topics (reedboard/daemon/remote/broker.py):

- ``moves/<board>``: each move committed on a board, QoS 1: ``{"v": 1, "kind": "move", "game",
  "match", "epoch", "ply", "move", "after", "seat", "sender", "id"}``: the move in the
  game's notation, its ply (from 0; throws count), the position's text after it, the side
  that made it, the board that sent it (its seats joined by ``,``) and a message id.
- ``state/<board>``: retained, each board's whole game: ``{"kind": "state", "game",
  "options", "start", "moves", "position", "epoch", "throws", ...}`` (``throws``: for each
  agreed throw's ply, both boards' commitments and reveals, so a board that missed the
  exchange checks the throw itself). A late joiner, a restarted daemon and a spectator
  read it.
- ``presence/<board>``: retained ``{"kind": "presence", "status": "online"|"offline",
  "seats", "key"}`` (``key``: the board's public key; ``proof``: that it holds an invite's
  secret); "offline" is the board's last will, sent by the broker when it drops.
- ``dice/<board>``: the commit-and-reveal exchange: ``{"kind": "commit", "ply", "xid", "hash"}``
  then ``{"kind": "reveal", "ply", "xid", "nonce", "values"}``
  (reedboard/daemon/remote/fairdice.py).
- ``takeback/<board>``, retained: ``{"kind": "takeback", "what": "request"|"accept"|"refuse",
  "ply"}`` (retained, so an answer reaches a board that was away when it was given).

``epoch`` counts the takebacks both boards agreed: a message from before one is stale.

Every message carries ``sig``: its board's Ed25519 signature over the rest of it
(reedboard/daemon/remote/keys.py). A board takes a message only from the key it pinned for the
sender's seats.
"""

from __future__ import annotations

import json
import re
from typing import Any

from reedboard.engine.files import too_deep
from reedboard.errors import ControllerError

VERSION = 2
"""2: every message signed by its board's key (reedboard/daemon/remote/keys.py)."""
MAX_BYTES = 512 * 1024
"""A message longer than this is refused unread (a state is a few kB, and about 0.7 kB more
for each throw's signed record: room for 700 throws)."""
MAX_DEPTH = 8
"""Objects and lists nested deeper than this are refused (a state's throw records nest 6)."""
MAX_DIGITS = 18
"""A number of more digits is refused before it is made (plies and epochs are small)."""


BOARD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(,[A-Za-z0-9][A-Za-z0-9_.-]{0,63}){0,7}")
"""A board's name: its seats (each a name as remote.seats takes), joined by ``,``."""


class MessageError(ControllerError, ValueError):
    """A message that is not one of ours: one line saying what is wrong with it."""


def topic(match: str, *parts: str) -> str:
    return "/".join(("reedboard", match, *parts))


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), sort_keys=True).encode()


_FIELDS: dict[str, dict[str, type]] = {
    "move": {"game": str, "ply": int, "move": str, "after": str, "seat": str, "epoch": int},
    "state": {
        "game": str,
        "options": dict,
        "start": str,
        "moves": list,
        "position": str,
        "epoch": int,
        "throws": dict,
    },
    "presence": {"status": str, "seats": list, "key": str},
    "commit": {"game": str, "ply": int, "xid": str, "hash": str, "epoch": int},
    "reveal": {"game": str, "ply": int, "xid": str, "nonce": str, "values": list, "epoch": int},
    "takeback": {"game": str, "what": str, "ply": int, "epoch": int},
}


def decode(payload: bytes, kind: str | None = None) -> dict[str, Any]:
    """A message checked for its fields' presence and types (their meaning is the link's to
    judge); MessageError otherwise."""
    if len(payload) > MAX_BYTES:
        raise MessageError(f"a message of {len(payload)} bytes (at most {MAX_BYTES})")
    try:
        message = json.loads(
            payload.decode("utf-8"),
            parse_int=_whole,
            parse_float=_fraction,
            parse_constant=_constant,
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(f"not JSON text: {exc}") from None
    except RecursionError:  # (the parser's own limit, met long before memory runs short)
        raise MessageError(f"JSON nested too deep (at most {MAX_DEPTH} levels)") from None
    if not isinstance(message, dict):
        raise MessageError("not a JSON object")
    if too_deep(message, MAX_DEPTH):
        raise MessageError(f"JSON nested too deep (at most {MAX_DEPTH} levels)")
    if message.get("v") != VERSION:
        raise MessageError(
            f"message version {_short(message.get('v'))} (this board speaks {VERSION})"
        )
    got = message.get("kind")
    if not isinstance(got, str) or got not in _FIELDS:
        raise MessageError(f"unknown kind {_short(got)}")
    if kind is not None and got != kind:
        raise MessageError(f"a {got} message where a {kind} was due")
    fields = {"sender": str, "id": str, "sig": str, **_FIELDS[got]}
    for name, want in fields.items():
        value = message.get(name)
        if not isinstance(value, want) or isinstance(value, bool):
            raise MessageError(f"{got} message: {name} is missing or not a {_name(want)}")
    if not BOARD.fullmatch(message["sender"]):
        raise MessageError(f"{got} message: sender {_short(message['sender'])} is no board's name")
    if "ply" in fields and message["ply"] < 0:
        raise MessageError(f"{got} message: ply {message['ply']} is negative")
    return message


def _short(value: object) -> str:
    """A value from a message, as a line may show it: escaped, and short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise MessageError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _fraction(text: str) -> float:
    raise MessageError(f"a fraction ({text[:20]}) where only whole numbers are due")


def _constant(name: str) -> float:
    raise MessageError(f"{name} is no JSON number")


def _name(want: type) -> str:
    names: dict[object, str] = {int: "number", str: "string", list: "list", dict: "object"}
    return names.get(want, "value")
