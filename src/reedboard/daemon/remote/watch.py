"""``reedboard watch``: a spectator. It subscribes to a match's topics read-only (it never
publishes, not even its presence) and prints one line per thing that happens: each board's
state as it joins, each move, each throw's reveals, presence, takebacks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiomqtt

from reedboard.daemon.remote.link import client_for
from reedboard.daemon.remote.message import MessageError, decode, topic
from reedboard.daemon.remote.settings import RemoteSettings
from reedboard.errors import ControllerError


class WatchError(ControllerError):
    """The broker cannot be reached or went away: one line."""


def describe(where: str, message: dict[str, Any]) -> str | None:
    """A message's line for people (None: nothing worth a line, a commitment)."""
    kind, sender = message["kind"], message["sender"]
    if kind == "move":
        return f"ply {message['ply']}: {message['move']} ({message['seat']}, on {sender})"
    if kind == "state":
        moves = message["moves"]
        return f"{sender}: {len(moves)} plies, {message['position']}"
    if kind == "presence":
        return f"{sender}: {message['status']}"
    if kind == "reveal":
        return f"dice for ply {message['ply']}: {sender} reveals {message['values']}"
    if kind == "takeback":
        return f"takeback {message['what']} to ply {message['ply']} ({sender})"
    return None


async def watch(
    settings: RemoteSettings, out: Callable[[str], None], count: int | None = None
) -> None:
    """Print the match's messages until cancelled, or until ``count`` lines are printed."""
    printed = 0
    states: dict[str, int] = {}
    try:
        async with client_for(settings) as client:
            await client.subscribe(topic(settings.match, "#"), qos=1)
            async for incoming in client.messages:
                where = str(incoming.topic)
                payload = incoming.payload
                if not isinstance(payload, bytes | bytearray) or not payload:
                    continue
                try:
                    message = decode(bytes(payload))
                except MessageError as exc:
                    line: str | None = f"a bad message on {where}: {exc}"
                else:
                    if message["kind"] == "state":  # said when its length changes
                        plies = len(message["moves"])
                        if states.get(message["sender"]) == plies:
                            continue
                        states[message["sender"]] = plies
                    line = describe(where, message)
                if line is None:
                    continue
                out(line)
                printed += 1
                if count is not None and printed >= count:
                    return
    except aiomqtt.MqttError as exc:
        raise WatchError(f"broker {settings.broker.url}: {exc}") from None
