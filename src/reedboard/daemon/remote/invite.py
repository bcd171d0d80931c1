"""Invites: how two boards come to trust each other's keys, passed by hand.

``reedboard invite`` on the board that creates a match prints a code that the players pass to
the other board by hand (read out, written down, sent in a message they trust): it carries the
match id, the broker and the inviting board's public key and seats, and a secret. The other
board joins with it (``reedboard run --join CODE --seats ...`` or ``invite = "..."`` in its
``[remote]`` table): it pins the inviting board's key for those seats, and its first presence
carries its own key with proof that it holds the secret, so the inviting board pins that key
and no other (a stranger on the broker who races the real board is refused). A spectator's
invite (``--watch``) carries the keys of every seat known so far and no secret: ``watch`` then
shows only what those keys signed.

A code is ``rb1.`` and base64url JSON; it holds no broker password.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from reedboard.daemon.remote.keys import BoardKey, Pins
from reedboard.daemon.remote.settings import Invite


def make_invite(
    match: str, broker: str, seats: tuple[str, ...], home: Path, *, watch: bool = False
) -> Invite:
    """An invite to ``match`` from the board whose key is kept in ``home``. A player's invite
    sets a fresh secret (the last one made is the one a joining board must hold) and forgets
    the key pinned for the other seats (the other board joins anew with it); a spectator's
    carries every key the board trusts."""
    key = BoardKey.load(home / "board.pem")
    pins = Pins(home / f"{match}.json")
    keys = dict.fromkeys(seats, key.public)
    if watch:
        return Invite(match, broker, {**pins.keys, **keys})
    pins.secret = secrets.token_urlsafe(16)
    pins.keys = {s: k for s, k in pins.keys.items() if s in seats}  # the other board joins anew
    pins.save()
    return Invite(match, broker, keys, pins.secret)
