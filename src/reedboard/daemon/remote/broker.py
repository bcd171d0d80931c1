"""A Mosquitto password file and ACL for one match, as defence in depth beside the signatures
(reedboard/daemon/remote/keys.py): each board logs in as its own name and may publish only
under it; spectators log in as ``watch`` and may only read.

The password file is Mosquitto 2's own format (PBKDF2-SHA512, 101 rounds, a 12-byte salt:
what ``mosquitto_passwd`` writes); the passwords are drawn here and printed once.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from reedboard.daemon.remote.message import topic
from reedboard.errors import ControllerError

KINDS = ("moves", "dice", "takeback", "state", "presence")
"""The topics a board publishes under its name."""
WATCHER = "watch"


class BrokerFilesError(ControllerError):
    """The files cannot be written: one line naming the file."""


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """``user``'s line of a Mosquitto 2 password file."""
    salt = salt if salt is not None else os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101, 64)
    return f"{user}:$7$101${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl(match: str, boards: list[str]) -> str:
    """The ACL: every board reads the match and writes only under its own name; ``watch``
    reads."""
    lines = [f"# reedboard match {match}: each board publishes only under its own name"]
    for board in boards:
        lines += [f"user {board}", f"topic read {topic(match, '#')}"]
        lines += [f"topic write {topic(match, kind, board)}" for kind in KINDS]
        lines.append("")
    lines += [f"user {WATCHER}", f"topic read {topic(match, '#')}", ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class BrokerFiles:
    passwd: Path
    acl: Path
    conf: Path
    passwords: dict[str, str]
    """User -> password, to be given to each board's ``[remote]`` (and to spectators)."""


def write_broker_files(match: str, boards: list[str], folder: Path) -> BrokerFiles:
    """Write ``<match>.passwd``, ``<match>.acl`` and ``<match>.conf`` (the lines that use them)
    into ``folder``, owner-only; fresh passwords for each board and the spectators."""
    passwords = {user: secrets.token_urlsafe(18) for user in [*boards, WATCHER]}
    passwd = folder / f"{match}.passwd"
    rules = folder / f"{match}.acl"
    conf = folder / f"{match}.conf"
    texts = {
        passwd: "".join(password_line(u, p) + "\n" for u, p in passwords.items()),
        rules: acl(match, boards),
        conf: (
            "# include from mosquitto.conf (a listener with TLS: see docs/remote.md)\n"
            f"allow_anonymous false\npassword_file {passwd.resolve()}\nacl_file {rules.resolve()}\n"
        ),
    }
    for path, text in texts.items():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(text)
        except OSError as exc:
            raise BrokerFilesError(f"{path}: cannot write it ({exc.strerror})") from None
    return BrokerFiles(passwd, rules, conf, passwords)
