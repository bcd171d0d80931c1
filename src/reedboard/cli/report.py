"""``reedboard report``: one archive for a bug report. It holds the versions (reedboard, Python,
the system, the libraries), the config and the build with every secret blanked (a web token,
a broker's password, a user in a broker's URL), what ``doctor`` says, the latest stored
games as text, and the black box when there is one (the last game's sensor events, a trace
``reedboard replay`` plays again: reedboard/daemon/blackbox.py); nothing is sent anywhere."""

from __future__ import annotations

import argparse
import io
import json
import platform
import re
import sys
import tarfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from reedboard.cli.output import say
from reedboard.engine.files import read_bounded

SECRET_KEYS = ("token", "password", "keyfile")
"""Config keys whose values are blanked."""
LIBRARIES = ("gpiozero", "pyserial", "lgpio", "spidev", "aiohttp", "aiomqtt", "cryptography")
GAMES = 3
"""The latest stored games put in the report."""


def redact(text: str) -> str:
    """A config's text with every secret blanked: ``token = "..."``, ``password = "..."``, a
    key file's path, and the ``user:password@`` of a broker's URL."""
    keys = "|".join(SECRET_KEYS)
    text = re.sub(rf'(?m)^(\s*(?:{keys})\s*=\s*)(".*?"|\'.*?\'|\S+)', r'\1"<blanked>"', text)
    return re.sub(r"(mqtts?://)[^@/\s\"']+@", r"\1<blanked>@", text)


def versions() -> dict[str, Any]:
    from reedboard import __version__

    found: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return {
        "reedboard": __version__,
        "python": sys.version.split()[0],
        "system": platform.platform(),
        "machine": platform.machine(),
        "libraries": found,
    }


def build_report(config: Any, config_path: Path | None) -> dict[str, bytes]:
    """The report's files, by name."""
    from reedboard.cli.doctor import diagnose

    files: dict[str, bytes] = {
        "versions.json": json.dumps(versions(), indent=1, sort_keys=True).encode(),
        "doctor.txt": "".join(f"{f}\n" for f in diagnose(config)).encode(),
    }
    if config_path is not None:
        files["config.toml"] = redact(read_bounded(config_path).decode("utf-8", "replace")).encode()
    if getattr(config, "build", None):
        from reedboard.wiring.build import load_build

        build = load_build(config.build)
        files["build.toml"] = redact(read_bounded(build.path).decode("utf-8", "replace")).encode()
    files["games.txt"] = _games(config.database).encode()
    files.update(_blackbox(Path(config.database)))
    return files


BLACKBOX_MAX = 64 * 1024 * 1024
"""The largest black box put in a report (its lines are capped: a few MB at most)."""


def _blackbox(database: Path) -> dict[str, bytes]:
    """The black box kept beside the store, under its own suffix's name (``blackbox.jsonl``,
    or ``blackbox.truncated.jsonl``); one that cannot be read is said in ``blackbox.txt``."""
    from reedboard.daemon.blackbox import blackbox_files

    for path in blackbox_files(database):
        try:
            return {path.name.removeprefix(database.name + "."): read_bounded(path, BLACKBOX_MAX)}
        except OSError as exc:
            return {"blackbox.txt": f"{path}: cannot read: {exc.strerror or exc}\n".encode()}
    return {}


def _games(database: Path) -> str:
    from reedboard.store.games import GameStore, StoreError
    from reedboard.store.history import history_text

    if not Path(database).exists():
        return f"no game store at {database}\n"
    try:
        store = GameStore(database, readonly=True)
    except StoreError as exc:
        return f"{exc}\n"
    try:
        records = list(store.games())[-GAMES:]
    finally:
        store.close()
    return "\n".join(history_text(r) for r in records) or "no games stored\n"


def cmd_report(args: argparse.Namespace) -> int:
    from reedboard.daemon.config import Config, load_config

    config = load_config(args.config) if args.config else Config()
    files = build_report(config, args.config)
    out: Path = args.output or Path(f"reedboard-report-{time.strftime('%Y%m%d-%H%M%S')}.tar.gz")
    with tarfile.open(out, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"reedboard-report/{name}")
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            archive.addfile(info, io.BytesIO(data))
    box = next((name for name in files if name.endswith(".jsonl")), None)
    events = f"; {box}: the last game's sensor events, for `reedboard replay`" if box else ""
    say(f"wrote {out} ({', '.join(files)}; secrets blanked{events}): attach it to the bug report")
    return 0
