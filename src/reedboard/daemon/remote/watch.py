"""``reedboard watch``: a spectator. It subscribes to a match's topics read-only (it never
publishes, not even its presence) and prints one line per thing that happens: each board's
state as it joins, each move, each throw's reveals, presence, takebacks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiomqtt

from reedboard.daemon.remote.keys import KEY_LENGTH, verify
from reedboard.daemon.remote.link import BACKOFF, client_for
from reedboard.daemon.remote.message import MessageError, decode, topic
from reedboard.daemon.remote.settings import SEP, RemoteSettings
from reedboard.errors import ControllerError

BOUND = 64
"""Senders remembered (doubted, or their states' lengths): a flood of names grows nothing."""


def _signed_by(message: dict[str, Any], trusted: dict[str, str]) -> bool:
    """Whether ``message`` is signed by the key ``trusted`` holds for its sender's seats; a
    state so signed vouches for the keys it names for seats not yet known."""
    keys = {trusted.get(seat) for seat in message["sender"].split(SEP)}
    key = keys.pop() if len(keys) == 1 else None
    if key is None or not verify(message, key):
        return False
    vouched = message.get("keys")
    if message["kind"] == "state" and isinstance(vouched, dict):
        for seat, public in list(vouched.items())[:8]:
            if isinstance(seat, str) and isinstance(public, str) and len(public) == KEY_LENGTH:
                trusted.setdefault(seat, public)
    return True


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
    invite = settings.invite
    trusted = dict(invite.keys) if invite is not None else None
    """With an invite: the keys whose messages are shown (and those their states vouch for)."""
    doubted: set[str] = set()
    connected, delay = False, BACKOFF[0]
    while True:
        try:
            async with client_for(settings) as client:
                connected, delay = True, BACKOFF[0]
                await client.subscribe(topic(settings.match, "#"), qos=1)
                async for incoming in client.messages:
                    where = str(incoming.topic)
                    payload = incoming.payload
                    if not isinstance(payload, bytes | bytearray) or not payload:
                        continue
                    try:
                        message = decode(bytes(payload))
                    except MessageError as exc:
                        line: str | None = f"a bad message on {where[:80]}: {exc}"
                    else:
                        if trusted is not None and not _signed_by(message, trusted):
                            sender = message["sender"][:40]
                            if sender in doubted or len(doubted) >= BOUND:
                                continue  # (said once a sender; a flood of names says no more)
                            doubted.add(sender)
                            out(f"messages from {sender} not signed by the invite's keys: hidden")
                            continue
                        if message["kind"] == "state":  # said when its length changes
                            plies = len(message["moves"])
                            if states.get(message["sender"]) == plies:
                                continue
                            if message["sender"] in states or len(states) < BOUND:
                                states[message["sender"]] = plies
                        line = describe(where, message)
                    if line is None:
                        continue
                    out(line)
                    printed += 1
                    if count is not None and printed >= count:
                        return
        except aiomqtt.MqttError as exc:
            if not connected:  # never reached: one line, and done
                raise WatchError(f"broker {settings.broker.url}: {exc}") from None
            out(f"broker {settings.broker.url}: {exc}; following again when it is back")
            connected = False
        await asyncio.sleep(delay)
        delay = min(delay * 2, BACKOFF[1])
