"""Who sent a message: each board's Ed25519 key, every message signed, and the keys a board
trusts for the other seats (pinned), kept beside its store.

A board makes its key pair the first time it plays a remote match (``<store>.remote/board.pem``,
readable by its owner only) and signs every message it sends with it. It trusts a key for the
other board's seats from an invite (reedboard/daemon/remote/invite.py), or, without one, from the
first signed presence that carries it (said so, once); from then on a message of those seats
signed by any other key is refused. The pins are kept (``<store>.remote/<match>.json``), so a
restart trusts the same key.

The ``cryptography`` package (the ``remote`` extra) does the signing; nothing here is
hand-rolled but the canonical bytes signed: the message as sorted, compact JSON without its
``sig``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import IO, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from reedboard.engine.files import read_bounded, write_atomic
from reedboard.errors import ControllerError

SIG = "sig"
"""The field holding a message's signature (base64url, no padding)."""
MAX_REVEALED = 2000
"""Exchanges remembered (a long game has a few hundred throws)."""
KEY_LENGTH = 43
"""An Ed25519 public key's 32 bytes in base64url without padding."""


class RemoteKeyError(ControllerError, ValueError):
    """A key or pin file that cannot be used: one line naming it."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str, limit: int = 200) -> bytes:
    """base64url without padding, of at most ``limit`` characters; ValueError otherwise."""
    if len(text) > limit or not text.isascii():
        raise ValueError("too long or not ASCII")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(message: dict[str, Any]) -> bytes:
    """The bytes a signature covers: the message without its signature, as sorted, compact
    JSON."""
    body = {k: v for k, v in message.items() if k != SIG}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def fingerprint(public: str) -> str:
    """A key's short name for people: 12 hex digits of its SHA-256."""
    return hashlib.sha256(public.encode()).hexdigest()[:12]


def verify(message: dict[str, Any], public: str) -> bool:
    """Whether ``message`` carries a good signature by ``public``."""
    sig = message.get(SIG)
    if not isinstance(sig, str):
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(unb64(public))
        key.verify(unb64(sig), canonical(message))
    except (ValueError, InvalidSignature):
        return False
    return True


def proof_of_invite(secret: str, public: str) -> str:
    """What a joining board shows that it holds an invite's secret: an HMAC of its key."""
    return b64(hmac.new(secret.encode(), public.encode(), hashlib.sha256).digest())


class BoardKey:
    """This board's key pair."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public = b64(raw)
        """The public key, as other boards pin it."""

    @classmethod
    def generate(cls) -> BoardKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load(cls, path: Path) -> BoardKey:
        """The key in ``path``, made there (owner-only) when there is none."""
        try:
            data = read_bounded(path, 16384)
        except FileNotFoundError:
            key = cls.generate()
            key._save(path)
            return key
        except OSError as exc:
            raise RemoteKeyError(f"{path}: cannot read the board's key ({exc.strerror})") from None
        try:
            private = serialization.load_pem_private_key(data[:4096], password=None)
        except (ValueError, TypeError) as exc:
            raise RemoteKeyError(
                f"{path}: not a board key ({exc}); move it away to make a new one"
            ) from None
        if not isinstance(private, Ed25519PrivateKey):
            raise RemoteKeyError(f"{path}: not an Ed25519 key")
        return cls(private)

    def _save(self, path: Path) -> None:
        pem = self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
        except OSError as exc:
            raise RemoteKeyError(f"{path}: cannot keep the board's key ({exc.strerror})") from None

    def sign(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` with its signature."""
        return {**message, SIG: b64(self._private.sign(canonical(message)))}


class Pins:
    """The keys this board trusts for the other seats of one match (seat -> public key), and
    the secret of an invite it made; kept in ``path`` (None: for this run only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.keys: dict[str, str] = {}
        self.secret: str | None = None
        """An invite this board made: only a board that shows it is pinned."""
        self.epoch = 0
        """The takebacks both boards agreed in this match (a message from before one is
        stale)."""
        self.retaken: list[tuple[int, int]] = []
        """(ply, epoch) of each takeback agreed: a throw at that ply or later must come from
        that epoch or a later one (an old exchange's record is not replayed)."""
        self.revealed: dict[str, tuple[int, str]] = {}
        """``ply:xid`` -> (epoch, the other board's commitment) of each exchange this board
        revealed in: a throw's record is taken only for one of these, with that commitment."""
        self._stamp: float | None = None
        if path is not None and path.exists():
            self._read(path)

    def _read(self, path: Path) -> None:
        try:
            data = json.loads(read_bounded(path, 1 << 20))
        except (OSError, ValueError) as exc:
            raise RemoteKeyError(f"{path}: not a pin file ({exc})") from None
        keys, secret = data.get("keys") if isinstance(data, dict) else None, None
        if isinstance(data, dict):
            secret = data.get("secret")
        if not isinstance(keys, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and len(v) == KEY_LENGTH
            for k, v in keys.items()
        ):
            raise RemoteKeyError(f"{path}: keys must map each seat to a key")
        if secret is not None and not isinstance(secret, str):
            raise RemoteKeyError(f"{path}: secret must be a string")
        epoch = data.get("epoch", 0)
        if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 0:
            raise RemoteKeyError(f"{path}: epoch must be a whole number")
        retaken, revealed = data.get("retaken", []), data.get("revealed", {})
        try:
            self.retaken = [(int(p), int(e)) for p, e in retaken]
            self.revealed = {str(k): (int(e), str(h)) for k, (e, h) in revealed.items()}
        except (TypeError, ValueError, AttributeError):
            raise RemoteKeyError(f"{path}: retaken or revealed is damaged") from None
        self.keys, self.secret, self.epoch = dict(keys), secret, epoch
        self._stamp = self._mtime()

    def _mtime(self) -> float | None:
        try:
            return self.path.stat().st_mtime if self.path is not None else None
        except OSError:
            return None

    def refresh(self) -> None:
        """Read the file again if another program (``reedboard invite``) wrote it since."""
        if self.path is not None and self._mtime() != self._stamp and self.path.exists():
            self._read(self.path)

    def reveal(self, ply: int, xid: str, epoch: int, theirs: str) -> None:
        """This board reveals in exchange ``xid`` of ``ply`` against the other's commitment
        ``theirs``: kept (at most the last 2,000) before the reveal is sent."""
        self.revealed[f"{ply}:{xid}"] = (epoch, theirs)
        while len(self.revealed) > MAX_REVEALED:
            del self.revealed[next(iter(self.revealed))]
        self.save()

    def revealed_against(self, ply: int, xid: str) -> tuple[int, str] | None:
        return self.revealed.get(f"{ply}:{xid}")

    def key_for(self, seats: list[str]) -> str | None:
        """The key pinned for all of ``seats`` (None: none pinned, or they differ)."""
        keys = {self.keys.get(seat) for seat in seats}
        return keys.pop() if len(keys) == 1 else None

    def pin(self, seats: list[str], public: str) -> None:
        for seat in seats:
            self.keys[seat] = public
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        data = {
            "keys": self.keys,
            "epoch": self.epoch,
            "retaken": self.retaken,
            "revealed": self.revealed,
            **({"secret": self.secret} if self.secret else {}),
        }
        text = json.dumps(data, indent=1, sort_keys=True).encode()

        def fill(out: IO[bytes]) -> None:
            out.write(text)

        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomic(self.path, fill)  # (0600, as its temporary file is made)
            self._stamp = self._mtime()
        except OSError as exc:
            raise RemoteKeyError(
                f"{self.path}: cannot keep the pinned keys ({exc.strerror})"
            ) from None
